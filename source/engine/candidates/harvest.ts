import {relative} from 'node:path';
import * as z from 'zod/mini';
import {loadAdapter} from '../../adapters/stores.js';
import type {SourceAdapter} from '../../adapters/types.js';
import {catalogRowsByKey, fingerprintsInScope, listNarrowRows, rowsWithId} from '../catalog/list.js';
import type {CatalogRow} from '../catalog/scan.js';
import {withCatalogView, type CatalogView, type ScopeInput} from '../catalog/view.js';
import {normalizeSessionId} from '../conversation/ids.js';
import type {Deps} from '../deps.js';
import {pauseAt} from '../../lib/test-pause.js';
import {EngiError} from '../../lib/errors.js';
import {requireKnowledgeBase, type KbPaths} from '../kb/paths.js';
import {defaultSince} from '../continuity/unfinished.js';
import {lazySchema} from '../../lib/lazy-schema.js';
import {isCorruptDatabase} from '../../lib/sqlite.js';
import {requireConsent} from './consent.js';
import {harvestedNote, renderNote} from './note.js';
import {createNote} from './note-store.js';
import {noteStem, readQueue, type Queue} from './queue.js';
import {openQueueCache, queueCachePath} from './queue-cache.js';
import {redactionSchema} from './redactor.js';
import {commandCountsSchema, readSessionFacts} from './session-facts.js';

export const harvestOutputSchema = lazySchema(() => z.object({
	status: z.literal('ok'),
	root: z.string(),
	folder: z.string(),
	/** What was looked at: the sessions named, or the scope flags' project and time. */
	scope: z.object({ids: z.array(z.string()), project: z.nullable(z.string()), all_projects: z.boolean(), since: z.nullable(z.string())}),
	consent: z.object({at: z.string(), granted_now: z.boolean()}),
	counts: z.object({
		considered: z.number(),
		written: z.number(),
		/** Written beside an earlier note of the same session, whose transcript has grown since. */
		grown: z.number(),
		unchanged: z.number(),
		/** Written in the last two minutes, so probably still running: not harvested this time. */
		active: z.number(),
		failed: z.number(),
	}),
	written: z.array(z.object({
		ref: z.string(),
		path: z.string(),
		source: z.string(),
		native_id: z.string(),
		project: z.nullable(z.string()),
		turns: z.number(),
		commands: commandCountsSchema,
		files: z.number(),
		/** The earlier notes of the session this one stands beside (a grown transcript). */
		siblings: z.array(z.string()),
		private_spans: z.number(),
		/** What was masked before the note was written: where and which pattern, never the value. */
		masked: z.array(redactionSchema),
	})),
	failed: z.array(z.object({source: z.string(), native_id: z.string(), path: z.string(), reason: z.string()})),
	warnings: z.array(z.string()),
}));

export type HarvestOutput = z.infer<typeof harvestOutputSchema>;

export type HarvestInput = ScopeInput & {
	readonly ids: readonly string[];
	readonly consent: boolean;
	/** Sessions named with their store (what hooks queued, see engine/hooks/harvest-pending.ts), harvested instead of the ids or the scope. */
	readonly queued?: ReadonlyArray<{readonly source: string; readonly id: string}>;
};

const activeWindowMs = 2 * 60 * 1000;

type KnownNote = {readonly ref: string; readonly sha256: string; readonly bytes: number; readonly fingerprint: string};

/**
 * The harvest's cursor: for each session, the notes it already has and the transcript state each
 * was made from, from the notes alone. A note that does not say (unreadable) is a note of the
 * session its file name names, matching no state: the session is harvested again beside it.
 */
function notesBySession(queue: Queue): Map<string, KnownNote[]> {
	const bySession = new Map<string, KnownNote[]>();
	for (const {ref, named, summary} of queue.notes) {
		const session = `${summary?.source ?? named.source}\u0000${summary?.native_id ?? named.nativeId}`;
		const known = summary ? {ref, sha256: summary.source_sha256, bytes: summary.source_bytes, fingerprint: summary.source_fingerprint} : {ref, sha256: '', bytes: -1, fingerprint: ''};
		bySession.set(session, [...(bySession.get(session) ?? []), known]);
	}

	return bySession;
}

