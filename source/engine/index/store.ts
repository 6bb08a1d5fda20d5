import {parseStored, preparedOnce, type Database} from '../../lib/sqlite.js';
import {canonicalUtc} from '../../lib/time.js';
import type {Deps} from '../deps.js';
import {mergeUpsert} from '../graph/merge.js';
import {detectMemoryType, type MemoryType} from '../upkeep/memory-types.js';

/*
 * The index's repository: every read of its tables (nodes, edges, events) outside the refresh
 * that writes them (open.ts, apply.ts) and the full text (node-text.ts). Rows come out typed,
 * payloads parsed; reads of the graph look at a moment (`--as-of`).
 */

/** What is visible at a moment: `asOf` bounds both what had been observed and which edges held. */
export type Moment = {
	readonly asOf: string;
	/** Keep edges whose validity window has closed (or not yet opened). */
	readonly includeExpired: boolean;
	/** True when `asOf` is "now", so the materialised node rows are already the answer. */
	readonly isNow: boolean;
};

/** The moment a read looks at: `--as-of` when given, else now. */
export function momentOf(deps: Deps, asOf?: string, includeExpired = false): Moment {
	const now = canonicalUtc(deps.now());
	return asOf === undefined || asOf >= now ? {asOf: now, includeExpired, isNow: true} : {asOf, includeExpired, isNow: false};
}

/**
 * The index's events table, read: the journal line by line, with the subject and object each
 * event is about, and duplicates (an id seen before) marked.
 */
export type EventRow = {
	readonly line: number;
	readonly id: string;
	readonly observed_utc: string;
	readonly op: string;
	readonly payload: Record<string, unknown>;
};

type RawEvent = Omit<EventRow, 'payload'> & {payload: string};

const toEvent = (row: RawEvent): EventRow => ({...row, payload: parseStored<Record<string, unknown>>(row.payload, 'index')});

/** Distinct events in the index (a duplicated line counts once), maintained by every refresh. */
export function readEventCount(db: Database): number {
	const value = db.prepare(`SELECT value FROM meta WHERE key = 'event_count'`).pluck().get() as string | undefined;
	return value === undefined ? 0 : Number(value);
}

/** The upserts of one node observed up to `asOf`, in file order (duplicates left out). */
export function nodeUpserts(db: Database, id: string, asOf: string): Array<Pick<EventRow, 'line' | 'observed_utc' | 'payload'>> {
	const rows = db
		.prepare(`SELECT line, observed_utc, payload FROM events WHERE subject = ? AND op = 'node.upsert' AND duplicate = 0 AND observed_utc <= ? ORDER BY line`)
		.all(id, asOf) as Array<{line: number; observed_utc: string; payload: string}>;
	return rows.map(row => ({line: row.line, observed_utc: row.observed_utc, payload: parseStored<Record<string, unknown>>(row.payload, 'index')}));
}

/** The events about a node: its upserts and every edge event touching it, in file order, optionally only those observed by `asOf`. */
export function eventsAbout(db: Database, id: string, asOf?: string): EventRow[] {
	const rows = db
		.prepare(
			`SELECT line, id, observed_utc, op, payload FROM events
			 WHERE (subject = ? OR object = ?) AND duplicate = 0 ${asOf ? 'AND observed_utc <= ?' : ''} ORDER BY line`,
		)
		.all(...(asOf ? [id, id, asOf] : [id, id])) as RawEvent[];
	return rows.map(row => toEvent(row));
}

/** One page of events in file order, duplicates included, optionally only those observed at a period (a prefix of observed_utc). */
export function eventsPage(db: Database, page: {prefix?: string; limit: number; offset: number}): {total: number; rows: Array<EventRow & {duplicate: boolean}>} {
	const where = page.prefix ? `WHERE observed_utc LIKE ? ESCAPE '\\'` : '';
	const params = page.prefix ? [page.prefix.replaceAll(/[\\%_]/g, match => `\\${match}`) + '%'] : [];
	const total = db.prepare(`SELECT count(*) FROM events ${where}`).pluck().get(...params) as number;
	const rows = db
		.prepare(`SELECT line, id, observed_utc, op, payload, duplicate FROM events ${where} ORDER BY line LIMIT ? OFFSET ?`)
		.all(...params, page.limit, page.offset) as Array<RawEvent & {duplicate: number}>;
	return {total, rows: rows.map(row => ({...toEvent(row), duplicate: row.duplicate === 1}))};
}

