import * as z from 'zod/mini';
import {lazySchema} from '../../lib/lazy-schema.js';

/**
 * The documents of the proposal flow, all strict (unknown fields are refused):
 *
 * - a task proposal: tasks a model proposes from a prepared context, each resting on premises,
 *   each premise on alternatives of citations that quote the context's sources verbatim;
 * - a task draft: the same, citing evidence ids (`E1`…) from the context's `model_context`
 *   instead of quoting, so a model cannot misquote; engi turns it into the proposal it stands for;
 * - a review: a person's (or a second agent's) verdict on every premise, bound to the context and
 *   the proposal by their hashes, carrying the proposal and the pins so `engi proposal apply`
 *   needs nothing else.
 */
const nonBlank = (what: string) => z.string().check(z.refine(value => value.trim() !== '', `${what} must not be blank`));
export const sha256Field = lazySchema(() => z.string().check(z.regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 digest in lowercase hex (64 characters)')));

export const proposalLimits = {tasks: 16, premises: 32, alternatives: 16, citations: 16} as const;

export const quoteCitationSchema = lazySchema(() => z.strictObject({source: nonBlank('a source id'), quote: nonBlank('a quote')}));
export const evidenceCitationSchema = lazySchema(() => z.strictObject({evidence: z.string().check(z.regex(/^E[1-9]\d*$/, 'must be an evidence id from model_context, such as E1'))}));

function unique<T>(key: (item: T) => string, what: string) {
	return z.superRefine((items: T[], context) => {
		const seen = new Set<string>();
		for (const [index, item] of items.entries()) {
			if (seen.has(key(item))) {
				context.addIssue({code: 'custom', message: `${what} must be unique; "${key(item)}" repeats`, input: key(item), path: [index]});
			}

			seen.add(key(item));
		}
	});
}

function proposalEnvelope<Citation extends z.ZodMiniType>(citation: Citation) {
	const premise = z.strictObject({
		id: nonBlank('a premise id'),
		claim: nonBlank('a claim'),
		alternatives: z.array(z.array(citation).check(z.minLength(1, 'an alternative needs at least 1 citation'), z.maxLength(proposalLimits.citations, `an alternative allows at most ${proposalLimits.citations} citations`))).check(
			z.minLength(1, 'a premise needs at least 1 cited alternative'),
			z.maxLength(proposalLimits.alternatives, `a premise allows at most ${proposalLimits.alternatives} alternatives`),
		),
	});
	const task = z.strictObject({
		id: nonBlank('a task id'),
		label: nonBlank('a label'),
		body: z.optional(z.string()),
		status: z.optional(nonBlank('a status')),
		next_action: z.optional(z.string()),
		/** An existing Project node the task belongs to. */
		project: z.optional(nonBlank('a project id')),
		premises: z.array(premise).check(z.minLength(1, 'a task needs at least 1 premise'), z.maxLength(proposalLimits.premises, `a task allows at most ${proposalLimits.premises} premises`), unique(premise => premise.id, 'premise ids')),
	});
	return z.strictObject({
		version: z.literal(1, 'must be 1'),
		question: nonBlank('question'),
		context_sha256: sha256Field,
		tasks: z.array(task).check(z.minLength(1, 'needs at least 1 task'), z.maxLength(proposalLimits.tasks, `allows at most ${proposalLimits.tasks} tasks`), unique(task => task.id, 'task ids')),
	});
}

export const taskProposalSchema = lazySchema(() => proposalEnvelope(quoteCitationSchema));
export const taskDraftSchema = lazySchema(() => proposalEnvelope(evidenceCitationSchema));

export type TaskProposal = z.infer<typeof taskProposalSchema>;
export type TaskDraft = z.infer<typeof taskDraftSchema>;
export type QuoteCitation = z.infer<typeof quoteCitationSchema>;

export const verdicts = ['supported', 'missing', 'refuted'] as const;

export const reviewSchema = lazySchema(() => z.strictObject({
	version: z.literal(1, 'must be 1'),
	question: nonBlank('question'),
	scope_sha256: sha256Field,
	context_sha256: sha256Field,
	proposal_sha256: sha256Field,
	/** The context's sources and their hashes when it was prepared; apply refuses if any has changed since. */
	pins: z.record(z.string(), z.strictObject({node_sha256: sha256Field})),
	proposal: taskProposalSchema,
	reviewer: nonBlank('reviewer'),
	premises: z.array(
		z.strictObject({
			task: nonBlank('a task id'),
			premise: nonBlank('a premise id'),
			verdict: z.enum(verdicts, 'must be supported, missing or refuted'),
			/** supported: the citations of the alternative that holds; refuted: quotes that contradict it; missing: none. */
			spans: z.array(quoteCitationSchema).check(z.maxLength(proposalLimits.citations, `allows at most ${proposalLimits.citations} spans`)),
			note: z.optional(z.string()),
		}),
	),
}));

export type Review = z.infer<typeof reviewSchema>;
