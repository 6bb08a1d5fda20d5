import assert from 'node:assert/strict';
import {appendFileSync, copyFileSync, renameSync, rmSync, statSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {catalogStore} from '../source/engine/catalog/store.js';
import {openDatabase} from '../source/lib/sqlite.js';
import {runCli, sandboxEnv} from './helpers/cli.js';
import {copyStore} from './helpers/stores.js';
import {tempDir} from './helpers/temp.js';

const MAIN = '11111111-1111-4111-8111-111111111111';

type Listed = {sessions: Array<{id: string; bytes: number; path: string}>; catalog: {scanned: number; unchanged: number; removed: number}};

function setup(t: Parameters<typeof tempDir>[0]) {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	copyStore('claude', join(base, 'home', '.claude'));
	const list = () => {
		const result = runCli(['sessions', '--all-projects', '--source', 'claude', '--format', 'json'], {env});
		assert.equal(result.code, 0, result.stderr);
		return result.json() as Listed;
	};

	const catalog = join(env['XDG_CACHE_HOME']!, 'engi', 'catalog.sqlite');
	const main = (listed: Listed) => listed.sessions.find(session => session.id === MAIN)!;
	return {list, catalog, main};
}

test('a warm refresh remembers each root listing the catalog matches, and a grown, replaced, added or removed file still changes the answer', t => {
	const {list, catalog, main} = setup(t);
	const cold = list();
	const db = openDatabase(catalog, {readonly: true});
	const remembered = db.prepare("SELECT count(*) FROM discovery_memo WHERE key LIKE 'listing:claude:%'").pluck().get() as number;
	db.close();
	assert.equal(remembered, 1, 'the claude root listing is remembered after the build');
	const warm = list();
	assert.deepEqual(warm.sessions, cold.sessions, 'a warm call answers as the build did');
	assert.deepEqual(warm.catalog, {scanned: 0, unchanged: cold.catalog.scanned, removed: 0});

	const path = main(cold).path;
	appendFileSync(path, `${JSON.stringify({type: 'user', uuid: 'grown-1', parentUuid: null, sessionId: MAIN, timestamp: '2026-01-01T00:00:00.000Z', message: {role: 'user', content: 'one more request'}})}\n`);
	const grown = list();
	assert.equal(main(grown).bytes, statSync(path).size, 'a grown transcript is read again');
	assert.equal(grown.catalog.scanned, 1);

	const copy = `${path}.copy`;
	copyFileSync(path, copy);
	appendFileSync(copy, '\n');
	renameSync(copy, path);
	assert.equal(main(list()).bytes, statSync(path).size, 'a replaced transcript is read again');

	rmSync(path);
	const removed = list();
	assert.equal(removed.sessions.some(session => session.id === MAIN), false, 'a removed transcript leaves the listing');
	assert.equal(removed.catalog.removed, 1);
	copyFileSync(join(cold.sessions.find(session => session.id !== MAIN)!.path), path);
	const added = list();
	assert.equal(added.catalog.scanned, 1, 'an added transcript is read');
	assert.equal(added.sessions.length, cold.sessions.length);
});

test('a row another engi process writes under a remembered listing is noticed, and read again', t => {
	const {list, catalog, main} = setup(t);
	const listed = list();
	const real = main(listed).bytes;
	assert.equal(list().catalog.scanned, 0);
	// What a racing process would leave: the row saved anew from a stale scan, with the fingerprint
	// and size of an earlier state of the file, and no word to the remembered listing.
	const db = openDatabase(catalog);
	const store = catalogStore(db);
	const row = store.row(main(listed).path)!;
	db.transaction(() => store.save({...row, fingerprint: '1:1:1', size: 1}, []))();
	db.close();
	const again = list();
	assert.equal(main(again).bytes, real, 'the stale row is read again from the file, not trusted through the remembered listing');
	assert.equal(again.catalog.scanned, 1);
});

test('every write to a root\'s rows is counted against that root, and against the root a replaced row was under', t => {
	const {list, catalog, main} = setup(t);
	const listed = list();
	const db = openDatabase(catalog);
	const writes = () => new Map((db.prepare('SELECT root, writes FROM root_writes').raw().all() as Array<[string, number]>).map(([root, count]) => [root, count]));
	const store = catalogStore(db);
	const row = store.row(main(listed).path)!;
	const before = writes().get(row.root)!;
	assert.equal(before, listed.catalog.scanned, 'the cold build wrote each unit once');
	store.restart(row.key);
	assert.equal(writes().get(row.root), before + 1, 'restart');
	store.save({...row, root: '/elsewhere'}, []);
	assert.equal(writes().get(row.root), before + 2, 'a row moved to another root counts against the one it left');
	assert.equal(writes().get('/elsewhere'), 1);
	store.remove(row.key);
	assert.equal(writes().get('/elsewhere'), 2, 'remove');
	db.close();
});
