import type {Database} from '../../lib/sqlite.js';
import {mergeUpsert} from '../graph/merge.js';
import type {Moment} from '../graph/moment.js';
import {nodeUpserts} from './events.js';

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
};

type RawNode = Omit<NodeRow, 'payload'> & {payload: string};

const toNode = (row: RawNode): NodeRow => ({...row, payload: JSON.parse(row.payload) as Record<string, unknown>});

export function getNode(db: Database, id: string, moment?: Moment): NodeRow | undefined {
	const row = db.prepare('SELECT * FROM nodes WHERE id = ?').get(id) as RawNode | undefined;
	if (!row) {
		return undefined;
	}

	const node = toNode(row);
	if (!moment || moment.isNow || node.observed_utc <= moment.asOf) {
		return node;
	}

	return replayNode(db, id, moment.asOf);
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
	};
}

/** A node's kind as the graph rules look it up (graph/validate.ts KindLookup): undefined when there is no such node. */
export function nodeKind(db: Database, id: string): string | null | undefined {
	const row = db.prepare('SELECT kind FROM nodes WHERE id = ?').get(id) as {kind: string | null} | undefined;
	return row === undefined ? undefined : row.kind;
}

/** A node's merged payload, or undefined when there is no such node. */
export function nodePayload(db: Database, id: string): Record<string, unknown> | undefined {
	const payload = db.prepare('SELECT payload FROM nodes WHERE id = ?').pluck().get(id) as string | undefined;
	return payload === undefined ? undefined : (JSON.parse(payload) as Record<string, unknown>);
}

/** The `source_sha256` a node records (the staged note it was ingested from), if any. */
export function nodeSourceSha256(db: Database, id: string): string | null | undefined {
	return db.prepare(`SELECT json_extract(payload, '$.source_sha256') FROM nodes WHERE id = ?`).pluck().get(id) as string | null | undefined;
}

/** Every node of one (canonical) kind, by id. */
export function nodesOfKind(db: Database, kind: string): Array<{id: string; label: string | null; payload: Record<string, unknown>}> {
	const rows = db.prepare('SELECT id, label, payload FROM nodes WHERE kind = ? ORDER BY id').all(kind) as Array<{id: string; label: string | null; payload: string}>;
	return rows.map(row => ({id: row.id, label: row.label, payload: JSON.parse(row.payload) as Record<string, unknown>}));
}

export function countNodes(db: Database): number {
	return db.prepare('SELECT count(*) FROM nodes').pluck().get() as number;
}
