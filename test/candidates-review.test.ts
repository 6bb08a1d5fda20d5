import assert from 'node:assert/strict';
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test, {type TestContext} from 'node:test';
import {shellWord} from '../source/lib/words.js';
import {repoRoot} from './helpers/cli.js';
import {writeClaudeTranscript, type ClaudeTranscript, type Step} from './helpers/claude-transcript.js';
import {makeKb, type KbSandbox} from './helpers/kb.js';

const distiller = (name: string) => `${shellWord(process.execPath)} ${shellWord(join(repoRoot, 'test', 'fixtures', 'distillers', `${name}.mjs`))}`;

/** Eleven turns: requests, replies, a failed and a passing test run, a search, and a lint run with no result. */
const checkoutSession: Step[] = [
	{user: 'make the checkout test pass'},
	{assistant: 'Looking at the checkout test.'},
	{bash: 'npm test', id: 'call-1', fail: '1 failing: checkout applies the discount twice'},
	{assistant: 'The discount is applied twice.'},
	{bash: 'rg -n discount src', id: 'call-2', ok: 'src/cart.ts:3: applyDiscount(cart)'},
	{user: 'also update the changelog'},
	{assistant: 'Done, the build passes.'},
	{bash: 'npm test', id: 'call-3', ok: '12 passing'},
	{bash: 'npm run lint', id: 'call-4'},
	{user: 'ship it'},
	{assistant: 'Waiting for review before I ship.'},
];

type World = {kb: KbSandbox; project: string; id: string; ref: string; transcript: ClaudeTranscript; note: () => string; run: (args: string[], options?: {input?: string}) => ReturnType<KbSandbox['run']>};

function world(t: TestContext, id = 'c0ffee00-0000-4000-8000-0000000000a1'): World {
	const kb = makeKb(t);
	const project = join(kb.base, 'shop');
	mkdirSync(join(project, '.git'), {recursive: true});
	const transcript = writeClaudeTranscript(kb.env['HOME']!, {id, cwd: project}, checkoutSession);
	const run = (args: string[], options: {input?: string} = {}) => kb.run([...args, '--format', 'json'], {cwd: project, ...options});
	const harvested = run(['candidates', 'harvest', '--consent']);
	assert.equal(harvested.code, 0, harvested.stderr);
	const ref = `claude-${id}`;
	return {kb, project, id, ref, transcript, run, note: () => readFileSync(join(kb.root, '00-inbox', 'candidates', `${ref}.md`), 'utf8')};
}

const frontmatter = (text: string) => Object.fromEntries(text.split('\n---\n')[0]!.split('\n').slice(1).map(line => [line.slice(0, line.indexOf(':')), JSON.parse(line.slice(line.indexOf(':') + 2))])) as Record<string, any>;

