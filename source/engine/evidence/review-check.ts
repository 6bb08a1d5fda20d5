import {canonicalJson} from '../journal/canonical.js';
import {sha256Hex} from '../../lib/hash.js';
import {locateQuote, type Span} from './proposal-context.js';
import type {ProposalProblem} from './proposal-output-schema.js';
import type {QuoteCitation, Review, TaskProposal} from './proposal-schema.js';

export const proposalSha256 = (proposal: TaskProposal) => sha256Hex(canonicalJson(proposal));

/** What a review must be bound to. */
export type ReviewBinding = {
	readonly question: string;
	readonly scopeSha256: string;
	readonly contextSha256: string;
	readonly proposalSha256: string;
	readonly pins: Readonly<Record<string, {node_sha256: string}>>;
};

export type CheckedPremise = {task: string; premise: string; claim: string; verdict: Review['premises'][number]['verdict']; spans: Span[]};

export const proposalProblem = (reason: string, where: {task?: string; premise?: string; alternative?: number; citation?: number; source?: string} = {}): ProposalProblem => ({
	task: where.task ?? null,
	premise: where.premise ?? null,
	alternative: where.alternative ?? null,
	citation: where.citation ?? null,
	source: where.source ?? null,
	reason,
});

const citationKey = (citation: QuoteCitation) => JSON.stringify([citation.source, citation.quote]);

/**
 * Checks a review against what it claims to review: the same question, scope, context, proposal
 * (its embedded copy hashes to proposal_sha256) and pins; exactly one verdict per premise of the
 * proposal; for `supported`, the spans are the citations of one of the premise's alternatives,
 * for `refuted` quotes (each found once in a source) that contradict it, for `missing` none.
 * Approved means no problem and every premise supported.
 */
export function checkReview(review: Review, binding: ReviewBinding, nodes: ReadonlyMap<string, Record<string, unknown>>): {problems: ProposalProblem[]; premises: CheckedPremise[]; approved: boolean} {
	const problems: ProposalProblem[] = [];
	if (review.question !== binding.question) {
		problems.push(proposalProblem('review_question_mismatch'));
	}

	if (review.scope_sha256 !== binding.scopeSha256) {
		problems.push(proposalProblem('review_scope_mismatch'));
	}

	if (review.context_sha256 !== binding.contextSha256) {
		problems.push(proposalProblem('review_context_mismatch'));
	}

	if (review.proposal_sha256 !== binding.proposalSha256 || proposalSha256(review.proposal) !== review.proposal_sha256) {
		problems.push(proposalProblem('review_proposal_mismatch'));
	}

	if (canonicalJson(review.pins) !== canonicalJson(binding.pins)) {
		problems.push(proposalProblem('review_pins_mismatch'));
	}

	const proposed = new Map(review.proposal.tasks.flatMap(task => task.premises.map(premise => [JSON.stringify([task.id, premise.id]), {task: task.id, premise}] as const)));
	const reviewed = new Set<string>();
	const premises: CheckedPremise[] = [];
	for (const entry of review.premises) {
		const where = {task: entry.task, premise: entry.premise};
		const key = JSON.stringify([entry.task, entry.premise]);
		const target = proposed.get(key);
		if (!target) {
			problems.push(proposalProblem('premise_unknown', where));
			continue;
		}

		if (reviewed.has(key)) {
			problems.push(proposalProblem('premise_reviewed_twice', where));
			continue;
		}

		reviewed.add(key);
		const spans: Span[] = [];
		for (const [index, citation] of entry.spans.entries()) {
			const located = locateQuote(citation, nodes);
			if (typeof located === 'string') {
				problems.push(proposalProblem(located, {...where, citation: index, source: citation.source}));
			} else {
				spans.push(located);
			}
		}

		if (entry.verdict === 'supported') {
			const given = new Set(entry.spans.map(citation => citationKey(citation)));
			const matches = target.premise.alternatives.some(alternative => {
				const cited = new Set(alternative.map(citation => citationKey(citation)));
				return cited.size === given.size && [...cited].every(key => given.has(key));
			});
			if (!matches) {
				problems.push(proposalProblem('supported_spans_not_an_alternative', where));
			}
		} else if (entry.verdict === 'refuted' && entry.spans.length === 0) {
			problems.push(proposalProblem('refuted_without_spans', where));
		} else if (entry.verdict === 'missing' && entry.spans.length > 0) {
			problems.push(proposalProblem('missing_with_spans', where));
		}

		premises.push({...where, claim: target.premise.claim, verdict: entry.verdict, spans});
	}

	for (const [key, {task, premise}] of proposed) {
		if (!reviewed.has(key)) {
			problems.push(proposalProblem('premise_unreviewed', {task, premise: premise.id}));
		}
	}

	return {problems, premises, approved: problems.length === 0 && premises.every(premise => premise.verdict === 'supported')};
}
