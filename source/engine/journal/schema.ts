import * as z from 'zod/mini';
import {lazySchema} from '../../lib/lazy-schema.js';
import {isCanonicalUtc} from '../../lib/time.js';

/** The operations replay understands. Anything else is kept in the file but ignored, with a warning. */
export const journalOps = ['node.upsert', 'edge.assert', 'edge.retract'] as const;
export type JournalOp = (typeof journalOps)[number];

const canonicalUtc = () => z.string().check(z.refine(isCanonicalUtc, 'must be YYYY-MM-DDTHH:MM:SSZ'));
const nonEmpty = () => z.string().check(z.trim(), z.minLength(1));

// The schemas are built on first use (a write, a test): every command that opens the index loads
// this module, and reading the journal uses the predicates below instead.
export const nodeUpsertPayloadSchema = lazySchema(() => z.looseObject({
	id: nonEmpty(),
	kind: z.optional(nonEmpty()),
	label: z.optional(z.string()),
	provenance: z.optional(z.string()),
}));

export const edgeAssertPayloadSchema = lazySchema(() => z.looseObject({
	from: nonEmpty(),
	type: nonEmpty(),
	to: nonEmpty(),
	weight: z.optional(z.number().check(z.refine(Number.isFinite, 'must be a finite number'))),
	valid_from: z.optional(z.nullable(canonicalUtc())),
	valid_until: z.optional(z.nullable(canonicalUtc())),
	provenance: z.optional(z.string()),
}));

export const edgeRetractPayloadSchema = lazySchema(() => z.looseObject({
	from: nonEmpty(),
	type: nonEmpty(),
	to: nonEmpty(),
}));

export const payloadSchemas = {
	'node.upsert': nodeUpsertPayloadSchema,
	'edge.assert': edgeAssertPayloadSchema,
	'edge.retract': edgeRetractPayloadSchema,
} as const;

/** One line of `.engi/journal.jsonl`. */
export const journalLineSchema = lazySchema(() => z.object({
	id: z.string().check(z.minLength(1)),
	observed_utc: canonicalUtc(),
	op: z.string().check(z.minLength(1)),
	payload: z.record(z.string(), z.unknown()),
}));

export type JournalLine = z.infer<typeof journalLineSchema>;

export type NodeUpsertPayload = z.infer<typeof nodeUpsertPayloadSchema>;
export type EdgeAssertPayload = z.infer<typeof edgeAssertPayloadSchema>;
export type EdgeRetractPayload = z.infer<typeof edgeRetractPayloadSchema>;

export function isKnownOp(op: string): op is JournalOp {
	return (journalOps as readonly string[]).includes(op);
}

/*
 * The same rules as the schemas above, as plain predicates for reading: every journal scan checks
 * every line, and zod builds a copy of each value it checks, which costs more than parsing the
 * JSON. Writes keep the schemas (for their messages); test/journal-line.test.ts holds the two to
 * the same answers.
 */
const isText = (value: unknown) => typeof value === 'string' && value.length > 0;
const isNonEmpty = (value: unknown) => typeof value === 'string' && value.trim() !== '';
const isOptionalString = (value: unknown) => value === undefined || typeof value === 'string';
const isOptionalUtc = (value: unknown) => value === undefined || value === null || isCanonicalUtc(value);
const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The envelope of a journal line, as journalLineSchema reads it (unknown keys dropped), or undefined. */
export function journalEnvelope(value: unknown): JournalLine | undefined {
	if (!isObject(value) || !isText(value['id']) || !isCanonicalUtc(value['observed_utc']) || !isText(value['op']) || !isObject(value['payload'])) {
		return undefined;
	}

	return {id: value['id'] as string, observed_utc: value['observed_utc'], op: value['op'] as string, payload: value['payload']};
}

export const payloadChecks: Record<JournalOp, (payload: Record<string, unknown>) => boolean> = {
	'node.upsert': payload => isNonEmpty(payload['id']) && (payload['kind'] === undefined || isNonEmpty(payload['kind'])) && isOptionalString(payload['label']) && isOptionalString(payload['provenance']),
	'edge.assert': payload =>
		isNonEmpty(payload['from']) &&
		isNonEmpty(payload['type']) &&
		isNonEmpty(payload['to']) &&
		(payload['weight'] === undefined || (typeof payload['weight'] === 'number' && Number.isFinite(payload['weight']))) &&
		isOptionalUtc(payload['valid_from']) &&
		isOptionalUtc(payload['valid_until']) &&
		isOptionalString(payload['provenance']),
	'edge.retract': payload => isNonEmpty(payload['from']) && isNonEmpty(payload['type']) && isNonEmpty(payload['to']),
};
