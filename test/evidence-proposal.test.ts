import assert from 'node:assert/strict';
import {appendFileSync, existsSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test, {type TestContext} from 'node:test';
import {kbPaths} from '../source/engine/kb/paths.js';
import {contract, journalText, node, pinsOf, writeJson, type TimedEvent} from './helpers/evidence.js';
import {makeKb, type KbSandbox} from './helpers/kb.js';

const t1 = '2026-02-01T00:00:00Z';
const asOf = '2026-06-01T00:00:00Z';
const question = 'Should the CSV export stream?';

const fixture: TimedEvent[] = [
	node('d:stream', t1, {label: 'Stream the CSV rather than build it in memory', body: '订单导出: exports reach 2 GB, so building them in memory fails. Memory is the limit.'}),
	node('d:size', t1, {label: 'Order exports reach 2 GB', body: 'Measured on the March export. Memory is the limit.'}),
	node('p:shop', t1, {kind: 'Project', label: 'Web shop'}),
	node('t:old', t1, {kind: 'Task', label: 'An existing task'}),
];

type World = KbSandbox & {
	file(name: string, value: unknown): string;
	query(args: string[]): ReturnType<KbSandbox['run']>;
	prepared: {context_sha256: string; [key: string]: any};
	proposal(overrides?: Record<string, unknown>): Record<string, unknown>;
};

function world(t: TestContext): World {
	const kb = makeKb(t);
	writeFileSync(kb.journal, journalText(fixture));
	const pins = pinsOf(kbPaths(kb.root), asOf, ['d:stream', 'd:size', 'p:shop', 't:old']);
	const file = (name: string, value: unknown) => writeJson(join(kb.base, name), value);
	const contractFile = file('contract.json', contract({question, scope_nodes: ['d:stream', 'd:size', 'p:shop', 't:old'], sources: {'d:stream': pins['d:stream'], 'd:size': pins['d:size']}, facts: [], as_of: asOf}));
	const query = (args: string[]) => kb.run(['query', '--q', question, '--evidence-contract', contractFile, ...args, '--format', 'json']);
	const prepared = query(['--prepare-proposal']).json();
	const proposal = (overrides: Record<string, unknown> = {}) => ({
		version: 1,
		question,
		context_sha256: prepared.context_sha256,
		tasks: [
			{
				id: 'task:stream-csv',
				label: 'Stream the orders CSV export',
				next_action: 'replace the in-memory builder with a stream',
				project: 'p:shop',
				premises: [
					{id: 'big', claim: 'Exports are too big for memory', alternatives: [[{source: 'd:stream', quote: 'exports reach 2 GB'}], [{source: 'd:size', quote: 'Order exports reach 2 GB'}, {source: 'd:size', quote: 'March export'}]]},
					{id: 'decided', claim: 'Streaming was decided', alternatives: [[{source: 'd:stream', quote: 'Stream the CSV'}]]},
				],
			},
		],
		...overrides,
	});
	return {...kb, file, query, prepared, proposal};
}

/** A review of a checked proposal: its template with these verdicts filled in. */
function reviewOf(template: any, verdicts: Record<string, {verdict: string; spans?: unknown[]}>, reviewer = 'ada') {
	return {...template, reviewer, premises: template.premises.map((entry: {premise: string}) => ({...entry, ...verdicts[entry.premise]}))};
}

const supported = (template: any, premise: string, alternative: number) => ({verdict: 'supported', spans: template.proposal.tasks[0].premises.find((entry: {id: string}) => entry.id === premise).alternatives[alternative]});

test('--prepare-proposal binds the pinned sources into a hashed context; --evidence-ids numbers them for a model', t => {
	const kb = world(t);
	assert.equal(kb.prepared.resolution, 'proposal_context_prepared');
	assert.match(kb.prepared.context_sha256, /^[0-9a-f]{64}$/);
	assert.deepEqual(kb.prepared.context.sources.map((source: {id: string}) => source.id), ['d:size', 'd:stream']);
	assert.equal(kb.prepared.context.question, question);
	assert.equal(kb.prepared.model_context, null);
	const withIds = kb.query(['--prepare-proposal', '--evidence-ids']);
	assert.equal(withIds.code, 0);
	const answer = withIds.json();
	assert.equal(answer.context_sha256, kb.prepared.context_sha256, 'the same context, whatever the view');
	assert.deepEqual(answer.model_context.evidence.map((unit: {evidence_id: string; source: string; field: string}) => `${unit.evidence_id} ${unit.source}.${unit.field}`), ['E1 d:size.body', 'E2 d:size.label', 'E3 d:stream.body', 'E4 d:stream.label']);
	assert.equal(answer.model_output_schema.type, 'object');
	assert.ok('tasks' in answer.model_output_schema.properties);
});

test('a source that changed since it was pinned blocks the context; one too large for a context is an error', t => {
	const kb = world(t);
	const stale = kb.file('stale.json', contract({question, scope_nodes: ['d:stream'], sources: {'d:stream': {node_sha256: 'b'.repeat(64)}}, facts: [], as_of: asOf}));
	const blocked = kb.run(['query', '--q', question, '--evidence-contract', stale, '--prepare-proposal', '--format', 'json']);
	assert.equal(blocked.code, 2);
	assert.deepEqual([blocked.json().resolution, blocked.json().rejected_sources, blocked.json().context], ['blocked', [{source: 'd:stream', reason: 'source_changed'}], null]);
	assert.equal(blocked.json().source_requests[0].node, 'd:stream');

	appendFileSync(kb.journal, journalText([node('d:huge', t1, {body: 'x '.repeat(70 * 1024)})]));
	const pins = pinsOf(kbPaths(kb.root), asOf, ['d:huge']);
	const huge = kb.file('huge.json', contract({question, scope_nodes: ['d:huge'], sources: pins, facts: [], as_of: asOf}));
	const result = kb.run(['query', '--q', question, '--evidence-contract', huge, '--prepare-proposal', '--format', 'json']);
	assert.equal(result.code, 1);
	assert.equal(result.error().code, 'proposal_context_too_large');
});

test('a proposal whose quotes stand once in the pinned sources needs review; spans count code points', t => {
	const kb = world(t);
	const result = kb.query(['--task-proposal', kb.file('proposal.json', kb.proposal())]);
	assert.equal(result.code, 2, result.stderr);
	const answer = result.json();
	assert.equal(answer.resolution, 'source_validated_review_required');
	assert.deepEqual(answer.problems, []);
	assert.deepEqual(answer.premises[0].alternatives[0], [{source: 'd:stream', quote: 'exports reach 2 GB', field: 'body', start: 6, end: 24}], 'five Han characters and a colon before it');
	assert.deepEqual(answer.review_template.premises, [
		{task: 'task:stream-csv', premise: 'big', verdict: 'missing', spans: []},
		{task: 'task:stream-csv', premise: 'decided', verdict: 'missing', spans: []},
	]);
	assert.equal(answer.review_template.proposal_sha256, answer.proposal_sha256);
	assert.deepEqual(Object.keys(answer.review_template.pins), ['d:size', 'd:stream']);
});

test('a proposal is rejected, with every problem named, when it strays from its context', t => {
	const kb = world(t);
	const bad = kb.proposal({
		question: 'Another question',
		context_sha256: 'c'.repeat(64),
		tasks: [
			{
				id: 't:old',
				label: 'Reuses an id',
				project: 'p:nowhere',
				premises: [
					{
						id: 'q',
						claim: 'quotes',
						alternatives: [
							[{source: 'd:stream', quote: 'not in the text'}, {source: 'd:stream', quote: 'in memory'}],
							[{source: 'p:shop', quote: 'Web shop'}, {source: 'd:size', quote: 'March'}, {source: 'd:size', quote: 'March'}],
						],
					},
				],
			},
		],
	});
	const result = kb.query(['--task-proposal', kb.file('bad.json', bad)]);
	assert.equal(result.code, 2);
	const answer = result.json();
	assert.equal(answer.resolution, 'proposal_rejected');
	assert.equal(answer.proposal_sha256, null);
	assert.equal(answer.review_template, null);
	const where = (reason: string, task: string | null = null, premise: string | null = null, alternative: number | null = null, citation: number | null = null, source: string | null = null) => ({task, premise, alternative, citation, source, reason});
	assert.deepEqual(answer.problems, [
		where('question_mismatch'),
		where('context_changed'),
		where('task_exists', 't:old'),
		where('project_unknown', 't:old'),
		where('quote_not_found', 't:old', 'q', 0, 0, 'd:stream'),
		where('quote_not_unique', 't:old', 'q', 0, 1, 'd:stream'),
		where('source_not_in_context', 't:old', 'q', 1, 0, 'p:shop'),
		where('citation_repeated', 't:old', 'q', 1, 2),
	]);

	const unknownField = kb.query(['--task-proposal', kb.file('unknown.json', {...kb.proposal(), confidence: 0.9})]);
	assert.equal(unknownField.code, 1);
	assert.equal(unknownField.error().code, 'invalid_proposal');
	assert.match(unknownField.error().message, /unknown field\(s\) "confidence"/);
	const repeated = kb.query(['--task-proposal', kb.file('repeated.json', kb.proposal({tasks: [...(kb.proposal().tasks as unknown[]), ...(kb.proposal().tasks as unknown[])]}))]);
	assert.match(repeated.error().message, /tasks\.1: task ids must be unique/);
});

test('a draft cites evidence ids; engi turns them into the quotes they stand for, and rejects ids it never gave', t => {
	const kb = world(t);
	const draft = (citations: unknown[]) => ({version: 1, question, context_sha256: kb.prepared.context_sha256, tasks: [{id: 'task:stream-csv', label: 'Stream it', premises: [{id: 'big', claim: 'Exports are big', alternatives: [citations]}]}]});
	const good = kb.query(['--task-draft', kb.file('draft.json', draft([{evidence: 'E2'}]))]);
	assert.equal(good.json().resolution, 'source_validated_review_required');
	assert.deepEqual(good.json().review_template.proposal.tasks[0].premises[0].alternatives, [[{source: 'd:size', quote: 'Order exports reach 2 GB'}]]);
	const unknown = kb.query(['--task-draft', kb.file('unknown.json', draft([{evidence: 'E2'}, {evidence: 'E99'}]))]);
	assert.equal(unknown.json().resolution, 'proposal_rejected');
	assert.deepEqual(unknown.json().problems.map((problem: {reason: string; citation: number}) => [problem.reason, problem.citation]), [['evidence_id_unknown', 1]]);
	assert.equal(kb.query(['--task-draft', kb.file('quoted.json', draft([{source: 'd:size', quote: 'x'}]))]).error().code, 'invalid_proposal', 'a draft cites ids, not quotes');
});

test('a review must bind both hashes and judge every premise once; only one that supports them all is approved', t => {
	const kb = world(t);
	const proposalFile = kb.file('proposal.json', kb.proposal());
	const template = kb.query(['--task-proposal', proposalFile]).json().review_template;
	const review = (value: unknown, name = 'review.json') => kb.query(['--task-proposal', proposalFile, '--proposal-review', kb.file(name, value)]);
	const approved = review(reviewOf(template, {big: supported(template, 'big', 1), decided: supported(template, 'decided', 0)}));
	assert.equal(approved.code, 0, approved.stderr);
	assert.equal(approved.json().resolution, 'review_approved');
	assert.deepEqual(approved.json().apply, ['engi', 'proposal', 'apply', join(kb.base, 'review.json')]);
	assert.deepEqual(approved.json().premises.map((premise: {verdict: string; spans: unknown[]}) => [premise.verdict, premise.spans.length]), [['supported', 2], ['supported', 1]]);

	const cases: Array<[string, unknown, string[]]> = [
		['a premise left missing', reviewOf(template, {big: supported(template, 'big', 0)}), []],
		['a refuted premise', reviewOf(template, {big: supported(template, 'big', 0), decided: {verdict: 'refuted', spans: [{source: 'd:size', quote: 'March export'}]}}), []],
		['spans of no alternative', reviewOf(template, {big: {verdict: 'supported', spans: [{source: 'd:size', quote: 'March export'}]}, decided: supported(template, 'decided', 0)}), ['supported_spans_not_an_alternative']],
		['refuted without spans', reviewOf(template, {big: supported(template, 'big', 0), decided: {verdict: 'refuted', spans: []}}), ['refuted_without_spans']],
		['missing with spans', reviewOf(template, {big: supported(template, 'big', 0), decided: {verdict: 'missing', spans: [{source: 'd:size', quote: 'March export'}]}}), ['missing_with_spans']],
		['a refuting quote not in the source', reviewOf(template, {big: supported(template, 'big', 0), decided: {verdict: 'refuted', spans: [{source: 'd:size', quote: 'no such words'}]}}), ['quote_not_found']],
		['a premise left out', {...reviewOf(template, {big: supported(template, 'big', 0)}), premises: [{task: 'task:stream-csv', premise: 'big', ...supported(template, 'big', 0)}]}, ['premise_unreviewed']],
		['a premise twice', {...reviewOf(template, {}), premises: [...reviewOf(template, {big: supported(template, 'big', 0), decided: supported(template, 'decided', 0)}).premises, {task: 'task:stream-csv', premise: 'big', ...supported(template, 'big', 0)}]}, ['premise_reviewed_twice']],
		['an unknown premise', {...reviewOf(template, {big: supported(template, 'big', 0), decided: supported(template, 'decided', 0)}), premises: [...reviewOf(template, {big: supported(template, 'big', 0), decided: supported(template, 'decided', 0)}).premises, {task: 'task:other', premise: 'big', verdict: 'missing', spans: []}]}, ['premise_unknown']],
		['another context', {...reviewOf(template, {big: supported(template, 'big', 0), decided: supported(template, 'decided', 0)}), context_sha256: 'd'.repeat(64)}, ['review_context_mismatch']],
		['an edited proposal', {...reviewOf(template, {big: supported(template, 'big', 0), decided: supported(template, 'decided', 0)}), proposal: {...template.proposal, tasks: [{...template.proposal.tasks[0], label: 'Edited'}]}}, ['review_proposal_mismatch']],
		['other pins', {...reviewOf(template, {big: supported(template, 'big', 0), decided: supported(template, 'decided', 0)}), pins: {'d:size': template.pins['d:size']}}, ['review_pins_mismatch']],
		['another question', {...reviewOf(template, {big: supported(template, 'big', 0), decided: supported(template, 'decided', 0)}), question: 'Other?'}, ['review_question_mismatch']],
		['another scope', {...reviewOf(template, {big: supported(template, 'big', 0), decided: supported(template, 'decided', 0)}), scope_sha256: 'e'.repeat(64)}, ['review_scope_mismatch']],
	];
	for (const [what, value, reasons] of cases) {
		const result = review(value, 'case.json');
		assert.equal(result.code, 2, `${what}: ${result.stderr}`);
		assert.equal(result.json().resolution, 'review_rejected', what);
		assert.deepEqual(result.json().problems.map((problem: {reason: string}) => problem.reason), reasons, what);
		assert.equal(result.json().apply, null, what);
	}

	const unsigned = review(template, 'template.json');
	assert.equal(unsigned.code, 1, 'the template as printed names no reviewer');
	assert.match(unsigned.error().message, /reviewer: reviewer must not be blank/);
});

test('engi proposal apply writes the reviewed task, its evidence links and project, once; a later contract can cite it', t => {
	const kb = world(t);
	const proposalFile = kb.file('proposal.json', kb.proposal());
	const checked = kb.query(['--task-proposal', proposalFile]).json();
	const template = checked.review_template;
	const reviewFile = kb.file('review.json', reviewOf(template, {big: supported(template, 'big', 1), decided: supported(template, 'decided', 0)}));
	const before = readFileSync(kb.journal, 'utf8');
	const applied = kb.run(['proposal', 'apply', reviewFile, '--format', 'json']);
	assert.equal(applied.code, 0, applied.stderr);
	const answer = applied.json();
	assert.equal(answer.resolution, 'applied');
	const provenance = `proposal:${checked.proposal_sha256}`;
	assert.deepEqual(answer.appended.map((event: {op: string; payload: Record<string, unknown>}) => [event.op, event.payload['id'] ?? `${event.payload['from']} ${event.payload['type']} ${event.payload['to']}`, event.payload['provenance']]), [
		['node.upsert', 'task:stream-csv', provenance],
		['edge.assert', 'task:stream-csv DEPENDS_ON d:size', provenance],
		['edge.assert', 'task:stream-csv DEPENDS_ON d:stream', provenance],
		['edge.assert', 'task:stream-csv BELONGS_TO p:shop', provenance],
	]);
	assert.equal(answer.appended[0].payload.reviewed_by, 'ada');
	assert.ok(readFileSync(kb.journal, 'utf8').startsWith(before), 'appended, nothing rewritten');
	const brief = kb.ok(['project', 'p:shop']);
	assert.deepEqual(brief.rows.map((row: unknown[]) => row[0]), ['task:stream-csv']);

	const again = kb.run(['proposal', 'apply', reviewFile, '--format', 'json']);
	assert.equal(again.code, 0);
	assert.deepEqual([again.json().appended, again.json().unchanged], [[], 4], 'applying twice writes nothing more');

	const now = new Date().toISOString().slice(0, 19) + 'Z';
	const ids = ['task:stream-csv', 'd:size', 'd:stream'];
	const later = kb.file('later.json', contract({question: 'q', scope_nodes: ids, sources: pinsOf(kbPaths(kb.root), now, ids), facts: [{id: 'plan', alternatives: [['task:stream-csv']]}], as_of: now}));
	const cited = kb.run(['query', '--q', 'q', '--evidence-contract', later, '--format', 'json']).json();
	assert.equal(cited.resolution, 'covered');
	assert.deepEqual(cited.packet.evidence.map((entry: {id: string}) => entry.id), ['d:size', 'd:stream', 'task:stream-csv'], 'the task brings the sources it depends on');
});

test('apply writes nothing unless every premise is supported, every pin holds and the journal reads cleanly', t => {
	const kb = world(t);
	const proposalFile = kb.file('proposal.json', kb.proposal());
	const template = kb.query(['--task-proposal', proposalFile]).json().review_template;
	const apply = (value: unknown) => kb.run(['proposal', 'apply', kb.file('review.json', value), '--format', 'json']);
	const approved = reviewOf(template, {big: supported(template, 'big', 0), decided: supported(template, 'decided', 0)});
	const refusals: Array<[string, unknown, string[]]> = [
		['a premise missing', reviewOf(template, {big: supported(template, 'big', 0)}), ['premise_missing']],
		['an edited proposal', {...approved, proposal: {...approved.proposal, tasks: [{...approved.proposal.tasks[0], label: 'Edited'}]}}, ['review_proposal_mismatch']],
		['a forged pin', {...approved, pins: {...approved.pins, 'd:size': {node_sha256: 'f'.repeat(64)}}}, ['pin_changed']],
		['an edited question', {...approved, question: 'Other?'}, ['review_proposal_mismatch', 'review_context_mismatch']],
	];
	const journal = readFileSync(kb.journal);
	for (const [what, value, reasons] of refusals) {
		const result = apply(value);
		assert.equal(result.code, 2, `${what}: ${result.stderr}`);
		assert.equal(result.json().resolution, 'refused', what);
		assert.deepEqual(result.json().problems.map((problem: {reason: string}) => problem.reason), reasons, what);
		assert.deepEqual(readFileSync(kb.journal), journal, `${what}: nothing written`);
	}

	appendFileSync(kb.journal, journalText([node('d:size', '2026-07-01T00:00:00Z', {body: 'Remeasured: 3 GB.'})]));
	const changed = apply(approved);
	assert.equal(changed.code, 2);
	assert.deepEqual(changed.json().problems, [{task: null, premise: null, alternative: null, citation: null, source: 'd:size', reason: 'pin_changed'}]);

	appendFileSync(kb.journal, '{"torn": true}\n');
	const corrupt = readFileSync(kb.journal);
	const broken = apply(approved);
	assert.equal(broken.code, 1);
	assert.equal(broken.error().code, 'journal_line_invalid');
	assert.deepEqual(readFileSync(kb.journal), corrupt, 'a corrupt journal is not repaired by apply');
	assert.equal(existsSync(join(kb.root, '.engi', 'quarantine')), false);
	assert.equal(kb.run(['proposal', 'apply', kb.file('junk.json', {version: 1}), '--format', 'json']).error().code, 'invalid_review');
});
