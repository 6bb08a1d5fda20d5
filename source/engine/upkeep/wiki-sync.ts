import * as z from 'zod/mini';
import type {Deps} from '../deps.js';
import {noteCacheWarning} from '../cache-notices.js';
import {EngiError, type ExitCode} from '../../lib/errors.js';
import {sha256Hex} from '../../lib/hash.js';
import type {Database} from '../../lib/sqlite.js';
import {canonicalUtc} from '../../lib/time.js';
import {heldPages, heldSince, replaceHeldPages, type HeldPage} from '../index/held-pages.js';
import {indexBusyWarning, readWatermark, writeIndexState, type IndexHandle} from '../index/open.js';
import type {Watermark} from '../index/watermark.js';
import {forgetWikiSyncState, nameKeys, readWikiSyncFiles, readWikiSyncRecord, recordedName, replaceWikiSyncState, sameJournal, updateWikiSyncState, type SyncedFile, type WikiSyncRecord, type WikiSyncState} from '../index/wiki-sync-state.js';
import {edgesTouching, momentOf, nodeKind, nodePayload, nodesOfKind, type Moment} from '../index/store.js';
import type {EventDraft} from '../journal/append.js';
import type {JournalLine} from '../journal/schema.js';
import type {KbPaths} from '../kb/paths.js';
import {writeEvents} from '../knowledge/write.js';
import {maskValue} from '../search/secrets.js';
import {upkeepSettings} from './settings.js';
import {relatedEdge, sourceKind, wikiKind, wikiProvenance} from './vocabulary.js';
import {listWiki, sameStamp, wikiSkippedSchema, type FileStamp, type ParsedPage, type WikiFile} from './wiki-pages.js';

const heldPageSchema = z.object({
	path: z.string(),
	node_id: z.nullable(z.string()),
	reason: z.enum(['conflict_markers', 'conflict_path', 'duplicate_id']),
	detail: z.string(),
	sha256: z.string(),
	held_utc: z.string(),
});

export const wikiSyncOutputSchema = z.object({
	/** The wiki folder, `<root>/02-wiki`. */
	wiki: z.string(),
	/** Journal events this run appended: 0 when nothing changed since the last sync. */
	appended: z.number(),
	counts: z.object({new: z.number(), changed: z.number(), unchanged: z.number(), missing: z.number(), held: z.number(), invalid: z.number(), skipped: z.number()}),
	/** The pages this run found new or changed, by their path under the wiki (every page, unchanged ones too, with `--all-pages`). */
	pages: z.array(z.object({path: z.string(), node: z.string(), status: z.enum(['new', 'changed', 'unchanged'])})),
	/** Nodes of pages that are gone, marked `missing: true` (their sync edges retracted). */
	missing: z.array(z.string()),
	/** Pages conflict quarantine holds: not parsed, their node left out of answers until repaired. */
	held: z.array(heldPageSchema),
	/** Pages held before this run that are clear now. */
	cleared: z.array(z.string()),
	/** Pages whose frontmatter does not validate: while there is one, nothing is appended. */
	invalid: z.array(z.object({path: z.string(), reasons: z.array(z.object({line: z.nullable(z.number()), message: z.string()}))})),
	/** `related` entries and `[[links]]` that name no page and no node: no edge is made for them. */
	unresolved: z.array(z.object({path: z.string(), line: z.number(), ref: z.string()})),
	skipped: z.array(wikiSkippedSchema),
	edges: z.object({asserted: z.number(), retracted: z.number()}),
	/** Corrupt journal lines this run moved to quarantine before appending. */
	quarantined: z.array(z.object({line: z.number(), reason: z.string()})),
});

export type WikiSyncOutput = z.infer<typeof wikiSyncOutputSchema>;

type PageStatus = WikiSyncOutput['pages'][number]['status'];

type Plan = Omit<WikiSyncOutput, 'wiki' | 'appended' | 'counts' | 'quarantined'> & {
	drafts: EventDraft[];
	/** Every live page's status is counted; only new and changed ones are listed unless `listAll`. */
	tally: Record<PageStatus, number>;
	listAll: boolean;
};

