import * as z from 'zod/mini';
import {lazySchema} from '../../lib/lazy-schema.js';
import {parseStored, type Database} from '../../lib/sqlite.js';
import {decodeRow} from './store.js';
import {countCodec, integerColumns, scopeAnswer} from './scope-memo.js';
import type {CatalogRow} from './scan.js';
import type {TailState} from '../continuity/tail.js';

export const sessionEntrySchema = lazySchema(() => z.object({
	id: z.string(),
	source: z.string(),
	project: z.string(),
	title: z.nullable(z.string()),
	started: z.nullable(z.string()),
	modified: z.nullable(z.string()),
	parent_id: z.nullable(z.string()),
	subagents: z.number(),
	human_turns: z.number(),
	records: z.number(),
	skipped: z.number(),
	bytes: z.number(),
	path: z.string(),
	error: z.nullable(z.string()),
	archived: z.boolean(),
}));

/** A listed session; `archived`: the tool has put it away (CatalogRow.archived), so it is never unfinished. */
export type SessionEntry = z.infer<typeof sessionEntrySchema>;

export type SessionFilter = {
	/** (source, root) pairs in scope: only what this call's targets cover. */
	readonly scope: ReadonlyArray<{source: string; root: string}>;
	/** Recorded working directories that count as the project; undefined for all projects. */
	readonly project?: readonly string[];
	readonly since?: string;
	readonly includeSubagents: boolean;
};

/** `(source, root)` pairs as SQL: units under any of them ('0' for none); `table` qualifies the columns. */
function storesSql(scope: SessionFilter['scope'], table = ''): {sql: string; params: string[]} {
	return {sql: scope.map(() => `(${table}source = ? AND ${table}root = ?)`).join(' OR ') || '0', params: scope.flatMap(entry => [entry.source, entry.root])};
}

/** A unit is a session when it holds a conversation, or could not be read at all (listed, so the failure shows). */
const isSessionSql = (table = '') => `(${table}conversational = 1 OR ${table}error IS NOT NULL)`;

/**
 * The WHERE clause of sessions in scope, and the index that answers it from narrow columns
 * alone (`FROM units${index} WHERE ${sql}`). With subagents there is no parent_id to narrow by,
 * and without statistics SQLite would look rows up through the per-root index and read every
 * wide row (at 15,000 sessions, ~40 MB of the catalog for one count); the covering index by
 * time answers alone. Without subagents SQLite picks the listing index by parent_id itself.
 * `table` goes before each column: a qualifier (`copy.`), for a subquery over the same scope,
 * or `+`, which keeps SQLite from looking the terms up in an index.
 */
function scopeSql(filter: SessionFilter, table = ''): {sql: string; params: unknown[]; index: string} {
	const index = filter.includeSubagents ? ' INDEXED BY units_recent' : '';
	if (filter.scope.length === 0) {
		return {sql: '0', params: [], index};
	}

	const stores = storesSql(filter.scope, table);
	const parts: string[] = [`(${stores.sql})`];
	const params: unknown[] = [...stores.params];
	parts.push(isSessionSql(table));
	if (!filter.includeSubagents) {
		parts.push(`${table}parent_id IS NULL`);
	}

	if (filter.since) {
		parts.push(`${table}modified >= ?`);
		params.push(filter.since);
	}

	if (filter.project) {
		parts.push(`(${filter.project.map(() => `(${table}project = ? OR substr(${table}project, 1, ?) = ?)`).join(' OR ')})`);
		params.push(...filter.project.flatMap(root => [root, root.length + 1, root.endsWith('/') ? root : root + '/']));
	}

	return {sql: parts.join(' AND '), params, index};
}

/**
 * Sessions in scope the catalog could not parse: listed with their error, but nothing of theirs
 * is searchable. Read from the partial index of those alone (units_unreadable), almost always
 * empty: the scope's columns are written `+source`, `+root`, … (a unary plus, which SQLite
 * does not look up by), or it would walk every session of each root through units_root to test
 * their errors. A catalog without that index steps over the covering listing index instead.
 */
export function countUnreadableSessions(db: Database, filter: SessionFilter): number {
	const where = scopeSql(filter, '+');
	return db.prepare(`SELECT count(*) FROM units WHERE error IS NOT NULL AND ${where.sql}`).pluck().get(...where.params) as number;
}