/** A lookup of whether the index holds an event id (prepared once, for many ids). */
export function eventRecorded(db: Database): (id: string) => boolean {
	const recorded = db.prepare('SELECT 1 FROM events WHERE id = ? LIMIT 1').pluck();
	return id => recorded.get(id) !== undefined;
}

/**
 * The index's nodes table, read: every statement over `nodes` outside the replay that writes it
 * (index/apply.ts) is here. A node is its merged payload as of now; `getNode` with an earlier
 * moment replays the node's own upserts instead.
 */
export type NodeRow = {
	readonly id: string;
	readonly kind: string | null;
	readonly label: string | null;
	readonly status: string | null;
	readonly observed_utc: string;
	readonly payload: Record<string, unknown>;
	readonly first_line: number;
	readonly last_line: number;
	/** What kind of memory its kind and text make it (upkeep/memory-types.ts). */
	readonly memory_type: MemoryType;
};

type RawNode = Omit<NodeRow, 'payload'> & {payload: string};

const toNode = (row: RawNode): NodeRow => ({...row, payload: parseStored<Record<string, unknown>>(row.payload, 'index')});

export function getNode(db: Database, id: string, moment?: Moment): NodeRow | undefined {
	const row = preparedOnce(db, 'SELECT * FROM nodes WHERE id = ?').get(id) as RawNode | undefined;
	if (!row) {
		return undefined;
	}

	const node = toNode(row);
	if (!moment || moment.isNow || node.observed_utc <= moment.asOf) {
		return node;
	}

	return replayNode(db, id, moment.asOf);
}

/**
 * getNode at one moment, each id read once per call: a query looks at every candidate several
 * times (does it exist then, how does it rank, does an archive mark cover it, its page row), and
 * each read parses the node's payload. Parsed at once, not on first use: a payload damaged where
 * SQLite reads it without complaint is found by the read and the index rebuilt, even when the
 * answer shows no payload.
 */
export function nodesAt(db: Database, moment: Moment): (id: string) => NodeRow | undefined {
	const read = new Map<string, NodeRow | undefined>();
	return id => {
		if (!read.has(id)) {
			read.set(id, getNode(db, id, moment));
		}

		return read.get(id);
	};
}

/** Rebuilds one node from its own upserts observed up to `asOf`. */
export function replayNode(db: Database, id: string, asOf: string): NodeRow | undefined {
	const events = nodeUpserts(db, id, asOf);
	if (events.length === 0) {
		return undefined;
	}

	let payload: Record<string, unknown> | undefined;
	for (const event of events) {
		payload = mergeUpsert(payload, event.payload, event.observed_utc);
	}

	const merged = payload!;
	const kind = merged['kind'] ?? merged['type'];
	return {
		id,
		kind: typeof kind === 'string' ? kind : null,
		label: typeof merged['label'] === 'string' ? merged['label'] : null,
		status: typeof merged['status'] === 'string' ? merged['status'] : null,
		observed_utc: merged['observed_utc'] as string,
		payload: merged,
		first_line: events[0]!.line,
		last_line: events.at(-1)!.line,
		memory_type: detectMemoryType(merged),
	};
}

/** A node's kind as the graph rules look it up (graph/validate.ts KindLookup): undefined when there is no such node. */
export function nodeKind(db: Database, id: string): string | null | undefined {
	const row = preparedOnce(db, 'SELECT kind FROM nodes WHERE id = ?').get(id) as {kind: string | null} | undefined;
	return row === undefined ? undefined : row.kind;
}

/** A node's merged payload, or undefined when there is no such node. */
export function nodePayload(db: Database, id: string): Record<string, unknown> | undefined {
	const payload = preparedOnce(db, 'SELECT payload FROM nodes WHERE id = ?').pluck().get(id) as string | undefined;
	return payload === undefined ? undefined : parseStored<Record<string, unknown>>(payload, 'index');
}

/** The `source_sha256` a node records (the staged note it was ingested from), if any. */
export function nodeSourceSha256(db: Database, id: string): string | null | undefined {
	return db.prepare(`SELECT json_extract(payload, '$.source_sha256') FROM nodes WHERE id = ?`).pluck().get(id) as string | null | undefined;
}

