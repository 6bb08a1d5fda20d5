import * as z from 'zod/mini';
import type {Deps} from '../deps.js';
import {EngiError, type ExitCode} from '../../lib/errors.js';
import {canonicalNodeKind} from '../graph/kinds.js';
import {nodeKindOf} from '../graph/merge.js';
import {canonicalJson} from '../journal/canonical.js';
import {requireKnowledgeBase, type KbPaths} from '../kb/paths.js';
import {sha256Hex} from '../../lib/hash.js';
import {loadContract, type LoadedContract} from './contract.js';
import {createJudge} from './eligibility.js';
import {contractAnswerBase} from './evaluate.js';
import {readJsonInput} from './json-file.js';
import {buildContext, evidenceUnits, locateQuote, maxContextBytes, proposalClaimBoundary, scopeSha256, type ProposalContext, type Span} from './proposal-context.js';
import type {ProposalCheckOutput, ProposalContextOutput, ProposalProblem, ReviewCheckOutput} from './proposal-output-schema.js';
import {reviewSchema, taskDraftSchema, taskProposalSchema, type QuoteCitation, type TaskDraft, type TaskProposal} from './proposal-schema.js';
import {checkReview, proposalProblem, proposalSha256} from './review-check.js';
import {readSnapshot, type Snapshot} from './snapshot.js';

type Answer<T> = {output: T; exitCode: ExitCode};

type Prepared = {
	readonly loaded: LoadedContract;
	readonly snapshot: Snapshot;
	readonly rejected: Array<{source: string | null; reason: ProposalContextOutput['rejected_sources'][number]['reason']}>;
	readonly base: ReturnType<typeof contractAnswerBase>;
	/** Undefined when a source cannot be used (then `rejected` says why). */
	readonly context?: {context: ProposalContext; sha256: string; nodes: ReadonlyMap<string, Record<string, unknown>>};
};

/**
 * The proposal context of a contract with `facts: []`: its sources, each checked like any
 * evidence (scope, pin, presence, hash, window, provenance), as pinned, with the scope they
 * came from. A proposal is bound to the context's hash, so a source that changes afterwards
 * invalidates every proposal and review made from it.
 */
function prepare(paths: KbPaths, file: string, q: string, deps: Deps): Prepared {
	requireKnowledgeBase(paths);
	const loaded = loadContract(file, deps.cwd, q, 'prepare_proposal');
	const {contract} = loaded;
	const snapshot = readSnapshot(paths, contract.as_of);
	const judge = createJudge(contract, snapshot);
	const ids = Object.keys(contract.sources).sort();
	const rejected = ids.flatMap(id => {
		const rejection = judge.eligibility(id);
		return rejection ? [{source: rejection.source, reason: rejection.reason}] : [];
	});
	const base = contractAnswerBase(loaded, snapshot, rejected, proposalClaimBoundary);
	if (rejected.length > 0) {
		return {loaded, snapshot, rejected, base};
	}

	const sources = ids.map(id => ({id, node: JSON.parse(canonicalJson(snapshot.nodes.get(id)!)) as Record<string, unknown>, node_sha256: judge.hashOf(id)}));
	const built = buildContext(contract.question, sources, scopeSha256(contract.scope_receipt, contract.scope_nodes));
	if (built.bytes > maxContextBytes) {
		throw new EngiError('proposal_context_too_large', `the proposal context of ${file} is ${built.bytes} bytes; at most ${maxContextBytes} (128 KiB)`, {hint: 'pin fewer or smaller sources'});
	}

	return {loaded, snapshot, rejected, base, context: {context: built.context, sha256: built.sha256, nodes: new Map(sources.map(source => [source.id, source.node]))}};
}

