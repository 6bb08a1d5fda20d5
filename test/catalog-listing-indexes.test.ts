import assert from 'node:assert/strict';
import {join} from 'node:path';
import test from 'node:test';
import {generateStores} from '../bench/generate-stores.js';
import {listingIndexes} from '../source/engine/catalog/schema.js';
import {listSessions} from '../source/engine/catalog/sessions.js';
import {openDatabase, type Database} from '../source/lib/sqlite.js';
import {runCli, sandboxEnv} from './helpers/cli.js';
import {tempDir} from './helpers/temp.js';

/**
 * A cold build makes the listing indexes after its rows, each in one go (see listingIndexes):
 * their pages side by side, not spread among the text index's pages as a row-by-row build left
 * them. A catalog whose first refresh stopped before that makes them on the next call, the
 * dashboard's first frame (which answers from the catalog as it stands) included.
 */
function cataloguedHome(t: Parameters<typeof tempDir>[0], sessions: number) {
	const base = tempDir(t);
	const home = join(base, 'home');
	const env = sandboxEnv(base, {XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local', 'share')});
	generateStores(home, {sessions, messages: sessions * 8, outputBytes: 2000});
	const list = () => {
		const listed = runCli(['sessions', '--all-projects', '--format', 'json'], {env});
		assert.equal(listed.code, 0, listed.stderr);
		return listed.json() as {total: number; sessions: Array<{id: string}>; catalog: {scanned: number}};
	};

	return {env, list, catalog: join(env['XDG_CACHE_HOME']!, 'engi', 'catalog.sqlite')};
}

/** Each listing index's pages: how many, and how far apart the first and the last are. */
function indexPages(db: Database): Map<string, {pages: number; span: number}> {
	const rows = db.prepare('SELECT name, count(*) AS pages, max(pageno) - min(pageno) + 1 AS span FROM dbstat WHERE name IN (SELECT value FROM json_each(?)) GROUP BY name').all(JSON.stringify(listingIndexes.map(index => index.name))) as Array<{name: string; pages: number; span: number}>;
	return new Map(rows.map(row => [row.name, {pages: row.pages, span: row.span}]));
}

test('a cold build makes the listing indexes after its rows, each index on pages side by side', t => {
	const {list, catalog} = cataloguedHome(t, 120);
	const cold = list();
	assert.equal(cold.catalog.scanned > 100, true);
	const db = openDatabase(catalog, {readonly: true});
	t.after(() => db.close());
	const pages = indexPages(db);
	assert.deepEqual([...pages.keys()].sort(), listingIndexes.map(index => index.name).sort(), 'every listing index is made');
	const units = db.prepare('SELECT count(*) AS pages, max(pageno) - min(pageno) + 1 AS span FROM dbstat WHERE name = ?').get('units') as {pages: number; span: number};
	assert.equal(units.span > units.pages * 2, true, `the rows themselves lie among the text index's pages (${units.pages} pages over ${units.span}): the comparison below can fail`);
	for (const name of ['units_listing', 'units_recent']) {
		const {pages: count, span} = pages.get(name)!;
		assert.equal(count > 3, true, `${name} spans several pages`);
		assert.equal(span <= count + 2, true, `${name}: ${count} pages over a stretch of ${span}`);
	}
});

test('a catalog left without its listing indexes gets them on the next call, the dashboard\'s first frame included, and answers the same', async t => {
	const {env, list, catalog} = cataloguedHome(t, 12);
	const cold = list();
	const dropIndexes = () => {
		const db = openDatabase(catalog);
		for (const index of listingIndexes) {
			db.exec(`DROP INDEX ${index.name}`);
		}

		db.close();
	};
	const present = () => {
		const db = openDatabase(catalog, {readonly: true});
		const names = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index'").pluck().all() as string[];
		db.close();
		return listingIndexes.every(index => names.includes(index.name));
	};

	dropIndexes();
	const again = list();
	assert.equal(present(), true, 'a refresh makes them');
	assert.deepEqual(again.sessions, cold.sessions);
	assert.equal(again.total, cold.total);

	dropIndexes();
	const deps = {env, cwd: env['HOME']!, now: () => new Date(), platform: process.platform};
	const early = await listSessions({allProjects: true, cached: true}, deps);
	assert.equal(present(), true, 'the first frame refreshes a catalog without them, which makes them');
	assert.deepEqual(early.sessions.map(session => session.id), cold.sessions.map(session => session.id));
});
