// Checkpoints under faults: two records for one session at once (the first stopped inside its
// lock, ENGI_TEST_PAUSE_AT) each keep the other's fields, because the latest checkpoint is read
// under the lock; torn and corrupt lines are moved verbatim to the project's quarantine by the
// next record, as the journal's are.
import assert from 'node:assert/strict';
import {appendFileSync, mkdirSync, readdirSync, readFileSync, statSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {runCli, sandboxEnv} from '../helpers/cli.js';
import {requireProc, sleep, startCli, waitStopped} from '../helpers/faults.js';
import {tempDir} from '../helpers/temp.js';

const session = '5e55a0a0-0000-4000-8000-000000000001';

function project(t: Parameters<typeof tempDir>[0]) {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	const root = join(base, 'project');
	mkdirSync(join(root, '.git'), {recursive: true});
	const record = (...flags: string[]) => ['checkpoint', 'record', '--session', session, '--project', root, ...flags, '--format', 'json'];
	const show = () => {
		const result = runCli(['checkpoint', 'show', '--session', session, '--project', root, '--format', 'json'], {env});
		assert.equal(result.code, 0, result.stderr);
		return result.json().checkpoint;
	};

	return {env, root, file: join(root, '.engi', 'checkpoints.jsonl'), record, show};
}

test('two records for one session at once: neither loses the other\'s fields', {timeout: 60_000}, async t => {
	if (!requireProc(t)) {
		return;
	}

	const {env, record, show} = project(t);
	assert.equal(runCli(record('--objective', 'ship the parser'), {env}).code, 0);
	const first = startCli(record('--next-action', 'write the CRLF test'), {env: {...env, ENGI_TEST_PAUSE_AT: 'checkpoint.before_append'}});
	t.after(() => first.kill('SIGKILL'));
	await waitStopped(first.pid);
	const second = startCli(record('--blocker', 'waiting for review'), {env});
	await sleep(1000); // Long enough for the second record to read and append, if it could.
	first.kill('SIGCONT');
	const [a, b] = await Promise.all([first.done, second.done]);
	assert.deepEqual([a.code, b.code], [0, 0], a.stderr + b.stderr);

	const latest = show();
	assert.equal(latest.objective, 'ship the parser');
	assert.equal(latest.next_action, 'write the CRLF test');
	assert.deepEqual(latest.blockers, ['waiting for review']);
});

test('a torn checkpoint line is moved verbatim to the quarantine by the next record', t => {
	const {env, root, file, record, show} = project(t);
	assert.equal(runCli(record('--objective', 'ship the parser'), {env}).code, 0);
	const torn = `{"session":"${session}","status":"act`;
	appendFileSync(file, torn);
	const listed = runCli(['checkpoint', 'list', '--project', root, '--format', 'json'], {env}).json();
	assert.deepEqual(listed.skipped_lines, [2], 'readers skip and count it, and change nothing');
	assert.ok(readFileSync(file, 'utf8').endsWith(torn));

	const next = runCli(record('--next-action', 'run the tests'), {env});
	assert.equal(next.code, 0, next.stderr);
	const quarantine = join(root, '.engi', 'quarantine', 'checkpoints');
	const [moved] = readdirSync(quarantine);
	assert.match(moved!, /^\d{4}-\d{2}-\d{2}\.jsonl$/);
	assert.equal(readFileSync(join(quarantine, moved!), 'utf8'), torn + '\n');
	const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
	assert.equal(lines.length, 2, 'the torn line was cut off, not glued to the new record');
	for (const line of lines) {
		JSON.parse(line);
	}

	assert.deepEqual(runCli(['checkpoint', 'list', '--project', root, '--format', 'json'], {env}).json().skipped_lines, []);
	assert.equal(show().next_action, 'run the tests');
});

test('a corrupt line in the middle is quarantined and the file rewritten with its mode kept', t => {
	const {env, root, file, record, show} = project(t);
	assert.equal(runCli(record('--objective', 'ship the parser'), {env}).code, 0);
	appendFileSync(file, 'not a checkpoint\n');
	assert.equal(runCli(record('--status', 'blocked', '--blocker', 'waiting for review'), {env}).code, 0);
	const mode = statSync(file).mode & 0o777;

	const next = runCli(record('--next-action', 'ask for review'), {env});
	assert.equal(next.code, 0, next.stderr);
	const quarantine = join(root, '.engi', 'quarantine', 'checkpoints');
	assert.equal(readFileSync(join(quarantine, readdirSync(quarantine)[0]!), 'utf8'), 'not a checkpoint\n');
	assert.equal(readFileSync(file, 'utf8').trimEnd().split('\n').length, 3);
	assert.equal(statSync(file).mode & 0o777, mode);
	const latest = show();
	assert.deepEqual([latest.status, latest.next_action], ['blocked', 'ask for review']);
});
