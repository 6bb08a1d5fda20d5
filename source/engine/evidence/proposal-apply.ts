import type {Deps} from '../deps.js';
import {EngiError, type ExitCode} from '../../lib/errors.js';
import {getNode} from '../index/store.js';
import {canonicalNodeKind} from '../graph/kinds.js';
import {nodeKindOf} from '../graph/merge.js';
import {validateRelation} from '../graph/validate.js';
import type {EventDraft} from '../journal/append.js';
import {canonicalJson} from '../journal/canonical.js';
import {requireKnowledgeBase, type KbPaths} from '../kb/paths.js';
import {writeEvents} from '../knowledge/write.js';
import {sha256Hex} from '../../lib/hash.js';
import {canonicalUtc} from '../../lib/time.js';
import {readJsonInput} from './json-file.js';
import {nodeSha256} from './node-hash.js';
import {buildContext, type ContextSource} from './proposal-context.js';
import type {ProposalApplyOutput, ProposalProblem} from './proposal-output-schema.js';
import {reviewSchema, type Review} from './proposal-schema.js';
import {checkReview, proposalProblem, proposalSha256} from './review-check.js';
import {readSnapshot, type Snapshot} from './snapshot.js';

/**
 * Everything that must hold, now, before a review's tasks are written: the review is bound to
 * its own proposal; every pinned source is in the journal today with the hash it had when the
 * context was prepared (so the context rebuilt from them hashes to the review's); every premise
 * is supported by the citations of one of its alternatives; each task is new (or was written by
 * this same proposal before) and any project it names exists.
 */
function problemsOf(review: Review, snapshot: Snapshot, provenance: string): ProposalProblem[] {
	const problems: ProposalProblem[] = [];
	if (review.proposal.context_sha256 !== review.context_sha256 || review.proposal.question !== review.question) {
		problems.push(proposalProblem('review_proposal_mismatch'));
	}

	const sources: ContextSource[] = [];
	for (const id of Object.keys(review.pins).sort()) {
		const node = snapshot.nodes.get(id);
		if (!node) {
			problems.push(proposalProblem('pin_source_missing', {source: id}));
		} else if (nodeSha256(node) === review.pins[id]!.node_sha256) {
			sources.push({id, node: JSON.parse(canonicalJson(node)) as Record<string, unknown>, node_sha256: review.pins[id]!.node_sha256});
		} else {
			problems.push(proposalProblem('pin_changed', {source: id}));
		}
	}

	// With every pin holding, the context rebuilt from today's nodes must be the one reviewed.
	if (sources.length === Object.keys(review.pins).length && buildContext(review.question, sources, review.scope_sha256).sha256 !== review.context_sha256) {
		problems.push(proposalProblem('review_context_mismatch'));
	}

	const nodes = new Map(sources.map(source => [source.id, source.node]));
	const verdict = checkReview(review, {question: review.question, scopeSha256: review.scope_sha256, contextSha256: review.context_sha256, proposalSha256: review.proposal_sha256, pins: review.pins}, nodes);
	problems.push(...verdict.problems);
	for (const premise of verdict.premises) {
		if (premise.verdict !== 'supported') {
			problems.push(proposalProblem(`premise_${premise.verdict}`, {task: premise.task, premise: premise.premise}));
		}
	}

	for (const task of review.proposal.tasks) {
		const existing = snapshot.nodes.get(task.id);
		if (existing && existing['provenance'] !== provenance) {
			problems.push(proposalProblem('task_exists', {task: task.id}));
		}

		const project = task.project === undefined ? undefined : snapshot.nodes.get(task.project);
		if (task.project !== undefined && (!project || canonicalNodeKind(nodeKindOf(project) ?? '').kind !== 'Project')) {
			problems.push(proposalProblem('project_unknown', {task: task.id}));
		}
	}

	return problems;
}

