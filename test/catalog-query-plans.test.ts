import assert from 'node:assert/strict';
import {copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {generateStores, selectiveWord} from '../bench/generate-stores.js';
import {countUnreadableSessions, listNarrowRows, recordedProjects, type SessionFilter} from '../source/engine/catalog/list.js';
import {searchSessions} from '../source/engine/catalog/search.js';
import type {CatalogView} from '../source/engine/catalog/view.js';
import {candidatesPerProject, checkpointFiles} from '../source/engine/continuity/unfinished.js';
import {openDatabase, type Database} from '../source/lib/sqlite.js';
import {runCli, sandboxEnv} from './helpers/cli.js';
import {tempDir} from './helpers/temp.js';

/**
 * The queries a warm call makes over every session in scope must be answered from a covering
 * index: a plan that looks rows up in the table reads every wide row (titles, summaries, tails),
 * tens of MB of the catalog at 15,000 sessions, on every call.
 */
function catalogOfAllSources(t: Parameters<typeof tempDir>[0]): Database {
	const base = tempDir(t);
	const home = join(base, 'home');
	const env = sandboxEnv(base, {XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local', 'share')});
	generateStores(home, {sessions: 10, messages: 40, outputBytes: 200});
	const listed = runCli(['sessions', '--all-projects', '--format', 'json'], {env});
	assert.equal(listed.code, 0, listed.stderr);
	const db = openDatabase(join(env['XDG_CACHE_HOME']!, 'engi', 'catalog.sqlite'), {readonly: true});
	t.after(() => db.close());
	return db;
}

/** The SQL `run` prepares, each statement's plan, and the steps of it that read the units table other than through a covering index. */
function tableReads(db: Database, run: () => unknown): Array<{sql: string; step: string}> {
	const statements: string[] = [];
	const prepare = db.prepare.bind(db);
	db.prepare = ((sql: string) => {
		statements.push(sql);
		return prepare(sql);
	}) as typeof db.prepare;
	try {
		run();
	} finally {
		db.prepare = prepare;
	}

	return statements.flatMap(sql => {
		const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...Array.from({length: sql.split('?').length - 1}, () => null)) as Array<{detail: string}>;
		return plan.filter(step => /\bunits\b/.test(step.detail) && !step.detail.includes('COVERING INDEX')).map(step => ({sql, step: step.detail}));
	});
}

for (const includeSubagents of [true, false]) {
	test(`sessions in scope are counted and listed from a covering index (${includeSubagents ? 'with' : 'without'} subagents)`, t => {
		const db = catalogOfAllSources(t);
		const scope = db.prepare('SELECT DISTINCT source, root FROM units').all() as SessionFilter['scope'];
		assert.equal(scope.length, 10, 'a root for each of the ten sources');
		for (const filter of [{scope, includeSubagents}, {scope, includeSubagents, since: '2026-11-01T00:00:00.000Z'}, {scope, includeSubagents, project: ['/src/project-3']}]) {
			// The partial index holds the sessions that could not be parsed alone: their rows are all it reads.
			assert.deepEqual(
				tableReads(db, () => countUnreadableSessions(db, filter)).map(read => read.step),
				['SCAN units USING INDEX units_unreadable'],
				'counting the unreadable sessions',
			);
			assert.deepEqual(tableReads(db, () => listNarrowRows(db, filter)), [], 'listing the narrow rows');
		}
	});
}

test('a stand-up judges and counts every candidate in scope from covering indexes: only the rows it shows are read whole', t => {
	const db = catalogOfAllSources(t);
	const scope = db.prepare('SELECT DISTINCT source, root FROM units').all() as SessionFilter['scope'];
	const filter = {scope, includeSubagents: true, since: '2026-10-01T00:00:00.000Z'};
	const cwd = tempDir(t);
	let counted: ReturnType<typeof candidatesPerProject>;
	const reads = tableReads(db, () => (counted = candidatesPerProject(db, filter, new Date(), cwd, {latestIn: checkpointFiles(), recorded: recordedProjects(db)}, 2))).filter(
		read => !read.sql.includes('FROM units WHERE rowid IN (SELECT value FROM json_each(?))'),
	);
	assert.deepEqual(reads, [], 'where checkpoints are read from, which sessions are candidates, their counts by project and confidence');
	assert.ok(counted!.newest.length > 0, 'the generated sessions have candidates');
});

test('a search ranks the sessions in scope from covering indexes: only the rows of its page are read whole', t => {
	const db = catalogOfAllSources(t);
	const scope = db.prepare('SELECT DISTINCT source, root FROM units').all() as SessionFilter['scope'];
	const view = {db, filter: {scope, includeSubagents: true}} as unknown as CatalogView;
	let found: ReturnType<typeof searchSessions>;
	const reads = tableReads(db, () => (found = searchSessions(view, 'quarantine', 0, 3))).filter(read => !read.sql.startsWith('SELECT * FROM units WHERE key IN'));
	assert.deepEqual(reads, [], 'ranking and deduplicating the matched sessions');
	assert.equal(found!?.page.length, 3, 'the word is in the generated sessions');
});

test('a selective search looks up only the sessions it matched: no step scans the units table', t => {
	const db = catalogOfAllSources(t);
	const scope = db.prepare('SELECT DISTINCT source, root FROM units').all() as SessionFilter['scope'];
	const view = {db, filter: {scope, includeSubagents: true}} as unknown as CatalogView;
	const statements: string[] = [];
	const prepare = db.prepare.bind(db);
	db.prepare = ((sql: string) => {
		statements.push(sql);
		return prepare(sql);
	}) as typeof db.prepare;
	let found: ReturnType<typeof searchSessions>;
	try {
		found = searchSessions(view, selectiveWord, 0, 3);
	} finally {
		db.prepare = prepare;
	}

	assert.equal(found?.page.length, 1, 'one generated session in a hundred has the word');
	const scans = statements.flatMap(sql => {
		const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...Array.from({length: sql.split('?').length - 1}, () => null)) as Array<{detail: string}>;
		return plan.filter(step => /^SCAN (units|copy)\b/.test(step.detail)).map(step => ({sql, step: step.detail}));
	});
	assert.deepEqual(scans, []);
});

test('a search lists one copy of a session whose file is in two places, broad word or selective, and counts it once', t => {
	const base = tempDir(t);
	const home = join(base, 'home');
	const env = sandboxEnv(base, {XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local', 'share')});
	generateStores(home, {sessions: 10, messages: 40, outputBytes: 200});
	// The first generated session is Claude's: its file, with a word no other session has, copied
	// under a second project directory (same session id, same content).
	const projects = join(home, '.claude', 'projects');
	const [project] = readdirSync(projects);
	const [file] = readdirSync(join(projects, project!));
	const original = join(projects, project!, file!);
	writeFileSync(original, readFileSync(original, 'utf8').replace('quarantine', 'xylophone'));
	mkdirSync(join(projects, '-src-elsewhere'));
	copyFileSync(original, join(projects, '-src-elsewhere', file!));
	const id = file!.replace(/\.jsonl$/, '');
	for (const word of ['quarantine', 'xylophone']) {
		const result = runCli(['sessions', '--all-projects', '--q', word, '--format', 'json'], {env});
		assert.equal(result.code, 0, result.stderr);
		const document = JSON.parse(result.stdout) as {total: number; sessions: Array<{id: string; path: string}>};
		assert.deepEqual(document.sessions.filter(session => session.id === id).length, 1, `${word}: one copy listed`);
		assert.equal(document.total, document.sessions.length, `${word}: the total counts the session once`);
	}
});
