import * as z from 'zod/mini';
import {lazySchema} from '../../lib/lazy-schema.js';
import {rejectionReasons} from './eligibility.js';
import {packetSchema} from './packet.js';

export const evaluationResolutions = ['covered', 'conflict', 'blocked', 'budget_insufficient', 'search_limit_unknown'] as const;
export type EvaluationResolution = (typeof evaluationResolutions)[number];

export const rejectedAlternativeSchema = lazySchema(() => z.object({
	fact: z.string(),
	/** 0-based index of the alternative in the contract's fact. */
	alternative: z.number(),
	reason: z.enum(rejectionReasons),
	/** The node the reason is about; null when it lies outside the contract's scope. */
	source: z.nullable(z.string()),
}));

export const sourceRequestSchema = lazySchema(() => z.object({node: z.string(), action: z.string()}));

/** What every answer to a contract says about how it was reached. */
export const contractAnswerFields = lazySchema(() => ({
	contract_sha256: z.string(),
	journal_sha256: z.string(),
	question: z.string(),
	claim_boundary: z.string(),
	permissions: z.object({reads: z.array(z.string()), writes: z.array(z.string())}),
	freshness: z.object({
		as_of: z.string(),
		min_observed_utc: z.string(),
		/** Journal events observed by as_of, which the snapshot replayed. */
		events_considered: z.number(),
		/** Journal events observed after as_of, left out. */
		events_after_as_of: z.number(),
		newest_observed_utc: z.nullable(z.string()),
	}),
	source_requests: z.array(sourceRequestSchema),
}));

export const evaluationSchema = lazySchema(() => z.object({
	scope: z.literal('contract_evidence_closure'),
	...contractAnswerFields,
	resolution: z.enum(evaluationResolutions),
	/** Facts with no admitted alternative. */
	missing_facts: z.array(z.string()),
	rejected_alternatives: z.array(rejectedAlternativeSchema),
	/** The alternative the packet uses for each fact (empty unless covered). */
	chosen_alternatives: z.array(z.object({fact: z.string(), alternative: z.number()})),
	packet: z.nullable(packetSchema),
	packet_tokens: z.nullable(z.number()),
	budget_tokens: z.number(),
	cost_scope: z.string(),
	/** Search states the solver visited, and the contract's limit. */
	search: z.object({states: z.number(), limit: z.number()}),
}));

export type Evaluation = z.infer<typeof evaluationSchema>;
export type RejectedAlternative = z.infer<typeof rejectedAlternativeSchema>;
