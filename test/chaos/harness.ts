// The chaos suite's machinery, shared by every writer in writers.ts: how big a run is, racing
// workers of the real CLI, SIGKILL at a random moment or a pause point, and the checks every
// truth file must pass (whole lines only, each acknowledged operation exactly once).
import assert from 'node:assert/strict';
import {existsSync, readdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {seededRandom} from '../../bench/lib/random.js';
import {sleep, startCli, stoppedOrDone} from '../helpers/faults.js';
import type {CliResult} from '../helpers/cli.js';
import type {ChaosWriter} from './writers.js';

/**
 * `ENGI_CHAOS_SCALE` (default 1, the full run `npm run test:chaos` makes) scales the number of
 * operations and kill iterations down; `.ci/run` runs the suite with a small scale so CI stays
 * within minutes. The number of concurrent workers never shrinks: the races need them.
 */
const scale = Math.min(1, Math.max(0, Number(process.env['ENGI_CHAOS_SCALE'] ?? '1') || 1));
export const chaos = {
	scale,
	workers: 8,
	/** Operations each worker performs. */
	operations: Math.max(2, Math.round(250 * scale)),
	/** SIGKILL iterations per writer. */
	kills: Math.max(4, Math.round(200 * scale)),
	/** A seed per run, printed, so a failure can be replayed with ENGI_CHAOS_SEED. */
	seed: Number(process.env['ENGI_CHAOS_SEED'] ?? Date.now() % 1_000_000),
};
export const random = seededRandom(chaos.seed);

/** The writers a run covers: all, or those whose name holds ENGI_CHAOS_WRITER. */
export function chosen<T extends {readonly name: string}>(all: readonly T[]): readonly T[] {
	const wanted = process.env['ENGI_CHAOS_WRITER'];
	return wanted ? all.filter(writer => writer.name.includes(wanted)) : all;
}
console.log(`# chaos: scale ${chaos.scale}, ${chaos.workers} workers x ${chaos.operations} operations, ${chaos.kills} kills per writer, seed ${chaos.seed}`);

/**
 * One process to start; `stage` first writes the files it works on (staged notes, wiki pages),
 * right before it starts; `prepare` then finds the arguments only known at that moment (a dry
 * run's plan digest), which are appended to `args`.
 */
export type Run = {
	readonly args: readonly string[];
	readonly env: Record<string, string>;
	readonly cwd: string;
	readonly stage?: () => void;
	readonly prepare?: () => Promise<readonly string[]>;
};

/** Stages a run and starts it with its prepared arguments. */
async function start(run: Run, env: Record<string, string> = run.env) {
	run.stage?.();
	const extra = (await run.prepare?.()) ?? [];
	return startCli([...run.args, ...extra], {env, cwd: run.cwd});
}

/** Error codes a writer may refuse with under faults; anything else (internal_error above all) is a finding. */
export const faultCodes = new Set(['disk_full', 'write_failed', 'read_only', 'io_error', 'lock_timeout', 'lock_lost']);

/** A non-zero exit must carry a typed error envelope, never a stack trace or `internal_error`. */
export function assertTypedError(result: CliResult, label: string): string {
	let code: string;
	try {
		code = result.error().code;
	} catch {
		assert.fail(`${label}: exit ${result.code} without an error envelope:\n${result.stderr}`);
	}

	assert.notEqual(code, 'internal_error', `${label}: ${result.stderr}`);
	assert.doesNotMatch(result.stderr, /\n\s+at .+:\d+:\d+/, `${label}: a stack trace escaped`);
	return code;
}

/** What one finished process acknowledged (exit 0 for every key it was given), and the code of each refusal it gave. */
export type Outcome = {readonly acknowledged: readonly string[]; readonly refusals: readonly string[]};

/** The outcome of a process of `writer` that was given `keys`: the writer's own reading of its document, or exit 0 / a typed error. */
export function outcomeOf(writer: ChaosWriter, result: CliResult, keys: readonly string[], label: string): Outcome {
	if (writer.outcome) {
		return writer.outcome(result, keys, label);
	}

	return result.code === 0 ? {acknowledged: [...keys], refusals: []} : {acknowledged: [], refusals: [assertTypedError(result, label)]};
}

/** Runs `count` commands at most `parallel` at a time, each a real subprocess, in order of the list. */
export async function runPool(runs: readonly Run[], parallel: number): Promise<CliResult[]> {
	const results: CliResult[] = Array.from({length: runs.length});
	let next = 0;
	await Promise.all(
		Array.from({length: parallel}, async () => {
			while (next < runs.length) {
				const index = next++;
				results[index] = await (await start(runs[index]!)).done;
			}
		}),
	);
	return results;
}

/**
 * Starts `run` and kills it (SIGKILL) either at `pause` (the CLI stops itself there; a run that
 * ends without reaching it is left alone) or after a random delay of up to `maxDelayMs`.
 * Resolves to whether it was killed before it ended.
 */
export async function killAt(run: Run, moment: {pause: string} | {delayMs: number}): Promise<{killed: boolean; result: CliResult}> {
	const env = 'pause' in moment ? {...run.env, ENGI_TEST_PAUSE_AT: moment.pause} : run.env;
	const running = await start(run, env);
	let exited = false;
	void running.done.then(() => (exited = true));
	const killed = 'pause' in moment ? await stoppedOrDone(running, () => exited) : await delayOrDone(moment.delayMs, () => exited);
	if (killed) {
		running.kill('SIGKILL');
	}

	return {killed, result: await running.done};
}

async function delayOrDone(ms: number, exited: () => boolean): Promise<boolean> {
	await sleep(ms);
	return !exited();
}

/** Asserts a JSONL truth file holds whole lines only, each a JSON object; returns them parsed. */
export function wholeLines(file: string, label: string): Array<Record<string, any>> {
	if (!existsSync(file)) {
		return [];
	}

	const text = readFileSync(file, 'utf8');
	if (text === '') {
		return [];
	}

	assert.ok(text.endsWith('\n'), `${label}: ${file} ends inside a line`);
	return text
		.slice(0, -1)
		.split('\n')
		.map((line, index) => {
			try {
				return JSON.parse(line) as Record<string, any>;
			} catch {
				assert.fail(`${label}: ${file}:${index + 1} is not a whole JSON line: ${line.slice(0, 120)}`);
			}
		});
}

/** Every line of every file in a quarantine directory (empty when there is none). */
export function quarantinedLines(directory: string): string[] {
	if (!existsSync(directory)) {
		return [];
	}

	return readdirSync(directory)
		.filter(name => name.endsWith('.jsonl'))
		.flatMap(name => readFileSync(join(directory, name), 'utf8').split('\n').filter(line => line !== ''));
}

/** How many times each key occurs in a list. */
export function tally(keys: Iterable<string>): Map<string, number> {
	const counts = new Map<string, number>();
	for (const key of keys) {
		counts.set(key, (counts.get(key) ?? 0) + 1);
	}

	return counts;
}
