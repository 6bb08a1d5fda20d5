import assert from 'node:assert/strict';
import {renameSync, rmSync, symlinkSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {openDatabase} from '../source/lib/sqlite.js';
import {runCli, sandboxEnv} from './helpers/cli.js';
import {copyStore} from './helpers/stores.js';
import {tempDir} from './helpers/temp.js';

type Listed = {sessions: Array<{id: string}>; catalog: {scanned: number; unchanged: number; removed: number}};

/** Three copies of the claude fixture store, each read through its own `--source-root`. */
function setup(t: Parameters<typeof tempDir>[0]) {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	const stores = {a: join(base, 'a', '.claude'), b: join(base, 'b', '.claude'), c: join(base, 'c', '.claude')};
	for (const store of Object.values(stores)) {
		copyStore('claude', store);
	}

	const list = (root: string) => {
		const result = runCli(['sessions', '--all-projects', '--source', 'claude', '--source-root', root, '--format', 'json'], {env});
		assert.equal(result.code, 0, result.stderr);
		return result.json() as Listed;
	};

	const catalog = join(env['XDG_CACHE_HOME']!, 'engi', 'catalog.sqlite');
	/** Rows, write counts and remembered listings the catalog keeps for roots under `store`. */
	const kept = (store: string) => {
		const db = openDatabase(catalog, {readonly: true});
		try {
			const under = `${store}%`;
			return {
				units: db.prepare('SELECT count(*) FROM units WHERE root LIKE ?').pluck().get(under) as number,
				texts: db.prepare('SELECT count(*) FROM text_units WHERE key LIKE ?').pluck().get(under) as number,
				writes: db.prepare('SELECT count(*) FROM root_writes WHERE root LIKE ?').pluck().get(under) as number,
				listings: db.prepare('SELECT count(*) FROM discovery_memo WHERE key LIKE ?').pluck().get(`listing:claude:${under}`) as number,
			};
		} finally {
			db.close();
		}
	};

	return {stores, list, kept};
}

test('the rows of a store root that is gone are forgotten by the next call, and a root that still exists keeps its rows', t => {
	const {stores, list, kept} = setup(t);
	const first = list(stores.a);
	assert.ok(first.sessions.length > 0);
	list(stores.b);
	const rowsOfA = kept(stores.a);
	assert.ok(rowsOfA.units > 0 && rowsOfA.texts > 0 && rowsOfA.writes > 0 && rowsOfA.listings > 0, 'root a is catalogued');

	// b still exists: reading c keeps its rows, so going back to b costs only stats.
	list(stores.c);
	assert.deepEqual(kept(stores.b), rowsOfA, 'an existing root that this call does not read is kept');
	assert.equal(list(stores.b).catalog.scanned, 0);

	// a moved away: no call lists it again, so the next call forgets it.
	renameSync(join(stores.a, '..'), join(stores.a, '..', '..', 'moved'));
	const after = list(stores.c);
	assert.equal(after.catalog.removed, rowsOfA.units, 'each of its sessions counts as removed');
	assert.equal(after.catalog.scanned, 0, 'nothing else is read again');
	assert.deepEqual(kept(stores.a), {units: 0, texts: 0, writes: 0, listings: 0});
	assert.deepEqual(kept(stores.b), rowsOfA, 'b is untouched');
	assert.equal(list(stores.c).catalog.removed, 0, 'and forgotten once');
});

test('a root that is now a file is gone too; a root that cannot be checked is kept', t => {
	const {stores, list, kept} = setup(t);
	// a read through a link to its home: the link becomes a loop, which says nothing of whether the store is there.
	const home = join(stores.a, '..');
	const link = join(home, '..', 'link');
	symlinkSync(home, link);
	const linked = join(link, '.claude');
	list(linked);
	list(stores.b);
	const rows = kept(linked).units;
	assert.ok(rows > 0);
	rmSync(link);
	symlinkSync(join(home, '..', 'loop'), link);
	symlinkSync(link, join(home, '..', 'loop'));
	assert.equal(list(stores.c).catalog.removed, 0, 'a root that cannot be checked (ELOOP) keeps its rows');
	assert.equal(kept(linked).units, rows);

	rmSync(join(stores.b, '..'), {recursive: true});
	writeFileSync(join(stores.b, '..'), 'a file where the home was');
	assert.equal(list(stores.c).catalog.removed, rows, 'a root under what is now a file (ENOTDIR) is gone');
	assert.equal(kept(stores.b).units, 0);
	assert.equal(kept(linked).units, rows);
});