/** Counts a page, and lists it when it is new or changed or every page is asked for. */
function notePage(plan: Plan, path: string, node: string, status: PageStatus): void {
	plan.tally[status]++;
	if (status !== 'unchanged' || plan.listAll) {
		plan.pages.push({path, node, status});
	}
}

type PageFile = Extract<WikiFile, {type: 'page'}>;

const wikiPath = (path: string) => `02-wiki/${path}`;
const owned = (provenance: string | null) => provenance?.startsWith(wikiProvenance) ?? false;

/**
 * Pages two or more live files claim: each is held (Akno's third conflict), so neither wins by
 * the order of a directory listing.
 */
function duplicateHolds(pages: readonly PageFile[]): Map<string, Omit<HeldPage, 'held_utc'>> {
	const byId = new Map<string, PageFile[]>();
	for (const file of pages) {
		byId.set(file.page.id, [...(byId.get(file.page.id) ?? []), file]);
	}

	const holds = new Map<string, Omit<HeldPage, 'held_utc'>>();
	for (const [id, claimants] of byId) {
		if (claimants.length > 1) {
			for (const file of claimants) {
				const others = claimants.filter(other => other !== file).map(other => other.path);
				holds.set(file.path, {path: file.path, node_id: id, reason: 'duplicate_id', detail: `${id} is also claimed by ${others.join(', ')}`, sha256: file.sha256});
			}
		}
	}

	return holds;
}

type PageName = {readonly path: string; readonly id: string; readonly title: string};

type Resolve = (ref: string) => string | undefined;

/** Finds what a page's reference names: a page (by nameKeys' rule), else a node of the graph. */
function resolver(db: Database, pages: readonly PageName[]): Resolve {
	const keyed = pages.map(page => ({id: page.id, keys: nameKeys(page.path, page.id, page.title)}));
	const names = new Map<string, string>();
	// Weakest first, so a page's own id wins over another page's title.
	for (const {id, keys} of keyed) {
		names.set(keys.title, id);
	}

	for (const {id, keys} of keyed) {
		names.set(keys.name, id);
		names.set(keys.path, id);
	}

	for (const {id, keys} of keyed) {
		names.set(keys.id, id);
	}

	return ref => names.get(ref.toLowerCase()) ?? graphNode(db, ref);
}

/** The same answers from the last sync's record, for a plan whose pages all keep the names it has. */
function recordedResolver(db: Database): Resolve {
	return ref => recordedName(db, ref.toLowerCase()) ?? graphNode(db, ref);
}

const graphNode = (db: Database, ref: string) => (nodeKind(db, ref) === undefined ? undefined : ref);

/** The node a page becomes: every key written, null where the page says nothing, so a removed key is cleared. */
function pageNode(db: Database, file: PageFile): Record<string, unknown> {
	const {page} = file;
	const existing = nodePayload(db, page.id);
	const payload: Record<string, unknown> = {
		id: page.id,
		// A page about an existing node (its `node_id`) describes it; it does not change its kind.
		...(existing === undefined || existing['kind'] === wikiKind ? {kind: wikiKind} : {}),
		label: page.title,
		provenance: `${wikiProvenance}: ${wikiPath(file.path)}:1`,
		source_path: wikiPath(file.path),
		source_sha256: file.sha256,
		page_kind: page.kind,
		status: page.status,
		tags: page.tags.length > 0 ? page.tags : null,
		body: page.body || null,
		missing: false,
	};
	// Secrets are masked before anything is stored; the page itself is never edited.
	return maskValue(payload) as Record<string, unknown>;
}

type EdgeKey = {from: string; type: string; to: string; line: number; path: string};
const keyOf = (edge: {from: string; type: string; to: string}) => `${edge.from}\u0000${edge.type}\u0000${edge.to}`;