export function toEntry(row: CatalogRow, subagents: number): SessionEntry {
	return {
		id: row.summary.id ?? row.key,
		source: row.source,
		project: row.summary.project ?? 'unknown',
		title: row.summary.title,
		started: row.summary.started,
		modified: row.summary.modified,
		parent_id: row.summary.parent_id,
		subagents,
		human_turns: row.summary.human_turns,
		records: row.records,
		skipped: row.skipped,
		bytes: row.size,
		path: row.path,
		error: row.error,
		archived: row.archived,
	};
}

/** What a listing needs to decide about a session before reading its whole row. */
export type NarrowRow = {
	readonly key: string;
	readonly source: string;
	readonly id: string | null;
	readonly parent_id: string | null;
	readonly project: string | null;
	readonly modified: string | null;
	readonly mtime_ms: number;
	readonly tail_open: number;
	/** When it was last written (ms; 0 when its recorded time cannot be read): see lastWritten. */
	readonly written_ms: number;
	/** 1 when the tool has put the session away: it is no unfinished candidate. */
	readonly archived: number;
};

/** The columns of a NarrowRow, in its order. */
const narrowColumns = 'key, source, id, parent_id, project, modified, mtime_ms, tail_open, written_ms, archived';

type NarrowRecord = [string, string, string | null, string | null, string | null, string | null, number, number, number, number];

/**
 * The records of the newest copy of each (source, id), in order: a session stored twice (a
 * resumed copy, two storages of one tool) is listed once. Columns 0 to 2 are key, source and id.
 */
function newestCopies<T extends readonly [string, string, string | null, ...unknown[]]>(records: readonly T[]): T[] {
	const seen = new Set<string>();
	return records.filter(record => {
		const identity = `${record[1]}\u0000${record[2] ?? record[0]}`;
		return !seen.has(identity) && Boolean(seen.add(identity));
	});
}

/**
 * Sessions in scope, newest first, one per (source, id), by its most recent copy. Read from
 * narrow columns only; every other listing starts here and decodes just the rows it keeps.
 */
export function listNarrowRows(db: Database, filter: SessionFilter): NarrowRow[] {
	const where = scopeSql(filter);
	// Arrays, not objects, from SQLite: building 1,500 row objects natively costs twice as much.
	const records = db.prepare(`SELECT ${narrowColumns} FROM units${where.index} WHERE ${where.sql} ORDER BY modified DESC, id ASC, key ASC`).raw().all(...where.params) as NarrowRecord[];
	// Indexes, not destructuring: unpacking an array runs the iterator protocol, which in a
	// fresh process (nothing optimised yet) costs a few microseconds and an allocation per row.
	return newestCopies(records).map(record => narrowRowOf(record));
}

/** Whole rows for the given keys. */
export function catalogRowsByKey(db: Database, keys: readonly string[]): Map<string, CatalogRow> {
	const records = db.prepare('SELECT * FROM units WHERE key IN (SELECT value FROM json_each(?))').all(JSON.stringify(keys)) as Parameters<typeof decodeRow>[0][];
	return new Map(records.map(record => [record.key, decodeRow(record)]));
}

/**
 * The sessions in scope a listing shows, as SQL over `units` (or its alias `table`): in scope,
 * and not a copy of a session that has a newer one in scope (or one as new with a smaller key:
 * listNarrowRows keeps whichever of two such copies comes first). A copy is found by id, so
 * SQLite answers this per row it returns, not per session in scope.
 */
export function listedSql(filter: SessionFilter, table = 'units'): {sql: string; params: unknown[]; index: string} {
	const where = scopeSql(filter, `${table}.`);
	const copy = scopeSql(filter, 'copy.');
	const newerCopy = `SELECT 1 FROM units AS copy WHERE copy.id = ${table}.id AND copy.source = ${table}.source AND copy.key <> ${table}.key AND ${copy.sql} AND (coalesce(copy.modified, '') > coalesce(${table}.modified, '') OR (coalesce(copy.modified, '') = coalesce(${table}.modified, '') AND copy.key < ${table}.key))`;
	return {sql: `${where.sql} AND NOT EXISTS (${newerCopy})`, params: [...where.params, ...copy.params], index: where.index};
}

