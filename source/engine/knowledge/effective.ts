import {canonicalEdgeKind} from '../graph/kinds.js';
import {eventId, canonicalJson} from '../journal/canonical.js';
import type {EventDraft} from '../journal/append.js';
import type {Database} from '../../lib/sqlite.js';

/**
 * Content addressing makes identical events converge, so replay applies an id once. That is
 * right for a line duplicated by a merge, but it would silently swallow a deliberate repeat:
 * re-asserting an edge after it was retracted, or setting a status back to an earlier value.
 * Such a draft gets `reassert_of: <previous id>`, chaining to a fresh id that replay applies.
 */
export function distinctFromHistory(db: Database, draft: EventDraft): EventDraft {
	const recorded = db.prepare('SELECT 1 FROM events WHERE id = ? LIMIT 1').pluck();
	let payload = draft.payload;
	let id = eventId(draft.op, payload);
	while (recorded.get(id) !== undefined) {
		payload = {...draft.payload, reassert_of: id};
		id = eventId(draft.op, payload);
	}

	return {op: draft.op, payload};
}

/** True when appending the draft would not change the graph as it stands now. */
export function changesNothing(db: Database, draft: EventDraft): boolean {
	const payload = draft.payload;
	if (draft.op === 'node.upsert') {
		const row = db.prepare('SELECT payload FROM nodes WHERE id = ?').get(payload['id']) as {payload: string} | undefined;
		if (!row) {
			return false;
		}

		const current = JSON.parse(row.payload) as Record<string, unknown>;
		return Object.entries(payload).every(([key, value]) => key === 'observed_utc' || canonicalJson(current[key]) === canonicalJson(value));
	}

	const type = canonicalEdgeKind(String(payload['type'])).type;
	const open = db
		.prepare('SELECT weight, valid_from, valid_until, provenance FROM edges WHERE from_id = ? AND type = ? AND to_id = ? AND retracted_line IS NULL')
		.all(payload['from'], type, payload['to']) as Array<{weight: number | null; valid_from: string; valid_until: string | null; provenance: string | null}>;
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
