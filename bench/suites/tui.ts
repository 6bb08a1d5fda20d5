import {spawn} from 'node:child_process';
import {existsSync, rmSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {generateTriageStore} from '../generate-stores.js';
import {cli, median, runOnce, type Row} from '../lib/measure.js';
import {homeEnv, tierHome} from './sessions.js';

const beginFrame = '\u001B[?2026h';
const endFrame = '\u001B[?2026l';
const ansi = /\u001B\[[0-9;?]*[ -/]*[@-~]|\u001B[()][0-9A-Za-z]|\u001B[=>]/g;

/**
 * A dashboard run in a real pseudo-terminal (util-linux `script`), as a person starts it: the
 * output stream is watched as it arrives, and keys are typed into the terminal.
 */
class Terminal {
	private readonly child;
	private output = '';
	private waiters: Array<() => void> = [];
	readonly started = process.hrtime.bigint();

	constructor(args: readonly string[], env: NodeJS.ProcessEnv, size = {columns: 100, rows: 30}) {
		const command = `stty cols ${size.columns} rows ${size.rows}; exec ${process.execPath} ${cli} ${args.join(' ')}`;
		this.child = spawn('script', ['-qfec', command, '/dev/null'], {env: {...env, TERM: 'xterm-256color'}, stdio: ['pipe', 'pipe', 'ignore']});
		this.child.stdout.on('data', (chunk: Buffer) => {
			this.output += chunk.toString('utf8');

			for (const wake of this.waiters.splice(0)) {
				wake();
			}
		});
	}

	/** Milliseconds since start when the output so far (colours stripped) first satisfies `test`. */
	async until(test: (text: string) => boolean, timeoutMs = 60_000): Promise<number> {
		const deadline = Date.now() + timeoutMs;
		while (!test(this.output.replaceAll(ansi, ''))) {
			if (Date.now() > deadline) {
				throw new Error(`the dashboard never showed what was waited for; last output: ${this.output.replaceAll(ansi, '').slice(-400)}`);
			}

			await new Promise<void>(resolve => {
				this.waiters.push(resolve);
				setTimeout(resolve, 50);
			});
		}

		return Number(process.hrtime.bigint() - this.started) / 1e6;
	}

	/** The text of the newest complete frame (Ink wraps each in synchronized-update marks). */
	lastFrame(): string {
		const end = this.output.lastIndexOf(endFrame);
		const start = this.output.lastIndexOf(beginFrame, end);
		return start < 0 || end < 0 ? '' : this.output.slice(start, end).replaceAll(ansi, '');
	}

	/**
	 * Types `key` and returns the milliseconds until a complete frame shows what the key did:
	 * `changed` compares the newest frame with the one on screen when the key was typed.
	 */
	async keypress(key: string, changed: (before: string, after: string) => boolean): Promise<number> {
		const before = this.lastFrame();
		const sent = process.hrtime.bigint();
		this.child.stdin.write(key);
		await this.until(() => changed(before, this.lastFrame()), 10_000);
		return Number(process.hrtime.bigint() - sent) / 1e6;
	}

	async quit(): Promise<void> {
		const exited = new Promise(resolve => this.child.once('exit', resolve));
		this.child.stdin.write('q');
		const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
		await exited;
		clearTimeout(timer);
	}
}

/** A HOME with `count` unfinished Claude sessions, generated once. */
function triageHome(corpus: string, count: number): string {
	const home = join(corpus, `triage-${count}`);
	if (!existsSync(join(home, '.generated'))) {
		rmSync(home, {recursive: true, force: true});
		process.stderr.write(`bench: generating ${count} unfinished sessions…\n`);
		generateTriageStore(home, count);
		writeFileSync(join(home, '.generated'), new Date().toISOString());
	}

	return home;
}

export async function firstFrames(env: NodeJS.ProcessEnv, runs: number): Promise<{header: number[]; data: number[]; baseline: number[]}> {
	const header: number[] = [];
	const data: number[] = [];
	const baseline: number[] = [];
	for (let index = 0; index <= runs; index++) {
		const terminal = new Terminal(['--since', '2026-10-01', '--all-projects'], env);
		const shown = await terminal.until(text => text.includes('1 Stand-up'));
		const counted = await terminal.until(text => /· \d+ unfinished · checkpoints:/.test(text));
		await terminal.quit();
		if (index > 0) {
			// The first run warms the catalog and the file cache; it is not counted.
			header.push(shown);
			data.push(counted);
			baseline.push(runOnce(['node', '-e', '0'], env).ms);
		}
	}

	return {header, data, baseline};
}

/** The session id on the triage screen's detail line: which row is selected. */
const selectedId = (frame: string) => /· ([0-9a-f]{8}-[0-9a-f-]{27})(?: ·|$)/m.exec(frame)?.[1];

/**
 * Moves the triage cursor down and up with j/k, one key at a time at a person's pace (a held
 * key repeats about every 33 ms; Ink draws at most 30 frames a second and would merge faster
 * keys into one frame), timing each key until a frame with the new selection is complete.
 */
async function repaints(env: NodeJS.ProcessEnv, count: number, presses: number): Promise<number[]> {
	const terminal = new Terminal(['unfinished', '--since', '2026-10-01', '--all-projects'], env);
	await terminal.until(text => text.includes(`${count} of ${count}`), 600_000);
	const times: number[] = [];
	for (let index = 0; index < presses; index++) {
		await new Promise(resolve => setTimeout(resolve, 40));
		times.push(await terminal.keypress(index % 10 < 5 ? 'j' : 'k', (before, after) => selectedId(after) !== undefined && selectedId(after) !== selectedId(before)));
	}

	await terminal.quit();
	return times;
}

export async function tuiSuite(corpus: string, env: NodeJS.ProcessEnv): Promise<Row[]> {
	const rows: Row[] = [];
	for (const tier of ['S', 'M'] as const) {
		const tierEnv = homeEnv(env, tierHome(corpus, tier));
		const {header, data, baseline} = await firstFrames(tierEnv, 7);
		const base = median(baseline);
		rows.push({suite: 'tui', name: `first frame with the header (${tier}, warm catalog)`, runs: header.length, medianMs: median(header), baselineMs: base, rssMb: 0, target: tier === 'M' ? '≤ 1000 ms' : undefined});
		rows.push({suite: 'tui', name: `first frame with the stand-up's counts (${tier})`, runs: data.length, medianMs: median(data), baselineMs: base, rssMb: 0});
	}

	for (const count of [50, 5000]) {
		const triageEnv = homeEnv(env, triageHome(corpus, count));
		const times = await repaints(triageEnv, count, 40);
		rows.push({suite: 'tui', name: `keypress to repaint, triage list of ${count} rows (j/k)`, runs: times.length, medianMs: median(times), baselineMs: Number.NaN, rssMb: 0, target: count === 5000 ? '≤ 50 ms, independent of rows' : undefined, note: `p90 ${percentile(times, 0.9).toFixed(1)} ms`});
	}

	return rows;
}

function percentile(values: readonly number[], fraction: number): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}
