// 8 concurrent workers x N operations of every writer (writers.ts), each operation a real
// `build/cli.js` process (a batch of operations per process where the command takes many
// items: ingest, wiki sync, harvest). Nothing is lost, nothing is torn, and every acknowledged
// (exit 0) operation is present exactly once in every truth file it writes.
import assert from 'node:assert/strict';
import test from 'node:test';
import {tempDir} from '../helpers/temp.js';
import {chaos, chosen, outcomeOf, runPool, tally, type Run} from './harness.js';
import {writers} from './writers.js';

for (const writer of chosen(writers)) {
	test(`${writer.name}: ${chaos.workers} concurrent workers x ${chaos.operations} operations, none lost, torn or doubled`, {timeout: 3_600_000}, async t => {
		const world = writer.setup(t, tempDir(t, 'engi-chaos-place-'), chaos.operations);
		const steps: Array<{run: Run; keys: string[]; label: string}> = [];
		// Interleaved, so the pool keeps one process of every worker running at once.
		for (let start = 0; start < chaos.operations; start += writer.batch) {
			for (let worker = 0; worker < chaos.workers; worker++) {
				const ops = Array.from({length: Math.min(writer.batch, chaos.operations - start)}, (_, index) => start + index);
				// Workers of shared items walk them from different places, so every item is contended.
				const mine = writer.shared ? ops.map(op => (op + worker * writer.batch) % chaos.operations) : ops;
				const step = writer.step(world, worker, mine);
				steps.push({...step, label: `worker ${worker} operations ${mine.join(',')}`});
			}
		}

		const started = Date.now();
		const results = await runPool(steps.map(step => step.run), chaos.workers);
		t.diagnostic(`${writer.name}: ${steps.length} processes in ${((Date.now() - started) / 1000).toFixed(1)} s`);
		const acknowledged: string[] = [];
		for (const [index, result] of results.entries()) {
			const step = steps[index]!;
			const outcome = outcomeOf(writer, result, step.keys, step.label);
			acknowledged.push(...outcome.acknowledged);
			for (const code of outcome.refusals) {
				assert.ok(writer.refusals?.has(code), `${step.label}: refused with ${code}: ${result.stderr || result.stdout}`);
			}
		}

		if (writer.shared && !writer.exclusive) {
			// A shared item every racer was refused (each saw another at work on it) is done now, alone.
			const done = new Set(acknowledged);
			for (let op = 0; op < chaos.operations; op++) {
				const step = writer.step(world, 0, [op]);
				if (!step.keys.every(key => done.has(key))) {
					const [result] = await runPool([step.run], 1);
					const label = `${writer.name}: operation ${op} alone after the race`;
					assert.deepEqual(outcomeOf(writer, result!, step.keys, label), {acknowledged: step.keys, refusals: []}, `${label}: ${result!.stderr || result!.stdout}`);
					acknowledged.push(...step.keys);
				}
			}
		}

		const acks = tally(acknowledged);
		const expected = writer.shared ? chaos.operations : chaos.workers * chaos.operations;
		assert.equal(acks.size, expected, 'every operation was acknowledged');
		if (writer.exclusive) {
			assert.deepEqual([...acks].filter(([, count]) => count !== 1), [], 'exactly one winner per item');
		}

		for (const [index, keys] of writer.present(world, writer.name).entries()) {
			const held = tally(keys);
			assert.deepEqual([...acks.keys()].filter(key => held.get(key) !== 1).map(key => [key, held.get(key) ?? 0]), [], `truth ${index}: every acknowledged operation exactly once`);
			assert.deepEqual([...held].filter(([, count]) => count > 1), [], `truth ${index}: nothing twice`);
		}
	});
}
