// Every writer (writers.ts) on a full disk and on a read-only one (a small tmpfs the test
// mounts, so it needs root; it skips and says so otherwise): a typed error, nothing
// half-written (whole lines, the refused operation nowhere, no temporary file left), and the
// next call once there is room, or once the disk is writable again, works.
import assert from 'node:assert/strict';
import {readdirSync, rmSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {fillDisk} from '../helpers/faults.js';
import {mountSandbox, mountsUnavailable} from '../helpers/mounts.js';
import {chosen, faultCodes, outcomeOf, runPool, tally} from './harness.js';
import {writers, type ChaosWriter, type World} from './writers.js';

type Step = ReturnType<ChaosWriter['step']>;

/** Stages a step's files and prepares its arguments now, once, instead of when it starts. */
async function staged(step: Step): Promise<void> {
	step.run.stage?.();
	const extra = (await step.run.prepare?.()) ?? [];
	Object.assign(step, {run: {...step.run, args: [...step.run.args, ...extra], stage: undefined, prepare: undefined}});
}

/** Files a write left half-made: temporary and partial files anywhere under the disk. */
const leftovers = (directory: string) => readdirSync(directory, {recursive: true, encoding: 'utf8'}).filter(name => /\.(tmp|partial)$/.test(name));

function count(writer: ChaosWriter, world: World, keys: readonly string[], label: string): number[][] {
	return writer.present(world, label).map(present => {
		const held = tally(present);
		assert.deepEqual([...held].filter(([, times]) => times > 1), [], `${label}: nothing twice`);
		return keys.map(key => held.get(key) ?? 0);
	});
}

async function refused(writer: ChaosWriter, world: World, step: Step, label: string, codes: ReadonlySet<string>) {
	const [result] = await runPool([step.run], 1);
	assert.notEqual(result!.code, 0, `${label}: the write was refused`);
	const outcome = outcomeOf(writer, result!, step.keys, label);
	assert.deepEqual(outcome.acknowledged, [], `${label}: nothing acknowledged`);
	assert.ok(outcome.refusals.length > 0 && outcome.refusals.every(code => codes.has(code)), `${label}: refused with ${outcome.refusals.join(', ')}: ${result!.stderr || result!.stdout}`);
	for (const held of count(writer, world, step.keys, label)) {
		assert.ok(held.every(times => times === 0), `${label}: nothing of the refused operation was written`);
	}
}

async function works(writer: ChaosWriter, world: World, step: Step, label: string) {
	const [result] = await runPool([step.run], 1);
	assert.equal(result!.code, 0, `${label}: ${result!.stderr || result!.stdout}`);
	assert.deepEqual(outcomeOf(writer, result!, step.keys, label).acknowledged, step.keys, label);
	for (const held of count(writer, world, step.keys, label)) {
		assert.ok(held.every(times => times === 1), `${label}: the operation is there once`);
	}
}

for (const writer of chosen(writers)) {
	test(`${writer.name}: a full disk and a read-only disk refuse with a typed error, leave nothing half-written, and the next call works`, {timeout: 600_000, skip: mountsUnavailable()}, async t => {
		const sandbox = mountSandbox(t);
		const disk = sandbox.tmpfs(join(sandbox.base, 'disk'), '16m');
		const world = writer.setup(t, disk, 3);
		const [first, second, third] = [0, 1, 2].map(op => writer.step(world, 0, [op])) as [Step, Step, Step];
		await works(writer, world, first, `${writer.name}: with room`);

		// A step's files are staged while the disk still takes them.
		await staged(second);
		fillDisk(disk, 0);
		await refused(writer, world, second, `${writer.name}: full disk`, faultCodes);
		assert.deepEqual(leftovers(disk), [], `${writer.name}: no temporary file left on the full disk`);
		rmSync(join(disk, 'filler'));
		await works(writer, world, second, `${writer.name}: room again`);

		await staged(third);
		sandbox.remountReadOnly(disk);
		await refused(writer, world, third, `${writer.name}: read-only`, new Set(['read_only']));
		sandbox.remountWritable(disk);
		await works(writer, world, third, `${writer.name}: writable again`);
	});
}