test('evidence numbers the turns as the harvest did, serves the start and the end of a long session and lists what it served', t => {
	const {kb, run, ref, project} = world(t);
	const all = run(['candidates', 'evidence', ref]).json();
	assert.equal(all.turns_total, 11);
	assert.deepEqual(all.served, [{from: 1, to: 11}]);
	assert.deepEqual(all.turns.map((turn: {n: number}) => turn.n), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
	assert.deepEqual(all.turns.filter((turn: {tool: unknown}) => turn.tool).map((turn: {n: number; tool: {status: string; command: string}}) => [turn.n, turn.tool.status, turn.tool.command]), [[3, 'failed', 'npm test'], [5, 'ok', 'rg -n discount src'], [8, 'ok', 'npm test'], [9, 'no_result', 'npm run lint']]);
	assert.equal(all.turns[0].author, 'human');
	assert.match(all.notice, /untrusted/);
	assert.equal(all.accept, `engi candidates accept ${ref} --max-turns 120 --file -`);

	const abridged = run(['candidates', 'evidence', ref, '--max-turns', '6']).json();
	assert.deepEqual(abridged.served, [{from: 1, to: 1}, {from: 7, to: 11}]);
	assert.equal(abridged.omitted, 5);
	assert.deepEqual(abridged.turns.map((turn: {n: number}) => turn.n), [1, 7, 8, 9, 10, 11]);

	const cited = run(['candidates', 'evidence', ref, '--turns', '3,8']).json();
	assert.deepEqual(cited.turns.map((turn: {n: number}) => turn.n), [3, 8]);
	assert.equal(run(['candidates', 'evidence', ref, '--turns', '12']).error().code, 'turn_out_of_range');

	const text = kb.run(['candidates', 'evidence', ref, '--max-turns', '6', '--format', 'human'], {cwd: project}).stdout;
	assert.match(text, /^Turns served: 1, 7-11 of 11 \(5 left out; cite only the turns served\)\.$/m);
	assert.match(text, /^Turn 8 · tool Bash · ok · line \d+\n```text\n\$ npm test\noutput: 12 passing\n```$/m);
});

test('evidence and accept refuse a transcript that changed since its harvest, and serve nothing', t => {
	const {run, ref, transcript, note} = world(t);
	const before = note();
	transcript.append([{user: 'one more thing'}]);
	const refused = run(['candidates', 'evidence', ref]);
	assert.equal(refused.code, 1);
	assert.equal(refused.error().code, 'source_changed');
	assert.equal(refused.stdout, '');
	const accept = run(['candidates', 'accept', ref, '--file', '-'], {input: JSON.stringify({model: 'm', verified: [{text: 'tests pass', turns: [8]}]})});
	assert.equal(accept.error().code, 'source_changed');
	assert.equal(note(), before, 'nothing was written');
});

test('a real distiller subprocess returns a mix: the filter drops each kind of bad claim with its reason and writes the good ones into the note', t => {
	const {run, ref, note} = world(t);
	const result = run(['candidates', 'distill', ref, '--with', distiller('mix'), '--max-turns', '6']);
	assert.equal(result.code, 0, result.stderr);
	const output = result.json();
	assert.equal(output.schema, 'engi.candidates.distill.v1');
	assert.deepEqual(
		output.dropped.map((claim: {field: string; reason: string; turns: number[]}) => [claim.field, claim.reason, claim.turns]),
		[
			['verified', 'no_observed_success', [7]],
			['verified', 'no_turns', []],
			['failed', 'unknown_turn', [61]],
			['blockers', 'unserved_turn', [2]],
		],
	);
	assert.deepEqual(output.kept, {
		verified: [{text: 'the command in this turn succeeded', turns: [8]}],
		failed: [{text: 'an approach that was tried', turns: [1]}],
		blockers: [{text: 'waiting on review', turns: [11]}],
		decided: [{text: 'keep the design', turns: [1, 8]}],
		next: 'run the suite again',
	});
	assert.equal(output.distiller.exit_code, 0);
	const written = frontmatter(note());
	assert.deepEqual([written['tier'], written['status'], written['model'], written['max_turns']], ['distilled', 'pending', 'fixture-distiller', 6]);
	assert.deepEqual(written['verified'], output.kept.verified);
	assert.deepEqual(written['decided'], output.kept.decided);
	assert.match(note(), /^### Verified\n\n- the command in this turn succeeded \(turns 8\)$/m);

	const shown = run(['candidates', 'show', ref]).json();
	assert.deepEqual(shown.cited_turns, [1, 8, 11]);
	assert.equal(shown.commands.cited, `engi candidates evidence ${ref} --turns 1,8,11`);
});

test('a distiller that times out, fails, prints something that is not JSON or prints too much is a typed error, and the note is unchanged', {timeout: 60_000}, t => {
	const {run, ref, note} = world(t);
	const before = note();
	const cases: Array<[string, string[], string]> = [
		['sleep', ['--timeout', '1'], 'distiller_timeout'],
		['not-json', [], 'distiller_invalid_json'],
		['fails', [], 'distiller_failed'],
		['flood', [], 'distiller_output_too_large'],
	];
	for (const [name, flags, code] of cases) {
		const started = Date.now();
		const result = run(['candidates', 'distill', ref, '--with', distiller(name), ...flags]);
		assert.equal(result.code, 1, `${name}: ${result.stdout}`);
		assert.equal(result.error().code, code, name);
		assert.equal(result.stdout, '');
		assert.equal(note(), before, `${name} changed nothing`);
		if (name === 'sleep') {
			assert.ok(Date.now() - started < 15_000, 'the distiller was stopped at its timeout');
		}
	}

	assert.equal(run(['candidates', 'distill', ref, '--with', distiller('fails')]).error()['stderr_tail'], 'model not found');
});

test('accept takes the calling agent\'s distillation through the same filter, keeps the reviewer\'s notes, and refuses what is not a distillation', t => {
	const {kb, run, ref, note} = world(t);
	const file = join(kb.base, 'distillation.json');
	const before = note();
	writeFileSync(file, 'not json at all');
	assert.equal(run(['candidates', 'accept', ref, '--file', file]).error().code, 'invalid_json');
	writeFileSync(file, JSON.stringify({verified: [{text: 'tests pass', turns: [8]}]}));
	const shapeless = run(['candidates', 'accept', ref, '--file', file]).error();
	assert.equal(shapeless.code, 'invalid_distillation');
	assert.match(shapeless.message, /model/);
	assert.equal(note(), before);

	// A reviewer writes under the note's review heading; engi keeps it when it rewrites the note.
	const notePath = join(kb.root, '00-inbox', 'candidates', `${ref}.md`);
	writeFileSync(notePath, `${before.trimEnd()}\n\nChecked with the team: the discount fix is right.\n`);
	writeFileSync(file, JSON.stringify({model: 'calling-agent', verified: [{text: 'the test suite passes', turns: [8]}, {text: 'the search found the call', turns: [5, 3]}], decided: [{text: 'apply the discount once', turns: [4]}], next: 'ship after review'}));
	const accepted = run(['candidates', 'accept', ref, '--file', file]).json();
	assert.equal(accepted.dropped.length, 0);
	assert.deepEqual(accepted.kept.verified[1], {text: 'the search found the call', turns: [3, 5]}, 'one successful cited turn is enough; turns come back in order');
	assert.match(note(), /## Review notes\n\nChecked with the team: the discount fix is right\.\n$/);

	writeFileSync(file, JSON.stringify({model: 'second-opinion', failed: [{text: 'the first test run', turns: [3]}]}));
	const again = run(['candidates', 'accept', ref, '--file', file]).json();
	assert.deepEqual(again.kept.verified, [], 'a new distillation replaces the last while the candidate is pending');
	assert.equal(frontmatter(note())['model'], 'second-opinion');
});

test('promote writes one journal batch, an imported checkpoint and the note\'s new status; an imported checkpoint is history, not open work', t => {
	const {kb, run, ref, id, project, note} = world(t);
	const distilled = run(['candidates', 'distill', ref, '--with', distiller('mix'), '--max-turns', '6']);
	assert.equal(distilled.code, 0, distilled.stderr);
	assert.equal(run(['unfinished']).json().total, 0, 'the session ended with a reply');
	const result = run(['candidates', 'promote', ref]);
	assert.equal(result.code, 0, result.stderr);
	const output = result.json();
	const conversation = `conversation:claude:${id}`;
	assert.equal(output.conversation, conversation);
	assert.equal(output.outcome, `outcome:claude:${id}`);

	const events = readFileSync(kb.journal, 'utf8').trim().split('\n').map(line => JSON.parse(line) as {op: string; payload: Record<string, any>});
	assert.equal(events.length, output.events.appended);
	const nodes = new Map(events.filter(event => event.op === 'node.upsert').map(event => [event.payload['id'], event.payload]));
	const edges = events.filter(event => event.op === 'edge.assert').map(event => `${event.payload['from']} ${event.payload['type']} ${event.payload['to']}`);
	const sha = frontmatter(note())['source_sha256'];
	assert.deepEqual([nodes.get(conversation)!['kind'], nodes.get(conversation)!['source_sha256'], nodes.get(conversation)!['source_path']], ['Conversation', sha, frontmatter(note())['source_path']]);
	const outcome = nodes.get(output.outcome)!;
	assert.equal(outcome['kind'], 'SessionOutcome');
	assert.match(outcome['provenance'], /^engi candidates promote 00-inbox\/candidates\//);
	assert.deepEqual(outcome['verified'], [{text: 'the command in this turn succeeded', turns: [8]}]);
	const projectNode = output.project_node;
	assert.equal(nodes.get(projectNode)!['path'], project);
	const decision = [...nodes.values()].find(node => node['kind'] === 'Decision')!;
	const task = [...nodes.values()].find(node => node['kind'] === 'Task')!;
	assert.deepEqual([task['status'], task['label']], ['blocked', 'waiting on review']);
	for (const from of [output.outcome, decision['id'], task['id']]) {
		assert.ok(edges.includes(`${from} DERIVED_FROM ${conversation}`), `${from} is derived from the conversation`);
		assert.ok(edges.includes(`${from} BELONGS_TO ${projectNode}`));
	}

	assert.ok(edges.includes(`${conversation} BELONGS_TO ${projectNode}`));
	const checkpoints = readFileSync(join(project, '.engi', 'checkpoints.jsonl'), 'utf8').trim().split('\n').map(line => JSON.parse(line));
	const imported = checkpoints.at(-1);
	assert.deepEqual([imported.session, imported.source, imported.status, imported.objective], [id, 'claude', 'imported', 'make the checkout test pass']);
	assert.ok(imported.current_evidence[0].includes(`claude session ${id}: ${frontmatter(note())['source_path']}`), 'the checkpoint names the harness, the native id and the source path');
	assert.deepEqual(imported.blockers, ['waiting on review']);
	const promoted = frontmatter(note());
	assert.equal(promoted['status'], 'promoted');
	assert.equal(promoted['promoted'].conversation, conversation);

	// History, not open work: no unfinished candidate, no stand-up checkpoint.
	assert.equal(run(['unfinished']).json().total, 0, 'an imported checkpoint does not make a finished session unfinished');
	assert.equal(run(['standup', '--since', '2020-01-01']).json().totals.checkpoints_active, 0);
	assert.equal(run(['checkpoint', 'record', '--session', id, '--status', 'imported']).error().code, 'invalid_flag_value', 'only promotion writes an imported checkpoint');
	const next = run(['checkpoint', 'record', '--session', id, '--next-action', 'ship it']).json();
	assert.deepEqual([next.checkpoint.status, next.checkpoint.objective], ['active', 'make the checkout test pass'], 'work recorded after an import is active, not imported');

	assert.equal(run(['candidates', 'promote', ref]).error().code, 'candidate_not_pending');
	assert.deepEqual(run(['candidates', 'list']).json().total, 0);
	assert.deepEqual(run(['candidates', 'list', '--status', 'promoted']).json().candidates.map((row: {ref: string}) => row.ref), [ref]);
	// The graph's own rules now take a Task derived from a conversation.
	assert.equal(run(['graph', 'relate', '--from', task['id'], '--edge', 'DERIVED_FROM', '--to', conversation]).code, 0);
});

test('promote needs --project when the session\'s project is not on this machine, and reject keeps the note with its status rewritten', t => {
	const kb = makeKb(t);
	const elsewhere = '/nonexistent/elsewhere/app';
	writeClaudeTranscript(kb.env['HOME']!, {id: 'c0ffee00-0000-4000-8000-0000000000b1', cwd: elsewhere}, checkoutSession);
	writeClaudeTranscript(kb.env['HOME']!, {id: 'c0ffee00-0000-4000-8000-0000000000b2', cwd: elsewhere}, [{user: 'try something'}]);
	const here = join(kb.base, 'here');
	mkdirSync(join(here, '.git'), {recursive: true});
	const run = (args: string[]) => kb.run([...args, '--format', 'json'], {cwd: here});
	assert.equal(run(['candidates', 'harvest', '--consent', '--all-projects']).json().counts.written, 2);
	const refused = run(['candidates', 'promote', 'claude-c0ffee00-0000-4000-8000-0000000000b1']);
	assert.equal(refused.error().code, 'project_not_here');
	assert.equal(readFileSync(kb.journal, 'utf8'), '', 'nothing was written before the project was known');
	const promoted = run(['candidates', 'promote', 'c0ffee00-0000-4000-8000-0000000000b1', '--project', here]).json();
	assert.equal(promoted.checkpoint.path, join(here, '.engi', 'checkpoints.jsonl'));

	const notePath = join(kb.root, '00-inbox', 'candidates', 'claude-c0ffee00-0000-4000-8000-0000000000b2.md');
	const journal = readFileSync(kb.journal, 'utf8');
	const rejected = run(['candidates', 'reject', 'claude-c0ffee00-0000-4000-8000-0000000000b2']).json();
	assert.equal(rejected.status, 'rejected');
	assert.equal(frontmatter(readFileSync(notePath, 'utf8'))['status'], 'rejected', 'the note is kept, its status rewritten');
	assert.equal(readFileSync(kb.journal, 'utf8'), journal, 'a rejection writes nothing durable');
	assert.deepEqual(run(['candidates', 'list', '--status', 'all']).json().counts, {pending: 0, promoted: 1, rejected: 1, unreadable: 0});
	assert.equal(run(['candidates', 'distill', 'claude-c0ffee00-0000-4000-8000-0000000000b2', '--with', distiller('mix')]).error().code, 'candidate_not_pending');
});
