// Real faults for test/faults/: disks filled up (on a small tmpfs from mounts.ts), writers
// stopped inside their lock (ENGI_TEST_PAUSE_AT makes the CLI SIGSTOP itself at a named point),
// and commands run as an unprivileged user. Root is needed for mounts and for dropping
// privileges; without it, or without the tools, a test skips and says why.
import {spawn, spawnSync} from 'node:child_process';
import {closeSync, existsSync, ftruncateSync, fstatSync, openSync, readFileSync, writeSync} from 'node:fs';
import {join} from 'node:path';
import type {TestContext} from 'node:test';
import {cliPath, type CliResult} from './cli.js';

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/**
 * Fills the file system under `directory` until only about `leaveBytes` are free: a filler file
 * is written until the disk refuses, then cut back.
 */
export function fillDisk(directory: string, leaveBytes: number): void {
	const fd = openSync(join(directory, 'filler'), 'w');
	const chunk = Buffer.alloc(1024 * 1024, 120);
	try {
		for (;;) {
			try {
				if (writeSync(fd, chunk) === 0) {
					break;
				}
			} catch {
				break;
			}
		}

		ftruncateSync(fd, Math.max(0, fstatSync(fd).size - leaveBytes));
	} finally {
		closeSync(fd);
	}
}

export type RunningCli = {readonly pid: number; readonly done: Promise<CliResult>; kill(signal: NodeJS.Signals): void};

/** Starts the built CLI without waiting for it (runCli waits). */
export function startCli(args: readonly string[], options: {env: Record<string, string>; cwd?: string}): RunningCli {
	const child = spawn(process.execPath, [cliPath, ...args], {env: options.env, cwd: options.cwd ?? options.env['HOME'], stdio: ['ignore', 'pipe', 'pipe']});
	let stdout = '';
	let stderr = '';
	child.stdout.setEncoding('utf8').on('data', chunk => (stdout += chunk));
	child.stderr.setEncoding('utf8').on('data', chunk => (stderr += chunk));
	const done = new Promise<CliResult>((resolve, reject) => {
		child.on('error', reject);
		child.on('close', code => {
			resolve({
				code: code ?? -1,
				stdout,
				stderr,
				json: () => JSON.parse(stdout),
				error: () => JSON.parse(stderr).error,
			});
		});
	});
	return {pid: child.pid!, done, kill: signal => child.kill(signal)};
}

/** Resolves once the process is stopped (state T in /proc), i.e. has reached its pause point. */
export async function waitStopped(pid: number, timeoutMs = 20_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		// The state follows the parenthesised command name, which may itself hold spaces.
		if (stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'T') {
			return;
		}

		await sleep(20);
	}

	throw new Error(`process ${pid} never reached its pause point`);
}

/**
 * True once the process is stopped at a pause point (state T in /proc), false if it finished
 * first (`exited`, or its /proc entry gone); throws if it does neither within `timeoutMs`.
 */
export async function stoppedOrDone(running: RunningCli, exited: () => boolean, timeoutMs = 30_000): Promise<boolean> {
	for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; ) {
		if (exited()) {
			return false;
		}

		try {
			const stat = readFileSync(`/proc/${running.pid}/stat`, 'utf8');
			if (stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'T') {
				return true;
			}
		} catch {
			return false;
		}

		await sleep(5);
	}

	throw new Error(`process ${running.pid} neither stopped nor finished`);
}

export function sleep(ms: number): Promise<void> {
	return new Promise(resolve => setTimeout(resolve, ms));
}

/** Skips the test unless it can SIGSTOP writers and watch them stop (Linux /proc). */
export function requireProc(t: TestContext): boolean {
	if (!existsSync('/proc/self/stat')) {
		t.skip('needs /proc to see that a writer reached its pause point');
		return false;
	}

	return true;
}

/** The uid and gid of `nobody`, for commands run without root's permission bypass. */
const nobody = {uid: 65_534, gid: 65_534};

/**
 * Runs the built CLI as an unprivileged user (setpriv), so permission bits apply as they do for
 * a normal user. Undefined (and the test skipped) when this process cannot drop privileges.
 */
export function runCliAsNobody(t: TestContext, args: readonly string[], options: {env: Record<string, string>; cwd?: string}): CliResult | undefined {
	if (!isRoot || spawnSync('setpriv', ['--version']).status !== 0) {
		t.skip('needs root and setpriv to run engi as an unprivileged user (root ignores permission bits)');
		return undefined;
	}

	const result = spawnSync('setpriv', [`--reuid=${nobody.uid}`, `--regid=${nobody.gid}`, '--clear-groups', '--', process.execPath, cliPath, ...args], {
		env: options.env,
		cwd: options.cwd ?? '/',
		encoding: 'utf8',
	});
	const stdout = result.stdout ?? '';
	const stderr = result.stderr ?? '';
	return {code: result.status ?? -1, stdout, stderr, json: () => JSON.parse(stdout), error: () => JSON.parse(stderr).error};
}

export {nobody};
