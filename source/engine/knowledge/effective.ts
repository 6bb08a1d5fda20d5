import {canonicalEdgeKind} from '../graph/kinds.js';
import {canonicalJson, eventId} from '../journal/canonical.js';
import type {EventDraft} from '../journal/append.js';
import type {Database} from '../../lib/sqlite.js';
import {eventRecorded, nodePayload, openEdges} from '../index/store.js';

/**
 * Content addressing makes identical events converge, so replay applies an id once. That is
 * right for a line duplicated by a merge, but it would silently swallow a deliberate repeat:
 * re-asserting an edge after it was retracted, or setting a status back to an earlier value.
 * Such a draft gets `reassert_of: <previous id>`, chaining to a fresh id that replay applies.
 */
export function distinctFromHistory(db: Database, draft: EventDraft): EventDraft {
	const recorded = eventRecorded(db);
	let payload = draft.payload;
	let id = eventId(draft.op, payload);
	while (recorded(id)) {
		payload = {...draft.payload, reassert_of: id};
		id = eventId(draft.op, payload);
	}

	return {op: draft.op, payload};
}

/** True when appending the draft would not change the graph as it stands now. */
export function changesNothing(db: Database, draft: EventDraft): boolean {
	const payload = draft.payload;
	if (draft.op === 'node.upsert') {
		const current = nodePayload(db, String(payload['id']));
		if (!current) {
			return false;
		}

		return Object.entries(payload).every(([key, value]) => key === 'observed_utc' || canonicalJson(current[key]) === canonicalJson(value));
	}

	const type = canonicalEdgeKind(String(payload['type'])).type;
	const open = openEdges(db, payload['from'], type, payload['to']);
	if (draft.op === 'edge.retract') {
		return open.length === 0;
	}

	return open.some(
		row =>
			row.weight === (payload['weight'] ?? null) &&
			(payload['valid_from'] === undefined || row.valid_from === payload['valid_from']) &&
			row.valid_until === (payload['valid_until'] ?? null) &&
			row.provenance === (payload['provenance'] ?? null),
	);
}
