import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {mkdirSync, readFileSync, utimesSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {cliPath, runCli, sandboxEnv} from './helpers/cli.js';
import {buildFixtureHome} from './fixtures/home.js';
import {writeClaudeSession} from './helpers/stores.js';
import {tempDir} from './helpers/temp.js';

function setup(t: Parameters<typeof tempDir>[0]) {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	buildFixtureHome(env);
	const run = (args: string[], options: {cwd?: string; input?: string} = {}) => runCli([...args, '--format', 'json'], {env, ...options});
	return {base, env, run};
}

const reasonsOf = (candidates: Array<{id: string; reasons: Array<{code: string}>}>) => Object.fromEntries(candidates.map(candidate => [candidate.id, candidate.reasons.map(reason => reason.code)]));

test('unfinished: every reason code, from every source that can express it', t => {
	const {run} = setup(t);
	const result = run(['unfinished', '--all-projects', '--since', '2020-01-01', '--limit', '500']);
	assert.equal(result.code, 0, result.stderr);
	const output = result.json();
	assert.equal(output.schema, 'engi.unfinished.v1');
	const reasons = reasonsOf(output.candidates);
	const expect = (id: string, code: string) => assert.ok(reasons[id]?.includes(code), `${id} should have ${code}; has ${JSON.stringify(reasons[id])}`);
	expect('11111111-1111-4111-8111-111111111111', 'interrupted_or_cancelled'); // Claude's "[Request interrupted by user…]"
	expect('11111111-1111-4111-8111-111111111111', 'unresolved_tool_failure');
	expect('55555555-5555-4555-8555-555555555555', 'trailing_user_request_unanswered'); // the rewound branch's newest leaf
	expect('0195a1c2-0a00-7a00-8a00-00000000000a', 'pending_tool_call'); // Codex call with no output
	expect('0195a1c2-0d00-7d00-8d00-00000000000d', 'unresolved_tool_failure'); // Codex exit 2
	expect('ses_4f8e2a1c0ffeA7kQ2mZ8pXw4Nd', 'interrupted_or_cancelled'); // OpenCode MessageAbortedError
	expect('ses_4f8e2a1c0ffeA7kQ2mZ8pXw4Nd', 'pending_tool_call'); // OpenCode running tool
	expect('7d2b9c40-1a2b-4c3d-8e4f-5a6b7c8d9e01', 'interrupted_or_cancelled'); // Copilot abort
	expect('019a7c10-0a00-7000-8000-00000000000a', 'trailing_user_request_unanswered'); // Grok
	expect('019a7c10-0c00-7000-8000-00000000000c', 'interrupted_or_cancelled');
	expect('6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d', 'interrupted_or_cancelled'); // Qwen cancelled
	expect('3f2a9c1e-5b7d-4e21-9a8f-0c6d2e4b7a15', 'pending_tool_call'); // Gemini awaiting approval
	expect('1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e', 'trailing_user_request_unanswered');
	expect('9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d', 'trailing_user_request_unanswered'); // VS Code empty last response
	expect('7e1b3d5f-4a6c-4b8d-9e0f-3c5d7f9b1d42', 'unresolved_tool_failure'); // Antigravity
	expect('5a1c0e2b-0d44-4c6e-9d21-7f3e00000d04', 'interrupted_or_cancelled'); // Cursor turn_ended error
	expect('5a1c0e2b-0b22-4c6e-9d21-7f3e00000b02', 'recent_activity_uncheckpointed');
	for (const id of ['22222222-2222-4222-8222-222222222222', '33333333-3333-4333-8333-333333333333', 'agent-aaaa1111', 'agent-bbbb2222']) {
		assert.equal(reasons[id], undefined, `${id} (clean ending, summary-only or subagent) is not a candidate`);
	}

	// Sessions that end cleanly once read as the store means: replies written only as Codex
	// event_msg, a local slash command after the reply, a rewound branch, a backend search that
	// recorded its own completion.
	for (const id of ['0195a1c2-1100-7100-8100-000000000011', 'rollout-2026-11-15T07-00-00', '0195a1c2-1200-7200-8200-000000000012', '77777777-7777-4777-8777-777777777777', '12121212-1212-4121-8121-121212121212', '88888888-8888-4888-8888-888888888888']) {
		assert.equal(reasons[id], undefined, `${id} ends with a reply and is not a candidate (${JSON.stringify(reasons[id])})`);
	}

	assert.ok(!reasons['019a7c10-0a00-7000-8000-00000000000a']?.includes('pending_tool_call'), 'a completed backend web search is not pending');

	const parent = output.candidates.find((candidate: {id: string}) => candidate.id === '11111111-1111-4111-8111-111111111111');
	assert.equal(parent.subagents, 1, 'the subagent is folded into its parent');
	assert.equal(parent.confidence, 'high');
	assert.equal(output.candidates.find((candidate: {id: string}) => candidate.id === '0195a1c2-0d00-7d00-8d00-00000000000d').confidence, 'medium');
	for (const candidate of output.candidates) {
		assert.equal(candidate.classification, 'candidate');
		for (const reason of candidate.reasons) {
			assert.ok(reason.line === null || Number.isInteger(reason.line));
		}
	}

	const since = run(['unfinished', '--all-projects', '--since', '2026-11-22', '--limit', '500']).json();
	assert.ok(since.candidates.every((candidate: {modified: string}) => candidate.modified >= '2026-11-22'));
	assert.equal(run(['unfinished', '--all-projects', '--source', 'codex', '--since', '2020-01-01']).json().candidates.every((candidate: {source: string}) => candidate.source === 'codex'), true);
});

test('unfinished: checkpoints add and remove candidates; a session being written is active_now; large files say the tail was bounded', t => {
	const {base, env, run} = setup(t);
	const project = join(base, 'repo');
	mkdirSync(join(project, '.git'), {recursive: true});
	const projects = join(env['HOME']!, '.claude', 'projects');
	const now = Date.now();
	const recent = (minutes: number) => new Date(now - minutes * 60_000).toISOString();
	const clean = writeClaudeSession(projects, 'cccccccc-0000-4000-8000-000000000001', project, [{user: 'add a README', assistant: 'Added README.md.', at: recent(90)}]);
	const open = writeClaudeSession(projects, 'cccccccc-0000-4000-8000-000000000002', project, [{user: 'port the tests to node:test', at: recent(60)}]);
	writeClaudeSession(projects, 'cccccccc-0000-4000-8000-000000000003', project, [{user: 'still typing', at: recent(0)}]);
	for (const [path, minutes] of [[clean, 90], [open, 60]] as const) {
		utimesSync(path, new Date(now - minutes * 60_000), new Date(now - minutes * 60_000));
	}

	const big = writeClaudeSession(projects, 'cccccccc-0000-4000-8000-000000000004', project, [
		...Array.from({length: 400}, (_, index) => ({user: `step ${index} ${'y'.repeat(4000)}`, assistant: 'ok', at: recent(50)})),
		{user: 'final question left open', at: recent(45)},
	]);
	utimesSync(big, new Date(now - 45 * 60_000), new Date(now - 45 * 60_000));
	const list = () => reasonsOf(run(['unfinished'], {cwd: project}).json().candidates);
	let reasons = list();
	assert.equal(reasons['cccccccc-0000-4000-8000-000000000001'], undefined, 'a clean ending is not a candidate');
	assert.deepEqual(reasons['cccccccc-0000-4000-8000-000000000002'], ['trailing_user_request_unanswered']);
	assert.deepEqual(reasons['cccccccc-0000-4000-8000-000000000004'], ['trailing_user_request_unanswered', 'bounded_tail_incomplete']);
	const active = run(['unfinished'], {cwd: project}).json().candidates.find((candidate: {id: string}) => candidate.id === 'cccccccc-0000-4000-8000-000000000003');
	assert.deepEqual([active.active_now, active.reasons, active.confidence], [true, [], 'low']);

	const recorded = run(['checkpoint', 'record', '--session', 'cccccccc-0000-4000-8000-000000000001', '--objective', 'document the repo', '--status', 'blocked', '--blocker', 'needs a logo'], {cwd: project});
	assert.equal(recorded.code, 0, recorded.stderr);
	assert.equal(recorded.json().path, join(project, '.engi', 'checkpoints.jsonl'));
	assert.equal(readFileSync(join(project, '.engi', '.gitignore'), 'utf8'), '*\n');
	reasons = list();
	assert.deepEqual(reasons['cccccccc-0000-4000-8000-000000000001'], ['checkpoint_blocked'], 'a blocked checkpoint makes a clean session a candidate');
	run(['checkpoint', 'record', '--session', 'cccccccc-0000-4000-8000-000000000002', '--objective', 'port tests', '--status', 'completed'], {cwd: project});
	run(['checkpoint', 'record', '--session', 'cccccccc-0000-4000-8000-000000000004', '--objective', 'long run', '--status', 'superseded'], {cwd: project});
	reasons = list();
	assert.equal(reasons['cccccccc-0000-4000-8000-000000000002'], undefined, 'completed is excluded');
	assert.equal(reasons['cccccccc-0000-4000-8000-000000000004'], undefined, 'superseded is excluded');
});

test('checkpoint: first needs an objective, later records inherit, --file - works, show and list', t => {
	const {base, run} = setup(t);
	const project = join(base, 'repo');
	mkdirSync(join(project, '.git'), {recursive: true});
	const session = ['--session', '0195a1c2-0a00-7a00-8a00-00000000000a'];
	const first = run(['checkpoint', 'record', ...session, '--project', project]);
	assert.equal(first.code, 1);
	assert.equal(first.error().code, 'objective_required');
	const recorded = run(['checkpoint', 'record', ...session, '--project', project, '--objective', 'fix the flaky retry test', '--next-action', 'add jitter', '--completed', 'reproduced,bisected', '--evidence', 'test/retry.test.ts']).json();
	assert.equal(recorded.checkpoint.source, 'codex', 'the source comes from the catalog');
	assert.deepEqual(recorded.checkpoint.completed_work, ['reproduced', 'bisected']);
	const fromStdin = run(['checkpoint', 'record', ...session, '--project', project, '--file', '-'], {input: JSON.stringify({status: 'blocked', blockers: ['waiting for review']})}).json();
	assert.deepEqual(fromStdin.inherited.sort(), ['completed_work', 'current_evidence', 'next_action', 'objective', 'verification']);
	assert.deepEqual([fromStdin.checkpoint.objective, fromStdin.checkpoint.next_action, fromStdin.checkpoint.status, fromStdin.checkpoint.blockers], ['fix the flaky retry test', 'add jitter', 'blocked', ['waiting for review']]);
	const shown = run(['checkpoint', 'show', '0195a1c2-0a00-7a00-8a00-00000000000a', '--project', project]).json();
	assert.deepEqual(shown.checkpoint, fromStdin.checkpoint);
	assert.equal(run(['checkpoint', 'show', '0195a1c2-0d00-7d00-8d00-00000000000d', '--project', project]).error().code, 'checkpoint_not_found');
	run(['checkpoint', 'record', '--session', '0195a1c2-0d00-7d00-8d00-00000000000d', '--project', project, '--objective', 'add --version']);
	const listed = run(['checkpoint', 'list', '--project', project]).json();
	assert.deepEqual(listed.checkpoints.map((checkpoint: {session: string}) => checkpoint.session), ['0195a1c2-0d00-7d00-8d00-00000000000d', '0195a1c2-0a00-7a00-8a00-00000000000a']);
	assert.equal(run(['checkpoint', '--project', project]).json().schema, 'engi.checkpoint.list.v1', 'checkpoint alone lists');
	assert.equal(run(['checkpoint', 'record', ...session, '--project', project, '--file', '-'], {input: '{"status": "sleeping"}'}).error().code, 'invalid_checkpoint');
	assert.equal(run(['checkpoint', 'record', ...session, '--project', project, '--status', 'done']).error().code, 'invalid_flag_value');
	assert.equal(readFileSync(join(project, '.engi', 'checkpoints.jsonl'), 'utf8').trim().split('\n').length, 3, 'rejected records wrote nothing');
});

test('checkpoint: concurrent records never tear lines', {timeout: 120_000}, async t => {
	const {base, env} = setup(t);
	const project = join(base, 'repo');
	mkdirSync(join(project, '.git'), {recursive: true});
	const record = (index: number) =>
		new Promise<number>(resolve => {
			const child = spawn(process.execPath, [cliPath, 'checkpoint', 'record', '--session', `aaaaaaaa-0000-4000-8000-${String(index).padStart(12, '0')}`, '--source', 'claude', '--project', project, '--objective', `objective ${index} ${'z'.repeat(3000)}`, '--format', 'json'], {env, stdio: 'ignore'});
			child.on('exit', code => resolve(code ?? -1));
		});
	const codes = await Promise.all(Array.from({length: 12}, (_, index) => record(index)));
	assert.deepEqual(codes, Array.from({length: 12}, () => 0));
	const lines = readFileSync(join(project, '.engi', 'checkpoints.jsonl'), 'utf8').trim().split('\n');
	assert.equal(lines.length, 12);
	assert.equal(new Set(lines.map(line => JSON.parse(line).session)).size, 12);
});

test('resume and pickup: one candidate, several, or none', t => {
	const {base, env, run} = setup(t);
	const project = join(base, 'repo');
	mkdirSync(join(project, '.git'), {recursive: true});
	const projects = join(env['HOME']!, '.claude', 'projects');
	const at = new Date(Date.now() - 30 * 60_000).toISOString();
	const none = run(['resume'], {cwd: project});
	assert.equal(none.code, 1);
	assert.deepEqual([none.json().status, none.json().project], ['not_found', project]);
	assert.equal(run(['pickup'], {cwd: project}).json().status, 'not_found');
	const one = writeClaudeSession(projects, 'dddddddd-0000-4000-8000-000000000001', project, [{user: 'rename the module', at}]);
	utimesSync(one, new Date(at), new Date(at));
	const pickup = run(['pickup'], {cwd: project});
	assert.equal(pickup.code, 0, pickup.stderr);
	const picked = pickup.json();
	assert.equal(picked.target.id, 'dddddddd-0000-4000-8000-000000000001');
	assert.equal(picked.native_resume_command, `cd ${project} && claude --resume dddddddd-0000-4000-8000-000000000001`, 'the native resume runs from the session\'s project');
	assert.equal(picked.resume_command, 'engi resume dddddddd-0000-4000-8000-000000000001 --source claude');
	assert.match(picked.evidence[0], /^engi read dddddddd-0000-4000-8000-000000000001 --source claude --lines 1$/);
	assert.equal(run(['resume'], {cwd: project}).json().session_id, 'dddddddd-0000-4000-8000-000000000001');
	const two = writeClaudeSession(projects, 'dddddddd-0000-4000-8000-000000000002', project, [{user: 'and update the docs', at}]);
	utimesSync(two, new Date(at), new Date(at));
	const ambiguous = run(['resume'], {cwd: project});
	assert.equal(ambiguous.code, 1);
	assert.deepEqual([ambiguous.json().status, ambiguous.json().count, ambiguous.json().project], ['ambiguous', 2, project]);
	assert.match(ambiguous.json().message, /name one by id/, 'resume names sessions by id, not --session');
	assert.equal(run(['pickup'], {cwd: project}).json().status, 'ambiguous');
	assert.equal(run(['checkpoint', 'record', '--objective', 'x'], {cwd: project}).error().code, 'session_ambiguous');
});

test('standup: candidates grouped by project, open checkpoints, and knowledge-base tasks', t => {
	const {base, env, run} = setup(t);
	const kb = join(base, 'kb');
	assert.equal(runCli(['init', kb], {env}).code, 0);
	runCli(['graph', 'node', '--id', 'task:x', '--kind', 'Task', '--label', 'Write the stand-up', '--status', 'open', '--next-action', 'draft it'], {env});
	const project = join(base, 'repo');
	mkdirSync(join(project, '.git'), {recursive: true});
	const projects = join(env['HOME']!, '.claude', 'projects');
	const at = new Date(Date.now() - 30 * 60_000).toISOString();
	const path = writeClaudeSession(projects, 'eeeeeeee-0000-4000-8000-000000000001', project, [{user: 'tidy the config', at}]);
	utimesSync(path, new Date(at), new Date(at));
	run(['checkpoint', 'record', '--session', 'eeeeeeee-0000-4000-8000-000000000001', '--objective', 'tidy config', '--status', 'blocked', '--blocker', 'waiting on ops'], {cwd: project});
	const standup = run(['standup', '--since', '2026-11-01']).json();
	assert.equal(standup.schema, 'engi.standup.v1');
	const repo = standup.projects.find((entry: {project: string}) => entry.project === project);
	assert.equal(repo.candidates[0].id, 'eeeeeeee-0000-4000-8000-000000000001');
	assert.equal(repo.checkpoints[0].blockers[0], 'waiting on ops');
	assert.match(repo.summary, /1 unfinished session \(1 high\); 0 active checkpoints, 1 blocked/);
	assert.ok(standup.projects.some((entry: {project: string}) => entry.project === '/work/app'));
	assert.equal(standup.tasks.rows[0].next_action, 'draft it');
	assert.equal(standup.totals.checkpoints_blocked, 1);
	const human = runCli(['standup', '--since', '2026-11-01', '--format', 'human'], {env}).stdout;
	assert.match(human, /^Stand-up since /);
	assert.match(human, /blocker: waiting on ops/);
});

test('standup shows each project\'s newest candidates, counts them all, and names the command that lists the rest', t => {
	const {base, env, run} = setup(t);
	const project = join(base, 'busy');
	mkdirSync(join(project, '.git'), {recursive: true});
	const projects = join(env['HOME']!, '.claude', 'projects');
	const ids = Array.from({length: 13}, (_, index) => `dddddddd-0000-4000-8000-${String(index).padStart(12, '0')}`);
	for (const [index, id] of ids.entries()) {
		// An unanswered request each (high confidence), a minute apart: the last written is the newest.
		const at = new Date(Date.now() - (60 - index) * 60_000);
		utimesSync(writeClaudeSession(projects, id, project, [{user: `request ${index}`, at: at.toISOString()}]), at, at);
	}

	const newestFirst = ids.toReversed();
	const all = run(['standup', '--since', '2026-11-01', '--limit', '500']).json();
	const bounded = run(['standup', '--since', '2026-11-01']).json();
	type Project = {project: string; candidates: Array<{id: string}>; candidates_total: number; more: string | null; summary: string};
	const busy = (standup: {projects: Project[]}) => standup.projects.find(entry => entry.project === project)!;
	assert.deepEqual(busy(all).candidates.map(candidate => candidate.id), newestFirst);
	assert.equal(busy(all).more, null, 'nothing left to list');
	assert.deepEqual(busy(bounded).candidates.map(candidate => candidate.id), newestFirst.slice(0, 10), 'ten per project by default, newest first');
	assert.equal(busy(bounded).candidates_total, 13);
	assert.match(busy(bounded).summary, /^13 unfinished sessions \(13 high\)/, 'the summary counts every candidate, with its confidence');
	assert.deepEqual(bounded.totals, all.totals, 'totals count what is not shown too');
	assert.ok(bounded.projects.every((entry: {candidates: unknown[]; candidates_total: number}) => entry.candidates.length === Math.min(10, entry.candidates_total)));
	const more = busy(bounded).more!;
	assert.match(more, /^engi unfinished --project \S+ --since 2026-11-01T00:00:00\.000Z$/);
	const listed = run([...more.split(' ').slice(1), '--limit', '500']).json();
	assert.deepEqual(listed.candidates.map((candidate: {id: string}) => candidate.id), newestFirst, 'the command lists every one of them');
	assert.equal(run(['standup', '--since', '2026-11-01', '--limit', '2']).json().projects.find((entry: {project: string}) => entry.project === project).candidates.length, 2);
	const human = runCli(['standup', '--since', '2026-11-01', '--format', 'human'], {env}).stdout;
	assert.ok(human.includes(`  … 3 more: ${more}`), human);
});

test('standup: sessions recorded in a project and in its subdirectory are one project, whose newest candidates and confidence counts take in both', t => {
	const {base, env, run} = setup(t);
	const project = join(base, 'mono');
	mkdirSync(join(project, '.git'), {recursive: true});
	mkdirSync(join(project, 'sub'), {recursive: true});
	const projects = join(env['HOME']!, '.claude', 'projects');
	const ids = Array.from({length: 9}, (_, index) => `cccccccc-0000-4000-8000-${String(index).padStart(12, '0')}`);
	for (const [index, id] of ids.entries()) {
		// Alternately in the root and in sub/; every third one just written (low, not judged by its
		// tail), the rest an unanswered request each (high).
		const at = new Date(Date.now() - (index % 3 === 2 ? 30_000 : (60 - index) * 60_000));
		const path = writeClaudeSession(projects, id, index % 2 === 0 ? project : join(project, 'sub'), [{user: `request ${index}`, at: at.toISOString()}]);
		utimesSync(path, at, at);
	}

	// One answered session with an active checkpoint: a candidate only through its checkpoint (high).
	const answered = 'cccccccc-0000-4000-8000-999999999999';
	const answeredAt = new Date(Date.now() - 90 * 60_000);
	utimesSync(writeClaudeSession(projects, answered, join(project, 'sub'), [{user: 'ship it', assistant: 'shipped', at: answeredAt.toISOString()}]), answeredAt, answeredAt);
	assert.equal(run(['checkpoint', 'record', '--session', answered, '--objective', 'ship', '--status', 'active', '--next-action', 'announce'], {cwd: project}).code, 0);
	type Project = {project: string; candidates: Array<{id: string; confidence: string}>; candidates_total: number; summary: string};
	const mono = (standup: {projects: Project[]}) => standup.projects.find(entry => entry.project === project)!;
	const all = mono(run(['standup', '--since', '2026-11-01', '--limit', '500']).json());
	assert.equal(all.candidates_total, 10);
	assert.ok(all.candidates.some(candidate => candidate.id === answered && candidate.confidence === 'high'));
	const high = all.candidates.filter(candidate => candidate.confidence === 'high').length;
	assert.equal(high, 7, 'six unanswered requests and the checkpoint');
	for (const limit of [1, 3, 4]) {
		const bounded = mono(run(['standup', '--since', '2026-11-01', '--limit', String(limit)]).json());
		assert.deepEqual(bounded.candidates, all.candidates.slice(0, limit), `the newest ${limit} of both spellings, in order`);
		assert.equal(bounded.candidates_total, 10);
		assert.match(bounded.summary, /^10 unfinished sessions \(7 high\); 1 active checkpoint, 0 blocked$/);
	}
});

test('resume and pickup --since choose among older sessions; pickup prints the cd the native resume needs', t => {
	const {base, env, run} = setup(t);
	const project = join(base, 'repo');
	mkdirSync(join(project, '.git'), {recursive: true});
	const at = new Date(Date.now() - 4 * 24 * 60 * 60_000);
	const path = writeClaudeSession(join(env['HOME']!, '.claude', 'projects'), 'ffffffff-0000-4000-8000-000000000001', project, [{user: 'finish the migration', at: at.toISOString()}]);
	utimesSync(path, at, at);
	assert.equal(run(['resume'], {cwd: project}).json().status, 'not_found', 'by default only since yesterday');
	assert.match(run(['pickup'], {cwd: project}).json().message, /--since/, 'the answer says how to look further back');
	assert.equal(run(['resume', '--since', '1w'], {cwd: project}).json().session_id, 'ffffffff-0000-4000-8000-000000000001');
	const picked = run(['pickup', '--since', '1w'], {cwd: project}).json();
	assert.equal(picked.target.id, 'ffffffff-0000-4000-8000-000000000001');
	assert.equal(picked.native_resume_command, `cd ${project} && claude --resume ffffffff-0000-4000-8000-000000000001`);
	const human = runCli(['pickup', '--since', '1w', '--format', 'human'], {env, cwd: project}).stdout;
	assert.match(human, new RegExp(`^Resume: cd ${project} && claude --resume ffffffff-0000-4000-8000-000000000001$`, 'm'));
	const elsewhere = run(['pickup', '0195a1c2-0a00-7a00-8a00-00000000000a', '--source', 'codex']).json();
	assert.equal(elsewhere.native_resume_command, 'codex resume 0195a1c2-0a00-7a00-8a00-00000000000a', 'no cd into a project that is not on this machine');
});
