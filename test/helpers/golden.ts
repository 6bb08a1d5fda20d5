import assert from 'node:assert/strict';
import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {repoRoot} from './cli.js';

/**
 * Compares text with a committed golden file under snapshots/. Set UPDATE_SNAPSHOTS=1 to
 * (re)write them; without it a missing golden file fails, so CI never invents one.
 */
export function assertGolden(relativePath: string, actual: string): void {
	const path = join(repoRoot, 'snapshots', relativePath);
	if (process.env['UPDATE_SNAPSHOTS'] === '1') {
		mkdirSync(dirname(path), {recursive: true});
		writeFileSync(path, actual);
		return;
	}

	assert.ok(existsSync(path), `missing golden file snapshots/${relativePath}; run UPDATE_SNAPSHOTS=1 npm test to create it, then review it`);
	assert.equal(actual, readFileSync(path, 'utf8'), `output differs from snapshots/${relativePath}`);
}