/** Asserts the sync edges a node should have and does not, retracts the ones it owns and should not have. */
function edgeDrafts(db: Database, moment: Moment, from: string, wanted: readonly EdgeKey[]): {drafts: EventDraft[]; asserted: number; retracted: number} {
	const live = edgesTouching(db, from, moment).filter(edge => edge.from_id === from);
	const ownedNow = new Map(live.filter(edge => owned(edge.provenance)).map(edge => [keyOf({from: edge.from_id, type: edge.type, to: edge.to_id}), edge]));
	const othersNow = new Set(live.filter(edge => !owned(edge.provenance)).map(edge => keyOf({from: edge.from_id, type: edge.type, to: edge.to_id})));
	const wantedKeys = new Set(wanted.map(edge => keyOf(edge)));
	const drafts: EventDraft[] = [];
	let asserted = 0;
	let retracted = 0;
	for (const edge of wanted) {
		if (!ownedNow.has(keyOf(edge)) && !othersNow.has(keyOf(edge))) {
			drafts.push({op: 'edge.assert', payload: {from: edge.from, type: edge.type, to: edge.to, provenance: `${wikiProvenance}: ${wikiPath(edge.path)}:${edge.line}`}});
			asserted++;
		}
	}

	for (const [key, edge] of ownedNow) {
		// Retracting closes every open row of the edge: one someone else also asserted is left be.
		if (!wantedKeys.has(key) && !othersNow.has(key)) {
			drafts.push({op: 'edge.retract', payload: {from: edge.from_id, type: edge.type, to: edge.to_id}});
			retracted++;
		}
	}

	return {drafts, asserted, retracted};
}

/**
 * A plan and what the next sync may start from: every file (a full plan), the files whose row
 * changed since the record `from` (an incremental plan), or nothing (a page is invalid).
 */
type Planned = {
	plan: Plan;
	record: {kind: 'full'; conflictPaths: readonly string[]; files: SyncedFile[]} | {kind: 'changed'; from: WikiSyncRecord; files: SyncedFile[]} | undefined;
	/** What the pages name that resolved to nothing: once a node of that id is made, the record no longer holds. */
	unresolvedRefs: ReadonlySet<string>;
};

/** Adds what a page left unresolved to `refs`. */
function noteUnresolved(refs: Set<string>, file: SyncedFile): void {
	// Most pages have none: looked at first, so this costs nothing per page then.
	if (file.page === null || file.page.unresolved.length + file.page.unresolvedSources.length === 0) {
		return;
	}

	for (const {ref} of file.page.unresolved) {
		refs.add(ref);
	}

	for (const ref of file.page.unresolvedSources) {
		refs.add(ref);
	}
}

const pageName = (file: PageFile): PageName => ({path: file.path, id: file.page.id, title: file.page.title});

/** Plans one live page: its node and the sync edges it should have. Returns what the record keeps of it. */
function planPage(db: Database, moment: Moment, file: PageFile, ord: number, resolve: Resolve, sources: Map<string, string>, plan: Plan, stamps: ReadonlyMap<string, FileStamp | null>): SyncedFile {
	const {page} = file;
	const existing = nodePayload(db, page.id);
	const unchanged = existing?.['source_sha256'] === file.sha256 && existing['missing'] === false;
	notePage(plan, file.path, page.id, existing === undefined ? 'new' : unchanged ? 'unchanged' : 'changed');
	plan.drafts.push({op: 'node.upsert', payload: pageNode(db, file)});
	const unresolved: Plan['unresolved'] = [];
	const edges = edgeDrafts(db, moment, page.id, wantedEdges(file, page, resolve, sources, unresolved));
	plan.unresolved.push(...unresolved);
	plan.drafts.push(...edges.drafts);
	plan.edges.asserted += edges.asserted;
	plan.edges.retracted += edges.retracted;
	return {
		path: file.path,
		sha256: file.sha256,
		stamp: stamps.get(file.path) ?? null,
		page: {
			id: page.id,
			title: page.title,
			ord,
			unresolved: unresolved.map(({line, ref}) => ({line, ref})),
			unresolvedSources: page.sources.flatMap(source => (resolve(source.ref) === undefined ? [source.ref] : [])),
		},
	};
}

/** Source nodes for the URLs and files pages derive from, ahead of the edges to them. */
function sourceDrafts(sources: ReadonlyMap<string, string>, plan: Plan): void {
	for (const [ref, id] of sources) {
		plan.drafts.unshift({op: 'node.upsert', payload: maskValue({id, kind: sourceKind, label: ref, provenance: wikiProvenance}) as Record<string, unknown>});
	}
}