/** `engi query --q … --evidence-contract <file> --prepare-proposal [--evidence-ids]`. */
export function prepareProposal(paths: KbPaths, input: {file: string; q: string; evidenceIds: boolean}, deps: Deps): Answer<ProposalContextOutput> {
	const prepared = prepare(paths, input.file, input.q, deps);
	const ready = prepared.context;
	const model = ready && input.evidenceIds
		? {
				model_context: {
					question: ready.context.question,
					context_sha256: ready.sha256,
					instruction_boundary: ready.context.instruction_boundary,
					evidence: evidenceUnits(ready.context),
					output: `Answer with one JSON document matching model_output_schema: tasks for the question, each premise cited by evidence ids from this context, and context_sha256 "${ready.sha256}".`,
				},
				model_output_schema: z.toJSONSchema(taskDraftSchema, {io: 'input', unrepresentable: 'any'}) as Record<string, unknown>,
			}
		: {model_context: null, model_output_schema: null};
	return {
		output: {
			scope: 'contract_proposal_context',
			...prepared.base,
			resolution: ready ? 'proposal_context_prepared' : 'blocked',
			rejected_sources: prepared.rejected,
			context_sha256: ready?.sha256 ?? null,
			context: ready?.context ?? null,
			...model,
		},
		exitCode: ready ? 0 : 2,
	};
}

/** A draft's evidence ids replaced by the quotes they stand for: the proposal it means. */
function proposalOfDraft(draft: TaskDraft, context: ProposalContext): {proposal: TaskProposal; problems: ProposalProblem[]} {
	const units = new Map(evidenceUnits(context).map(unit => [unit.evidence_id, unit]));
	const problems: ProposalProblem[] = [];
	const proposal: TaskProposal = {
		...draft,
		tasks: draft.tasks.map(task => ({
			...task,
			premises: task.premises.map(premise => ({
				...premise,
				alternatives: premise.alternatives.map((alternative, alternativeIndex) =>
					alternative.flatMap((citation, citationIndex): QuoteCitation[] => {
						const unit = units.get(citation.evidence);
						if (!unit) {
							problems.push(proposalProblem('evidence_id_unknown', {task: task.id, premise: premise.id, alternative: alternativeIndex, citation: citationIndex}));
							return [];
						}

						return [{source: unit.source, quote: unit.text}];
					}),
				),
			})),
		})),
	};
	return {proposal, problems};
}

type CheckedProposal = {proposal: TaskProposal; sha256: string; problems: ProposalProblem[]; premises: ProposalCheckOutput['premises']};

/**
 * A proposal checked against its context: the same question and context hash; every citation
 * quotes a context source, found exactly once there, and no alternative cites the same quote
 * twice; the tasks are new (no node has the id yet) and any project named exists as a Project.
 */
function checkProposal({context, snapshot, loaded}: Prepared & {context: NonNullable<Prepared['context']>}, proposal: TaskProposal, problems: ProposalProblem[]): CheckedProposal {
	if (proposal.question !== loaded.contract.question) {
		problems.push(proposalProblem('question_mismatch'));
	}

	if (proposal.context_sha256 !== context.sha256) {
		problems.push(proposalProblem('context_changed'));
	}

	const premises: ProposalCheckOutput['premises'] = [];
	for (const task of proposal.tasks) {
		if (snapshot.nodes.has(task.id)) {
			problems.push(proposalProblem('task_exists', {task: task.id}));
		}

		const project = task.project === undefined ? undefined : snapshot.nodes.get(task.project);
		if (task.project !== undefined && (!project || canonicalNodeKind(nodeKindOf(project) ?? '').kind !== 'Project')) {
			problems.push(proposalProblem('project_unknown', {task: task.id}));
		}

		for (const premise of task.premises) {
			const alternatives = premise.alternatives.map((alternative, alternativeIndex) => {
				const seen = new Set<string>();
				return alternative.flatMap((citation, citationIndex): Span[] => {
					const where = {task: task.id, premise: premise.id, alternative: alternativeIndex, citation: citationIndex};
					const key = JSON.stringify([citation.source, citation.quote]);
					if (seen.has(key)) {
						problems.push(proposalProblem('citation_repeated', where));
						return [];
					}

					seen.add(key);
					const located = locateQuote(citation, context.nodes);
					if (typeof located === 'string') {
						problems.push(proposalProblem(located, {...where, source: citation.source}));
						return [];
					}

					return [located];
				});
			});
			premises.push({task: task.id, premise: premise.id, claim: premise.claim, alternatives});
		}
	}

	return {proposal, sha256: proposalSha256(proposal), problems, premises};
}

