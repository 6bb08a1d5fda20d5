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
 * its stdin, a time limit and a cap on what it may print, with execa (loaded here, on first use:
 * only a command that runs something pays for it). execa would stop only the shell it started;
 * on either limit the whole process group is stopped here (SIGTERM, then SIGKILL), so the
 * shell's children go with it. Throws only when the command could not be started; the caller decides
 * what every other outcome means.
 */
export async function runCommand(command: string, options: CommandOptions): Promise<CommandRun> {
	const {execa} = await import('execa');
	const posix = process.platform !== 'win32';
	const subprocess = execa(command, {
		shell: true,
		cwd: options.cwd,
		env: options.env,
		extendEnv: false,
		input: options.input,
		encoding: 'buffer',
		stripFinalNewline: false,
		maxBuffer: {stdout: options.maxStdoutBytes},
		buffer: {stderr: false},
		reject: false,
		detached: posix,
		windowsHide: true,
		forceKillAfterDelay: graceMs,
	});
	let stderrTail = '';
	subprocess.stderr.on('data', (chunk: Buffer) => {
		stderrTail = (stderrTail + chunk.toString('utf8')).slice(-stderrKeep);
	});

	const timers: NodeJS.Timeout[] = [];
	const signalGroup = (name: NodeJS.Signals) => {
		try {
			if (posix && subprocess.pid !== undefined) {
				process.kill(-subprocess.pid, name);
			} else {
				subprocess.kill(name);
			}
		} catch {}
	};

	let stopping = false;
	const stop = () => {
		if (stopping) {
			return;
		}

		stopping = true;
		signalGroup('SIGTERM');
		timers.push(setTimeout(() => signalGroup('SIGKILL'), graceMs));
		// A child that left the group may hold the pipes open: stop waiting for them.
		timers.push(
			setTimeout(() => {
				subprocess.stdout.destroy();
				subprocess.stderr.destroy();
			}, graceMs * 2),
		);
	};

	let timedOut = false;
	timers.push(
		setTimeout(() => {
			timedOut = true;
			stop();
		}, options.timeoutMs),
	);
	// execa cuts stdout at the cap and stops the shell, but then waits for the pipes, which the
	// shell's children still hold: the group is stopped as soon as the cap is passed.
	let stdoutBytes = 0;
	subprocess.stdout.on('data', (chunk: Uint8Array) => {
		stdoutBytes += chunk.length;
		if (stdoutBytes > options.maxStdoutBytes) {
			stop();
		}
	});
	const result = await subprocess;
	for (const timer of timers) {
		clearTimeout(timer);
	}

	if (result.exitCode === undefined && result.signal === undefined && !stopping) {
		throw result.cause ?? new Error(result.message);
	}

	return {
		exitCode: result.exitCode ?? null,
		signal: result.signal ?? null,
		stdout: Buffer.from(result.stdout ?? new Uint8Array()),
		stderrTail,
		timedOut,
		overflowed: result.isMaxBuffer || stdoutBytes > options.maxStdoutBytes,
		ms: result.durationMs,
	};
}
