// The caches (index.sqlite, catalog.sqlite) opened cold by several engi processes at once, each
// race held open deterministically here instead of hoped for among eight processes:
// - a new file whose write lock another process holds, as one switching the file to WAL does
//   for a moment: SQLite fails that switch at once with "database is locked" whatever the busy
//   timeout, so a process must wait for it itself;
// - a process that found the new file without a schema, stopped before it takes the write lock
//   while another creates the schema and fills the cache: it must not drop what the other built
//   (readers of the other's rows saw them vanish: `observed_utc` of undefined).
import assert from 'node:assert/strict';
import {appendFileSync, closeSync, mkdirSync, openSync, readdirSync, readlinkSync, rmSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test, {type TestContext} from 'node:test';
import Database from 'better-sqlite3';
import {runCli, sandboxEnv} from '../helpers/cli.js';
import {requireProc, sleep, startCli, waitStopped, type RunningCli} from '../helpers/faults.js';
import {makeKb} from '../helpers/kb.js';
import {tempDir} from '../helpers/temp.js';

/** Creates `file` empty (a new cache, not yet in WAL mode) and holds its write lock until the returned release. */
function holdWriteLock(file: string): () => void {
	closeSync(openSync(file, 'a', 0o600));
	const db = new Database(file);
	db.exec('BEGIN IMMEDIATE');
	return () => {
		db.exec('COMMIT');
		db.close();
	};
}

/** Resolves once the process has `file` open (it reached the cache), or has ended. */
async function reached(running: RunningCli, file: string, ended: () => boolean): Promise<void> {
	for (const deadline = Date.now() + 20_000; Date.now() < deadline && !ended(); ) {
		try {
			if (readdirSync(`/proc/${running.pid}/fd`).some(fd => readlinkSync(`/proc/${running.pid}/fd/${fd}`) === file)) {
				return;
			}
		} catch {
			return; // Gone.
		}

		await sleep(5);
	}
}

/** Starts `args`, lets it reach `file` while another holds the file's write lock, then lets the lock go. */
async function startWhileLocked(t: TestContext, file: string, args: readonly string[], env: Record<string, string>, cwd?: string) {
	const release = holdWriteLock(file);
	const running = startCli(args, {env, ...(cwd ? {cwd} : {})});
	t.after(() => running.kill('SIGKILL'));
	let ended = false;
	void running.done.then(() => (ended = true));
	await reached(running, file, () => ended);
	await sleep(300); // Well past the moment it meets the lock.
	release();
	return running.done;
}

/** A home with `count` small Claude sessions. */
function claudeHome(t: TestContext, count: number): Record<string, string> {
	const env = sandboxEnv(tempDir(t, 'engi-cold-'));
	const directory = join(env['HOME']!, '.claude', 'projects', '-src-app');
	mkdirSync(directory, {recursive: true});
	for (let index = 0; index < count; index++) {
		const id = `c01d0000-0000-4000-8000-${String(index).padStart(12, '0')}`;
		const common = {isSidechain: false, cwd: '/src/app', sessionId: id};
		const lines = [
			{...common, parentUuid: null, uuid: `${id}-0`, timestamp: '2026-11-02T10:00:00.000Z', type: 'user', message: {role: 'user', content: `fix the parser, part ${index}`}},
			{...common, parentUuid: `${id}-0`, uuid: `${id}-1`, timestamp: '2026-11-02T10:00:05.000Z', type: 'assistant', message: {id: `msg-${index}`, role: 'assistant', content: [{type: 'text', text: 'Fixed.'}]}},
		];
		writeFileSync(join(directory, `${id}.jsonl`), lines.map(line => JSON.stringify(line)).join('\n') + '\n');
	}

	return env;
}

const removeCache = (file: string) => {
	for (const suffix of ['', '-wal', '-shm']) {
		rmSync(file + suffix, {force: true});
	}
};

test('a new index.sqlite whose write lock another process holds: graph node waits for it, then writes', {timeout: 60_000}, async t => {
	if (!requireProc(t)) {
		return;
	}

	const kb = makeKb(t);
	const result = await startWhileLocked(t, join(kb.root, '.engi', 'index.sqlite'), ['graph', 'node', '--id', 'task:a', '--kind', 'Task', '--label', 'A', '--root', kb.root, '--format', 'json'], kb.env);
	assert.equal(result.code, 0, result.stderr);
	assert.equal(kb.ok(['status']).nodes, 1);
});

test('a new catalog.sqlite whose write lock another process holds: sessions waits for it, then lists', {timeout: 60_000}, async t => {
	if (!requireProc(t)) {
		return;
	}

	const env = claudeHome(t, 3);
	const cache = join(env['XDG_CACHE_HOME']!, 'engi');
	mkdirSync(cache, {recursive: true, mode: 0o700});
	const result = await startWhileLocked(t, join(cache, 'catalog.sqlite'), ['sessions', '--all-projects', '--format', 'json'], env);
	assert.equal(result.code, 0, result.stderr);
	assert.equal(result.json().total, 3);
	// Not a catalog in memory for this call (a cache that "could not be used"): the one on disk, built.
	assert.deepEqual(result.json().warnings, []);
	assert.deepEqual(runCli(['sessions', '--all-projects', '--format', 'json'], {env}).json().catalog, {scanned: 0, unchanged: 3, removed: 0});
});

test('a catalog another process keeps locked past the busy timeout: sessions answers from a scan in memory, with a catalog_busy warning (not unwritable)', {timeout: 60_000}, t => {
	const env = claudeHome(t, 3);
	const cache = join(env['XDG_CACHE_HOME']!, 'engi');
	mkdirSync(cache, {recursive: true, mode: 0o700});
	const release = holdWriteLock(join(cache, 'catalog.sqlite'));
	let result;
	try {
		result = runCli(['sessions', '--all-projects', '--format', 'json'], {env});
	} finally {
		release();
	}

	assert.equal(result.code, 0, result.stderr);
	assert.equal(result.json().total, 3);
	assert.deepEqual(
		result.json().warnings.map((warning: string) => warning.replace(/: .*\(/, ': … (')),
		['catalog_busy: … (SQLITE_BUSY); this call read every session from scratch'],
	);
});

test('a catalog another process keeps locked past the busy timeout while a refresh must write: sessions answers from a scan in memory, with a catalog_busy warning', {timeout: 60_000}, t => {
	const env = claudeHome(t, 3);
	assert.equal(runCli(['sessions', '--all-projects', '--format', 'json'], {env}).code, 0);
	// A session grew, so the refresh has a row to write.
	const grown = join(env['HOME']!, '.claude', 'projects', '-src-app', 'c01d0000-0000-4000-8000-000000000000.jsonl');
	appendFileSync(grown, `${JSON.stringify({isSidechain: false, cwd: '/src/app', sessionId: 'c01d0000-0000-4000-8000-000000000000', parentUuid: 'c01d0000-0000-4000-8000-000000000000-1', uuid: 'c01d0000-0000-4000-8000-000000000000-2', timestamp: '2026-11-02T10:01:00.000Z', type: 'user', message: {role: 'user', content: 'and the lexer'}})}\n`);
	const holder = new Database(join(env['XDG_CACHE_HOME']!, 'engi', 'catalog.sqlite'));
	holder.exec('BEGIN IMMEDIATE');
	let result;
	try {
		result = runCli(['sessions', '--all-projects', '--format', 'json'], {env});
	} finally {
		holder.exec('COMMIT');
		holder.close();
	}

	assert.equal(result.code, 0, result.stderr);
	assert.equal(result.json().total, 3);
	assert.deepEqual(
		result.json().warnings.map((warning: string) => warning.replace(/: .*\(/, ': … (')),
		['catalog_busy: … (SQLITE_BUSY); this call read every session from scratch'],
	);
});

test('a process that found the new index without a schema keeps the index another built while it waited for the lock', {timeout: 60_000}, async t => {
	if (!requireProc(t)) {
		return;
	}

	const kb = makeKb(t);
	for (const id of ['a', 'b', 'c']) {
		kb.ok(['graph', 'node', '--id', `task:${id}`, '--kind', 'Task', '--label', `task ${id}`]);
	}

	removeCache(join(kb.root, '.engi', 'index.sqlite'));
	const first = startCli(['status', '--root', kb.root, '--format', 'json'], {env: {...kb.env, ENGI_TEST_PAUSE_AT: 'migrate.before_lock'}});
	t.after(() => first.kill('SIGKILL'));
	await waitStopped(first.pid);
	const second = kb.ok(['status']);
	assert.equal(second.index.refresh, 'rebuilt');
	first.kill('SIGCONT');
	const result = await first.done;
	assert.equal(result.code, 0, result.stderr);
	assert.equal(result.json().nodes, 3);
	assert.equal(result.json().index.refresh, 'fresh', 'it found the schema made and the index built under the lock, and dropped nothing');
});

test('a process that found the new catalog without a schema keeps the catalog another built while it waited for the lock', {timeout: 60_000}, async t => {
	if (!requireProc(t)) {
		return;
	}

	const env = claudeHome(t, 5);
	const list = ['sessions', '--all-projects', '--format', 'json'];
	const first = startCli(list, {env: {...env, ENGI_TEST_PAUSE_AT: 'migrate.before_lock'}});
	t.after(() => first.kill('SIGKILL'));
	await waitStopped(first.pid);
	const second = runCli(list, {env});
	assert.equal(second.code, 0, second.stderr);
	assert.equal(second.json().catalog.scanned, 5);
	first.kill('SIGCONT');
	const result = await first.done;
	assert.equal(result.code, 0, result.stderr);
	assert.equal(result.json().total, 5);
	assert.deepEqual(result.json().catalog, {scanned: 0, unchanged: 5, removed: 0}, 'it read nothing again: the catalog the other built was kept');
});
