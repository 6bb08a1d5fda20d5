import {join} from 'node:path';
import type {TestContext} from 'node:test';
import assert from 'node:assert/strict';
import {runCli, sandboxEnv, type CliResult} from './cli.js';
import {tempDir} from './temp.js';

export type KbSandbox = {
	readonly base: string;
	readonly root: string;
	readonly env: Record<string, string>;
	readonly journal: string;
	run(args: readonly string[], options?: {input?: string; cwd?: string}): CliResult;
	/** Runs and asserts exit 0, returning the parsed JSON document. */
	ok<T = any>(args: readonly string[]): T;
};

/** A sandbox with a freshly initialised, registered knowledge base (at `root` when given, e.g. on a test's own mount). */
export function makeKb(t: TestContext, options: {root?: string} = {}): KbSandbox {
	const base = tempDir(t);
	const root = options.root ?? join(base, 'kb');
	const env = sandboxEnv(base);
	const run = (args: readonly string[], options: {input?: string; cwd?: string} = {}) => runCli(args, {env, ...options});
	const init = run(['init', root, '--format', 'json']);
	assert.equal(init.code, 0, init.stderr);
	return {
		base,
		root,
		env,
		journal: join(root, '.engi', 'journal.jsonl'),
		run,
		ok(args) {
			const result = run([...args, '--format', 'json']);
			assert.equal(result.code, 0, `engi ${args.join(' ')} failed: ${result.stderr}`);
			return result.json();
		},
	};
}
