import {spawn} from 'node:child_process';

export type CommandRun = {
	/** Exit status, or null when a signal ended it. */
	readonly exitCode: number | null;
	readonly signal: string | null;
	readonly stdout: Buffer;
	/** The last few KiB of stderr, for a message about why it failed. */
	readonly stderrTail: string;
	readonly timedOut: boolean;
	/** Stdout passed the cap; the command was stopped and what it printed is cut there. */
	readonly overflowed: boolean;
	readonly ms: number;
};

export type CommandOptions = {
	readonly input: string;
	readonly timeoutMs: number;
	readonly maxStdoutBytes: number;
	readonly env: Readonly<Record<string, string | undefined>>;
	readonly cwd: string;
};

const stderrKeep = 4096;
/** How long a stopped command gets to exit after SIGTERM before SIGKILL, and then to close its pipes. */
const graceMs = 2000;

/**
 * Runs a command line the user named (through the shell, as a shell would run it) with text on
 * its stdin, a time limit and a cap on what it may print. On either limit the whole process group
 * is stopped (SIGTERM, then SIGKILL), so a shell's children go with it. Never throws for how the
 * command ended; the caller decides what each outcome means.
 */
export function runCommand(command: string, options: CommandOptions): Promise<CommandRun> {
	const started = Date.now();
	const posix = process.platform !== 'win32';
	return new Promise((resolve, reject) => {
		const child = spawn(command, {shell: true, cwd: options.cwd, env: options.env as NodeJS.ProcessEnv, stdio: ['pipe', 'pipe', 'pipe'], detached: posix, windowsHide: true});
		const out: Buffer[] = [];
		let outBytes = 0;
		let errTail = '';
		let timedOut = false;
		let overflowed = false;
		let settled = false;
		const timers: NodeJS.Timeout[] = [];
		const signal = (name: NodeJS.Signals) => {
			try {
				if (posix && child.pid !== undefined) {
					process.kill(-child.pid, name);
				} else {
					child.kill(name);
				}
			} catch {}
		};

		const finish = (exitCode: number | null, exitSignal: string | null) => {
			if (settled) {
				return;
			}

			settled = true;
			for (const timer of timers) {
				clearTimeout(timer);
			}

			child.stdout.destroy();
			child.stderr.destroy();
			resolve({exitCode, signal: exitSignal, stdout: Buffer.concat(out), stderrTail: errTail, timedOut, overflowed, ms: Date.now() - started});
		};

		const stop = () => {
			signal('SIGTERM');
			timers.push(setTimeout(() => signal('SIGKILL'), graceMs));
			// A child that escaped the group may hold the pipes open: stop waiting for them.
			timers.push(setTimeout(() => finish(child.exitCode, child.signalCode), graceMs * 2));
		};

		timers.push(
			setTimeout(() => {
				timedOut = true;
				stop();
			}, options.timeoutMs),
		);
		child.stdout.on('data', (chunk: Buffer) => {
			if (overflowed) {
				return;
			}

			const room = options.maxStdoutBytes - outBytes;
			if (chunk.length > room) {
				out.push(chunk.subarray(0, Math.max(0, room)));
				outBytes = options.maxStdoutBytes;
				overflowed = true;
				stop();
				return;
			}

			out.push(chunk);
			outBytes += chunk.length;
		});
		child.stderr.on('data', (chunk: Buffer) => {
			errTail = (errTail + chunk.toString('utf8')).slice(-stderrKeep);
		});
		child.on('error', error => {
			if (!settled) {
				settled = true;
				for (const timer of timers) {
					clearTimeout(timer);
				}

				reject(error);
			}
		});
		child.on('close', (code, closeSignal) => finish(code, closeSignal));
		// A command that does not read its stdin closes the pipe early; that is its business.
		child.stdin.on('error', () => {});
		child.stdin.end(options.input);
	});
}
