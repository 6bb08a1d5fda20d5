// A sweep killed (SIGKILL) at random points, many times over: while a compact copy is written,
// inside a journal append, between an attempt and its first deletion, between two deletions,
// before the receipt. Whatever the moment, no file is gone that no journaled attempt named, an
// attempt left without an outcome shows as interrupted in `retention log` and in `doctor`, and a
// second sweep finishes the work, after which every deletion appears in a receipt.
import assert from 'node:assert/strict';
import {cpSync, existsSync, mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {seededRandom} from '../../bench/lib/random.js';
import {requireProc, startCli, stoppedOrDone} from '../helpers/faults.js';
import {runCli, sandboxEnv} from '../helpers/cli.js';
import {settle} from '../fixtures/home.js';
import {entriesUnder, journalNodes, longAgo, recordedDeletions} from '../helpers/retention.js';
import {writeClaudeSession} from '../helpers/stores.js';
import {tempDir} from '../helpers/temp.js';

const sessions = ['f0000000-0000-4000-8000-000000000001', 'f0000000-0000-4000-8000-000000000002', 'f0000000-0000-4000-8000-000000000003'];
const iterations = 18;

/** Where a sweep is stopped, and how many times the point may be passed first. */
const points: ReadonlyArray<readonly [string, number]> = [
	['retention.compact_written', 3],
	['journal.before_append', 9],
	['retention.after_attempt', 3],
	['retention.before_unlink', 9],
	['retention.before_receipt', 3],
];

/** A HOME of three finished Claude sessions (the first with a subagent in its own directory) and an empty knowledge base. */
function template(base: string): void {
	const projects = join(base, 'home', '.claude', 'projects');
	for (const [index, id] of sessions.entries()) {
		writeClaudeSession(projects, id, '/work/app', [
			{user: `task ${index}: tighten the retry loop`, assistant: 'Tightened it and added a test.', at: '2025-01-02T09:00:00.000Z'},
			{user: 'thanks', assistant: 'Done.', at: '2025-01-02T09:01:00.000Z'},
		]);
	}

	const subagents = join(projects, '-work-app', sessions[0]!, 'subagents');
	mkdirSync(subagents, {recursive: true});
	writeFileSync(join(subagents, 'agent-abc123.jsonl'), `${JSON.stringify({type: 'user', isSidechain: true, sessionId: sessions[0], uuid: 'sa1', parentUuid: null, timestamp: '2025-01-02T09:00:10.000Z', message: {role: 'user', content: 'find the retry loop'}})}\n`);
	writeFileSync(join(subagents, 'agent-abc123.meta.json'), '{"agentType":"explore"}\n');
	settle(join(base, 'home'), longAgo);
	const init = runCli(['init', join(base, 'kb'), '--no-register', '--format', 'json'], {env: sandboxEnv(base)});
	assert.equal(init.code, 0, init.stderr);
}

/** Resolves once the process stopped at its pause point (true) or exited without reaching it (false). */
test('a sweep killed at random points deletes nothing unrecorded, shows as interrupted, and a second sweep completes it', {timeout: 240_000}, async t => {
	if (!requireProc(t)) {
		return;
	}

	const shared = tempDir(t);
	template(join(shared, 'template'));
	const random = seededRandom(20_261_201);
	let interruptedSeen = 0;
	for (let iteration = 0; iteration < iterations; iteration++) {
		const [point, most] = points[iteration % points.length]!;
		const pause = `${point}#${random.int(1, most)}`;
		const label = `iteration ${iteration} (${pause})`;
		const base = join(shared, `run-${iteration}`);
		cpSync(join(shared, 'template'), base, {recursive: true, preserveTimestamps: true});
		const env = sandboxEnv(base);
		const kb = join(base, 'kb');
		const journal = join(kb, '.engi', 'journal.jsonl');
		const home = env['HOME']!;
		const run = (args: readonly string[]) => runCli(['--root', kb, ...args, '--format', 'json'], {env});
		const before = entriesUnder(home);
		const plan = run(['retention', 'sweep']).json();
		assert.equal(plan.planned, sessions.length, label);

		const sweep = startCli(['--root', kb, 'retention', 'sweep', '--execute', '--plan', plan.plan_sha256, '--format', 'json'], {env: {...env, ENGI_TEST_PAUSE_AT: pause}});
		let exited = false;
		void sweep.done.then(() => (exited = true));
		if (await stoppedOrDone(sweep, () => exited, 20_000)) {
			sweep.kill('SIGKILL');
		}

		await sweep.done;
		const now = new Set(entriesUnder(home));
		const attempted = new Set(journalNodes(journal, 'SessionPurgeAttempt').flatMap(attempt => (attempt['targets'] as Array<{path: string}>).map(target => target.path)));
		const gone = before.filter(path => !now.has(path));
		assert.deepEqual(gone.filter(path => !attempted.has(path)), [], `${label}: everything gone was named by a journaled attempt first`);
		const settled = new Set([...journalNodes(journal, 'SessionPurgeReceipt'), ...journalNodes(journal, 'SessionPurgeFailure')].flatMap(outcome => [outcome['attempt_id'], ...(outcome['resumed_attempt_ids'] as string[])]));
		const interrupted = journalNodes(journal, 'SessionPurgeAttempt').filter(attempt => !settled.has(attempt['id']));
		if (interrupted.length > 0) {
			interruptedSeen++;
			const log = run(['retention', 'log']).json();
			assert.equal(log.interrupted, interrupted.length, label);
			assert.deepEqual(log.entries.filter((entry: any) => entry.outcome === 'interrupted').map((entry: any) => entry.id), interrupted.map(attempt => attempt['id']), label);
			const doctor = run(['doctor']);
			assert.equal(doctor.code, 1, `${label}: doctor warns`);
			const check = doctor.json().checks.find((entry: any) => entry.name === 'retention-interrupted');
			assert.equal(check.severity, 'warning', label);
			assert.match(check.detail, /never finished/);
		}

		// Again, from a fresh dry run: whatever the first left, the second finishes.
		const again = run(['retention', 'sweep']).json();
		const finished = run(['retention', 'sweep', '--execute', '--plan', again.plan_sha256, '--details']);
		assert.equal(finished.code, 0, `${label}: ${finished.stdout}`);
		assert.equal(finished.json().failed, 0, label);
		const remaining = entriesUnder(home).filter(path => path.endsWith('.jsonl') || path.endsWith('.json'));
		assert.deepEqual(remaining, [], `${label}: every session is retired`);
		const recorded = recordedDeletions(journal);
		assert.deepEqual(before.filter(path => !existsSync(path) && !recorded.has(path)), [], `${label}: every deletion appears in a receipt`);
		const log = run(['retention', 'log']).json();
		assert.equal(log.interrupted, 0, `${label}: nothing is left interrupted`);
		const compact = join(kb, '00-inbox', 'harvest', 'compact', 'claude');
		assert.deepEqual(entriesUnder(compact).map(path => path.slice(compact.length + 1)), sessions.map(id => `${id}.jsonl`), `${label}: one compact copy each, no .partial left`);
	}

	assert.ok(interruptedSeen > 0, 'some runs were killed between an attempt and its outcome');
});