/** Every node of one (canonical) kind, by id. */
export function nodesOfKind(db: Database, kind: string): Array<{id: string; label: string | null; payload: Record<string, unknown>}> {
	const rows = db.prepare('SELECT id, label, payload FROM nodes WHERE kind = ? ORDER BY id').all(kind) as Array<{id: string; label: string | null; payload: string}>;
	return rows.map(row => ({id: row.id, label: row.label, payload: parseStored<Record<string, unknown>>(row.payload, 'index')}));
}

/** Every node of one (canonical) kind in the order the journal last wrote them, with that line. */
export function nodesOfKindByLine(db: Database, kind: string): Array<{id: string; payload: Record<string, unknown>; line: number}> {
	const rows = db.prepare('SELECT id, payload, last_line FROM nodes WHERE kind = ? ORDER BY last_line').raw().all(kind) as Array<[string, string, number]>;
	return rows.map(([id, payload, line]) => ({id, payload: parseStored<Record<string, unknown>>(payload, 'index'), line}));
}

export function countNodes(db: Database): number {
	return db.prepare('SELECT count(*) FROM nodes').pluck().get() as number;
}

/**
 * The index's edges table, read. An edge row is one assertion; a retraction closes it, and its
 * validity window bounds when it holds. Which rows are live is a question of a moment.
 */
export type EdgeRow = {
	readonly seq: number;
	readonly line: number;
	readonly event_id: string;
	readonly from_id: string;
	readonly type: string;
	readonly to_id: string;
	readonly weight: number | null;
	readonly valid_from: string;
	readonly valid_until: string | null;
	readonly observed_utc: string;
	readonly provenance: string | null;
	readonly retracted_line: number | null;
	readonly retracted_utc: string | null;
};

/** SQL for "this edge row is live at the moment": observed, valid and not yet retracted. */
export function liveEdgeCondition(moment: Moment, alias = 'e'): {sql: string; params: string[]} {
	const parts = [`${alias}.observed_utc <= ?`, `(${alias}.retracted_utc IS NULL OR ${alias}.retracted_utc > ?)`];
	const params = [moment.asOf, moment.asOf];
	if (!moment.includeExpired) {
		parts.push(`${alias}.valid_from <= ?`, `(${alias}.valid_until IS NULL OR ${alias}.valid_until >= ?)`);
		params.push(moment.asOf, moment.asOf);
	}

	return {sql: parts.join(' AND '), params};
}

export function edgesTouching(db: Database, id: string, moment: Moment): EdgeRow[] {
	const live = liveEdgeCondition(moment);
	return preparedOnce(db, `SELECT * FROM edges e WHERE (e.from_id = ? OR e.to_id = ?) AND ${live.sql} ORDER BY e.seq`).all(id, id, ...live.params) as EdgeRow[];
}

/** The nodes with an edge of one of these types, live at the moment, into `to`. */
export function liveSourcesInto(db: Database, to: string, types: readonly string[], moment: Moment): string[] {
	const live = liveEdgeCondition(moment);
	return db
		.prepare(`SELECT DISTINCT e.from_id FROM edges e WHERE e.to_id = ? AND e.type IN (${types.map(() => '?').join(', ')}) AND ${live.sql}`)
		.pluck()
		.all(to, ...types, ...live.params) as string[];
}

/** The assertions of one edge that no retraction has closed yet, whatever their validity. */
export function openEdges(db: Database, from: unknown, type: string, to: unknown): Array<Pick<EdgeRow, 'weight' | 'valid_from' | 'valid_until' | 'provenance'>> {
	return db
		.prepare('SELECT weight, valid_from, valid_until, provenance FROM edges WHERE from_id = ? AND type = ? AND to_id = ? AND retracted_line IS NULL')
		.all(from, type, to) as Array<Pick<EdgeRow, 'weight' | 'valid_from' | 'valid_until' | 'provenance'>>;
}

/** Edge rows live at the moment. */
export function countLiveEdges(db: Database, moment: Moment): number {
	const live = liveEdgeCondition(moment);
	return db.prepare(`SELECT count(*) FROM edges e WHERE ${live.sql}`).pluck().get(...live.params) as number;
}

/** Every edge row, retracted or not: one per assertion applied. */
export function countEdges(db: Database): number {
	return db.prepare('SELECT count(*) FROM edges').pluck().get() as number;
}