/**
 * The same sessions as listedSql, as their text units (unit number and indexed lines of each),
 * newest first and by key among equals: for a search over a broad word, which matches most of
 * them. Kept in the catalog while no row of the scope is written (scopeAnswer): at L, working
 * it out reads and sorts all 15,000 sessions (~45 ms), and a search over a broad word asks on
 * every call.
 */
export function listedTextUnits(db: Database, filter: SessionFilter): {nos: ArrayLike<number>; docs: ArrayLike<number>} {
	return scopeAnswer(db, 'listed-text-units', filter, integerColumns, () => readListedTextUnits(db, filter));
}

/**
 * listedTextUnits worked out: read once from the covering index of the scope and handed over as
 * two JSON arrays of integers (15,000 keys or row arrays in JS cost a young-generation
 * collection of ~20 ms to copy); CROSS JOIN keeps the listing the outer loop, so the arrays come
 * in its order. The extra copies of a session (the newest is listed, the smaller key among
 * equals) are found among the ids held more than once, not by ranking every session in scope
 * by copy.
 */
function readListedTextUnits(db: Database, filter: SessionFilter): {nos: number[]; docs: number[]} {
	const where = scopeSql(filter);
	const listed = `SELECT key FROM units${where.index} WHERE ${where.sql} AND key NOT IN (SELECT value FROM json_each(?)) ORDER BY coalesce(modified, '') DESC, key ASC`;
	const [nos, docs] = (db.prepare(`SELECT json_group_array(text_units.no), json_group_array(text_units.docs) FROM (${listed}) AS listed CROSS JOIN text_units ON text_units.key = listed.key`).raw().get(...where.params, JSON.stringify(olderCopies(db, filter))) as [string, string]).map(json => JSON.parse(json) as number[]);
	return {nos: nos!, docs: docs!};
}

/** Ids held by more than one unit, from the narrow id index alone; copies are rare. */
const sharedIdsSql = 'SELECT id FROM units INDEXED BY units_id WHERE id IS NOT NULL GROUP BY id HAVING count(*) > 1';

/**
 * The units in scope that are an older copy of a session in scope (listedSql leaves them out):
 * looked up by id among the ids held more than once, so only copies' rows are read.
 */
function olderCopies(db: Database, filter: SessionFilter): string[] {
	const shared = db.prepare(sharedIdsSql).pluck().all() as string[];
	if (shared.length === 0) {
		return [];
	}

	const where = scopeSql(filter);
	const ranked = `SELECT key, row_number() OVER (PARTITION BY source, id ORDER BY coalesce(modified, '') DESC, key ASC) AS copy FROM units INDEXED BY units_id WHERE id IN (SELECT value FROM json_each(?)) AND ${where.sql}`;
	return db.prepare(`SELECT key FROM (${ranked}) WHERE copy > 1`).pluck().all(JSON.stringify(shared), ...where.params) as string[];
}

/**
 * The sessions listNarrowRows lists, as SQL over `units`, without the subagent sessions whose
 * parent is in scope too (`unfinished` folds those into their parent's candidate). The parent
 * may be a subagent itself (one a subagent started: Claude Code's parentAgentId, Codex's
 * thread_spawn depth): the work folds up the chain to whichever session is listed. A newer copy
 * is looked up by id and told apart by rowid, which the id index holds: a session with one copy
 * costs one index probe, and no wide row is read.
 */
function unfoldedSql(filter: SessionFilter): {sql: string; params: unknown[]; index: string} {
	const where = scopeSql(filter, 'units.');
	const copy = scopeSql(filter, 'copy.');
	const parent = scopeSql(filter, 'parent.');
	const newerCopy = `SELECT 1 FROM units AS copy WHERE copy.id = units.id AND copy.rowid <> units.rowid AND copy.source = units.source AND ${copy.sql} AND (coalesce(copy.modified, '') > coalesce(units.modified, '') OR (coalesce(copy.modified, '') = coalesce(units.modified, '') AND copy.key < units.key))`;
	const folded = `units.parent_id IS NOT NULL AND units.parent_id <> '' AND EXISTS (SELECT 1 FROM units AS parent WHERE parent.id = units.parent_id AND parent.source = units.source AND ${parent.sql})`;
	return {sql: `${where.sql} AND NOT EXISTS (${newerCopy}) AND NOT (${folded})`, params: [...where.params, ...copy.params, ...parent.params], index: where.index};
}

