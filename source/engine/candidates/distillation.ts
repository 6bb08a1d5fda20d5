import * as z from 'zod/mini';
import {lazySchema} from '../../lib/lazy-schema.js';
import {EngiError} from '../../lib/errors.js';

/**
 * What a distiller sends back: the judgement a harvest refuses to make. Each claim cites the
 * turns it rests on; `next` is a proposal for the following session and cites nothing. Any
 * distiller's reply (the calling agent's, a local model's) passes the same citation filter.
 */
const claimInput = lazySchema(() => z.object({text: z.string(), turns: z.array(z.number())}));

export const distillationSchema = lazySchema(() => z.object({
	/** Who distilled it (a model name or the tool), recorded on the candidate. */
	model: z.string().check(z.trim(), z.minLength(1)),
	verified: z._default(z.array(claimInput), []),
	failed: z._default(z.array(claimInput), []),
	blockers: z._default(z.array(claimInput), []),
	decided: z._default(z.array(claimInput), []),
	next: z._default(z.nullable(z.string()), null),
}));

export type Distillation = z.infer<typeof distillationSchema>;

export const claimFields = ['verified', 'failed', 'blockers', 'decided'] as const;
export type ClaimField = (typeof claimFields)[number];

/** The JSON Schema of a reply, as a distiller is shown it. */
export function distillationJsonSchema(): Record<string, unknown> {
	return z.toJSONSchema(distillationSchema, {io: 'input'}) as Record<string, unknown>;
}

export const distillationRules = [
	'Reply with one JSON document and nothing else, matching the JSON Schema below.',
	'model: who you are (a model name).',
	'verified: what the session showed to work; each claim must cite a turn whose tool call or command succeeded.',
	'failed: approaches that were tried and did not work. blockers: what stops the work now. decided: choices the session made.',
	'Every claim cites, in "turns", the numbers of the served turns it rests on. A claim that cites no turn, a turn that does not exist or a turn that was not served is dropped.',
	'next: one proposal for the following session, or null; it cites nothing.',
	'Leave a list empty rather than guess.',
];

/**
 * A reply's text as a distillation, or a typed error naming what is wrong (never the reply's
 * content): `invalid_json` when it is not one JSON document, `invalid_distillation` when it does
 * not have a distillation's shape. `model` fills in a reply that does not say who wrote it.
 */
export function parseDistillation(text: string, origin: string, options: {model?: string} = {}): Distillation {
	let value: unknown;
	try {
		value = JSON.parse(unfenced(text));
	} catch {
		throw new EngiError('invalid_json', `${origin} is not one JSON document`, {hint: 'nothing was changed; the reply must be the JSON object alone (engi candidates evidence prints its schema)'});
	}

	if (options.model !== undefined && value !== null && typeof value === 'object' && !Array.isArray(value) && !('model' in value)) {
		value = {...value, model: options.model};
	}

	const parsed = distillationSchema.safeParse(value);
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		throw new EngiError('invalid_distillation', `${origin}: ${issue?.path.map(String).join('.') || 'document'}: ${issue?.message ?? 'invalid'}`, {hint: 'nothing was changed; engi candidates evidence prints the schema a distillation follows'});
	}

	return parsed.data;
}

/** A reply wrapped in one Markdown code fence (as models often send JSON) without the fence. */
function unfenced(text: string): string {
	const trimmed = text.trim();
	const fenced = /^(`{3,})[\w-]*\n([\s\S]*)\n\1$/.exec(trimmed);
	return fenced ? fenced[2]! : trimmed;
}
