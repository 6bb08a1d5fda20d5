import {spawnSync} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {checkTarget, markOf} from './targets.js';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
/**
 * The runner measures a snapshot of the build taken when it starts (see run.ts), so rebuilding
 * while a long benchmark runs cannot change what is being measured halfway through.
 */
export const cli = join(repoRoot, 'bench', '.corpus', 'cli-build', 'cli.js');
const rssReporter = join(repoRoot, 'bench', 'lib', 'report-rss.mjs');

/** One run: wall time, peak RSS, CPU time (user + system) and the bytes it read (`rchar`, see report-rss.mjs). */
export type Sample = {readonly ms: number; readonly rssMb: number; readonly cpuMs: number; readonly readBytes: number; readonly code: number; readonly stdout?: string};

/** Runs one command as a fresh process and records its wall time, peak resident memory, CPU time and bytes read. */
export function runOnce(argv: readonly string[], env: NodeJS.ProcessEnv, options: {nodeArgs?: string[]; cwd?: string; captureStdout?: boolean} = {}): Sample {
	const directory = mkdtempSync(join(tmpdir(), 'engi-bench-'));
	const rssFile = join(directory, 'rss');
	try {
		const [command, ...args] = argv;
		const isNode = command === 'node';
		const started = process.hrtime.bigint();
		const result = spawnSync(isNode ? process.execPath : command!, isNode ? ['--import', rssReporter, ...(options.nodeArgs ?? []), ...args] : args, {
			env: {...env, ENGI_BENCH_RSS_FILE: rssFile},
			cwd: options.cwd,
			stdio: ['ignore', options.captureStdout ? 'pipe' : 'ignore', 'pipe'],
			maxBuffer: 64 * 1024 * 1024,
		});
		const ms = Number(process.hrtime.bigint() - started) / 1e6;
		let usage: {maxRss?: number; userCpu?: number; systemCpu?: number; rchar?: number} = {};
		try {
			usage = JSON.parse(readFileSync(rssFile, 'utf8')) as typeof usage;
		} catch {}

		if (result.status !== 0 && result.status !== 2) {
			process.stderr.write(`bench: ${argv.join(' ')} exited ${result.status}: ${String(result.stderr).slice(0, 400)}\n`);
		}

		return {
			ms,
			rssMb: (usage.maxRss ?? Number.NaN) / 1024,
			cpuMs: ((usage.userCpu ?? Number.NaN) + (usage.systemCpu ?? 0)) / 1000,
			readBytes: usage.rchar ?? Number.NaN,
			code: result.status ?? -1,
			...(options.captureStdout ? {stdout: String(result.stdout)} : {}),
		};
	} finally {
		rmSync(directory, {recursive: true, force: true});
	}
}

export function median(values: readonly number[]): number {
	const sorted = [...values].filter(value => !Number.isNaN(value)).sort((a, b) => a - b);
	if (sorted.length === 0) {
		return Number.NaN;
	}

	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export type Row = {
	readonly suite: string;
	readonly name: string;
	readonly runs: number;
	readonly medianMs: number;
	readonly baselineMs: number;
	readonly rssMb: number;
	/** The median CPU time (user + system) of the measured runs, where it was recorded. */
	readonly cpuMs?: number;
	/** A size as a percentage of another (a catalog's of the transcripts'), for a `≤ N% of …` target. */
	readonly sharePercent?: number;
	/** The bytes one run read (`rchar`), in MB, for a `reads ≤ N MB` target. */
	readonly readMb?: number;
	readonly target?: string;
	readonly note?: string;
};

/**
 * Measures a command `runs` times, interleaving `node -e 0` runs so the baseline shares the
 * machine's state at that moment (this machine's timings drift by 20–30% between batches).
 */
export function measure(
	suite: string,
	name: string,
	argv: readonly string[],
	env: NodeJS.ProcessEnv,
	options: {runs?: number; warmup?: number; before?: () => void; target?: string; cwd?: string; nodeArgs?: string[]} = {},
): Row {
	const runs = options.runs ?? 11;
	for (let index = 0; index < (options.warmup ?? 1); index++) {
		options.before?.();
		runOnce(argv, env, options);
	}

	const times: number[] = [];
	const baselines: number[] = [];
	const rss: number[] = [];
	const cpu: number[] = [];
	for (let index = 0; index < runs; index++) {
		baselines.push(runOnce(['node', '-e', '0'], env).ms);
		options.before?.();
		const sample = runOnce(argv, env, options);
		times.push(sample.ms);
		rss.push(sample.rssMb);
		cpu.push(sample.cpuMs);
	}

	return {suite, name, runs, medianMs: median(times), baselineMs: median(baselines), rssMb: Math.max(...rss.filter(value => !Number.isNaN(value)), 0), cpuMs: median(cpu), target: options.target};
}

/** The key a row is compared under with the same row of the last run. */
export const rowKey = (row: Row) => `${row.suite}\u0000${row.name}`;

/**
 * The table of a run: each row with its target, whether it was met (checkTarget: ✓ met, ✗ not,
 * ? not checkable alone) and its median against the same row of the last run (`last`).
 */
export function formatTable(rows: readonly Row[], last: ReadonlyMap<string, number> = new Map()): string {
	const header = '| suite | measurement | runs | median ms | `node -e 0` ms | ratio | CPU ms | peak RSS MB | vs last | target | met |';
	const divider = '|---|---|---:|---:|---:|---:|---:|---:|---:|---|:-:|';
	const body = rows.map(row => {
		const before = last.get(rowKey(row));
		return [
			row.suite,
			row.name,
			row.runs,
			Number.isNaN(row.medianMs) ? '—' : row.medianMs.toFixed(1),
			Number.isNaN(row.baselineMs) ? '—' : row.baselineMs.toFixed(1),
			Number.isNaN(row.baselineMs) ? '—' : `${(row.medianMs / row.baselineMs).toFixed(2)}×`,
			row.cpuMs === undefined || Number.isNaN(row.cpuMs) ? '—' : row.cpuMs.toFixed(0),
			row.rssMb ? row.rssMb.toFixed(0) : '—',
			before && row.medianMs ? `${(row.medianMs / before).toFixed(2)}×` : '—',
			[row.target, row.note].filter(Boolean).join('; ') || '',
			markOf(checkTarget(row)),
		].join(' | ');
	});
	return [header, divider, ...body.map(line => `| ${line} |`)].join('\n');
}