const narrowRowOf = (record: NarrowRecord): NarrowRow => ({key: record[0], source: record[1], id: record[2], parent_id: record[3], project: record[4], modified: record[5], mtime_ms: record[6], tail_open: record[7], written_ms: record[8], archived: record[9]});

/**
 * The listed sessions (subagents of a listed parent left out) SQL cannot judge: those whose id
 * (or key) is in `ids`, the sessions with a checkpoint. (When a session was last written is
 * stored, as lastWritten gives it, so SQL and JS judge its time alike.)
 */
export function listedRowsToJudge(db: Database, filter: SessionFilter, ids: readonly string[]): NarrowRow[] {
	if (ids.length === 0) {
		return [];
	}

	const unfolded = unfoldedSql(filter);
	const records = db
		.prepare(`SELECT ${narrowColumns} FROM units${unfolded.index} WHERE coalesce(id, key) IN (SELECT value FROM json_each(?)) AND ${unfolded.sql}`)
		.raw()
		.all(JSON.stringify(ids), ...unfolded.params) as NarrowRecord[];
	return records.map(record => narrowRowOf(record));
}

/**
 * Every session the unfinished candidates are judged among (listed, subagents of a listed parent
 * left out, archived sessions left out: see judge in unfinished.ts), in listNarrowRows' order:
 * its rowid, whether its tail alone makes it a candidate, whether its tail's stored confidence is
 * high (tailJudgement's), when it was last written (ms, lastWritten's), and its recorded project.
 * From the covering index; no tail is read.
 */
export function unfoldedSessions(db: Database, filter: SessionFilter): Array<[number, number, number, number, string | null]> {
	const unfolded = unfoldedSql(filter);
	return db
		.prepare(`SELECT units.rowid, tail_open, tail_confidence = 'high', written_ms, project FROM units${unfolded.index} WHERE ${unfolded.sql} AND units.archived = 0 ORDER BY modified DESC, id ASC, key ASC`)
		.raw()
		.all(...unfolded.params) as Array<[number, number, number, number, string | null]>;
}

/** The rowids of the catalogued units among the given keys. */
export function rowidsOfKeys(db: Database, keys: readonly string[]): number[] {
	return keys.length === 0 ? [] : (db.prepare('SELECT rowid FROM units WHERE key IN (SELECT value FROM json_each(?))').pluck().all(JSON.stringify(keys)) as number[]);
}

/** The narrow rows of the given units, in listNarrowRows' order. */
export function narrowRowsOf(db: Database, rowids: readonly number[]): NarrowRow[] {
	const records = db
		.prepare(`SELECT ${narrowColumns} FROM units WHERE rowid IN (SELECT value FROM json_each(?)) ORDER BY modified DESC, id ASC, key ASC`)
		.raw()
		.all(JSON.stringify(rowids)) as NarrowRecord[];
	return records.map(record => narrowRowOf(record));
}

/** How many listed subagent sessions in scope each of the given sessions has, keyed by `source \0 id`. */
export function listedSubagentCounts(db: Database, filter: SessionFilter, parentIds: readonly string[]): Map<string, number> {
	if (parentIds.length === 0) {
		return new Map();
	}

	// Looked up by parent in the listing index (parent_id first), whatever the scope: the index by
	// time would have every session in scope stepped over for a page's parents.
	const listed = listedSql(filter);
	const rows = db
		.prepare(`SELECT source, parent_id, count(*) FROM units INDEXED BY units_listing WHERE parent_id IN (SELECT value FROM json_each(?)) AND ${listed.sql} GROUP BY source, parent_id`)
		.raw()
		.all(JSON.stringify([...new Set(parentIds)]), ...listed.params) as Array<[string, string, number]>;
	return new Map(rows.map(([source, parent, count]) => [`${source}\u0000${parent}`, count]));
}

