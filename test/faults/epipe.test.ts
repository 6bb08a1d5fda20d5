import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import test from 'node:test';
import {cliPath, runCli, sandboxEnv} from '../helpers/cli.js';
import {buildFixtureHome} from '../fixtures/home.js';
import {tempDir} from '../helpers/temp.js';

/**
 * Runs the CLI with stdout to a real pipe that the reader closes early: at once, or after the
 * first few bytes (`engi … | head -c 10`). Resolves with the exit code and all of stderr.
 */
function runClosingEarly(args: readonly string[], env: Record<string, string>, keep: number): Promise<{code: number | null; stderr: string; read: number}> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [cliPath, ...args], {env, cwd: env['HOME'], stdio: ['ignore', 'pipe', 'pipe']});
		let stderr = '';
		let read = 0;
		child.stderr.on('data', chunk => (stderr += chunk));
		if (keep === 0) {
			child.stdout.destroy();
		} else {
			child.stdout.on('data', (chunk: Buffer) => {
				read += chunk.length;
				if (read >= keep) {
					child.stdout.destroy();
				}
			});
		}

		child.on('error', reject);
		child.on('close', code => resolve({code, stderr, read}));
	});
}

test('a reader that closes the pipe early ends engi quietly, with the exit code it would have had, JSON and human alike', async t => {
	const env = sandboxEnv(tempDir(t));
	buildFixtureHome(env);
	// A listing larger than a pipe's buffer, so the writer is still writing when the reader goes.
	const big = ['sessions', '--all-projects', '--limit', '500'];
	assert.ok(runCli([...big, '--format', 'json'], {env}).stdout.length > 4096);
	for (const [args, code] of [
		[[...big, '--format', 'json'], 0],
		[[...big, '--format', 'human'], 0],
		[['unfinished', '--all-projects', '--since', '2000-01-01', '--format', 'human'], 0],
		[['--help'], 0],
	] as const) {
		for (const keep of [0, 10]) {
			const result = await runClosingEarly(args, env, keep);
			assert.equal(result.stderr, '', `engi ${args.join(' ')} (reader kept ${keep} bytes) printed nothing on stderr`);
			assert.equal(result.code, code, `engi ${args.join(' ')} (reader kept ${keep} bytes) exits ${code}`);
		}
	}
});
