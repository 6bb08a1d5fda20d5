import assert from 'node:assert/strict';
import {existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {runCli, sandboxEnv} from './helpers/cli.js';
import {writeClaudeSession} from './helpers/stores.js';
import {tempDir} from './helpers/temp.js';

/** A sandbox with a git project to run in and a Claude store to put sessions in. */
function setup(t: Parameters<typeof tempDir>[0]) {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	const repo = join(base, 'repo');
	mkdirSync(join(repo, '.git'), {recursive: true});
	const projects = join(env['HOME']!, '.claude', 'projects');
	const at = new Date(Date.now() - 30 * 60_000);
	const session = (id: string, cwd: string) => {
		const path = writeClaudeSession(projects, id, cwd, [{user: `work in ${cwd}`, at: at.toISOString()}]);
		utimesSync(path, at, at);
	};

	const run = (args: string[], cwd = repo) => runCli([...args, '--format', 'json'], {env, cwd});
	return {base, env, repo, session, run};
}

const windows = 'aaaaaaaa-0000-4000-8000-000000000001';
const gone = 'aaaaaaaa-0000-4000-8000-000000000002';
const local = 'aaaaaaaa-0000-4000-8000-000000000003';

test('a session recorded in a directory that is not here keeps its project; checkpoint record then needs --project', t => {
	const {base, repo, session, run} = setup(t);
	session(windows, String.raw`C:\Users\me\proj`);
	session(gone, join(base, 'deleted', 'proj'));
	session(local, repo);

	const standup = run(['standup', '--since', '1d']).json();
	const groups = Object.fromEntries(standup.projects.map((entry: {project: string; candidates: Array<{id: string}>}) => [entry.project, entry.candidates.map(candidate => candidate.id)]));
	assert.deepEqual(groups[String.raw`C:\Users\me\proj`], [windows], 'the Windows path is its own project, as recorded');
	assert.deepEqual(groups[join(base, 'deleted', 'proj')], [gone], 'a path that no longer exists is its own project');
	assert.deepEqual(groups[repo], [local], 'only the session recorded here is grouped under the working directory');

	const here = run(['unfinished']).json();
	assert.deepEqual(here.candidates.map((candidate: {id: string}) => candidate.id), [local]);

	for (const id of [windows, gone]) {
		const refused = run(['checkpoint', 'record', '--session', id, '--objective', 'carry on']);
		assert.equal(refused.code, 1);
		assert.equal(refused.error().code, 'project_not_here');
		assert.match(refused.error().hint ?? '', /--project/);
	}

	assert.equal(existsSync(join(repo, '.engi')), false, 'nothing was written into the working directory');
	const recorded = run(['checkpoint', 'record', '--session', windows, '--objective', 'carry on', '--project', '.']).json();
	assert.equal(recorded.path, join(repo, '.engi', 'checkpoints.jsonl'));
	const candidate = run(['unfinished', '--all-projects', '--since', '1d']).json().candidates.find((entry: {id: string}) => entry.id === windows);
	assert.equal(candidate.checkpoint?.objective, 'carry on', 'readers find the checkpoint where --project put it');
	assert.equal(candidate.project, String.raw`C:\Users\me\proj`);
	assert.equal(run(['checkpoint', 'record', '--session', local, '--objective', 'local work']).json().path, join(repo, '.engi', 'checkpoints.jsonl'), 'a session of this machine needs no --project');
});

test('checkpoint record --project must be an existing directory inside a project', t => {
	const {base, repo, session, run} = setup(t);
	session(local, repo);
	const plain = join(base, 'plain');
	mkdirSync(plain);
	writeFileSync(join(base, 'file.txt'), 'x');
	const cases: Array<[string, string]> = [
		[join(base, 'missing', 'dir'), 'project_not_found'],
		[join(base, 'file.txt'), 'project_not_directory'],
		[plain, 'not_a_project'],
	];
	for (const [project, code] of cases) {
		const result = run(['checkpoint', 'record', '--session', local, '--objective', 'x', '--project', project]);
		assert.equal(result.code, 1, project);
		assert.equal(result.error().code, code, project);
	}

	assert.equal(existsSync(join(base, 'missing')), false, 'a missing --project is not created');
	assert.equal(existsSync(join(plain, '.engi')), false, 'a directory outside any project gets no .engi/');

	mkdirSync(join(repo, 'src', 'deep'), {recursive: true});
	const inside = run(['checkpoint', 'record', '--session', local, '--objective', 'x', '--project', join(repo, 'src', 'deep')]).json();
	assert.equal(inside.path, join(repo, '.engi', 'checkpoints.jsonl'), 'a directory inside a git project names that project');

	const scratch = join(base, 'scratch');
	mkdirSync(scratch);
	session(gone, scratch);
	assert.equal(run(['checkpoint', 'record', '--session', gone, '--objective', 'y', '--project', scratch]).json().path, join(scratch, '.engi', 'checkpoints.jsonl'), 'the session\'s own directory is its project, git or not');
	assert.equal(run(['checkpoint', 'record', '--session', gone, '--objective', 'y', '--project', scratch], scratch).code, 0, 'and once it keeps .engi/ it is a project');
});

test('checkpoint rules: blocked needs a blocker; blockers are inherited only while the status stays', t => {
	const {repo, session, run} = setup(t);
	session(local, repo);
	const record = (...args: string[]) => run(['checkpoint', 'record', '--session', local, ...args]);
	const refused = record('--objective', 'ship it', '--status', 'blocked');
	assert.equal(refused.code, 1);
	assert.equal(refused.error().code, 'blocker_required');
	assert.equal(existsSync(join(repo, '.engi', 'checkpoints.jsonl')), false, 'a refused checkpoint writes nothing');

	record('--objective', 'ship it', '--status', 'blocked', '--blocker', 'waiting for review');
	const stillBlocked = record('--next-action', 'ping the reviewer').json();
	assert.deepEqual([stillBlocked.checkpoint.status, stillBlocked.checkpoint.blockers], ['blocked', ['waiting for review']]);
	assert.ok(stillBlocked.inherited.includes('blockers'));
	const done = record('--status', 'completed').json();
	assert.deepEqual(done.checkpoint.blockers, [], 'a completed checkpoint does not carry the old blockers');
	assert.equal(done.inherited.includes('blockers'), false);
	assert.deepEqual([done.checkpoint.objective, done.checkpoint.next_action], ['ship it', 'ping the reviewer'], 'other fields are still inherited');
	const again = record('--status', 'blocked');
	assert.equal(again.error().code, 'blocker_required', 'blocked again needs its blocker again');
	const lines = readFileSync(join(repo, '.engi', 'checkpoints.jsonl'), 'utf8').trim().split('\n');
	assert.equal(lines.length, 3);
});
