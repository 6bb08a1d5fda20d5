// A purge whose session leaves the store while it runs: the agent's own cleanup (Claude Code
// deletes old transcripts by itself) or any other process removes the transcript after the
// purge planned and journaled its attempt. Nothing is left for engi to delete, so the purge is
// refused as `already_cleaned`, its attempt closed by a SessionPurgeFailure, never by a receipt
// for a retirement it did not make. Reached both ways it can be: the files gone when the gates are
// judged again after the attempt (the assessment's blocker), and gone between a file's last
// check and its unlink (the deletion finds nothing to delete).
import assert from 'node:assert/strict';
import {existsSync, rmSync} from 'node:fs';
import {join} from 'node:path';
import test, {type TestContext} from 'node:test';
import {purgeOutputSchema} from '../../source/engine/retention/purge.js';
import {settle} from '../fixtures/home.js';
import {requireProc, startCli, waitStopped} from '../helpers/faults.js';
import {makeKb, type KbSandbox} from '../helpers/kb.js';
import {attestWithKnowledge, journalNodes, longAgo} from '../helpers/retention.js';
import {writeClaudeSession} from '../helpers/stores.js';

const session = 'c1ea0000-0000-4000-8000-000000000001';

/** A knowledge base beside one finished Claude session, written long ago and attested. */
function attestedWorld(t: TestContext): KbSandbox & {transcript: string} {
	const kb = makeKb(t);
	const transcript = writeClaudeSession(join(kb.env['HOME']!, '.claude', 'projects'), session, '/work/app', [
		{user: 'tighten the retry loop', assistant: 'Tightened it and added a test.', at: '2025-01-02T09:00:00.000Z'},
		{user: 'thanks', assistant: 'Done.', at: '2025-01-02T09:01:00.000Z'},
	]);
	settle(kb.env['HOME']!, longAgo);
	attestWithKnowledge(kb, 'claude', session);
	return Object.assign(kb, {transcript});
}

/** Parses a purge document with its output schema, which must take it whole: no key it does not describe. */
function parsePurge(stdout: string) {
	const {schema, ...data} = JSON.parse(stdout) as Record<string, unknown>;
	assert.equal(schema, 'engi.retention.purge.v1');
	const parsed = purgeOutputSchema.parse(data);
	assert.deepStrictEqual(parsed, data);
	return parsed;
}

/** Runs `retention purge --execute` stopped at `point`, removes the transcript there, and lets it finish. */
async function purgeWhileRemoved(t: TestContext, kb: KbSandbox & {transcript: string}, point: string) {
	const purge = startCli(['retention', 'purge', session, '--source', 'claude', '--execute', '--format', 'json'], {env: {...kb.env, ENGI_TEST_PAUSE_AT: point}});
	t.after(() => purge.kill('SIGKILL'));
	await waitStopped(purge.pid);
	assert.equal(journalNodes(kb.journal, 'SessionPurgeAttempt').length, 1, 'the attempt is journaled before anything is judged again');
	rmSync(kb.transcript);
	purge.kill('SIGCONT');
	return purge.done;
}

/** What every such refusal leaves: the attempt closed by a failure naming already_cleaned, no receipt, a log with nothing interrupted. */
function assertClosedByRefusal(kb: KbSandbox, output: ReturnType<typeof parsePurge>): void {
	const [attempt] = journalNodes(kb.journal, 'SessionPurgeAttempt');
	const [failure, ...more] = journalNodes(kb.journal, 'SessionPurgeFailure');
	assert.equal(more.length, 0);
	assert.deepEqual([output.attempt_id, output.outcome_id], [attempt!['id'], failure!['id']]);
	assert.deepEqual([failure!['attempt_id'], failure!['reason'], failure!['deleted_targets'], failure!['freed_bytes']], [attempt!['id'], 'already_cleaned', [], 0]);
	assert.deepEqual(journalNodes(kb.journal, 'SessionPurgeReceipt'), [], 'no receipt for a retirement engi did not make');
	const log = kb.ok(['retention', 'log']);
	assert.deepEqual(log.entries.map((entry: {kind: string; outcome: string | null}) => [entry.kind, entry.outcome]), [
		['failure', null],
		['attempt', 'failed'],
	]);
	assert.equal(log.interrupted, 0);
}

test('purge: a transcript removed after the attempt was journaled is refused as already_cleaned when the gates are judged again', {timeout: 60_000}, async t => {
	if (!requireProc(t)) {
		return;
	}

	const kb = attestedWorld(t);
	const planned = parsePurge(kb.run(['retention', 'purge', session, '--source', 'claude', '--format', 'json']).stdout);
	assert.deepEqual([planned.status, planned.eligible, planned.targets.map(target => target.path)], ['dry_run', true, [kb.transcript]]);
	const result = await purgeWhileRemoved(t, kb, 'retention.after_attempt');
	assert.equal(result.code, 2, result.stderr);
	const output = parsePurge(result.stdout);
	assert.equal(output.status, 'refused');
	assert.equal(output.executed, true);
	assert.deepEqual(output.failure, {code: 'already_cleaned', detail: 'its files are gone already'});
	assert.deepEqual([output.deleted_targets, output.already_gone, output.freed_bytes], [[], [], 0], 'no deletion was started');
	assert.deepEqual(output.targets.map(target => target.path), [kb.transcript], 'the targets as planned');
	assertClosedByRefusal(kb, output);

	// Asked again, the session no store lists any more is known by that refusal: gone already, not unknown.
	const again = kb.run(['retention', 'purge', session, '--source', 'claude', '--execute', '--format', 'json']);
	assert.equal(again.code, 0, again.stderr);
	const known = parsePurge(again.stdout);
	assert.deepEqual([known.status, known.executed, known.eligible, known.outcome_id, known.attempt_id], ['already_cleaned', true, false, output.outcome_id, null]);
	assert.match(known.blockers.map(blocker => `${blocker.code}: ${blocker.detail}`).join('\n'), /^already_cleaned: found gone on \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \(session-purge-attempt:claude:c1ea0000-0000-4000-8000-000000000001:1:failure\)$/);
	assert.equal(journalNodes(kb.journal, 'SessionPurgeAttempt').length, 1, 'nothing more journaled');
});

test('purge: a transcript removed between its last check and its unlink is refused as already_cleaned, the file counted as already gone', {timeout: 60_000}, async t => {
	if (!requireProc(t)) {
		return;
	}

	const kb = attestedWorld(t);
	const result = await purgeWhileRemoved(t, kb, 'retention.file_checked');
	assert.equal(result.code, 2, result.stderr);
	const output = parsePurge(result.stdout);
	assert.equal(output.status, 'refused');
	assert.deepEqual(output.failure, {code: 'already_cleaned', detail: `every file of claude session ${session} was already gone: another process retired it`});
	assert.deepEqual([output.deleted_targets, output.already_gone, output.freed_bytes], [[], [kb.transcript], 0]);
	assert.equal(existsSync(kb.transcript), false);
	assertClosedByRefusal(kb, output);
});
