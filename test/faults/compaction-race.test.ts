// Two sweeps compacting the same session at once (the chaos suite's racing sweeps, made
// deterministic with pause points): each writes its compact copy through a file of its own, so
// neither truncates, replaces or renames away the other's, and the copy left is whole and the one
// its CompactTranscript node names, journaled once. A temporary a killed sweep left is removed by
// the next sweep, and one a live sweep is writing is left alone.
import assert from 'node:assert/strict';
import {createHash} from 'node:crypto';
import {existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, unlinkSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {requireProc, startCli, waitStopped} from '../helpers/faults.js';
import {runCli, sandboxEnv} from '../helpers/cli.js';
import {settle} from '../fixtures/home.js';
import {entriesUnder, journalNodes, longAgo, recordedDeletions} from '../helpers/retention.js';
import {writeClaudeSession} from '../helpers/stores.js';
import {tempDir} from '../helpers/temp.js';

const id = 'f1000000-0000-4000-8000-000000000001';

/** One subagent transcript of the session, under `subagents` (its directory is made). */
function writeSubagent(subagents: string): void {
	mkdirSync(subagents, {recursive: true});
	writeFileSync(join(subagents, 'agent-abc123.jsonl'), `${JSON.stringify({type: 'user', isSidechain: true, sessionId: id, uuid: 'sa1', parentUuid: null, timestamp: '2025-01-02T09:00:10.000Z', message: {role: 'user', content: 'find the retry loop'}})}\n`);
}

function world(base: string) {
	const projects = join(base, 'home', '.claude', 'projects');
	writeClaudeSession(projects, id, '/work/app', [
		{user: 'tighten the retry loop', assistant: 'Tightened it and added a test.', at: '2025-01-02T09:00:00.000Z'},
		{user: 'thanks', assistant: 'Done.', at: '2025-01-02T09:01:00.000Z'},
	]);
	settle(join(base, 'home'), longAgo);
	const env = sandboxEnv(base);
	const kb = join(base, 'kb');
	const init = runCli(['init', kb, '--no-register', '--format', 'json'], {env});
	assert.equal(init.code, 0, init.stderr);
	const sweep = ['--root', kb, 'retention', 'sweep', '--format', 'json'];
	const plan = () => runCli(sweep, {env}).json().plan_sha256 as string;
	const execute = (digest: string, pause?: string) => startCli([...sweep, '--execute', '--plan', digest, '--details'], {env: pause ? {...env, ENGI_TEST_PAUSE_AT: pause} : env});
	return {kb, env, journal: join(kb, '.engi', 'journal.jsonl'), compact: join(kb, '00-inbox', 'harvest', 'compact', 'claude'), plan, execute};
}

test('two sweeps compacting one session at once each write their own copy: the slower neither fails nor leaves a copy its node does not name', {timeout: 120_000}, async t => {
	if (!requireProc(t)) {
		return;
	}

	const {journal, compact, plan, execute} = world(tempDir(t));
	const digest = plan();
	// The first has written its whole copy and stops before renaming it into place.
	const slower = execute(digest, 'retention.compact_written');
	await waitStopped(slower.pid);
	// The second writes its copy, renames it, journals it and stops before deleting anything.
	const faster = execute(digest, 'retention.after_attempt');
	await waitStopped(faster.pid);
	slower.kill('SIGCONT');
	const slow = await slower.done;
	faster.kill('SIGCONT');
	const fast = await faster.done;
	const items = [slow, fast].map(result => result.json().items[0]);
	assert.deepEqual(
		items.filter(item => item.failure?.code === 'write_failed'),
		[],
		'neither sweep lost its copy to the other',
	);
	assert.ok(
		items.some(item => item.status === 'compacted'),
		`one of them retired the session: ${JSON.stringify(items.map(item => [item.status, item.failure]))}`,
	);
	const nodes = journalNodes(journal, 'CompactTranscript');
	assert.equal(nodes.length, 1, 'one CompactTranscript node');
	const copy = readFileSync(join(compact, `${id}.jsonl`));
	assert.equal(createHash('sha256').update(copy).digest('hex'), nodes[0]!['sha256'], 'the copy is the one its node names');
	assert.deepEqual(readdirSync(compact), [`${id}.jsonl`], 'no temporary left');
	const receipts = readFileSync(journal, 'utf8')
		.split('\n')
		.filter(line => line.includes('"SessionRetentionReceipt"'));
	assert.equal(receipts.length, 1, 'its compaction receipt is journaled once');
});

test('a sweep removes the compaction temporaries of processes that died, and keeps a live one\'s', {timeout: 60_000}, t => {
	const {compact, plan, execute} = world(tempDir(t));
	mkdirSync(compact, {recursive: true});
	// A pid no process has (above the kernel's limit), and this test's own, which is alive.
	const dead = join(compact, `.${id}.jsonl.4194305.1764620000000.tmp`);
	const live = join(compact, `.other.jsonl.${process.pid}.1764620000000.tmp`);
	const legacy = join(compact, `${id}.jsonl.partial`);
	for (const path of [dead, live, legacy]) {
		writeFileSync(path, '{"line":1,"role":"user","content":"half of a copy');
	}

	return execute(plan()).done.then(result => {
		assert.equal(result.code, 0, result.stdout);
		assert.deepEqual(readdirSync(compact).sort(), [`${id}.jsonl`, `.other.jsonl.${process.pid}.1764620000000.tmp`].sort());
	});
});

test('a session removed while a sweep copies it (a racing sweep retired it) fails as source_changed, not as a failed write, and leaves no temporary', {timeout: 120_000}, async t => {
	if (!requireProc(t)) {
		return;
	}

	const base = tempDir(t);
	const {compact, plan, execute} = world(base);
	const digest = plan();
	// Stopped with its temporary open, before it reads the session's file.
	const sweep = execute(digest, 'retention.compact_started');
	await waitStopped(sweep.pid);
	unlinkSync(join(base, 'home', '.claude', 'projects', '-work-app', `${id}.jsonl`));
	sweep.kill('SIGCONT');
	const result = await sweep.done;
	assert.equal(result.code, 2, result.stderr);
	const [item] = result.json().items as Array<{status: string; failure: {code: string; detail: string} | null}>;
	assert.equal(item!.status, 'failed');
	assert.equal(item!.failure!.code, 'source_changed', item!.failure!.detail);
	assert.match(item!.failure!.detail, new RegExp(`${id}\\.jsonl was removed`));
	assert.deepEqual(readdirSync(compact), [], 'the temporary went with the copy');
});

test('a directory a racing sweep removed between the check and the rmdir is already gone, not a failed deletion', {timeout: 120_000}, async t => {
	if (!requireProc(t)) {
		return;
	}

	const base = tempDir(t);
	const projects = join(base, 'home', '.claude', 'projects', '-work-app');
	const subagents = join(projects, id, 'subagents');
	writeSubagent(subagents);
	const {plan, execute} = world(base);
	// Stopped at its first directory (subagents, emptied just before), checked and not yet removed.
	const sweep = execute(plan(), 'retention.before_rmdir#1');
	await waitStopped(sweep.pid);
	rmdirSync(subagents);
	sweep.kill('SIGCONT');
	const result = await sweep.done;
	const [item] = result.json().items as Array<{status: string; failure: {code: string; detail: string} | null}>;
	assert.equal(item!.failure, null, JSON.stringify(item!.failure));
	assert.equal(result.code, 0, result.stderr);
	assert.equal(existsSync(join(projects, `${id}.jsonl`)), false, 'the rest of the session was retired');
});

test('a sweep killed mid-deletion while another retires the same session keeps its own unfinished attempt: every file gone is named, and the next sweep finishes it', {timeout: 180_000}, async t => {
	if (!requireProc(t)) {
		return;
	}

	const base = tempDir(t);
	const store = join(base, 'home', '.claude', 'projects');
	const subagents = join(store, '-work-app', id, 'subagents');
	writeSubagent(subagents);
	const {journal, plan, execute} = world(base);
	const before = entriesUnder(store);
	// One sweep has planned (no attempt on the session yet), copied the session and journaled its
	// compaction receipt, and stops before journaling its purge attempt.
	const later = execute(plan(), 'write.before_lock#2');
	t.after(() => later.kill('SIGKILL'));
	await waitStopped(later.pid);
	// Another, planned now (the session is attested), journals its attempt, deletes the subagent
	// file and dies before the next target.
	const killed = execute(plan(), 'retention.before_unlink#2');
	t.after(() => killed.kill('SIGKILL'));
	await waitStopped(killed.pid);
	assert.equal(existsSync(join(subagents, 'agent-abc123.jsonl')), false, 'the killed sweep deleted the subagent file');
	killed.kill('SIGKILL');
	await killed.done;
	later.kill('SIGCONT');
	const result = await later.done;
	const [item] = result.json().items as Array<{status: string; attempt_id: string; failure: {code: string; detail: string} | null}>;
	// Its plan knew no attempt on the session, and one was journaled since: it refuses rather than
	// delete the rest beside the other and write a second receipt.
	assert.deepEqual([item!.status, item!.failure?.code], ['refused', 'session_active'], JSON.stringify(item!.failure));
	const attempts = journalNodes(journal, 'SessionPurgeAttempt').map(attempt => String(attempt['id']));
	assert.equal(new Set(attempts).size, 2, `each sweep journaled an attempt of its own: ${attempts.join(', ')}`);
	const named = () => {
		const settled = new Set([...journalNodes(journal, 'SessionPurgeReceipt'), ...journalNodes(journal, 'SessionPurgeFailure')].flatMap(outcome => [outcome['attempt_id'], ...(outcome['resumed_attempt_ids'] as string[])]));
		const unfinished = journalNodes(journal, 'SessionPurgeAttempt').filter(attempt => !settled.has(attempt['id'])).flatMap(attempt => (attempt['targets'] as Array<{path: string}>).map(target => target.path));
		return {recorded: recordedDeletions(journal), unfinished: new Set(unfinished)};
	};

	const gone = before.filter(path => !existsSync(path));
	const afterRace = named();
	assert.deepEqual(gone.filter(path => !afterRace.recorded.has(path) && !afterRace.unfinished.has(path)), [], 'every file gone is named by an outcome or the killed sweep\'s unfinished attempt');
	// The next sweep finishes the killed attempt, and its receipt names what that attempt deleted.
	const finish = await execute(plan()).done;
	assert.equal(finish.code, 0, finish.stdout);
	const final = named();
	assert.deepEqual([...final.unfinished], [], 'no attempt is left unfinished');
	assert.deepEqual(gone.filter(path => !final.recorded.has(path)), [], 'every file gone is named by a receipt');
});

test('a file a racing sweep removed after this one hashed it and before it unlinks it is already gone, not replaced', {timeout: 120_000}, async t => {
	if (!requireProc(t)) {
		return;
	}

	const base = tempDir(t);
	const subagents = join(base, 'home', '.claude', 'projects', '-work-app', id, 'subagents');
	writeSubagent(subagents);
	const {plan, execute} = world(base);
	// Stopped with the subagent file (its first target) opened and hashed, before its last look at the path.
	const sweep = execute(plan(), 'retention.file_checked#1');
	t.after(() => sweep.kill('SIGKILL'));
	await waitStopped(sweep.pid);
	unlinkSync(join(subagents, 'agent-abc123.jsonl'));
	sweep.kill('SIGCONT');
	const result = await sweep.done;
	const [item] = result.json().items as Array<{status: string; failure: {code: string; detail: string} | null}>;
	assert.equal(item!.failure, null, JSON.stringify(item!.failure));
	assert.equal(result.code, 0, result.stderr);
	assert.equal(item!.status, 'compacted');
	assert.equal(existsSync(join(base, 'home', '.claude', 'projects', '-work-app', `${id}.jsonl`)), false, 'the rest of the session was retired');
});

test('a sweep planned while another is retiring the same session refuses as session_active: the live one\'s attempt is not finished as if it had died, and one receipt names every deletion', {timeout: 120_000}, async t => {
	if (!requireProc(t)) {
		return;
	}

	const base = tempDir(t);
	const store = join(base, 'home', '.claude', 'projects');
	const subagents = join(store, '-work-app', id, 'subagents');
	writeSubagent(subagents);
	const {journal, plan, execute} = world(base);
	const before = entriesUnder(store);
	// Its attempt journaled, the subagent file deleted, stopped before the next target.
	const slower = execute(plan(), 'retention.before_unlink#2');
	t.after(() => slower.kill('SIGKILL'));
	await waitStopped(slower.pid);
	const faster = await execute(plan()).done;
	const [refused] = faster.json().items as Array<{status: string; failure: {code: string; detail: string} | null}>;
	assert.deepEqual([refused!.status, refused!.failure?.code], ['refused', 'session_active'], JSON.stringify(refused!.failure));
	slower.kill('SIGCONT');
	const result = await slower.done;
	const [item] = result.json().items as Array<{status: string; failure: {code: string; detail: string} | null}>;
	assert.equal(item!.status, 'compacted', JSON.stringify(item!.failure));
	assert.equal(journalNodes(journal, 'SessionPurgeReceipt').length, 1, 'one purge receipt');
	const recorded = recordedDeletions(journal);
	assert.deepEqual(before.filter(path => !existsSync(path) && !recorded.has(path)), [], 'every file gone is named by the receipt');
});