/**
 * One page of the listing, as listNarrowRows orders and deduplicates it, answered by SQLite: the
 * sessions are counted (one per source and id) and only the page's keys come out, so a page of
 * 50 costs the same at 15,000 sessions as at 1,500 (building every narrow row in JS was most of
 * a warm listing's work).
 */
export function listCatalogPage(db: Database, filter: SessionFilter, offset: number, limit: number): {total: number; rows: CatalogRow[]} {
	const total = countListed(db, filter);
	const listed = listedSql(filter);
	const keys = db
		.prepare(`SELECT key FROM units${listed.index} WHERE ${listed.sql} ORDER BY modified DESC, id ASC LIMIT ? OFFSET ?`)
		.pluck()
		.all(...listed.params, limit, offset) as string[];
	const byKey = catalogRowsByKey(db, keys);
	return {total, rows: keys.flatMap(key => byKey.get(key) ?? [])};
}

/**
 * How many sessions the listing holds (one per source and id), kept in the catalog while no row
 * of the scope is written (scopeAnswer): counting reads the listing index of every session in
 * scope (at L, ~15 ms on every call).
 */
function countListed(db: Database, filter: SessionFilter): number {
	return scopeAnswer(db, 'listed-count', filter, countCodec, () => readListedCount(db, filter));
}

/**
 * countListed worked out: the units in scope, less the extra copies of a session. Copies are
 * rare, so they are found among the ids held more than once (from the narrow id index alone)
 * before the scope is asked about them: counting distinct ids in scope built a temporary index
 * of all 15,000 at L, twice the time of this.
 */
function readListedCount(db: Database, filter: SessionFilter): number {
	const where = scopeSql(filter);
	const copies = `SELECT coalesce(sum(n - 1), 0) FROM (SELECT count(*) AS n FROM units WHERE id IN (${sharedIdsSql}) AND ${where.sql} GROUP BY source, id)`;
	return db.prepare(`SELECT (SELECT count(*) FROM units${where.index} WHERE ${where.sql}) - (${copies})`).pluck().get(...where.params, ...where.params) as number;
}

/**
 * How many subagent sessions each of the given sessions has, keyed by `source \0 id`: only the
 * page's, looked up by parent in the listing index (left alone, SQLite reads every unit of every
 * root in scope instead). A child unit holding no conversation is no session (listings leave it
 * out), so it is not counted: Claude Code's startup "Warmup" transcripts name a parent.
 */
export function subagentCounts(db: Database, filter: SessionFilter, parents: readonly CatalogRow[]): Map<string, number> {
	const ids = [...new Set(parents.map(row => row.summary.id ?? row.key))];
	const stores = storesSql(filter.scope);
	const rows =
		ids.length === 0
			? []
			: (db
					.prepare(`SELECT source, parent_id, count(*) AS n FROM units INDEXED BY units_listing WHERE parent_id IN (SELECT value FROM json_each(?)) AND (${stores.sql}) AND ${isSessionSql()} GROUP BY source, parent_id`)
					.all(JSON.stringify(ids), ...stores.params) as Array<{source: string; parent_id: string; n: number}>);
	return new Map(rows.map(row => [`${row.source}\u0000${row.parent_id}`, row.n]));
}

/** Every unit in scope that holds the session `id` (case-insensitive), in a stable order: the sessions, where some are. */
export function rowsWithId(db: Database, scope: SessionFilter['scope'], id: string): CatalogRow[] {
	if (scope.length === 0) {
		return [];
	}

	const stores = storesSql(scope);
	const records = db.prepare(`SELECT * FROM units WHERE (id = ? COLLATE NOCASE) AND (${stores.sql}) ORDER BY source, path`).all(id, ...stores.params) as Parameters<typeof decodeRow>[0][];
	return sessionsFirst(records.map(record => decodeRow(record)));
}

/**
 * A file holding no conversation is no session (listings leave it out), so where a session shares
 * its id it stands aside: `gemini --resume` opens a second chat file holding only the header of
 * the session it resumes, and goes on in the original.
 */
function sessionsFirst(rows: CatalogRow[]): CatalogRow[] {
	const sessions = rows.length > 1 ? rows.filter(row => row.summary.conversational || row.error) : rows;
	return sessions.length > 0 ? sessions : rows;
}

