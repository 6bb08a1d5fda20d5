/**
 * A knowledge base shared between two machines through git (issue 18): `engi init --git`, two
 * clones each appending, merged with plain `git pull`. With merge=union the journals merge line
 * by line, replay applies each event id once, doctor is clean and both machines answer alike;
 * without it, doctor names the conflict markers git leaves and a writer sets them aside.
 */
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {runCli, sandboxEnv, type CliResult} from './helpers/cli.js';
import {tempDir} from './helpers/temp.js';

const identity = ['-c', 'user.name=engi test', '-c', 'user.email=test@example.com', '-c', 'pull.rebase=false', '-c', 'commit.gpgsign=false'];

/** Real git, with no user or system configuration but the identity above. */
function git(env: Record<string, string>, cwd: string, ...args: string[]): {status: number | null; stdout: string; stderr: string} {
	return spawnSync('git', [...identity, ...args], {cwd, env: {...env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null'}, encoding: 'utf8'});
}

function gitOk(env: Record<string, string>, cwd: string, ...args: string[]): string {
	const result = git(env, cwd, ...args);
	assert.equal(result.status, 0, `git ${args.join(' ')}: ${result.stderr}`);
	return result.stdout;
}

/** One machine: its own HOME, and a knowledge base at `root`. */
function machine(base: string, name: string) {
	const env = sandboxEnv(join(base, name));
	const root = join(base, name, 'kb');
	const engi = (args: readonly string[]): CliResult => runCli([...args, '--root', root, '--format', 'json'], {env});
	const ok = <T = any>(args: readonly string[]): T => {
		const result = engi(args);
		assert.equal(result.code, 0, `${name}: engi ${args.join(' ')}: ${result.stderr}`);
		return result.json<T>();
	};

	return {env, root, engi, ok, git: (...args: string[]) => gitOk(env, root, ...args)};
}

/** Machine a makes the knowledge base with `engi init --git` and commits it; machine b clones it. */
function twoMachines(t: test.TestContext) {
	const base = tempDir(t);
	const a = machine(base, 'a');
	const init = runCli(['init', a.root, '--git', '--no-register', '--format', 'json'], {env: a.env});
	assert.equal(init.code, 0, init.stderr);
	assert.equal(init.json<{git: string}>().git, 'initialized');
	a.ok(['graph', 'node', '--id', 'project:shop', '--kind', 'Project', '--label', 'Web shop']);
	a.git('add', '-A');
	a.git('commit', '--quiet', '-m', 'a knowledge base');
	const b = machine(base, 'b');
	gitOk(b.env, base, 'clone', '--quiet', a.root, b.root);
	return {a, b};
}

/** A document with each machine's root written the same way, to compare the two. */
function portable(document: unknown, root: string): string {
	return JSON.stringify(document).replaceAll(root, '<root>');
}

test('engi init --git makes a repository that keeps derived files out and merges the journal line by line', t => {
	const {a} = twoMachines(t);
	assert.match(readFileSync(join(a.root, '.gitattributes'), 'utf8'), /^\.engi\/journal\.jsonl merge=union$/m);
	assert.deepEqual(a.git('ls-files').trim().split('\n').filter(path => path.startsWith('.engi/')), ['.engi/journal.jsonl'], 'the index, locks and machine config are not committed');
	const again = runCli(['init', a.root, '--git', '--no-register', '--format', 'json'], {env: a.env});
	assert.equal(again.json<{git: string}>().git, 'existing', 'running it again changes nothing');
});

test('two clones that both append merge with git pull: each event once, doctor clean, the same answers on both', async t => {
	const {a, b} = twoMachines(t);
	a.ok(['graph', 'node', '--id', 'task:csv', '--kind', 'Task', '--label', 'CSV export of orders', '--status', 'open']);
	a.ok(['graph', 'relate', '--from', 'task:csv', '--edge', 'BELONGS_TO', '--to', 'project:shop']);
	b.ok(['graph', 'node', '--id', 'task:refunds', '--kind', 'Task', '--label', 'Refund column in the export', '--status', 'open']);
	b.ok(['graph', 'relate', '--from', 'task:refunds', '--edge', 'BELONGS_TO', '--to', 'project:shop']);
	// The same fact recorded on both machines is the same event (its id is its content's hash):
	// whether the union merge keeps its line once or twice, replay applies it once.
	for (const side of [a, b]) {
		side.ok(['graph', 'node', '--id', 'decision:stream', '--kind', 'Decision', '--label', 'Stream the CSV']);
	}

	a.git('commit', '--quiet', '-am', 'a: the CSV task');
	b.git('commit', '--quiet', '-am', 'b: the refunds task');
	b.git('pull', '--quiet', '--no-edit', a.root, 'HEAD');
	a.git('pull', '--quiet', '--no-edit', b.root, 'HEAD');
	assert.equal(readFileSync(join(a.root, '.engi', 'journal.jsonl'), 'utf8'), readFileSync(join(b.root, '.engi', 'journal.jsonl'), 'utf8'), 'both have the same journal');
	assert.doesNotMatch(readFileSync(join(a.root, '.engi', 'journal.jsonl'), 'utf8'), /^(<<<<<<<|=======|>>>>>>>)/m);

	for (const side of [a, b]) {
		side.ok(['index', 'rebuild']);
		const doctor = side.engi(['doctor']);
		assert.equal(doctor.code, 0, doctor.stdout);
		assert.equal(side.ok<{nodes: number}>(['status']).nodes, 4, 'the project, two tasks and the decision once');
	}

	// One moment for both machines, past (a later one is clamped to now) and after every write:
	// a query's scores weigh how recent each fact is then.
	await new Promise(resolve => setTimeout(resolve, 1100));
	const asOf = `${new Date().toISOString().slice(0, 19)}Z`;
	for (const args of [['project'], ['project', 'project:shop', '--view', 'evidence'], ['query', '--q', 'export', '--as-of', asOf], ['query', '--q', 'decision:stream', '--view', 'evidence', '--as-of', asOf]]) {
		assert.equal(portable(a.ok(args), a.root), portable(b.ok(args), b.root), `engi ${args.join(' ')} answers alike on both machines`);
	}
});

test('merged without merge=union, the journal has conflict markers: doctor names them and a writer sets them aside, keeping both sides', t => {
	const {a, b} = twoMachines(t);
	writeFileSync(join(a.root, '.gitattributes'), '');
	a.git('commit', '--quiet', '-am', 'no merge attribute');
	gitOk(b.env, b.root, 'pull', '--quiet', '--no-edit', a.root, 'HEAD');
	a.ok(['graph', 'node', '--id', 'task:csv', '--kind', 'Task', '--label', 'CSV export of orders', '--status', 'open']);
	a.git('commit', '--quiet', '-am', 'a: the CSV task');
	b.ok(['graph', 'node', '--id', 'task:refunds', '--kind', 'Task', '--label', 'Refund column in the export', '--status', 'open']);
	b.git('commit', '--quiet', '-am', 'b: the refunds task');
	const pull = git(b.env, b.root, 'pull', '--no-edit', a.root, 'HEAD');
	assert.notEqual(pull.status, 0, 'git reports a conflict');
	const journal = readFileSync(join(b.root, '.engi', 'journal.jsonl'), 'utf8').split('\n');
	const markerLines = journal.flatMap((line, index) => (/^(<<<<<<<|=======|>>>>>>>)/.test(line) ? [index + 1] : []));
	assert.equal(markerLines.length, 3);

	const doctor = b.engi(['doctor']);
	assert.equal(doctor.code, 2);
	const check = doctor.json<{checks: Array<{name: string; detail: string}>}>().checks.find(candidate => candidate.name === 'journal-merge');
	assert.ok(check, doctor.stdout);
	assert.match(check.detail, new RegExp(`conflict markers: 3 \\(lines ${markerLines.join(', ')}\\)`));
	assert.match(check.detail, /merge=union/);

	b.ok(['graph', 'node', '--id', 'decision:stream', '--kind', 'Decision', '--label', 'Stream the CSV']);
	const after = b.engi(['doctor']).json<{checks: Array<{name: string; ok: boolean}>}>();
	assert.deepEqual(after.checks.filter(candidate => !candidate.ok).map(candidate => candidate.name).sort(), ['gitattributes', 'quarantine-empty'], 'the writer moved the marker lines to the quarantine; the missing attribute is still named');
	const ids = b.ok<{hits: Array<{node_id: string}>}>(['query', '--q', 'export', '--view', 'hits']).hits.map(hit => hit.node_id).sort();
	assert.deepEqual(ids, ['task:csv', 'task:refunds'], 'the events on both sides of the conflict are kept');
});