export type ProposalInput = {file: string; q: string; proposal?: string; draft?: string; review?: string};

/**
 * `engi query … --task-proposal <file>` or `--task-draft <file>`, optionally with
 * `--proposal-review <file>`. Without a review the best answer is
 * `source_validated_review_required`: the citations hold, and a reviewer must now judge each
 * premise (the answer carries the review to fill in). With a review, `review_approved` when it
 * is bound to this very context and proposal and supports every premise.
 */
export function checkProposalInput(paths: KbPaths, input: ProposalInput, deps: Deps): Answer<ProposalCheckOutput | ReviewCheckOutput> {
	const prepared = prepare(paths, input.file, input.q, deps);
	const given = input.draft === undefined
		? {proposal: readJsonInput(input.proposal!, deps.cwd, taskProposalSchema, 'invalid_proposal'), problems: [] as ProposalProblem[]}
		: {draft: readJsonInput(input.draft, deps.cwd, taskDraftSchema, 'invalid_proposal')};
	const review = input.review === undefined ? undefined : readJsonInput(input.review, deps.cwd, reviewSchema, 'invalid_review');
	const reviewSha = review ? sha256Hex(canonicalJson(review)) : undefined;
	const blocked = {rejected_sources: prepared.rejected, context_sha256: null, proposal_sha256: null, problems: [], premises: []};
	const ready = prepared.context;
	if (!ready) {
		return review
			? {output: {scope: 'contract_proposal_review', ...prepared.base, resolution: 'blocked', ...blocked, review_sha256: reviewSha!, apply: null}, exitCode: 2}
			: {output: {scope: 'contract_task_proposal', ...prepared.base, resolution: 'blocked', ...blocked, review_template: null}, exitCode: 2};
	}

	const formed = 'draft' in given ? proposalOfDraft(given.draft!, ready.context) : given;
	const checked = checkProposal({...prepared, context: ready}, formed.proposal, [...formed.problems]);
	const valid = checked.problems.length === 0;
	const pins = Object.fromEntries(ready.context.sources.map(source => [source.id, {node_sha256: source.node_sha256}]));
	const common = {rejected_sources: [], context_sha256: ready.sha256, proposal_sha256: valid ? checked.sha256 : null};
	if (!review) {
		return {
			output: {
				scope: 'contract_task_proposal',
				...prepared.base,
				resolution: valid ? 'source_validated_review_required' : 'proposal_rejected',
				...common,
				problems: checked.problems,
				premises: checked.premises,
				review_template: valid
					? {
							version: 1,
							question: ready.context.question,
							scope_sha256: ready.context.scope_sha256,
							context_sha256: ready.sha256,
							proposal_sha256: checked.sha256,
							pins,
							proposal: checked.proposal,
							reviewer: '',
							premises: checked.premises.map(premise => ({task: premise.task, premise: premise.premise, verdict: 'missing' as const, spans: []})),
						}
					: null,
			},
			exitCode: 2,
		};
	}

	const base = {scope: 'contract_proposal_review' as const, ...prepared.base, ...common, review_sha256: reviewSha!};
	if (!valid) {
		return {output: {...base, resolution: 'proposal_rejected', problems: checked.problems, premises: [], apply: null}, exitCode: 2};
	}

	const verdict = checkReview(review, {question: ready.context.question, scopeSha256: ready.context.scope_sha256, contextSha256: ready.sha256, proposalSha256: checked.sha256, pins}, ready.nodes);
	return {
		output: {...base, resolution: verdict.approved ? 'review_approved' : 'review_rejected', problems: verdict.problems, premises: verdict.premises, apply: verdict.approved ? ['engi', 'proposal', 'apply', input.review!] : null},
		exitCode: verdict.approved ? 0 : 2,
	};
}
