// Every writer (writers.ts) killed with SIGKILL, many times over: at one of its pause points
// (ENGI_TEST_PAUSE_AT) or after a random delay within the time one operation takes. After each
// kill the truth files hold whole lines only; a torn tail left on one is quarantined verbatim by
// the next write; running the killed operation again leaves it present exactly once.
import assert from 'node:assert/strict';
import {appendFileSync, existsSync, readFileSync} from 'node:fs';
import test from 'node:test';
import {tempDir} from '../helpers/temp.js';
import {chaos, chosen, killAt, outcomeOf, quarantinedLines, random, runPool, tally} from './harness.js';
import {writers, type ChaosWriter, type World} from './writers.js';

/** Asserts each key occurs exactly once in every truth, and no key twice. */
function exactlyOnce(writer: ChaosWriter, world: World, keys: readonly string[], label: string): void {
	for (const [index, present] of writer.present(world, label).entries()) {
		const held = tally(present);
		assert.deepEqual([...held].filter(([, count]) => count > 1), [], `${label}: truth ${index} holds nothing twice`);
		assert.deepEqual(keys.filter(key => held.get(key) !== 1), [], `${label}: truth ${index} holds each operation once`);
	}
}

async function runOk(writer: ChaosWriter, world: World, worker: number, op: number, label: string, refusals: ReadonlySet<string> = new Set()) {
	const step = writer.step(world, worker, [op]);
	const [result] = await runPool([step.run], 1);
	for (const code of outcomeOf(writer, result!, step.keys, label).refusals) {
		assert.ok(refusals.has(code), `${label}: refused with ${code}: ${result!.stderr || result!.stdout}`);
	}

	return step.keys;
}

for (const writer of chosen(writers)) {
	test(`${writer.name}: SIGKILL at random points, ${chaos.kills} times: whole lines, torn tails quarantined, each operation once`, {timeout: 3_600_000}, async t => {
		const world = writer.setup(t, tempDir(t, 'engi-chaos-place-'), 2 * chaos.kills + 1);
		const started = Date.now();
		await runOk(writer, world, 1, 2 * chaos.kills, `${writer.name}: calibration`);
		const oneOperationMs = Date.now() - started;
		let killed = 0;
		let torn = 0;
		for (let iteration = 0; iteration < chaos.kills; iteration++) {
			// The first kill of a writer with pause points is at one, so at least one run is killed
			// mid-way however long runs take: a random delay drawn from a slow calibration run can
			// outlast every run of a small (CI) chaos scale.
			const usePause = writer.pauses.length > 0 && (iteration === 0 || random.next() < 0.6);
			const moment = usePause ? {pause: random.pick(writer.pauses)[0]} : {delayMs: random.int(0, Math.round(oneOperationMs * 1.2))};
			const label = `${writer.name}, iteration ${iteration} (${'pause' in moment ? moment.pause : `${moment.delayMs} ms`}, seed ${chaos.seed})`;
			const victim = writer.step(world, 0, [iteration]);
			const outcome = await killAt(victim.run, moment);
			if (outcome.killed) {
				killed++;
			} else {
				outcomeOf(writer, outcome.result, victim.keys, label);
			}

			exactlyOnce(writer, world, [], label);

			// Now and then a torn tail, as a crash of another program could leave: the next write quarantines it verbatim.
			const truths = writer.truth(world).filter(truth => existsSync(truth.file) && readFileSync(truth.file).length > 0);
			const tear = truths.length > 0 && random.next() < 0.3 ? random.pick(truths) : undefined;
			const fragment = `{"torn":${iteration},"observed_utc":"2026-`;
			if (tear) {
				appendFileSync(tear.file, fragment);
				torn++;
			}

			const fresh = await runOk(writer, world, 1, chaos.kills + iteration, `${label}: the next write`);
			if (tear) {
				assert.ok(quarantinedLines(tear.quarantine).includes(fragment), `${label}: the torn tail of ${tear.file} is quarantined verbatim`);
			}

			// Again: whatever the killed run left, the operation ends up there once (a promotion the kill let finish is refused as done).
			const again = writer.idempotent === false ? [] : await runOk(writer, world, 0, iteration, `${label}: again`, writer.refusals);
			exactlyOnce(writer, world, [...fresh, ...again], label);
		}

		t.diagnostic(`${writer.name}: ${chaos.kills} iterations, ${killed} killed before they ended, ${torn} torn tails, ${((Date.now() - started) / 1000).toFixed(1)} s`);
		assert.ok(killed > 0, 'some runs were killed mid-way');
	});
}
