// Writers stopped inside the journal lock (SIGSTOP at a named point, through ENGI_TEST_PAUSE_AT)
// and killed there (SIGKILL). A stopped holder's lock is only taken over once stale; the writer
// that took it over never loses its acknowledged line to the stopped one, which, resumed, finds
// its lock lost and writes nothing more; a dead holder's lock is taken over at once.
import assert from 'node:assert/strict';
import {appendFileSync, existsSync, readFileSync, utimesSync} from 'node:fs';
import {join} from 'node:path';
import test, {type TestContext} from 'node:test';
import {requireProc, sleep, startCli, waitStopped, type RunningCli} from '../helpers/faults.js';
import {makeKb, type KbSandbox} from '../helpers/kb.js';

const payloadIds = (kb: KbSandbox) =>
	readFileSync(kb.journal, 'utf8')
		.split('\n')
		.filter(line => line.trim() !== '')
		.flatMap(line => {
			try {
				return [(JSON.parse(line) as {payload: {id: string}}).payload.id];
			} catch {
				return [];
			}
		});

/** Starts a writer that stops itself at `point` while holding the journal lock. */
async function stoppedWriter(t: TestContext, kb: KbSandbox, point: string, args: string[]): Promise<RunningCli> {
	const writer = startCli([...args, '--format', 'json'], {env: {...kb.env, ENGI_TEST_PAUSE_AT: point}});
	t.after(() => writer.kill('SIGKILL'));
	await waitStopped(writer.pid);
	return writer;
}

/** What a stall longer than the stale timeout looks like to other writers: a lock nobody refreshed for a minute. */
function ageLock(kb: KbSandbox): void {
	const old = new Date(Date.now() - 60_000);
	utimesSync(join(kb.root, '.engi', 'journal.lock'), old, old);
}

test('a writer stalled during a rewrite and overtaken cannot rename over the new writer\'s line', {timeout: 60_000}, async t => {
	if (!requireProc(t)) {
		return;
	}

	const kb = makeKb(t);
	kb.ok(['graph', 'node', '--id', 'a', '--kind', 'Task', '--label', 'A']);
	appendFileSync(kb.journal, 'a corrupt line in the middle\n');
	const stalled = await stoppedWriter(t, kb, 'repair.before_rename', ['index', 'rebuild']);
	ageLock(kb);

	const overtaking = kb.run(['graph', 'node', '--id', 'b', '--kind', 'Task', '--label', 'B', '--format', 'json']);
	assert.equal(overtaking.code, 0, overtaking.stderr);
	stalled.kill('SIGCONT');
	const resumed = await stalled.done;
	assert.equal(resumed.code, 1, resumed.stdout);
	assert.equal(resumed.error().code, 'lock_lost');
	assert.deepEqual(payloadIds(kb), ['a', 'b'], 'the acknowledged append survives');
	const status = kb.ok(['status']);
	assert.deepEqual([status.nodes, status.corrupt_lines], [2, 0]);
});

test('a writer stalled before cutting off a torn tail and overtaken does not cut the new writer\'s line', {timeout: 60_000}, async t => {
	if (!requireProc(t)) {
		return;
	}

	const kb = makeKb(t);
	kb.ok(['graph', 'node', '--id', 'a', '--kind', 'Task', '--label', 'A']);
	appendFileSync(kb.journal, '{"id":"torn","observed_utc":"2026-');
	const stalled = await stoppedWriter(t, kb, 'repair.before_truncate', ['graph', 'node', '--id', 'c', '--kind', 'Task', '--label', 'C']);
	ageLock(kb);

	const overtaking = kb.run(['graph', 'node', '--id', 'b', '--kind', 'Task', '--label', 'B', '--format', 'json']);
	assert.equal(overtaking.code, 0, overtaking.stderr);
	stalled.kill('SIGCONT');
	const resumed = await stalled.done;
	assert.equal(resumed.code, 1, resumed.stdout);
	assert.equal(resumed.error().code, 'lock_lost');
	assert.deepEqual(payloadIds(kb), ['a', 'b']);
	assert.equal(kb.ok(['status']).corrupt_lines, 0);
});

test('a stopped holder whose lock is fresh is waited for, not overtaken', {timeout: 60_000}, async t => {
	if (!requireProc(t)) {
		return;
	}

	const kb = makeKb(t);
	const first = await stoppedWriter(t, kb, 'journal.before_append', ['graph', 'node', '--id', 'a', '--kind', 'Task', '--label', 'A']);
	const second = startCli(['graph', 'node', '--id', 'b', '--kind', 'Task', '--label', 'B', '--format', 'json'], {env: kb.env});
	let secondDone = false;
	void second.done.then(() => (secondDone = true));
	await sleep(1500);
	assert.equal(secondDone, false, 'the second writer waits for the lock');
	first.kill('SIGCONT');
	const [a, b] = await Promise.all([first.done, second.done]);
	assert.deepEqual([a.code, b.code], [0, 0], a.stderr + b.stderr);
	assert.deepEqual(payloadIds(kb), ['a', 'b']);
});

test('the lock of a holder killed inside it is taken over at once, and the journal holds no part of its line', {timeout: 60_000}, async t => {
	if (!requireProc(t)) {
		return;
	}

	const kb = makeKb(t);
	kb.ok(['graph', 'node', '--id', 'a', '--kind', 'Task', '--label', 'A']);
	const before = readFileSync(kb.journal);
	const killed = await stoppedWriter(t, kb, 'journal.before_append', ['graph', 'node', '--id', 'x', '--kind', 'Task', '--label', 'X']);
	killed.kill('SIGKILL');
	await killed.done;
	assert.ok(existsSync(join(kb.root, '.engi', 'journal.lock')), 'the dead holder left its lock');
	assert.deepEqual(readFileSync(kb.journal), before);

	const started = Date.now();
	const next = kb.run(['graph', 'node', '--id', 'b', '--kind', 'Task', '--label', 'B', '--format', 'json']);
	assert.equal(next.code, 0, next.stderr);
	assert.ok(Date.now() - started < 4000, `a dead holder's lock is not waited out (took ${Date.now() - started} ms)`);
	assert.deepEqual(payloadIds(kb), ['a', 'b']);
	assert.equal(existsSync(join(kb.root, '.engi', 'journal.lock')), false);
});