function planSync(db: Database, paths: KbPaths, deps: Deps, listAll: boolean): Planned {
	const {conflictPaths} = upkeepSettings(paths);
	// Tests set ENGI_TEST_FULL_WIKI_SYNC to compare the incremental plan with the full one.
	const last = deps.env['ENGI_TEST_FULL_WIKI_SYNC'] === '1' ? undefined : lastSync(db, conflictPaths);
	return (last && planChanged(db, paths, deps, last, listAll)) ?? planFull(db, paths, deps, conflictPaths, listAll);
}

/** What the last sync saw, when nothing has been appended since and the conflict patterns are the same. */
function lastSync(db: Database, conflictPaths: readonly string[]): WikiSyncState | undefined {
	const record = readWikiSyncRecord(db);
	const mark = readWatermark(db);
	const same = record !== undefined && mark !== undefined && sameJournal(record.journal, mark) && JSON.stringify(record.conflictPaths) === JSON.stringify(conflictPaths);
	return same ? {...record, files: readWikiSyncFiles(db)} : undefined;
}

/**
 * The plan when the last sync's record still holds (nothing appended since): only pages whose
 * bytes changed are parsed and planned again, the others are as that sync left them. Undefined,
 * for a full plan, unless the same files are there, none is invalid or newly or formerly held,
 * and every changed page keeps its id and title, so [[link]] resolution and the held set cannot
 * have changed.
 */
function planChanged(db: Database, paths: KbPaths, deps: Deps, last: WikiSyncState, listAll: boolean): Planned | undefined {
	const {files, skipped, stamps} = listWiki(paths.wiki, paths.root, last.conflictPaths, deps.now().getTime(), last.files);
	if (files.length !== last.files.size) {
		return undefined;
	}

	const moment = momentOf(deps);
	const plan: Plan = {pages: [], missing: [], held: heldPages(db), cleared: [], invalid: [], unresolved: [], skipped, edges: {asserted: 0, retracted: 0}, drafts: [], tally: {new: 0, changed: 0, unchanged: 0}, listAll};
	// Every page keeps the names the record has (a changed page keeps its id and title).
	const resolve = recordedResolver(db);
	const sources = new Map<string, string>();
	const changed: SyncedFile[] = [];
	const unresolvedRefs = new Set<string>();
	// Indexed: this runs once a file, mostly before the JIT has compiled it, where for-of walks an iterator.
	for (let index = 0; index < files.length; index++) {
		const file = files[index]!;
		const before = last.files.get(file.path);
		// The same files, none newly held or invalid, each changed page with the id and title it had: else a full plan.
		const same = before !== undefined && (file.type === 'known' || (file.type === 'page' && before.page !== null && before.page.id === file.page.id && before.page.title === file.page.title));
		if (!same) {
			return undefined;
		}

		let now = before;
		if (file.type === 'page') {
			now = planPage(db, moment, file, before.page!.ord, resolve, sources, plan, stamps);
		} else {
			if (before.page !== null) {
				notePage(plan, file.path, before.page.id, 'unchanged');
				if (before.page.unresolved.length > 0) {
					plan.unresolved.push(...before.page.unresolved.map(({line, ref}) => ({path: file.path, line, ref})));
				}
			}

			// A file known by its stamp is not in stamps: its stamp is as recorded.
			const stamp = stamps.get(file.path);
			now = stamp === undefined || sameStamp(before.stamp, stamp) ? before : {...before, stamp};
		}

		if (now !== before) {
			changed.push(now);
		}

		noteUnresolved(unresolvedRefs, now);
	}

	sourceDrafts(sources, plan);
	return {plan, record: {kind: 'changed', from: last, files: changed}, unresolvedRefs};
}