/** The sessions named by id, each exactly once among the stores in scope. */
function rowsByIds(view: CatalogView, ids: readonly string[]): CatalogRow[] {
	return ids.map(typed => {
		const id = normalizeSessionId(typed);
		const records = rowsWithId(view.db, view.filter.scope, id);
		if (records.length === 0) {
			throw new EngiError('session_not_found', `conversation not found: ${id}`, {hint: 'engi sessions --all-projects lists what engi can see; nothing was written'});
		}

		if (records.length > 1) {
			throw new EngiError('session_ambiguous', `ambiguous conversation: ${id} exists in ${records.length} places`, {
				hint: 'select one with --source and --source-root; nothing was written',
				details: {candidates: records.map(record => ({source: record.source, path: record.path}))},
			});
		}

		return records[0]!;
	});
}

/**
 * The queued sessions, each looked up in its own store. One the catalog does not have (the
 * agent's store dropped it, or no longer lets engi read it) is a failure of that session only.
 */
function rowsQueued(view: CatalogView, queued: NonNullable<HarvestInput['queued']>, output: HarvestOutput): CatalogRow[] {
	const rows: CatalogRow[] = [];
	for (const {source, id} of queued) {
		const records = rowsWithId(view.db, view.filter.scope, normalizeSessionId(id)).filter(record => record.source === source);
		if (records.length === 1) {
			rows.push(records[0]!);
		} else {
			output.counts.failed++;
			output.failed.push({source, native_id: id, path: records[0]?.path ?? '', reason: records.length === 0 ? `not in the ${source} store engi reads` : `ambiguous: ${records.length} ${source} sessions have this id`});
		}
	}

	return rows;
}

/** A session in scope, as much of it as deciding whether to read it takes. */
type InScope = {readonly key: string; readonly source: string; readonly id: string; readonly modified: string | null; readonly mtimeMs: number; readonly fingerprint: string; readonly row?: CatalogRow};

/** The sessions of the scope flags, with their fingerprints, read from the catalog's indexes alone. */
function rowsInScope(view: CatalogView): InScope[] {
	const rows = listNarrowRows(view.db, view.filter);
	const prints = fingerprintsInScope(view.db, view.filter.scope);
	return rows.map(row => ({key: row.key, source: row.source, id: row.id ?? row.key, modified: row.modified, mtimeMs: row.mtime_ms, fingerprint: prints.get(row.key) ?? ''}));
}

function isActive(now: Date, modified: string | null, mtimeMs: number): boolean {
	const time = modified ? Date.parse(modified) : mtimeMs;
	return now.getTime() - Math.max(time, mtimeMs) < activeWindowMs;
}

/**
 * `engi candidates harvest`: one candidate note per session in scope (or per session named),
 * with the session's mechanical facts. An unchanged transcript that already has a note is
 * skipped; one that grew gets a new note beside the old (named with its sha256's first 12
 * digits), never written over a note someone may be reviewing. Sessions written in the last two
 * minutes are left for a later harvest and counted.
 */
