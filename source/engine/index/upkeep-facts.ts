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

	// Each live edge touching the ids is read once, from either end, and counted here: five
	// correlated counts per id read every edge row three times (500 candidates of a common word at
	// 100k events: ~14 ms of a query's ~50).
	const live = liveEdgeCondition(moment);
	const list = JSON.stringify(ids);
	const ends = (end: 'from_id' | 'to_id') =>
		db.prepare(`SELECT e.${end}, e.type FROM edges e WHERE e.${end} IN (SELECT value FROM json_each(?)) AND ${live.sql}`).raw().all(list, ...live.params) as Array<[string, string]>;
	const counts = new Map<string, {edges: number; superseded: number; evidence: number; upserts: number}>();
	const countsOf = (id: string) => {
		let entry = counts.get(id);
		if (!entry) {
			entry = {edges: 0, superseded: 0, evidence: 0, upserts: 0};
			counts.set(id, entry);
		}

		return entry;
	};

	for (const [id, type] of ends('from_id')) {
		const entry = countsOf(id);
		entry.edges++;
		entry.evidence += type === 'DERIVED_FROM' || type === 'DISCUSSED_IN' ? 1 : 0;
	}

	for (const [id, type] of ends('to_id')) {
		const entry = countsOf(id);
		entry.edges++;
		entry.superseded += type === 'SUPERSEDES' ? 1 : 0;
		entry.evidence += type === 'SUPPORTS' ? 1 : 0;
	}

	const upserts = db
		.prepare(`SELECT subject, count(*) FROM events WHERE subject IN (SELECT value FROM json_each(?)) AND op = 'node.upsert' AND duplicate = 0 AND observed_utc <= ? GROUP BY subject`)
		.raw()
		.all(list, moment.asOf) as Array<[string, number]>;
	for (const [id, count] of upserts) {
		countsOf(id).upserts = count;
	}

	for (const id of ids) {
		const entry = counts.get(id);
		facts.set(id, {liveEdges: entry?.edges ?? 0, superseded: (entry?.superseded ?? 0) > 0, evidenceEdges: entry?.evidence ?? 0, upserts: entry?.upserts ?? 0, marked: isMarkedArchived(nodeAt, id)});
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
