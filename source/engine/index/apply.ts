import {canonicalEdgeKind, canonicalNodeKind} from '../graph/kinds.js';
import {mergeUpsert, nodeKindOf} from '../graph/merge.js';
import {detectMemoryType} from '../upkeep/memory-types.js';
import {reindexNodes} from './node-text.js';
import type {ScannedEvent} from '../journal/scan.js';
import {parseStored, type Database} from '../../lib/sqlite.js';

type NodeState = {
	payload: Record<string, unknown> | undefined;
	firstLine: number;
	lastLine: number;
};

/** Blockers may be recorded as a list or a single string; the index keeps a clean list. */
export function blockerList(value: unknown): string[] {
	if (Array.isArray(value)) {
		return value.filter((item): item is string => typeof item === 'string' && item.trim() !== '');
	}

	return typeof value === 'string' && value.trim() !== '' ? [value] : [];
}

/**
 * Replays journal events into the index tables, in file order. Upserts merge top-level keys;
 * asserts add edge rows; retracts close every earlier matching row. An event id seen before (a
 * re-append, or a line duplicated by a git union merge) is recorded but applied only once.
 * Node states are cached in memory for the run and written once by `flush()`.
 */
/**
 * Applies scanned events to the index tables. `fresh`: the tables were just emptied, so an event
 * seen before can only be one of this run's (no lookup of earlier rows).
 */
export function createApplier(db: Database, options: {fresh: boolean}) {
	const insertEvent = db.prepare(
		'INSERT INTO events (line, id, op, observed_utc, payload, subject, object, duplicate) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
	);
	const eventExists = db.prepare('SELECT 1 FROM events WHERE id = ? AND duplicate = 0 LIMIT 1').pluck();
	const selectNode = db.prepare('SELECT payload, observed_utc, first_line, last_line FROM nodes WHERE id = ?');
	const upsertNode = db.prepare(
		'INSERT OR REPLACE INTO nodes (id, kind, label, status, next_action, blockers, observed_utc, payload, first_line, last_line, memory_type) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
	);
	const insertEdge = db.prepare(
		'INSERT INTO edges (line, event_id, from_id, type, to_id, weight, valid_from, valid_until, observed_utc, provenance) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
	);
	const retractEdges = db.prepare(
		'UPDATE edges SET retracted_line = ?, retracted_utc = ? WHERE from_id = ? AND type = ? AND to_id = ? AND retracted_line IS NULL',
	);
	const nodes = new Map<string, NodeState>();
	const seen = new Set<string>();
	let applied = 0;
	let distinct = 0;

	function loadNode(id: string): NodeState | undefined {
		const cached = nodes.get(id);
		if (cached) {
			return cached;
		}

		const row = selectNode.get(id) as {payload: string; observed_utc: string; first_line: number; last_line: number} | undefined;
		if (!row) {
			return undefined;
		}

		const state = {payload: parseStored<Record<string, unknown>>(row.payload, 'index'), firstLine: row.first_line, lastLine: row.last_line};
		nodes.set(id, state);
		return state;
	}

	function apply({line, event, known}: ScannedEvent): void {
		const payload = event.payload;
		const duplicate = seen.has(event.id) || (!options.fresh && eventExists.get(event.id) !== undefined);
		const subject = typeof payload['id'] === 'string' ? payload['id'] : typeof payload['from'] === 'string' ? payload['from'] : null;
		const object = typeof payload['to'] === 'string' ? payload['to'] : null;
		insertEvent.run(line, event.id, event.op, event.observed_utc, JSON.stringify(payload), subject, object, duplicate ? 1 : 0);
		if (duplicate) {
			return;
		}

		seen.add(event.id);
		distinct++;
		if (!known) {
			return;
		}

		applied++;
		switch (event.op) {
			case 'node.upsert': {
				const id = payload['id'] as string;
				const state = loadNode(id) ?? {payload: undefined, firstLine: line, lastLine: line};
				nodes.set(id, {payload: mergeUpsert(state.payload, payload, event.observed_utc), firstLine: state.firstLine, lastLine: line});
				break;
			}

			case 'edge.assert': {
				const {type} = canonicalEdgeKind(payload['type'] as string);
				insertEdge.run(
					line,
					event.id,
					payload['from'],
					type,
					payload['to'],
					typeof payload['weight'] === 'number' ? payload['weight'] : null,
					typeof payload['valid_from'] === 'string' ? payload['valid_from'] : event.observed_utc,
					typeof payload['valid_until'] === 'string' ? payload['valid_until'] : null,
					event.observed_utc,
					typeof payload['provenance'] === 'string' ? payload['provenance'] : null,
				);
				break;
			}

			case 'edge.retract': {
				const {type} = canonicalEdgeKind(payload['type'] as string);
				retractEdges.run(line, event.observed_utc, payload['from'], type, payload['to']);
				break;
			}

			default:
				break;
		}
	}

	function flush(): void {
		const touched = [...nodes.keys()];
		for (const [id, {payload: merged, firstLine, lastLine}] of nodes) {
			const state = {payload: merged ?? {id}, firstLine, lastLine};
			const rawKind = nodeKindOf(state.payload);
			const kind = rawKind === undefined ? null : canonicalNodeKind(rawKind).kind;
			const label = typeof state.payload['label'] === 'string' ? state.payload['label'] : null;
			const status = typeof state.payload['status'] === 'string' ? state.payload['status'] : null;
			const nextAction = typeof state.payload['next_action'] === 'string' ? state.payload['next_action'] : null;
			const blockers = blockerList(state.payload['blockers'] ?? state.payload['blocker']);
			upsertNode.run(id, kind, label, status, nextAction, blockers.length > 0 ? JSON.stringify(blockers) : null, state.payload['observed_utc'], JSON.stringify(state.payload), state.firstLine, state.lastLine, detectMemoryType(state.payload));
		}

		reindexNodes(db, touched);
		nodes.clear();
	}

	return {apply, flush, applied: () => applied, distinct: () => distinct};
}
