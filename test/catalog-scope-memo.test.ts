import assert from 'node:assert/strict';
import {appendFileSync, readFileSync, rmSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {generateStores, moreClaudeLines} from '../bench/generate-stores.js';
import {columnsCodec, integerColumns} from '../source/engine/catalog/scope-memo.js';
import {listUnfinished} from '../source/engine/continuity/unfinished.js';
import {openDatabase} from '../source/lib/sqlite.js';
import {runCli, sandboxEnv} from './helpers/cli.js';
import {tempDir} from './helpers/temp.js';

type Found = {total: number; sessions: Array<{id: string; path: string; matched_lines: number}>};

/**
 * A search over a broad word reads every session in scope, in listing order, once: the catalog
 * keeps that pass (scope_memo) under the write counts of the scope's roots, answers from it
 * while they hold, and works it out again after any write to a root in scope.
 */
function searchableHome(t: Parameters<typeof tempDir>[0]) {
	const base = tempDir(t);
	const home = join(base, 'home');
	const env = sandboxEnv(base, {XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local', 'share')});
	generateStores(home, {sessions: 40, messages: 400, outputBytes: 300});
	const search = (...more: string[]) => {
		const result = runCli(['sessions', '--all-projects', '--q', 'quarantine', ...more, '--format', 'json'], {env});
		assert.equal(result.code, 0, result.stderr);
		const {total, sessions} = result.json() as Found;
		return {total, sessions};
	};

	const catalog = join(env['XDG_CACHE_HOME']!, 'engi', 'catalog.sqlite');
	const kept = () => {
		const db = openDatabase(catalog, {readonly: true});
		const rows = db.prepare('SELECT key, stamp, value FROM scope_memo').all() as Array<{key: string; stamp: string; value: Buffer}>;
		db.close();
		return rows;
	};

	return {env, search, catalog, kept};
}

test('a broad search keeps its pass over the scope and answers from it while no root in scope is written', t => {
	const {search, catalog, kept} = searchableHome(t);
	const first = search();
	assert.equal(first.total > 20, true, 'the word is broad: most sessions hold it');
	assert.equal(kept().length, 1, 'the pass is kept');
	assert.deepEqual(search(), first, 'answered from what was kept, the same');

	// Emptied while its stamp still holds: the next search answers from it, so it finds nothing.
	const db = openDatabase(catalog);
	db.prepare('UPDATE scope_memo SET value = ?').run(integerColumns.encode({nos: [], docs: []}));
	db.close();
	assert.equal(search().total, 0, 'a kept pass is what the search reads');
});

test('a session that grows sets the kept pass aside, and the search answers as over a new catalog', t => {
	const {search, catalog, kept} = searchableHome(t);
	const grown = search().sessions.find(session => session.path.includes('.claude'))!;
	const stamp = kept()[0]!.stamp;
	// Emptied: a search that used it after the session grew would find nothing.
	const db = openDatabase(catalog);
	db.prepare('UPDATE scope_memo SET value = ?').run(integerColumns.encode({nos: [], docs: []}));
	db.close();

	const [first] = readFileSync(grown.path, 'utf8').split('\n', 1);
	const {sessionId, cwd} = JSON.parse(first!) as {sessionId: string; cwd: string};
	appendFileSync(grown.path, moreClaudeLines(sessionId, cwd, 30, Date.parse('2026-11-30T00:00:00Z')));
	const after = search();
	assert.notEqual(kept()[0]!.stamp, stamp, 'kept anew under the root\'s new write count');
	rmSync(catalog);
	assert.deepEqual(after, search(), 'the same answer a catalog built from nothing gives');
	assert.equal(after.total > 20, true);
});

test('a damaged kept answer is only a miss: the call answers as without it, and keeps a good one', t => {
	const {search, catalog, kept} = searchableHome(t);
	const first = search();
	for (const garbage of [Buffer.from('not columns'), Buffer.alloc(3), Buffer.from([200, 0, 0, 0, 123]), columnsCodec.encode({floats: [new Float64Array(3)]})]) {
		const db = openDatabase(catalog);
		db.prepare('UPDATE scope_memo SET value = ?').run(garbage);
		db.close();
		assert.deepEqual(search(), first);
		assert.notDeepEqual(kept()[0]!.value, garbage, 'kept anew');
	}
});

test('kept answers are bounded: the newest are kept', t => {
	const {search, kept} = searchableHome(t);
	for (let day = 1; day <= 20; day++) {
		search('--since', `2026-10-${String(day).padStart(2, '0')}`);
	}

	assert.equal(kept().length, 16);
	assert.equal(kept().some(row => row.key.includes('2026-10-20')), true, 'the newest one is among them');
	assert.equal(kept().some(row => row.key.includes('2026-10-01')), false, 'the oldest ones are gone');
});

test('the listing\'s count is kept the same way, and set aside by a write to a root in scope', t => {
	const {env, catalog, kept} = searchableHome(t);
	const list = () => {
		const result = runCli(['sessions', '--all-projects', '--format', 'json'], {env});
		assert.equal(result.code, 0, result.stderr);
		return result.json() as Found;
	};

	const first = list();
	assert.equal(kept().some(row => row.key.startsWith('listed-count')), true, 'the count is kept');
	const db = openDatabase(catalog);
	db.prepare("UPDATE scope_memo SET value = ? WHERE key LIKE 'listed-count%'").run(Buffer.from('12345'));
	db.close();
	assert.equal(list().total, 12345, 'a kept count is what the listing reports');

	const session = first.sessions.find(found => found.path.includes('.claude'))!;
	const [line] = readFileSync(session.path, 'utf8').split('\n', 1);
	const {sessionId, cwd} = JSON.parse(line!) as {sessionId: string; cwd: string};
	appendFileSync(session.path, moreClaudeLines(sessionId, cwd, 3, Date.parse('2026-11-30T00:00:00Z')));
	assert.equal(list().total, first.total, 'counted again once the root was written');
});

test('unfinished keeps the sessions it judges, and judges them afresh at each moment: one written right now stops being a candidate when the moment has passed, with nothing written', async t => {
	const {env, catalog, kept} = searchableHome(t);
	const at = (now: Date) => ({env, cwd: env['HOME']!, now: () => now, platform: process.platform});
	const unfinished = async (now: Date) => {
		const found = await listUnfinished({allProjects: true, since: '2026-10-01', limit: 1000}, at(now));
		return {total: found.total, ids: found.candidates.map(candidate => `${candidate.id} ${candidate.active_now}`)};
	};

	const forgetKept = () => {
		const db = openDatabase(catalog);
		db.exec('DELETE FROM scope_memo');
		db.close();
	};

	// The generated transcripts were written a moment ago: every session counts as written right now.
	const now = new Date();
	const first = await unfinished(now);
	assert.equal(kept().some(row => row.key.startsWith('unfolded-sessions')), true, 'the sessions judged are kept');
	const later = await unfinished(new Date(now.getTime() + 60 * 60 * 1000));
	assert.equal(later.total < first.total, true, `fewer candidates an hour later (${first.total} → ${later.total}): only open tails are left`);
	forgetKept();
	assert.deepEqual(await unfinished(new Date(now.getTime() + 60 * 60 * 1000)), later, 'as judged without a kept answer');
	forgetKept();
	assert.deepEqual(await unfinished(now), first);
});
