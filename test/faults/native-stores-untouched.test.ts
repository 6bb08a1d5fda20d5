import assert from 'node:assert/strict';
import {createHash} from 'node:crypto';
import {cpSync, readdirSync, readFileSync, statSync, watch} from 'node:fs';
import {join, relative} from 'node:path';
import test from 'node:test';
import Database from 'better-sqlite3';
import {runCli, sandboxEnv} from '../helpers/cli.js';
import {fixtureStores} from '../helpers/adapters.js';
import {tempDir} from '../helpers/temp.js';

/** Every file and directory under `root`, with its size, mtime and hash: what "untouched" means. */
function snapshot(root: string, skip: (name: string) => boolean = () => false): Record<string, string> {
	const entries: Record<string, string> = {};
	const walk = (directory: string) => {
		for (const name of readdirSync(directory).sort()) {
			const path = join(directory, name);
			const stats = statSync(path);
			if (stats.isDirectory()) {
				entries[relative(root, path)] = `dir:${stats.mtimeMs}`;
				walk(path);
			} else if (!skip(name)) {
				entries[relative(root, path)] = `${stats.size}:${stats.mtimeMs}:${createHash('sha256').update(readFileSync(path)).digest('hex')}`;
			}
		}
	};

	walk(root);
	return entries;
}

/** Switches a database to WAL mode and closes it cleanly, as the tool leaves it when it quits: no -wal, no -shm. */
function walMode(path: string): void {
	const db = new Database(path);
	db.pragma('journal_mode = WAL');
	db.close();
	assert.deepEqual(readdirSync(join(path, '..')).filter(name => name.endsWith('-wal') || name.endsWith('-shm')), []);
}

const parent = 'ses_4f8e2a1c0ffeA7kQ2mZ8pXw4Nd';

function opencodeStore(t: test.TestContext): {base: string; store: string; database: string} {
	const base = tempDir(t);
	const store = join(base, 'opencode');
	cpSync(join(fixtureStores, 'opencode'), store, {recursive: true});
	const database = join(store, 'opencode.db');
	walMode(database);
	return {base, store, database};
}

test('OpenCode: listing and reading a WAL-mode database leave its directory as it was (no -wal, no -shm, no byte or mtime changed)', t => {
	const {base, store} = opencodeStore(t);
	const before = snapshot(store);
	const env = sandboxEnv(base);
	const listed = runCli(['sessions', '--all-projects', '--source', 'opencode', '--source-root', store, '--format', 'json'], {env}).json();
	assert.ok(listed.sessions.some((session: {id: string}) => session.id === parent), 'the database sessions are listed');
	const read = runCli(['read', parent, '--source', 'opencode', '--source-root', store, '--format', 'json'], {env});
	assert.equal(read.code, 0, read.stderr);
	assert.ok(read.json().records.length > 0);
	assert.deepEqual(snapshot(store), before);
});

test('OpenCode: while OpenCode has its database open, rows committed only to the WAL are read and nothing is made beside it', async t => {
	const {base, store, database} = opencodeStore(t);
	const writer = new Database(database);
	t.after(() => writer.close());
	// The first request, reworded by a transaction that OpenCode committed to the WAL only.
	writer.transaction(() => {
		writer
			.prepare(
				`UPDATE part SET data = json_set(data, '$.text', ?) WHERE id = (
					SELECT p.id FROM part p JOIN message m ON p.message_id = m.id
					WHERE m.session_id = ? AND json_extract(m.data, '$.role') = 'user' AND json_extract(p.data, '$.type') = 'text'
						AND coalesce(json_extract(p.data, '$.synthetic'), 0) = 0
					ORDER BY m.id, p.id LIMIT 1)`,
			)
			.run('Reworded while OpenCode runs', parent);
		writer.prepare('UPDATE session SET time_updated = time_updated + 1 WHERE id = ?').run(parent);
	})();
	assert.ok(readdirSync(store).includes('opencode.db-wal') && readdirSync(store).includes('opencode.db-shm'), 'the change lives in the WAL');
	// Every reader marks the shared-memory -shm; nothing else may change.
	const before = snapshot(store, name => name.endsWith('-shm'));
	const events: string[] = [];
	const watcher = watch(store, (type, name) => {
		if (type === 'rename') {
			events.push(String(name));
		}
	});
	try {
		const listed = runCli(['sessions', '--all-projects', '--source', 'opencode', '--source-root', store, '--format', 'json'], {env: sandboxEnv(base)}).json();
		assert.equal(listed.sessions.find((session: {id: string}) => session.id === parent)?.title, 'Reworded while OpenCode runs [image: image/png]', 'the committed change in the WAL is seen (the request\'s pasted image noted after it)');
		await new Promise(resolve => setTimeout(resolve, 200)); // Let the last file events arrive.
	} finally {
		watcher.close();
	}

	assert.deepEqual(events, [], 'no file made or removed');
	assert.deepEqual(snapshot(store, name => name.endsWith('-shm')), before);
});

test("Cursor: reading a chat's WAL-mode store.db for its name leaves the chats directory as it was", t => {
	const base = tempDir(t);
	const store = join(base, 'cursor');
	cpSync(join(fixtureStores, 'cursor'), store, {recursive: true});
	const chat = join(store, 'chats', '98831b54631618acd4c8e676aa66bf29', '5a1c0e2b-0e55-4c6e-9d21-7f3e00000e05');
	walMode(join(chat, 'store.db'));
	const before = snapshot(store);
	const listed = runCli(['sessions', '--all-projects', '--source', 'cursor', '--source-root', store, '--format', 'json'], {env: sandboxEnv(base)}).json();
	assert.ok(listed.sessions.some((session: {id: string}) => session.id === '5a1c0e2b-0e55-4c6e-9d21-7f3e00000e05'));
	assert.deepEqual(snapshot(store), before);
});
