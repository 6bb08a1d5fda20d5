import type {Database} from '../../lib/sqlite.js';
import {mergeUpsert} from '../graph/merge.js';

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

type RawNode = Omit<NodeRow, 'payload'> & {payload: string};

const toNode = (row: RawNode): NodeRow => ({...row, payload: JSON.parse(row.payload) as Record<string, unknown>});

/** What is visible at a moment: `asOf` bounds both what had been observed and which edges held. */
export type Moment = {
	readonly asOf: string;
	/** Keep edges whose validity window has closed (or not yet opened). */
	readonly includeExpired: boolean;
	/** True when `asOf` is "now", so the materialised node rows are already the answer. */
	readonly isNow: boolean;
};

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
	const events = db
		.prepare(`SELECT line, observed_utc, payload FROM events WHERE subject = ? AND op = 'node.upsert' AND duplicate = 0 AND observed_utc <= ? ORDER BY line`)
		.all(id, asOf) as Array<{line: number; observed_utc: string; payload: string}>;
	if (events.length === 0) {
		return undefined;
	}

	let payload: Record<string, unknown> | undefined;
	for (const event of events) {
		payload = mergeUpsert(payload, JSON.parse(event.payload) as Record<string, unknown>, event.observed_utc);
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

export function nodeExists(db: Database, id: string): boolean {
	return db.prepare('SELECT 1 FROM nodes WHERE id = ?').get(id) !== undefined;
}

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
	return db
		.prepare(`SELECT * FROM edges e WHERE (e.from_id = ? OR e.to_id = ?) AND ${live.sql} ORDER BY e.seq`)
		.all(id, id, ...live.params) as EdgeRow[];
}
