import type {Database} from '../../lib/sqlite.js';
import type {Moment} from '../graph/moment.js';

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
	return db
		.prepare(`SELECT * FROM edges e WHERE (e.from_id = ? OR e.to_id = ?) AND ${live.sql} ORDER BY e.seq`)
		.all(id, id, ...live.params) as EdgeRow[];
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
