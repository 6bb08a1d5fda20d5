import * as z from 'zod/mini';
import type {Deps} from '../deps.js';
import {canonicalEdgeKind} from '../graph/kinds.js';
import {validateNodeKind, validateRelation} from '../graph/validate.js';
import {nodeKind} from '../index/store.js';
import {eventId} from '../journal/canonical.js';
import type {EventDraft} from '../journal/append.js';
import type {KbPaths} from '../kb/paths.js';
import {writeEvents, type WriteResult} from './write.js';

export const graphWriteOutputSchema = z.object({
	id: z.string(),
	op: z.string(),
	/** False when the graph already said exactly this, so nothing was appended. */
	appended: z.boolean(),
	observed_utc: z.nullable(z.string()),
	payload: z.record(z.string(), z.unknown()),
	quarantined: z.array(z.object({line: z.number(), reason: z.string()})),
});

export type GraphWriteOutput = z.infer<typeof graphWriteOutputSchema>;

/** The result of one graph write: the appended event, or the draft the graph already held. */
function writeOutput(result: WriteResult): GraphWriteOutput {
	const quarantined = [...result.quarantined];
	const event = result.events[0];
	if (event) {
		return {id: event.id, op: event.op, appended: true, observed_utc: event.observed_utc, payload: event.payload, quarantined};
	}

	const draft = result.unchanged[0]!;
	return {id: eventId(draft.op, draft.payload), op: draft.op, appended: false, observed_utc: null, payload: draft.payload, quarantined};
}

/** The payload's optional fields, in order, those given only. */
function withDefined(payload: Record<string, unknown>, optional: ReadonlyArray<readonly [string, unknown]>): Record<string, unknown> {
	for (const [key, value] of optional) {
		if (value !== undefined) {
			payload[key] = value;
		}
	}

	return payload;
}

export type NodeInput = {
	readonly id: string;
	/** A core kind (matched case-insensitively) or a custom one, which needs a provenance. */
	readonly kind: string;
	readonly label: string;
	readonly body?: string;
	readonly status?: string;
	readonly nextAction?: string;
	readonly blockers?: string[];
	readonly path?: string;
	readonly provenance?: string;
};

/**
 * The upsert `engi graph node` appends: the kind checked (a custom kind needs a provenance) and
 * written in its canonical spelling, the optional fields that were given. Pure, so a bad kind is
 * refused before the knowledge base is even looked for.
 */
export function nodeDraft(input: NodeInput): EventDraft {
	const kind = validateNodeKind(input.kind, input.provenance);
	const payload = withDefined({id: input.id.trim(), kind, label: input.label}, [
		['body', input.body],
		['status', input.status],
		['next_action', input.nextAction],
		['blockers', input.blockers],
		['path', input.path],
		['provenance', input.provenance],
	]);
	return {op: 'node.upsert', payload};
}

/** Appends one event (unless the graph already says exactly that) and reports it. */
export async function writeGraphEvent(paths: KbPaths, draft: EventDraft, deps: Deps): Promise<GraphWriteOutput> {
	return writeOutput(await writeEvents(paths, deps, () => [draft]));
}

export type EdgeInput = {
	readonly from: string;
	/** A core edge type (any case, `-` for `_`) or a custom one, which needs a provenance. */
	readonly type: string;
	readonly to: string;
	readonly weight?: number;
	readonly validFrom?: string;
	readonly validUntil?: string;
	readonly provenance?: string;
	/** Endpoints need not exist yet. */
	readonly allowDangling: boolean;
};

/** `engi graph relate`: asserts an edge, checked against the graph as it is when the journal lock is taken. */
export async function relateNodes(paths: KbPaths, input: EdgeInput, deps: Deps): Promise<GraphWriteOutput> {
	const result = await writeEvents(paths, deps, (index): EventDraft[] => {
		const type = validateRelation({from: input.from, type: input.type, to: input.to, provenance: input.provenance, allowDangling: input.allowDangling}, id => nodeKind(index.db, id));
		const payload = withDefined({from: input.from, type, to: input.to}, [
			['weight', input.weight],
			['valid_from', input.validFrom],
			['valid_until', input.validUntil],
			['provenance', input.provenance],
		]);
		return [{op: 'edge.assert', payload}];
	});
	return writeOutput(result);
}

/** `engi graph retract`: closes every live assertion of the edge. */
export async function retractEdge(paths: KbPaths, input: {from: string; type: string; to: string}, deps: Deps): Promise<GraphWriteOutput> {
	return writeGraphEvent(paths, {op: 'edge.retract', payload: {from: input.from, type: canonicalEdgeKind(input.type).type, to: input.to}}, deps);
}