function planFull(db: Database, paths: KbPaths, deps: Deps, conflictPaths: readonly string[], listAll: boolean): Planned {
	const moment = momentOf(deps);
	const {files, skipped, stamps} = listWiki(paths.wiki, paths.root, conflictPaths, deps.now().getTime());
	const pageFiles = files.filter((file): file is PageFile => file.type === 'page');
	const duplicates = duplicateHolds(pageFiles);
	const held: Array<Omit<HeldPage, 'held_utc'>> = [
		...files.flatMap(file => (file.type === 'held' ? [{path: file.path, node_id: file.nodeId, reason: file.reason, detail: file.detail, sha256: file.sha256}] : [])),
		...duplicates.values(),
	].sort((a, b) => (a.path < b.path ? -1 : 1));
	// Written to the index once the events are appended (see syncWiki), outside this read.
	const since = heldSince(db);
	const heldNow = held.map(page => ({...page, held_utc: since.get(page.path) ?? canonicalUtc(deps.now())}));
	const before = new Set(since.keys());
	const invalid = files.flatMap(file => (file.type === 'invalid' ? [{path: file.path, reasons: file.reasons}] : []));
	const plan: Plan = {pages: [], missing: [], held: heldNow, cleared: [...before].filter(path => !heldNow.some(page => page.path === path)), invalid, unresolved: [], skipped, edges: {asserted: 0, retracted: 0}, drafts: [], tally: {new: 0, changed: 0, unchanged: 0}, listAll};
	if (invalid.length > 0) {
		return {plan, record: undefined, unresolvedRefs: new Set()};
	}

	const live = pageFiles.filter(file => !duplicates.has(file.path));
	const heldIds = new Set(held.flatMap(page => (page.node_id === null ? [] : [page.node_id])));
	const resolve = resolver(db, live.map(file => pageName(file)));
	const sources = new Map<string, string>();
	const pages = live.map((file, ord) => planPage(db, moment, file, ord, resolve, sources, plan, stamps));
	sourceDrafts(sources, plan);

	// A page that is gone (not merely held) keeps its node, marked missing, without its sync edges.
	const synced = new Set(live.map(file => file.page.id));
	for (const node of nodesOfKind(db, wikiKind)) {
		if (synced.has(node.id) || heldIds.has(node.id) || !owned(typeof node.payload['provenance'] === 'string' ? node.payload['provenance'] : null) || node.payload['missing'] === true) {
			continue;
		}

		plan.missing.push(node.id);
		plan.drafts.push({op: 'node.upsert', payload: {id: node.id, missing: true}});
		const edges = edgeDrafts(db, moment, node.id, []);
		plan.drafts.push(...edges.drafts);
		plan.edges.asserted += edges.asserted;
		plan.edges.retracted += edges.retracted;
	}

	const unresolvedRefs = new Set<string>();
	for (const page of pages) {
		noteUnresolved(unresolvedRefs, page);
	}

	const heldFiles = held.map(page => ({path: page.path, sha256: page.sha256, stamp: stamps.get(page.path) ?? null, page: null}));
	return {plan, record: {kind: 'full', conflictPaths, files: [...pages, ...heldFiles]}, unresolvedRefs};
}

/** A page's sync edges: DERIVED_FROM each source (a node, or a Source node for a URL or file), RELATED_TO each related page and `[[link]]`. */
function wantedEdges(file: PageFile, page: ParsedPage, resolve: Resolve, sources: Map<string, string>, unresolved: Plan['unresolved']): EdgeKey[] {
	const edges = new Map<string, EdgeKey>();
	const add = (type: string, to: string, line: number) => {
		const edge = {from: page.id, type, to, line, path: file.path};
		if (to !== page.id && !edges.has(keyOf(edge))) {
			edges.set(keyOf(edge), edge);
		}
	};

	for (const source of page.sources) {
		const target = resolve(source.ref);
		if (target === undefined) {
			const id = `source:${sha256Hex(source.ref)}`;
			sources.set(source.ref, id);
			add('DERIVED_FROM', id, source.line);
		} else {
			add('DERIVED_FROM', target, source.line);
		}
	}

	for (const reference of [...page.related, ...page.links]) {
		const target = resolve(reference.ref);
		if (target === undefined) {
			unresolved.push({path: file.path, line: reference.line, ref: reference.ref});
		} else {
			add(relatedEdge, target, reference.line);
		}
	}

	return [...edges.values()];
}

