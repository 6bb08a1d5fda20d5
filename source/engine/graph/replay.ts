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
 * checked against, and what doctor and evidence contracts use so they never write anything.
 * Events are applied one at a time, in file order, so a caller reading a large journal need not
 * hold them all; `onApplied` sees each one applied (not the repeats skipped), for citing them.
 */
export function createReplay(asOf?: string, onApplied?: (event: ScannedEvent) => void, options: {readonly mergeNodes?: boolean} = {}) {
	// A caller that needs a few nodes of a large journal merges them itself, from the upserts onApplied sees.
	const mergeNodes = options.mergeNodes ?? true;
	const nodes = new Map<string, Record<string, unknown>>();
	const edges: ReplayedEdge[] = [];
	// Rows not yet retracted, by from, type and to: a retract closes them without scanning every edge.
	const open = new Map<string, ReplayedEdge[]>();
	const edgeKey = (from: unknown, type: string, to: unknown) => JSON.stringify([from, type, to]);
	const seen = new Set<string>();
	const apply = (scanned: ScannedEvent): void => {
		const {line, event, known} = scanned;
		if (!known || seen.has(event.id) || (asOf !== undefined && event.observed_utc > asOf)) {
			return;
		}

		seen.add(event.id);
		onApplied?.(scanned);
		const payload = event.payload;
		if (event.op === 'node.upsert') {
			if (!mergeNodes) {
				return;
			}

			const id = payload['id'] as string;
			nodes.set(id, mergeUpsert(nodes.get(id), payload, event.observed_utc));
		} else if (event.op === 'edge.assert') {
			const edge: ReplayedEdge = {
				line,
				from: payload['from'] as string,
				type: canonicalEdgeKind(payload['type'] as string).type,
				to: payload['to'] as string,
				valid_from: typeof payload['valid_from'] === 'string' ? payload['valid_from'] : event.observed_utc,
				valid_until: typeof payload['valid_until'] === 'string' ? payload['valid_until'] : null,
				observed_utc: event.observed_utc,
				retracted_utc: null,
			};
			edges.push(edge);
			const key = edgeKey(edge.from, edge.type, edge.to);
			const rows = open.get(key);
			if (rows) {
				rows.push(edge);
			} else {
				open.set(key, [edge]);
			}
		} else if (event.op === 'edge.retract') {
			const key = edgeKey(payload['from'], canonicalEdgeKind(payload['type'] as string).type, payload['to']);
			for (const edge of open.get(key) ?? []) {
				edge.retracted_utc = event.observed_utc;
			}

			open.delete(key);
		}
	};

	return {nodes, edges, apply};
}

export function replayInMemory(events: readonly ScannedEvent[], asOf?: string) {
	const replay = createReplay(asOf);
	for (const event of events) {
		replay.apply(event);
	}

	return {nodes: replay.nodes, edges: replay.edges};
}

export function isEdgeLive(edge: ReplayedEdge, at: string, includeExpired = false): boolean {
	if (edge.observed_utc > at || (edge.retracted_utc !== null && edge.retracted_utc <= at)) {
		return false;
	}

	return includeExpired || (edge.valid_from <= at && (edge.valid_until === null || at <= edge.valid_until));
}