/**
 * The path and title of the given units, and the tail of those in `tails`: the columns a listing
 * shows beyond the narrow ones. The tail is JSON to read and decode, so only the units whose
 * reasons rest on it ask for it (at 15,000 sessions, decoding every tail was most of the work).
 */
export function rowDetails(db: Database, keys: readonly string[], tails: ReadonlySet<string>): Map<string, {path: string; title: string | null; tail: TailState | null}> {
	const records = db.prepare('SELECT key, path, title FROM units WHERE key IN (SELECT value FROM json_each(?))').raw().all(JSON.stringify(keys)) as Array<[string, string, string | null]>;
	const decoded = tailsByKey(db, [...tails]);
	return new Map(records.map(([key, path, title]) => [key, {path, title, tail: decoded.get(key) ?? null}]));
}

/** The decoded tails of the given units, by key (a unit no longer catalogued has none). */
export function tailsByKey(db: Database, keys: readonly string[]): Map<string, TailState | null> {
	if (keys.length === 0) {
		return new Map();
	}

	const records = db.prepare('SELECT key, tail FROM units WHERE key IN (SELECT value FROM json_each(?))').raw().all(JSON.stringify(keys)) as Array<[string, string]>;
	return new Map(records.map(([key, tail]) => [key, parseStored<TailState | null>(tail, 'catalog')]));
}

/** The fingerprint of every unit under the stores in scope, by key, from the per-root index alone (no wide row is read). */
export function fingerprintsInScope(db: Database, scope: SessionFilter['scope']): Map<string, string> {
	const byRoot = db.prepare('SELECT key, fingerprint FROM units INDEXED BY units_root WHERE source = ? AND root = ?').raw();
	return new Map(scope.flatMap(({source, root}) => byRoot.all(source, root) as Array<[string, string]>));
}

/** Where a unit's files are and what they weigh, with its title, its error and (JSON) its tail when the tail alone may make it unfinished (tail_open). */
export type UnitFiles = {
	/** The session's id, or its key where the catalog knows none. */
	readonly session_id: string;
	readonly root: string;
	readonly path: string;
	readonly paths: string[];
	readonly variant: string | null;
	readonly size: number;
	readonly title: string | null;
	readonly error: string | null;
	readonly tail: string | null;
};

/**
 * The sessions listNarrowRows lists (the same ones, in its order) with their files: what
 * retention needs to judge and retire them. One query: asking again by key would cost a lookup
 * per session and a list of every key.
 */
export function listUnitFiles(db: Database, filter: SessionFilter): Array<NarrowRow & UnitFiles> {
	const where = scopeSql(filter);
	const records = db
		.prepare(`SELECT ${narrowColumns}, root, path, paths, variant, size, title, error, CASE WHEN tail_open = 1 THEN tail END FROM units${where.index} WHERE ${where.sql} ORDER BY modified DESC, id ASC`)
		.raw()
		.all(...where.params) as Array<[...NarrowRecord, string, string, string, string | null, number, string | null, string | null, string | null]>;
	return newestCopies(records).map(record => {
		// Most sessions are one file: their list is that path alone, and needs no parsing.
		const path = record[11];
		const files = record[12] === `[${JSON.stringify(path)}]` ? [path] : parseStored<string[]>(record[12], 'catalog');
		// Every field named, no spread: in a fresh process `{...row, more}` takes V8's slow path,
		// ~15 µs and ~4 KB of garbage per session (over M, a sixth of what a warm plan allocated).
		return {
			key: record[0],
			source: record[1],
			id: record[2],
			parent_id: record[3],
			project: record[4],
			modified: record[5],
			mtime_ms: record[6],
			tail_open: record[7],
			written_ms: record[8],
			archived: record[9],
			session_id: record[2] ?? record[0],
			root: record[10],
			path,
			paths: files,
			variant: record[13],
			size: record[14],
			title: record[15],
			error: record[16],
			tail: record[17],
		};
	});
}

/** Every working directory a catalogued session recorded, once each. */
export function recordedProjects(db: Database): string[] {
	return db.prepare('SELECT DISTINCT project FROM units WHERE project IS NOT NULL').pluck().all() as string[];
}
