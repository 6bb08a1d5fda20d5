import * as z from 'zod/mini';
import type {Deps} from '../deps.js';
import {EngiError, type ExitCode} from '../../lib/errors.js';
import {validateNodeKind, validateRelation} from '../graph/validate.js';
import {nodeKind} from '../index/store.js';
import {requireKnowledgeBase, withIndex} from '../index/open.js';
import type {KbPaths} from '../kb/paths.js';
import type {Database} from '../../lib/sqlite.js';
import {harvestFileSchema, planHarvest, type PlannedFile} from './harvest.js';
import {skippedEntrySchema, type SkippedEntry} from './inbox.js';
import {writeEvents} from './write.js';

export const harvestOutputSchema = z.object({
	inbox: z.string(),
	counts: z.object({new: z.number(), changed: z.number(), unchanged: z.number(), invalid: z.number(), secrets: z.number(), skipped: z.number()}),
	files: z.array(harvestFileSchema),
	/** Inbox entries that are not readable notes (a directory named *.md, a symlink leading out of the inbox, …), never read. */
	skipped: z.array(skippedEntrySchema),
});

export const ingestOutputSchema = z.object({
	inbox: z.string(),
	appended: z.number(),
	added: z.array(z.object({path: z.string(), node: z.string(), events: z.number(), status: z.enum(['new', 'changed'])})),
	unchanged: z.array(z.string()),
	invalid: z.array(z.object({path: z.string(), reasons: z.array(z.object({line: z.nullable(z.number()), message: z.string()}))})),
	/** Files refused because they hold credential-shaped values (pass --redact to mask and ingest them). */
	refused: z.array(z.object({path: z.string(), secrets: z.array(z.object({line: z.number(), pattern: z.string()}))})),
	redacted: z.array(z.object({path: z.string(), secrets: z.array(z.object({line: z.number(), pattern: z.string()}))})),
	skipped: z.array(skippedEntrySchema),
	quarantined: z.array(z.object({line: z.number(), reason: z.string()})),
});

export type HarvestOutput = z.infer<typeof harvestOutputSchema>;
export type IngestOutput = z.infer<typeof ingestOutputSchema>;

const count = (files: PlannedFile[], status: PlannedFile['status']) => files.filter(file => file.status === status).length;

/**
 * Checks the graph rules for every new or changed note: its kind, and each edge it would assert
 * (endpoints exist, here or among the other notes, unless dangling is allowed). A note that
 * breaks one becomes `invalid`, with the reason, and contributes no events.
 */
function validatePlanned(db: Database, planned: PlannedFile[], allowDangling: boolean): void {
	const candidates = planned.filter(file => file.status === 'new' || file.status === 'changed');
	// Kinds of nodes defined in this batch count as existing, so notes may link to each other.
	const batchKinds = new Map(candidates.map(file => [String(file.drafts[0]!.payload['id']), String(file.drafts[0]!.payload['kind'])]));
	const kindOf = (id: string) => batchKinds.get(id) ?? nodeKind(db, id);
	for (const file of candidates) {
		try {
			const node = file.drafts[0]!.payload;
			validateNodeKind(String(node['kind']), String(node['provenance']));
			for (const edge of file.drafts.slice(1)) {
				const payload = edge.payload;
				validateRelation({from: String(payload['from']), type: String(payload['type']), to: String(payload['to']), provenance: String(payload['provenance']), allowDangling}, kindOf);
			}
		} catch (error) {
			if (!(error instanceof EngiError)) {
				throw error;
			}

			file.status = 'invalid';
			file.reasons.push({line: null, message: error.message});
			file.drafts = [];
		}
	}
}

/**
 * `engi harvest --check`: what ingest would do with each staged note. Reads only. Exit 2 when a
 * note is invalid or holds secrets, or an inbox entry is skipped: ingest would leave it out.
 */
export async function checkHarvest(paths: KbPaths, deps: Deps): Promise<{output: HarvestOutput; exitCode: ExitCode}> {
	requireKnowledgeBase(paths);
	const output = await withIndex(paths, deps, index => {
		const {files, skipped} = planHarvest(index.db, paths, {redact: false});
		validatePlanned(index.db, files, false);
		return {
			inbox: paths.harvest,
			counts: {new: count(files, 'new'), changed: count(files, 'changed'), unchanged: count(files, 'unchanged'), invalid: count(files, 'invalid'), secrets: count(files, 'secrets'), skipped: skipped.length},
			files: files.map(({drafts: _drafts, ...file}) => file),
			skipped,
		};
	});
	return {output, exitCode: output.counts.invalid + output.counts.secrets + output.counts.skipped > 0 ? 2 : 0};
}

/**
 * `engi ingest`: appends the new and changed staged notes as events citing `file:line`. A note
 * that fails validation is reported and contributes nothing; one holding secrets is refused
 * unless --redact masks them; an unchanged note is skipped by its content hash (the hash of the
 * note as staged, so a redacted note is recognised too). Concurrent runs append each event once.
 * Exit 2 when a note was left out (invalid, refused or skipped).
 */
export async function ingestHarvest(paths: KbPaths, options: {redact: boolean; allowDangling: boolean}, deps: Deps): Promise<{output: IngestOutput; exitCode: ExitCode}> {
	requireKnowledgeBase(paths);
	let planned: PlannedFile[] = [];
	let skipped: SkippedEntry[] = [];
	const isAccepted = (file: PlannedFile) => file.status === 'new' || file.status === 'changed';
	const result = await writeEvents(paths, deps, index => {
		({files: planned, skipped} = planHarvest(index.db, paths, {redact: options.redact}));
		validatePlanned(index.db, planned, options.allowDangling);
		return planned.filter(isAccepted).flatMap(file => file.drafts);
	});
	const accepted = planned.filter(isAccepted);
	// A note's events are its node and the edges from it. One whose events all held already (the
	// graph said so, or a concurrent ingest appended them first) was not added by this run.
	const appended = new Map<string, number>();
	for (const event of result.events) {
		const node = String(event.payload['id'] ?? event.payload['from']);
		appended.set(node, (appended.get(node) ?? 0) + 1);
	}

	const added = accepted.filter(file => appended.has(file.node!));
	const output: IngestOutput = {
		inbox: paths.harvest,
		appended: result.events.length,
		added: added.map(file => ({path: file.path, node: file.node!, events: appended.get(file.node!)!, status: file.status as 'new' | 'changed'})),
		unchanged: planned.filter(file => file.status === 'unchanged' || (accepted.includes(file) && !added.includes(file))).map(file => file.path),
		invalid: planned.filter(file => file.status === 'invalid').map(file => ({path: file.path, reasons: file.reasons})),
		refused: planned.filter(file => file.status === 'secrets').map(file => ({path: file.path, secrets: file.secrets})),
		redacted: added.filter(file => file.secrets.length > 0).map(file => ({path: file.path, secrets: file.secrets})),
		skipped,
		quarantined: [...result.quarantined],
	};
	return {output, exitCode: output.invalid.length + output.refused.length + output.skipped.length > 0 ? 2 : 0};
}
