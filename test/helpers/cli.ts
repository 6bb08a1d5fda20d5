import {spawnSync} from 'node:child_process';
import {mkdirSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
export const cliPath = join(repoRoot, 'build', 'cli.js');

export type CliResult = {
	readonly code: number;
	readonly stdout: string;
	readonly stderr: string;
	json<T = any>(): T;
	error(): {code: string; message: string; hint: string | null; [key: string]: unknown};
};

/**
 * A sandboxed environment for the built CLI: its own HOME and XDG directories under `base`, so
 * a test never reads or writes the developer's real configuration or agent stores.
 */
export function sandboxEnv(base: string, extra: Record<string, string | undefined> = {}): Record<string, string> {
	const env: Record<string, string> = {
		PATH: process.env['PATH'] ?? '/usr/bin:/bin',
		HOME: join(base, 'home'),
		XDG_CONFIG_HOME: join(base, 'config'),
		XDG_CACHE_HOME: join(base, 'cache'),
		XDG_DATA_HOME: join(base, 'data'),
		TZ: 'UTC',
		NO_COLOR: '1',
		FORCE_COLOR: '0',
	};
	mkdirSync(env['HOME']!, {recursive: true});
	for (const [key, value] of Object.entries(extra)) {
		if (value === undefined) {
			delete env[key];
		} else {
			env[key] = value;
		}
	}

	return env;
}

/** Runs the built `engi` as a real subprocess (`cli`: another build's entry, cliPath unless given). */
export function runCli(args: readonly string[], options: {env: Record<string, string>; cwd?: string; input?: string; nodeArgs?: string[]; cli?: string}): CliResult {
	const result = spawnSync(process.execPath, [...(options.nodeArgs ?? []), options.cli ?? cliPath, ...args], {
		env: options.env,
		cwd: options.cwd ?? options.env['HOME'],
		input: options.input ?? '',
		encoding: 'utf8',
		maxBuffer: 256 * 1024 * 1024,
	});
	const stdout = result.stdout ?? '';
	const stderr = result.stderr ?? '';
	return {
		code: result.status ?? -1,
		stdout,
		stderr,
		json() {
			try {
				return JSON.parse(stdout);
			} catch {
				throw new Error(`stdout is not one JSON document (exit ${result.status}):\n${stdout}\nstderr:\n${stderr}`);
			}
		},
		error() {
			try {
				return JSON.parse(stderr).error;
			} catch {
				throw new Error(`stderr is not an error envelope (exit ${result.status}):\n${stderr}\nstdout:\n${stdout}`);
			}
		},
	};
}
