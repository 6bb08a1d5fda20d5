import type {Database} from '../../lib/sqlite.js';
import {archiveMarkId, archiveMarkKind} from '../upkeep/vocabulary.js';
import {liveEdgeCondition, nodesAt, type Moment, type NodeRow} from './store.js';

/**
 * What ranking and the lifecycle need to know about nodes beyond their own rows, read for many
 * nodes at once: live edges touching each, whether something live SUPERSEDES it, its live edges
 * to evidence, how many times it was recorded, and whether dream's archive mark covers it, all
 * as of the moment.
 */
export type UpkeepFacts = {
	readonly liveEdges: number;
	readonly superseded: boolean;
	readonly evidenceEdges: number;
	readonly upserts: number;
	readonly marked: boolean;
};

export function upkeepFacts(db: Database, ids: readonly string[], moment: Moment, nodeAt = nodesAt(db, moment)): Map<string, UpkeepFacts> {
	const facts = new Map<string, UpkeepFacts>();
	if (ids.length === 0) {
		return facts;
	}

	const live = liveEdgeCondition(moment);
	const count = (where: string) => `(SELECT count(*) FROM edges e WHERE ${where} AND ${live.sql})`;
	const rows = db
		.prepare(
			`SELECT j.value AS id,
				${count('e.from_id = j.value')} + ${count('e.to_id = j.value')} AS edges,
				${count(`e.to_id = j.value AND e.type = 'SUPERSEDES'`)} AS superseded,
				${count(`e.from_id = j.value AND e.type IN ('DERIVED_FROM', 'DISCUSSED_IN')`)} + ${count(`e.to_id = j.value AND e.type = 'SUPPORTS'`)} AS evidence,
				(SELECT count(*) FROM events v WHERE v.subject = j.value AND v.op = 'node.upsert' AND v.duplicate = 0 AND v.observed_utc <= ?) AS upserts
			 FROM json_each(?) j`,
		)
		.all(...live.params, ...live.params, ...live.params, ...live.params, ...live.params, moment.asOf, JSON.stringify(ids)) as Array<{id: string; edges: number; superseded: number; evidence: number; upserts: number}>;
	for (const row of rows) {
		facts.set(row.id, {liveEdges: row.edges, superseded: row.superseded > 0, evidenceEdges: row.evidence, upserts: row.upserts, marked: isMarkedArchived(nodeAt, row.id)});
	}

	return facts;
}

/** True when dream's archive mark for the node is about the node as it is at the moment: an upsert after the mark revives it. */
function isMarkedArchived(nodeAt: (id: string) => NodeRow | undefined, id: string): boolean {
	const mark = nodeAt(archiveMarkId(id));
	if (mark?.kind !== archiveMarkKind) {
		return false;
	}

	const node = nodeAt(id);
	const covered = mark.payload['target_observed_utc'];
	return node !== undefined && typeof covered === 'string' && covered >= node.observed_utc;
}
