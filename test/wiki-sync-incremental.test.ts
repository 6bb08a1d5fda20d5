import assert from 'node:assert/strict';
import {mkdirSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {dirname, join} from 'node:path';
import test from 'node:test';
import {setTimeout as sleep} from 'node:timers/promises';
import Database from 'better-sqlite3';
import {makeKb, type KbSandbox} from './helpers/kb.js';

/**
 * Incremental `wiki sync` (it starts from the index's record of the last sync) against the full
 * plan (forced by ENGI_TEST_FULL_WIKI_SYNC in a twin knowledge base given the same files and
 * commands): each step must append the same events and report, answer and hold the same.
 */

type Twins = {incremental: KbSandbox; full: KbSandbox};

function twins(t: Parameters<typeof makeKb>[0]): Twins {
	const incremental = makeKb(t);
	const full = makeKb(t);
	full.env['ENGI_TEST_FULL_WIKI_SYNC'] = '1';
	return {incremental, full};
}

const each = (kbs: Twins, change: (kb: KbSandbox) => void) => {
	change(kbs.incremental);
	change(kbs.full);
};

function page(kb: KbSandbox, path: string, lines: readonly string[]): void {
	const file = join(kb.root, '02-wiki', path);
	mkdirSync(dirname(file), {recursive: true});
	writeFileSync(file, lines.join('\n') + '\n');
}

/** What differs between two knowledge bases by construction (times, event ids, their folders) is left out. */
function comparable(value: unknown, kb: KbSandbox): unknown {
	if (typeof value === 'string') {
		return value.replaceAll(kb.root, '<root>').replaceAll(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g, '<time>');
	}

	if (Array.isArray(value)) {
		return value.map(item => comparable(item, kb));
	}

	if (value !== null && typeof value === 'object') {
		return Object.fromEntries(Object.entries(value).filter(([key]) => !/utc|^id$|^as_of$|^at$|^node_sha256$|event|elapsed|_ms$/.test(key) || key === 'node_id').map(([key, item]) => [key, comparable(item, kb)]));
	}

	return value;
}

/**
 * Scores decay with the seconds between a page's event and the query, which differ a little between
 * the twins, so a score rounded to three places can land either side of a boundary. The scores are
 * taken out (in order) to be compared within a tolerance; everything else must match exactly.
 */
function scoresApart(value: unknown): {rest: unknown; scores: number[]} {
	const scores: number[] = [];
	const walk = (item: unknown): unknown => {
		if (Array.isArray(item)) {
			return item.map(walk);
		}

		if (item !== null && typeof item === 'object') {
			return Object.fromEntries(Object.entries(item).map(([key, inner]) => {
				if (key === 'score' && typeof inner === 'number') {
					scores.push(inner);
					return [key, '<score>'];
				}

				return [key, walk(inner)];
			}));
		}

		return item;
	};

	return {rest: walk(value), scores};
}

const lines = (kb: KbSandbox) => readFileSync(kb.journal, 'utf8').split('\n').filter(Boolean).map(line => JSON.parse(line) as {op: string; payload: unknown});

/** The record incremental sync starts from (meta wiki_sync and a row a file): present once a sync completed. */
function record(kb: KbSandbox): {journal: unknown; files: Array<{path: string; size: number | null; node_id: string | null}>} | undefined {
	const db = new Database(join(kb.root, '.engi', 'index.sqlite'), {readonly: true});
	try {
		const value = db.prepare(`SELECT value FROM meta WHERE key = 'wiki_sync'`).pluck().get() as string | undefined;
		const files = db.prepare('SELECT path, size, node_id FROM wiki_sync_files ORDER BY path').all() as Array<{path: string; size: number | null; node_id: string | null}>;
		return value === undefined ? undefined : {journal: (JSON.parse(value) as {journal: unknown}).journal, files};
	} finally {
		db.close();
	}
}

/** Syncs both, asserts they agree on the report, the events appended, the held pages and the answers, and returns the report. */
function syncBoth(kbs: Twins, step: string, ids: readonly string[]): Record<string, any> {
	const before = {incremental: lines(kbs.incremental).length, full: lines(kbs.full).length};
	const run = (kb: KbSandbox) => {
		const result = kb.run(['wiki', 'sync', '--format', 'json']);
		assert.ok(result.code === 0 || result.code === 2, `${step}: ${result.stderr}`);
		return result.json() as Record<string, any>;
	};

	const incremental = run(kbs.incremental);
	const full = run(kbs.full);
	assert.ok(record(kbs.incremental), `${step}: the sync left its record`);
	assert.deepEqual(comparable(incremental, kbs.incremental), comparable(full, kbs.full), `${step}: the same report`);
	assert.deepEqual(
		lines(kbs.incremental).slice(before.incremental).map(line => comparable(line, kbs.incremental)),
		lines(kbs.full).slice(before.full).map(line => comparable(line, kbs.full)),
		`${step}: the same events appended`,
	);
	const answers = (kb: KbSandbox) => {
		const search = kb.run(['query', '--q', 'parser', '--view', 'hits', '--format', 'json']).json();
		const nodes = ids.map(id => kb.run(['query', '--q', id, '--view', 'evidence', '--format', 'json']).json());
		const project = kb.run(['project', '--format', 'json']).json();
		return comparable({search, nodes, project}, kb);
	};

	const [incrementalAnswers, fullAnswers] = [scoresApart(answers(kbs.incremental)), scoresApart(answers(kbs.full))];
	assert.deepEqual(incrementalAnswers.rest, fullAnswers.rest, `${step}: the same answers`);
	assert.equal(incrementalAnswers.scores.length, fullAnswers.scores.length);
	for (const [index, score] of incrementalAnswers.scores.entries()) {
		assert.ok(Math.abs(score - fullAnswers.scores[index]!) <= 0.002, `${step}: score ${index} agrees (${score} against ${fullAnswers.scores[index]})`);
	}

	return incremental;
}

const ids = ['wiki:alpha', 'wiki:beta', 'wiki:gamma', 'wiki:delta', 'wiki:held', 'task:cache', 'nowhere'];

test('incremental wiki sync: nothing changed, a body changed, a node appeared, a title changed, a page added and removed, a page newly held and a held page repaired all end as a full sync does', t => {
	const kbs = twins(t);
	each(kbs, kb => {
		kb.ok(['graph', 'node', '--id', 'task:cache', '--kind', 'Task', '--label', 'Cache the feed']);
		page(kb, 'alpha.md', ['---', 'id: wiki:alpha', 'title: Alpha parser', 'sources: [https://example.org/a, task:cache]', 'related: [Beta notes]', '---', 'The parser; see [[gamma]] and [[nowhere]].']);
		page(kb, 'beta.md', ['---', 'id: wiki:beta', 'title: Beta notes', '---', 'parser notes, see [[Alpha parser]]']);
		page(kb, 'sub/gamma.md', ['---', 'id: wiki:gamma', '---', '# Gamma', 'parser gamma, back to [[alpha]]']);
		page(kb, 'held.md', ['---', 'id: wiki:held', '---', 'parser', '<<<<<<< HEAD', 'ours', '=======', 'theirs', '>>>>>>> branch']);
	});
	const first = syncBoth(kbs, 'first sync', ids);
	assert.deepEqual([first.counts.new, first.counts.held], [3, 1]);

	const nothing = syncBoth(kbs, 'nothing changed', ids);
	assert.deepEqual([nothing.appended, nothing.counts.unchanged, nothing.held.map((held: {path: string}) => held.path), nothing.unresolved.map((ref: {ref: string}) => ref.ref)], [0, 3, ['held.md'], ['nowhere']], 'an unchanged held page stays held');

	each(kbs, kb => page(kb, 'alpha.md', ['---', 'id: wiki:alpha', 'title: Alpha parser', 'sources: [https://example.org/b]', 'related: [Beta notes]', '---', 'The parser, rewritten; see [[gamma]], [[delta]] and [[nowhere]].']));
	const body = syncBoth(kbs, 'one body changed', ids);
	assert.deepEqual([body.counts.changed, body.counts.unchanged, body.edges], [1, 2, {asserted: 1, retracted: 2}]);

	each(kbs, kb => kb.ok(['graph', 'node', '--id', 'nowhere', '--kind', 'Task', '--label', 'Somewhere after all']));
	const appeared = syncBoth(kbs, 'a node a link names appeared', ids);
	assert.deepEqual([appeared.edges.asserted, appeared.unresolved.map((ref: {ref: string}) => ref.ref)], [1, ['delta']], 'a link resolves once its node exists');

	each(kbs, kb => page(kb, 'beta.md', ['---', 'id: wiki:beta', 'title: Beta, renamed', '---', 'parser notes, see [[Alpha parser]]']));
	assert.equal(syncBoth(kbs, 'a title changed', ids).counts.changed, 1);

	each(kbs, kb => page(kb, 'delta.md', ['---', 'id: wiki:delta', 'title: Delta', '---', 'parser delta, see [[Beta notes]]']));
	const added = syncBoth(kbs, 'a page added', ids);
	assert.deepEqual([added.counts.new, added.unresolved.map((ref: {ref: string}) => ref.ref)], [1, ['Beta notes', 'Beta notes']], "alpha's [[delta]] resolves now; the old title names nothing");

	each(kbs, kb => rmSync(join(kb.root, '02-wiki', 'sub', 'gamma.md')));
	assert.deepEqual(syncBoth(kbs, 'a page removed', ids).missing, ['wiki:gamma']);

	each(kbs, kb => page(kb, 'beta.md', ['---', 'id: wiki:beta', 'title: Beta, renamed', '---', 'parser notes', '<<<<<<< HEAD', 'a', '=======', 'b', '>>>>>>> other']));
	assert.deepEqual(syncBoth(kbs, 'a changed page now conflicted', ids).held.map((held: {path: string}) => held.path), ['beta.md', 'held.md']);

	each(kbs, kb => page(kb, 'held.md', ['---', 'id: wiki:held', '---', 'parser, resolved']));
	const repaired = syncBoth(kbs, 'a held page repaired', ids);
	assert.deepEqual([repaired.cleared, repaired.held.map((held: {path: string}) => held.path)], [['held.md'], ['beta.md']]);
	assert.deepEqual(syncBoth(kbs, 'nothing changed again', ids).appended, 0);
});

test('incremental wiki sync: a settled file is trusted by its size, times and inode, and a same-size rewrite is still seen', async t => {
	const kbs = twins(t);
	each(kbs, kb => {
		page(kb, 'one.md', ['---', 'id: wiki:one', '---', 'parser version A']);
		page(kb, 'two.md', ['---', 'id: wiki:two', '---', 'parser two']);
	});
	// A stamp is recorded only once a file's times are two seconds old.
	await sleep(2100);
	syncBoth(kbs, 'first sync', ['wiki:one']);
	assert.ok(record(kbs.incremental)!.files.every(synced => synced.size !== null), 'settled files have their stamps recorded');
	assert.equal(syncBoth(kbs, 'nothing changed', ['wiki:one']).appended, 0);
	const size = statSync(join(kbs.incremental.root, '02-wiki', 'one.md')).size;
	each(kbs, kb => page(kb, 'one.md', ['---', 'id: wiki:one', '---', 'parser version B']));
	assert.equal(statSync(join(kbs.incremental.root, '02-wiki', 'one.md')).size, size);
	const rewritten = syncBoth(kbs, 'same-size rewrite', ['wiki:one']);
	assert.deepEqual([rewritten.counts.changed, rewritten.counts.unchanged], [1, 1]);
	assert.match(kbs.incremental.ok(['query', '--q', 'wiki:one', '--view', 'evidence']).candidates[0].node.body, /version B/);
});

test('incremental wiki sync: an index from before the per-file record (schema 7, the record one JSON value) is rebuilt, and the sync after it plans in full', t => {
	const kbs = twins(t);
	each(kbs, kb => {
		page(kb, 'alpha.md', ['---', 'id: wiki:alpha', 'title: Alpha parser', '---', 'parser; see [[beta]]']);
		page(kb, 'beta.md', ['---', 'id: wiki:beta', '---', 'parser beta']);
	});
	syncBoth(kbs, 'first sync', ['wiki:alpha']);
	// What the old build left: the whole record as one value in meta (and, below, user_version 7 without wiki_sync_files).
	const oldIndex = (schema7: boolean) => {
		const db = new Database(join(kbs.incremental.root, '.engi', 'index.sqlite'));
		const journal = (JSON.parse(db.prepare(`SELECT value FROM meta WHERE key = 'wiki_sync'`).pluck().get() as string) as {journal: unknown}).journal;
		const old = {version: 1, state: {journal, conflictPaths: ['*.sync-conflict-*', '* (conflicted copy)*', '*.orig'], pages: [{path: 'alpha.md', sha256: 'stale', stamp: null, id: 'wiki:alpha', title: 'Alpha parser', unresolved: [], unresolvedSources: []}], held: {}}};
		db.prepare(`INSERT OR REPLACE INTO meta (key, value) VALUES ('wiki_sync', ?)`).run(JSON.stringify(old));
		if (schema7) {
			db.exec('DROP TABLE wiki_sync_files');
			db.pragma('user_version = 7');
		}

		db.close();
	};

	for (const schema7 of [false, true]) {
		oldIndex(schema7);
		if (schema7) {
			// Rebuilt too, so both full-text indexes are fresh (bm25 counts the deleted rows of one updated in place).
			kbs.full.ok(['index', 'rebuild']);
		}

		each(kbs, kb => page(kb, 'beta.md', ['---', 'id: wiki:beta', '---', `parser beta, edited ${schema7 ? 'again' : 'once'}`]));
		const after = syncBoth(kbs, `first sync on the old index (schema ${schema7 ? 7 : 8})`, ['wiki:alpha', 'wiki:beta']);
		assert.deepEqual([after.appended, after.counts.changed, after.counts.unchanged], [1, 1, 1]);
		assert.equal(record(kbs.incremental)!.files.length, 2, 'the record is written again, a row a file');
		assert.equal(syncBoth(kbs, 'nothing changed', ['wiki:alpha']).appended, 0);
	}
});

test('incremental wiki sync: a changed page\'s links find the page a full plan finds when names are shared (the later page in listing order wins)', t => {
	const kbs = twins(t);
	each(kbs, kb => {
		page(kb, 'notes.md', ['---', 'id: wiki:root-notes', 'title: Shared', '---', 'parser root']);
		page(kb, 'x/notes.md', ['---', 'id: wiki:x-notes', 'title: Shared', '---', 'parser x']);
		page(kb, 'y/notes.md', ['---', 'id: wiki:y-notes', 'title: wiki:x-notes', '---', 'parser y']);
		page(kb, 'links.md', ['---', 'id: wiki:links', '---', 'parser: [[notes]], [[Shared]], [[x/notes]], [[WIKI:X-NOTES]]']);
	});
	syncBoth(kbs, 'first sync', ['wiki:links']);
	each(kbs, kb => page(kb, 'links.md', ['---', 'id: wiki:links', '---', 'parser, edited: [[notes]], [[Shared]], [[x/notes]], [[WIKI:X-NOTES]]']));
	const edited = syncBoth(kbs, 'the linking page changed', ['wiki:links', 'wiki:root-notes', 'wiki:x-notes', 'wiki:y-notes']);
	assert.deepEqual([edited.counts.changed, edited.counts.unchanged], [1, 3]);
	const related = lines(kbs.incremental).filter(line => line.op === 'edge.assert' && (line.payload as {from: string}).from === 'wiki:links').map(line => (line.payload as {to: string}).to);
	assert.deepEqual(related.sort(), ['wiki:x-notes', 'wiki:y-notes'], 'a file name shared by three pages is the last one\'s, an id beats a title');
});
