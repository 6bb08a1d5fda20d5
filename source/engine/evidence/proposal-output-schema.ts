import * as z from 'zod/mini';
import {lazySchema} from '../../lib/lazy-schema.js';
import {rejectionReasons} from './eligibility.js';
import {contractAnswerFields} from './evaluation-schema.js';
import {proposalContextSchema} from './proposal-context.js';
import {verdicts} from './proposal-schema.js';

/** The JSON answers of the proposal flow (what `engi query` and `engi proposal apply` print). */
export const rejectedSourceSchema = lazySchema(() => z.object({source: z.nullable(z.string()), reason: z.enum(rejectionReasons)}));

export const spanSchema = lazySchema(() => z.object({source: z.string(), quote: z.string(), field: z.string(), start: z.number(), end: z.number()}));

export const proposalProblemSchema = lazySchema(() => z.object({
	task: z.nullable(z.string()),
	premise: z.nullable(z.string()),
	/** 0-based positions of the alternative and the citation in the premise (null when the problem is not about one). */
	alternative: z.nullable(z.number()),
	citation: z.nullable(z.number()),
	/** The source node the problem is about, if one. */
	source: z.nullable(z.string()),
	reason: z.string(),
}));

export type ProposalProblem = z.infer<typeof proposalProblemSchema>;

const reviewTemplateSchema = lazySchema(() => z.object({
	version: z.literal(1),
	question: z.string(),
	scope_sha256: z.string(),
	context_sha256: z.string(),
	proposal_sha256: z.string(),
	pins: z.record(z.string(), z.object({node_sha256: z.string()})),
	proposal: z.record(z.string(), z.unknown()),
	reviewer: z.string(),
	premises: z.array(z.object({task: z.string(), premise: z.string(), verdict: z.enum(verdicts), spans: z.array(z.object({source: z.string(), quote: z.string()}))})),
}));

export const proposalContextOutputSchema = lazySchema(() => z.object({
	scope: z.literal('contract_proposal_context'),
	...contractAnswerFields,
	resolution: z.enum(['proposal_context_prepared', 'blocked']),
	rejected_sources: z.array(rejectedSourceSchema),
	context_sha256: z.nullable(z.string()),
	context: z.nullable(proposalContextSchema),
	/** With --evidence-ids: the sources as numbered evidence units and what to answer with. */
	model_context: z.nullable(
		z.object({
			question: z.string(),
			context_sha256: z.string(),
			instruction_boundary: z.string(),
			evidence: z.array(z.object({evidence_id: z.string(), source: z.string(), field: z.string(), text: z.string()})),
			output: z.string(),
		}),
	),
	/** With --evidence-ids: the JSON Schema of the task draft a model answers with. */
	model_output_schema: z.nullable(z.record(z.string(), z.unknown())),
}));

export const proposalCheckOutputSchema = lazySchema(() => z.object({
	scope: z.literal('contract_task_proposal'),
	...contractAnswerFields,
	resolution: z.enum(['source_validated_review_required', 'proposal_rejected', 'blocked']),
	rejected_sources: z.array(rejectedSourceSchema),
	context_sha256: z.nullable(z.string()),
	proposal_sha256: z.nullable(z.string()),
	problems: z.array(proposalProblemSchema),
	premises: z.array(z.object({task: z.string(), premise: z.string(), claim: z.string(), alternatives: z.array(z.array(spanSchema))})),
	/** The review to fill in (a verdict per premise, a reviewer) and pass to --proposal-review, then to engi proposal apply. */
	review_template: z.nullable(reviewTemplateSchema),
}));

export const reviewCheckOutputSchema = lazySchema(() => z.object({
	scope: z.literal('contract_proposal_review'),
	...contractAnswerFields,
	resolution: z.enum(['review_approved', 'review_rejected', 'proposal_rejected', 'blocked']),
	rejected_sources: z.array(rejectedSourceSchema),
	context_sha256: z.nullable(z.string()),
	proposal_sha256: z.nullable(z.string()),
	review_sha256: z.string(),
	problems: z.array(proposalProblemSchema),
	premises: z.array(z.object({task: z.string(), premise: z.string(), claim: z.string(), verdict: z.enum(verdicts), spans: z.array(spanSchema)})),
	/** The command that writes the reviewed tasks, when the review approves them all. */
	apply: z.nullable(z.array(z.string())),
}));

export const proposalApplyOutputSchema = lazySchema(() => z.object({
	resolution: z.enum(['applied', 'refused']),
	proposal_sha256: z.string(),
	review_sha256: z.string(),
	/** The moment the pins were checked against. */
	checked_at: z.string(),
	problems: z.array(proposalProblemSchema),
	appended: z.array(z.object({id: z.string(), op: z.string(), observed_utc: z.string(), payload: z.record(z.string(), z.unknown())})),
	/** Events the journal already held (the review was applied before). */
	unchanged: z.number(),
	quarantined: z.array(z.object({line: z.number(), reason: z.string()})),
}));

export type ProposalContextOutput = z.infer<typeof proposalContextOutputSchema>;
export type ProposalCheckOutput = z.infer<typeof proposalCheckOutputSchema>;
export type ReviewCheckOutput = z.infer<typeof reviewCheckOutputSchema>;
export type ProposalApplyOutput = z.infer<typeof proposalApplyOutputSchema>;