/**
 * `engi wiki sync`: reads `02-wiki/**\/*.md` (symlinks never followed) into `Wiki` nodes and the
 * `DERIVED_FROM`/`RELATED_TO` edges sync owns, through the journal's one locked, fsynced append.
 * Conflict quarantine runs first: a page with a merge block, a sync-conflict copy, or two pages
 * claiming one id are held (in the index) and not parsed, and the next sync after a repair
 * clears them; files are never edited. Every frontmatter is validated before anything is
 * appended, an unchanged page appends nothing, and a vanished page is marked `missing: true`.
 * The report lists the pages that are new or changed (every page with `allPages`) and counts the rest.
 * Exit 2 when a page is held, invalid or skipped.
 */
export async function syncWiki(paths: KbPaths, deps: Deps, options: {allPages?: boolean} = {}): Promise<{output: WikiSyncOutput; exitCode: ExitCode}> {
	let planned: Planned | undefined;
	let seen: Watermark | undefined;
	const result = await writeEvents(
		paths,
		deps,
		index => {
			seen = readWatermark(index.db);
			planned = planSync(index.db, paths, deps, options.allPages ?? false);
			return planned.plan.drafts;
		},
		(index, events) => saveSyncState(paths, index, planned!, seen, events),
	);
	const {drafts: _drafts, tally, listAll: _listAll, ...done} = planned!.plan;
	const output: WikiSyncOutput = {
		wiki: paths.wiki,
		appended: result.events.length,
		counts: {...tally, missing: done.missing.length, held: done.held.length, invalid: done.invalid.length, skipped: done.skipped.length},
		...done,
		quarantined: [...result.quarantined],
	};
	return {output, exitCode: output.held.length + output.invalid.length + output.skipped.length > 0 ? 2 : 0};
}

/**
 * Saves the held pages and the record of this sync, together: written here, after the append and
 * outside the plan's read transaction (concurrent syncs). An index another process keeps locked
 * past the busy timeout takes neither, with a warning: the events are in the journal, and the
 * next sync, finding the record behind it (or the files changed since), plans in full and saves them.
 */
function saveSyncState(paths: KbPaths, index: IndexHandle, planned: Planned, seen: Watermark | undefined, events: readonly JournalLine[]): void {
	if (planned.record?.kind === 'changed' && planned.record.files.length === 0 && events.length === 0) {
		return; // Nothing changed and nothing appended: the record already says all of it.
	}

	try {
		writeIndexState(paths, index, "was to take wiki sync's held pages", db => {
			// An incremental plan changes none.
			if (planned.record?.kind !== 'changed') {
				replaceHeldPages(db, planned.plan.held);
			}

			saveSync(db, planned, seen, events);
		});
	} catch (error) {
		if (!(error instanceof EngiError && error.code === 'index_busy')) {
			throw error;
		}

		noteCacheWarning(indexBusyWarning(paths, error, "wiki sync's held pages and its record of this sync were not saved (the journal has its events): the next wiki sync saves them"));
	}
}

/**
 * Saves what the next sync may start from: this one's files, with the journal as it is now, but
 * only when the journal holds exactly what this sync planned against plus its own events, and
 * none of those events made a node a reference it found unresolved names (only a node.upsert
 * makes a node). Otherwise the record is forgotten: the next sync plans in full.
 */
function saveSync(db: Database, {record, unresolvedRefs}: Planned, seen: Watermark | undefined, events: readonly JournalLine[]): void {
	const mark = readWatermark(db);
	const settled = seen !== undefined && mark !== undefined && mark.nextLine === seen.nextLine + events.length && !events.some(event => event.op === 'node.upsert' && unresolvedRefs.has(String(event.payload['id'])));
	if (record === undefined || !settled) {
		forgetWikiSyncState(db);
		return;
	}

	const journal = {bytes: mark.bytes, nextLine: mark.nextLine, head: mark.head, tail: mark.tail};
	if (record.kind === 'full') {
		replaceWikiSyncState(db, {journal, conflictPaths: record.conflictPaths}, record.files);
	} else {
		updateWikiSyncState(db, record.from, {journal, conflictPaths: record.from.conflictPaths}, record.files);
	}
}
