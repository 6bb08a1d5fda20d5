import * as z from 'zod/mini';
import {isCanonicalUtc} from '../../lib/time.js';

/** The operations replay understands. Anything else is kept in the file but ignored, with a warning. */
export const journalOps = ['node.upsert', 'edge.assert', 'edge.retract'] as const;
export type JournalOp = (typeof journalOps)[number];

const canonicalUtc = z.string().check(z.refine(isCanonicalUtc, 'must be YYYY-MM-DDTHH:MM:SSZ'));
const nonEmpty = z.string().check(z.trim(), z.minLength(1));

export const nodeUpsertPayloadSchema = z.looseObject({
	id: nonEmpty,
	kind: z.optional(nonEmpty),
	label: z.optional(z.string()),
	provenance: z.optional(z.string()),
});

export const edgeAssertPayloadSchema = z.looseObject({
	from: nonEmpty,
	type: nonEmpty,
	to: nonEmpty,
	weight: z.optional(z.number().check(z.refine(Number.isFinite, 'must be a finite number'))),
	valid_from: z.optional(z.nullable(canonicalUtc)),
	valid_until: z.optional(z.nullable(canonicalUtc)),
	provenance: z.optional(z.string()),
});

export const edgeRetractPayloadSchema = z.looseObject({
	from: nonEmpty,
	type: nonEmpty,
	to: nonEmpty,
});

export const payloadSchemas = {
	'node.upsert': nodeUpsertPayloadSchema,
	'edge.assert': edgeAssertPayloadSchema,
	'edge.retract': edgeRetractPayloadSchema,
} as const;

/** One line of `.engi/journal.jsonl`. */
export const journalLineSchema = z.object({
	id: z.string().check(z.minLength(1)),
	observed_utc: canonicalUtc,
	op: z.string().check(z.minLength(1)),
	payload: z.record(z.string(), z.unknown()),
});

export type JournalLine = z.infer<typeof journalLineSchema>;

export type NodeUpsertPayload = z.infer<typeof nodeUpsertPayloadSchema>;
export type EdgeAssertPayload = z.infer<typeof edgeAssertPayloadSchema>;
export type EdgeRetractPayload = z.infer<typeof edgeRetractPayloadSchema>;

export function isKnownOp(op: string): op is JournalOp {
	return (journalOps as readonly string[]).includes(op);
}
