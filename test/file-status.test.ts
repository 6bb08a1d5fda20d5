import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {mkdirSync, statSync, symlinkSync, truncateSync, utimesSync, writeFileSync} from 'node:fs';
import {join, relative} from 'node:path';
import test from 'node:test';
import fc from 'fast-check';
import {fileStatus, statusBinding} from '../source/lib/file-status.js';
import {runCli, sandboxEnv} from './helpers/cli.js';
import {copyStore} from './helpers/stores.js';
import {tempDir} from './helpers/temp.js';

/** What statSync says of a path, in the terms fileStatus answers in (or the error's code). */
function viaStatSync(path: string): unknown {
	try {
		const stats = statSync(path, {throwIfNoEntry: false});
		return stats && {size: stats.size, mtimeMs: stats.mtimeMs, ino: stats.ino, file: stats.isFile(), directory: stats.isDirectory()};
	} catch (error) {
		return {throws: (error as NodeJS.ErrnoException).code};
	}
}

function viaFileStatus(path: string): unknown {
	try {
		const status = fileStatus(path);
		return status && {size: status.size, mtimeMs: status.mtimeMs, ino: status.ino, file: status.isFile(), directory: status.isDirectory()};
	} catch (error) {
		return {throws: (error as NodeJS.ErrnoException).code};
	}
}

const fastPathHere = process.platform === 'linux';

test('on Linux the status is read through node\'s binding, which the probe found answering as statSync does', {skip: fastPathHere ? false : 'the binding is probed on Linux only in this suite'}, () => {
	assert.equal(typeof statusBinding()?.stat, 'function');
});

test('fileStatus answers as statSync does for files, directories, links, missing paths and paths statSync refuses', t => {
	const base = tempDir(t);
	const file = join(base, 'session.jsonl');
	writeFileSync(file, '{"type":"user"}\n');
	utimesSync(file, 1_700_000_000.123_456, 1_700_000_000.987_654);
	const empty = join(base, 'empty');
	writeFileSync(empty, '');
	const sparse = join(base, 'sparse');
	writeFileSync(sparse, '');
	// Past 2^32 bytes: the size is a double in the binding's array, as in Stats.
	truncateSync(sparse, 5 * 1024 ** 3 + 7);
	const directory = join(base, 'dir');
	mkdirSync(directory);
	const named = join(base, 'naïve 会话 ☃.jsonl');
	writeFileSync(named, 'x');
	symlinkSync(file, join(base, 'to-file'));
	symlinkSync(directory, join(base, 'to-dir'));
	symlinkSync(join(base, 'nowhere'), join(base, 'dangling'));
	symlinkSync(join(base, 'loop-b'), join(base, 'loop-a'));
	symlinkSync(join(base, 'loop-a'), join(base, 'loop-b'));
	execFileSync('mkfifo', [join(base, 'fifo')]);

	const paths = [
		file,
		empty,
		sparse,
		directory,
		`${directory}/`,
		named,
		join(base, 'to-file'),
		join(base, 'to-dir'),
		join(base, 'dangling'),
		join(base, 'loop-a'),
		join(base, 'fifo'),
		'/dev/null',
		join(base, 'missing'),
		join(base, 'missing', 'deeper'),
		`${file}/under-a-file`,
		`${file}\u0000.jsonl`,
		`${base}/x${'y'.repeat(300)}`,
		'',
		relative(process.cwd(), file),
	];
	for (const path of paths) {
		assert.deepEqual(viaFileStatus(path), viaStatSync(path), JSON.stringify(path));
	}

	assert.equal((viaFileStatus(file) as {mtimeMs: number}).mtimeMs, statSync(file).mtimeMs);
	assert.equal((viaFileStatus(`${file}\u0000.jsonl`) as {throws: string}).throws, 'ERR_INVALID_ARG_VALUE', 'a NUL is refused, never cut short into another path');
});

test('fileStatus gives statSync\'s size and modification time to the nanosecond the file system keeps (property)', t => {
	const base = tempDir(t);
	const file = join(base, 'grows.jsonl');
	writeFileSync(file, '');
	fc.assert(
		fc.property(fc.integer({min: 0, max: 2 ** 20}), fc.integer({min: 0, max: 4_102_444_800}), fc.integer({min: 0, max: 999_999}), (size, seconds, micros) => {
			truncateSync(file, size);
			utimesSync(file, seconds, seconds + micros / 1e6);
			assert.deepEqual(viaFileStatus(file), viaStatSync(file));
		}),
		{numRuns: 200},
	);
});

test('where node would warn about process.binding (--pending-deprecation), engi uses statSync: no warning, the same listing', t => {
	const base = tempDir(t);
	copyStore('claude', join(base, 'home', '.claude'));
	const list = (env: Record<string, string>, nodeArgs: string[] = []) => {
		const result = runCli(['sessions', '--all-projects', '--source', 'claude', '--format', 'json'], {env, nodeArgs});
		assert.equal(result.code, 0, result.stderr);
		assert.doesNotMatch(result.stderr, /DEP0111|DeprecationWarning/);
		return (result.json() as {sessions: unknown[]}).sessions;
	};

	const env = sandboxEnv(base);
	const plain = list(env);
	assert.ok(plain.length > 0);
	assert.deepEqual(list(env, ['--pending-deprecation']), plain);
	assert.deepEqual(list(env, ['--pending_deprecation']), plain);
	assert.deepEqual(list(env, ['--pending-deprecation=true']), plain);
	assert.deepEqual(list(sandboxEnv(base, {NODE_PENDING_DEPRECATION: '1'})), plain);
	assert.deepEqual(list(sandboxEnv(base, {NODE_OPTIONS: '--pending-deprecation'})), plain);
});