export async function harvestCandidates(paths: KbPaths, input: HarvestInput, deps: Deps): Promise<HarvestOutput> {
	requireKnowledgeBase(paths);
	const now = deps.now();
	const consent = requireConsent(paths, input.consent, now);
	const explicit = input.ids.length > 0 || input.queued !== undefined;
	// A damaged catalog met midway is rebuilt and the harvest runs again: the queue is read anew, so what it wrote is known then.
	return withCatalogView({...input, since: explicit ? undefined : (input.since ?? defaultSince(now)), allProjects: explicit || input.allProjects, includeSubagents: explicit}, deps, async view => {
		const queue = await readQueue(paths.candidates, openQueueCache(queueCachePath(deps, paths.candidates), paths.candidates));
		const known = notesBySession(queue);
		const taken = new Set(queue.notes.map(note => note.ref));
		const output: HarvestOutput = {
			status: 'ok',
			root: paths.root,
			folder: paths.candidates,
			scope: {ids: input.queued ? input.queued.map(session => session.id) : [...input.ids], project: view.projectRoot, all_projects: explicit || input.allProjects, since: view.since},
			consent,
			counts: {considered: 0, written: 0, grown: 0, unchanged: 0, active: 0, failed: 0},
			written: [],
			failed: [],
			warnings: [...view.warnings, ...queue.warnings],
		};
		const sessions: InScope[] = explicit
			? (input.queued ? rowsQueued(view, input.queued, output) : rowsByIds(view, input.ids)).map(row => ({key: row.key, source: row.source, id: row.summary.id ?? row.key, modified: row.summary.modified, mtimeMs: row.mtime_ms, fingerprint: row.fingerprint, row}))
			: rowsInScope(view);
		output.counts.considered = sessions.length + output.counts.failed;
		for (const session of sessions) {
			if (isActive(now, session.modified, session.mtimeMs)) {
				output.counts.active++;
				continue;
			}

			// A note made from this very file state needs no hash to be recognised.
			const notes = known.get(`${session.source}\u0000${session.id}`) ?? [];
			if (notes.some(note => note.fingerprint === session.fingerprint)) {
				output.counts.unchanged++;
				continue;
			}

			// The chaos suite kills a harvest here, between one session's note and the next.
			pauseAt(deps.env, 'harvest.before_session');
			const row = session.row ?? catalogRowsByKey(view.db, [session.key]).get(session.key)!;
			harvestOne(paths, view, row, (await loadAdapter(row.source as SourceAdapter['id']))!, notes, taken, output, now);
		}

		return output;
	});
}

function harvestOne(paths: KbPaths, view: CatalogView, row: CatalogRow, adapter: SourceAdapter, notes: readonly KnownNote[], taken: Set<string>, output: HarvestOutput, now: Date): void {
	const fail = (reason: string) => {
		output.counts.failed++;
		output.failed.push({source: row.source, native_id: row.summary.id ?? row.key, path: row.path, reason});
	};

	if (row.error) {
		fail(row.error);
		return;
	}

	let read;
	try {
		read = readSessionFacts(view.db, row, adapter, digest => notes.some(note => note.sha256 === digest.sha256 && note.bytes === digest.bytes));
	} catch (error) {
		// The catalog's damage is not the session's: withCatalogView rebuilds it.
		if (!isCorruptDatabase(error) && (error instanceof EngiError || (error instanceof Error && 'code' in error))) {
			fail(error instanceof EngiError ? error.message : `${row.path}: could not be read (${String((error as {code: unknown}).code)})`);
			return;
		}

		throw error;
	}

	if (read === 'unchanged') {
		output.counts.unchanged++;
		return;
	}

	const {facts} = read;
	const base = noteStem(facts.source, facts.native_id);
	const stem = taken.has(base) ? noteStem(facts.source, facts.native_id, facts.source_sha256.slice(0, 12)) : base;
	if (!createNote(paths, stem, renderNote(harvestedNote(facts, now.toISOString())))) {
		// The same content under the same name: written by a harvest running beside this one.
		output.counts.unchanged++;
		return;
	}

	taken.add(stem);
	output.counts.written++;
	if (notes.length > 0) {
		output.counts.grown++;
	}

	output.written.push({
		ref: stem,
		path: relative(paths.root, `${paths.candidates}/${stem}.md`),
		source: facts.source,
		native_id: facts.native_id,
		project: facts.project,
		turns: facts.turns,
		commands: facts.command_counts,
		files: facts.files_total,
		siblings: notes.map(note => note.ref),
		private_spans: facts.private_spans,
		masked: read.redactions,
	});
	output.warnings.push(...read.warnings.slice(0, 5).map(warning => `${stem}: ${warning}`));
}
