import type {ScannedEvent} from '../journal/scan.js';
import {canonicalEdgeKind} from './kinds.js';
import {mergeUpsert} from './merge.js';

export type ReplayedEdge = {
	line: number;
	from: string;
	type: string;
	to: string;
	valid_from: string;
	valid_until: string | null;
	observed_utc: string;
	retracted_utc: string | null;
};

/**
 * The journal's meaning computed in memory, without the index: the reference the SQL index is
 * checked against, and what doctor uses so it never has to write anything.
 */
export function replayInMemory(events: readonly ScannedEvent[], asOf?: string) {
	const nodes = new Map<string, Record<string, unknown>>();
	const edges: ReplayedEdge[] = [];
	const seen = new Set<string>();
	for (const {line, event, known} of events) {
		if (!known || seen.has(event.id) || (asOf !== undefined && event.observed_utc > asOf)) {
			continue;
		}

		seen.add(event.id);
		const payload = event.payload;
		if (event.op === 'node.upsert') {
			const id = payload['id'] as string;
			nodes.set(id, mergeUpsert(nodes.get(id), payload, event.observed_utc));
		} else if (event.op === 'edge.assert') {
			edges.push({
				line,
				from: payload['from'] as string,
				type: canonicalEdgeKind(payload['type'] as string).type,
				to: payload['to'] as string,
				valid_from: typeof payload['valid_from'] === 'string' ? payload['valid_from'] : event.observed_utc,
				valid_until: typeof payload['valid_until'] === 'string' ? payload['valid_until'] : null,
				observed_utc: event.observed_utc,
				retracted_utc: null,
			});
		} else if (event.op === 'edge.retract') {
			const type = canonicalEdgeKind(payload['type'] as string).type;
			for (const edge of edges) {
				if (edge.retracted_utc === null && edge.from === payload['from'] && edge.type === type && edge.to === payload['to']) {
					edge.retracted_utc = event.observed_utc;
				}
			}
		}
	}

	return {nodes, edges};
}

export function isEdgeLive(edge: ReplayedEdge, at: string, includeExpired = false): boolean {
	if (edge.observed_utc > at || (edge.retracted_utc !== null && edge.retracted_utc <= at)) {
		return false;
	}

	return includeExpired || (edge.valid_from <= at && (edge.valid_until === null || at <= edge.valid_until));
}