/** The events a review writes: each task (with provenance naming the proposal), its DEPENDS_ON edges to the sources its premises rest on, and its project membership. */
function draftsOf(review: Review, provenance: string, reviewSha256: string): EventDraft[] {
	const nodes: EventDraft[] = [];
	const edges: EventDraft[] = [];
	for (const task of review.proposal.tasks) {
		const payload: Record<string, unknown> = {id: task.id, kind: 'Task', label: task.label};
		for (const key of ['body', 'status', 'next_action'] as const) {
			if (task[key] !== undefined) {
				payload[key] = task[key];
			}
		}

		nodes.push({op: 'node.upsert', payload: {...payload, provenance, review_sha256: reviewSha256, reviewed_by: review.reviewer}});
		const premiseIds = new Set(task.premises.map(premise => premise.id));
		const sources = new Set(review.premises.filter(entry => entry.task === task.id && premiseIds.has(entry.premise)).flatMap(entry => entry.spans.map(span => span.source)));
		for (const source of [...sources].sort()) {
			edges.push({op: 'edge.assert', payload: {from: task.id, type: 'DEPENDS_ON', to: source, provenance}});
		}

		if (task.project !== undefined) {
			edges.push({op: 'edge.assert', payload: {from: task.id, type: 'BELONGS_TO', to: task.project, provenance}});
		}
	}

	return [...nodes, ...edges];
}

/**
 * `engi proposal apply <review.json>`: appends the reviewed tasks to the journal when, and only
 * when, the review approves every premise and every pin still matches the journal as it is now.
 * Any other outcome writes nothing and says why (exit 2); an unreadable journal or review is an
 * input error (exit 1), also with nothing written.
 */
export async function applyReview(paths: KbPaths, input: {file: string}, deps: Deps): Promise<{output: ProposalApplyOutput; exitCode: ExitCode}> {
	requireKnowledgeBase(paths);
	const review = readJsonInput(input.file, deps.cwd, reviewSchema, 'invalid_review');
	const reviewSha256 = sha256Hex(canonicalJson(review));
	const proposal = proposalSha256(review.proposal);
	const provenance = `proposal:${proposal}`;
	const checkedAt = canonicalUtc(deps.now());
	const problems = problemsOf(review, readSnapshot(paths, checkedAt), provenance);
	const base = {proposal_sha256: proposal, review_sha256: reviewSha256, checked_at: checkedAt};
	if (problems.length > 0) {
		return {output: {resolution: 'refused', ...base, problems, appended: [], unchanged: 0, quarantined: []}, exitCode: 2};
	}

	const drafts = draftsOf(review, provenance, reviewSha256);
	const tasks = new Set(review.proposal.tasks.map(task => task.id));
	const result = await writeEvents(paths, deps, index => {
		// Another writer may have appended since the snapshot: the pins must hold in what this write sees.
		for (const [id, pin] of Object.entries(review.pins)) {
			const row = getNode(index.db, id);
			if (!row || nodeSha256(row.payload) !== pin.node_sha256) {
				throw new EngiError('pin_changed', `source ${id} changed while the review was being applied`, {hint: 'nothing was written; prepare a new context and review again'});
			}
		}

		const kindOf = (id: string) => (tasks.has(id) ? 'Task' : getNode(index.db, id)?.kind);
		for (const draft of drafts.filter(draft => draft.op === 'edge.assert')) {
			const {from, type, to} = draft.payload as {from: string; type: string; to: string};
			validateRelation({from, type, to, provenance, allowDangling: false}, kindOf);
		}

		return drafts;
	});
	return {
		output: {
			resolution: 'applied',
			...base,
			problems: [],
			appended: result.events.map(event => ({id: event.id, op: event.op, observed_utc: event.observed_utc, payload: event.payload})),
			unchanged: result.unchanged.length + result.present.length,
			quarantined: result.quarantined.map(line => ({line: line.line, reason: line.reason})),
		},
		exitCode: 0,
	};
}
