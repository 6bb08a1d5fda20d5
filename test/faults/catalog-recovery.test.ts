import assert from 'node:assert/strict';
import {randomUUID} from 'node:crypto';
import {closeSync, mkdirSync, openSync, readdirSync, readFileSync, truncateSync, writeFileSync, writeSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import Database from 'better-sqlite3';
import {runCli, sandboxEnv} from '../helpers/cli.js';
import {settle} from '../fixtures/home.js';
import {mountSandbox, mountsUnavailable} from '../helpers/mounts.js';
import {tempDir} from '../helpers/temp.js';

/**
 * Claude Code sessions as `formats.md` §1 describes them (one file per session under the
 * project's slug, uuid/parentUuid chains, ISO timestamps), each with distinct words so the
 * catalog's full-text index grows with their number.
 */
function writeSessions(home: string, count: number): void {
	const directory = join(home, '.claude', 'projects', '-work-app');
	mkdirSync(directory, {recursive: true});
	for (let index = 0; index < count; index++) {
		const sessionId = randomUUID();
		const base = {isSidechain: false, userType: 'external', cwd: '/work/app', sessionId, version: '2.1.80', gitBranch: 'main'};
		const lines: unknown[] = [];
		let parent: string | null = null;
		for (let turn = 0; turn < 6; turn++) {
			const time = new Date(Date.UTC(2026, 10, 20, 9, index % 60, turn)).toISOString();
			const words = Array.from({length: 30}, (_, word) => `w${index}x${turn}x${word}`).join(' ');
			const user: string = `u${index}-${turn}`;
			lines.push({...base, parentUuid: parent, type: 'user', uuid: user, timestamp: time, message: {role: 'user', content: `Please look at ${words}`}});
			const assistant = `a${index}-${turn}`;
			lines.push({...base, parentUuid: user, type: 'assistant', uuid: assistant, timestamp: time, message: {id: `msg_${index}_${turn}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4', content: [{type: 'text', text: `Looked at ${words}.`}]}});
			parent = assistant;
		}

		writeFileSync(join(directory, `${sessionId}.jsonl`), lines.map(line => JSON.stringify(line)).join('\n') + '\n');
	}

	settle(home, new Date('2026-11-20T12:00:00Z'));
}

function sessions(env: Record<string, string>, command: readonly string[] = ['sessions', '--all-projects', '--limit', '500']) {
	const result = runCli([...command, '--format', 'json'], {env});
	assert.equal(result.code, 0, `engi ${command.join(' ')}: ${result.stderr}`);
	return result.json();
}

const catalogWarnings = (output: {warnings: string[]}) => output.warnings.filter(warning => warning.startsWith('catalog_'));

function setup(t: Parameters<typeof tempDir>[0], base = tempDir(t), count = 30) {
	const env = sandboxEnv(base);
	writeSessions(env['HOME']!, count);
	return {env, catalog: join(env['XDG_CACHE_HOME']!, 'engi', 'catalog.sqlite')};
}

test('a truncated catalog is built again once, then serves warm calls', t => {
	const {env, catalog} = setup(t);
	const first = sessions(env);
	assert.equal(first.total, 30);
	truncateSync(catalog, 2048);
	const recovered = sessions(env);
	assert.equal(recovered.total, 30);
	assert.equal(recovered.catalog.scanned, 30, 'every session read again');
	assert.match(catalogWarnings(recovered).join('\n'), /^catalog_corrupt: .*catalog\.sqlite was damaged \(SQLITE_(CORRUPT|NOTADB)\w*\); deleted it and read every session again$/);
	const warm = sessions(env);
	assert.deepEqual([warm.catalog.scanned, catalogWarnings(warm)], [0, []], 'the new catalog is on disk: the next call costs a stat per file');
});

test('a catalog overwritten with text: sessions, unfinished and standup all answer, and only the first rebuilds', t => {
	const {env, catalog} = setup(t);
	sessions(env);
	for (const command of [
		['unfinished', '--all-projects', '--since', '2000-01-01'],
		['standup', '--since', '2000-01-01'],
		['sessions', '--all-projects'],
	]) {
		writeFileSync(catalog, 'not a database\n'.repeat(400));
		const output = sessions(env, command);
		assert.match(catalogWarnings(output).join('\n'), /^catalog_corrupt: .*SQLITE_NOTADB/, `engi ${command.join(' ')} says what it did`);
		assert.deepEqual(catalogWarnings(sessions(env, command)), [], `engi ${command.join(' ')} then runs warm`);
	}
});

/** Overwrites the start of every leaf page (not the roots) of the catalog's units table and its listing indexes: what a read of any session's row meets, and a warm refresh (which reads a covering index) does not. */
function damageLeaves(catalog: string): void {
	const db = new Database(catalog);
	const pageSize = db.pragma('page_size', {simple: true}) as number;
	const pages = db
		.prepare(`SELECT pageno FROM dbstat WHERE name IN ('units', 'units_listing', 'units_recent') AND pagetype = 'leaf' AND pageno NOT IN (SELECT rootpage FROM sqlite_master)`)
		.pluck()
		.all() as number[];
	db.close();
	assert.ok(pages.length > 0);
	const fd = openSync(catalog, 'r+');
	for (const page of pages) {
		writeSync(fd, Buffer.from([0x00, 0xff, 0xff, 0xff]), 0, 4, (page - 1) * pageSize);
	}

	closeSync(fd);
}

test('a damaged page met while listing (the refresh did not need it) rebuilds the catalog and answers', t => {
	const {env, catalog} = setup(t, undefined, 120);
	const before = sessions(env);
	damageLeaves(catalog);
	const after = sessions(env);
	assert.deepEqual(after.sessions, before.sessions, 'the same listing');
	assert.match(catalogWarnings(after).join('\n'), /^catalog_corrupt: .*SQLITE_CORRUPT/);
	assert.deepEqual(catalogWarnings(sessions(env)), []);
});

/** Where `find` occurs in the pages of the named tables or indexes (of one page type, when given). */
function occurrences(catalog: string, names: readonly string[], find: string, pagetype?: 'leaf' | 'internal'): number[] {
	const db = new Database(catalog);
	const pageSize = db.pragma('page_size', {simple: true}) as number;
	const pages = new Set(
		db
			.prepare(`SELECT pageno FROM dbstat WHERE name IN (SELECT value FROM json_each(?)) AND pagetype LIKE ?`)
			.pluck()
			.all(JSON.stringify(names), pagetype ?? '%') as number[],
	);
	db.close();
	const bytes = readFileSync(catalog);
	const found: number[] = [];
	for (let at = bytes.indexOf(find); at !== -1; at = bytes.indexOf(find, at + 1)) {
		if (pages.has(Math.floor(at / pageSize) + 1)) {
			found.push(at);
		}
	}

	return found;
}

/** Replaces every occurrence of `find` in the pages of the named tables or indexes with `replace` (as long); returns how many. */
function damageIn(catalog: string, names: readonly string[], find: string, replace: string): number {
	const found = occurrences(catalog, names, find);
	const bytes = readFileSync(catalog);
	for (const at of found) {
		bytes.write(replace, at);
	}

	writeFileSync(catalog, bytes);
	return found.length;
}

test('bytes damaged mid-page in a stored summary (SQLite reads the row without complaint; its JSON no longer parses): the catalog is rebuilt, with a warning', t => {
	const {env, catalog} = setup(t);
	const before = sessions(env);
	const title = before.sessions[3].title as string;
	// A control character inside the JSON string: what a flipped byte in a row's payload reads back as.
	// The row's own copy is damaged; a page may also keep an earlier copy of the row in its free
	// space (SQLite does not clear what a rewritten cell left), which is damaged alike, unread.
	assert.ok(damageIn(catalog, ['units'], `"title":"${title.slice(0, 30)}`, `"title":"\u0001${title.slice(1, 30)}`) >= 1);
	const after = sessions(env);
	assert.deepEqual(after.sessions, before.sessions, 'the same listing');
	assert.match(catalogWarnings(after).join('\n'), /^catalog_corrupt: .*SQLITE_CORRUPT/);
	assert.deepEqual(catalogWarnings(sessions(env)), []);
});

test('bytes damaged mid-page in an index of the catalog (a session drops out of the listing, and SQLite says nothing): doctor finds it and deletes the catalog, and the next listing is whole', t => {
	const base = tempDir(t);
	const {env, catalog} = setup(t, base);
	const root = join(base, 'kb');
	assert.equal(runCli(['init', root, '--format', 'json'], {env}).code, 0);
	const before = sessions(env);
	const indexes = ['units_listing', 'units_recent'];
	// A session whose keys are only in the indexes' leaves (an interior page may keep a copy of a key to divide its children).
	const victim = before.sessions.find((session: {modified: string}) => occurrences(catalog, indexes, `${session.modified}claude`, 'internal').length === 0);
	// Its entries in the listing's covering indexes now name another source.
	assert.equal(damageIn(catalog, indexes, `${victim.modified}claude`, `${victim.modified}claudf`), 2);
	const damaged = sessions(env);
	// What SQLite alone lets through: the session is missing from the page, and nothing warns (the
	// total is counted by another plan, which may not read the damaged entries).
	assert.deepEqual([damaged.sessions.length, damaged.sessions.some((session: {id: string}) => session.id === victim.id)], [29, false]);
	assert.deepEqual(catalogWarnings(damaged), []);
	const doctor = runCli(['doctor', '--root', root, '--format', 'json'], {env});
	const check = doctor.json().checks.find((check: {name: string}) => check.name === 'catalog-integrity');
	assert.equal(check.severity, 'warning');
	assert.match(check.detail, /fails SQLite's integrity check \(row \d+ missing from index units_(recent|listing).*\); deleted it: the next call reads every session again$/);
	assert.equal(doctor.code, 1);
	const after = sessions(env);
	assert.deepEqual(after.sessions, before.sessions, 'every session listed again');
	assert.equal(after.catalog.scanned, 30);
	const clean = runCli(['doctor', '--root', root, '--format', 'json'], {env}).json().checks.find((check: {name: string}) => check.name === 'catalog-integrity');
	assert.deepEqual([check.ok, clean.ok, clean.detail], [false, true, 'SQLite integrity check passed']);
});

/** A knowledge base beside 120 sessions, and a way to damage the catalog's pages. */
function damagedCatalog(t: Parameters<typeof tempDir>[0]) {
	const base = tempDir(t);
	const {env, catalog} = setup(t, base, 120);
	const root = join(base, 'kb');
	assert.equal(runCli(['init', root, '--format', 'json'], {env}).code, 0);
	const victim = sessions(env).sessions[3];
	return {env, root, victim, damage: () => damageLeaves(catalog)};
}

test('a damaged catalog met inside the index\'s scope (retention sweep) is rebuilt, with a warning; the index is left alone', t => {
	const {env, root, damage} = damagedCatalog(t);
	const sweep = () => runCli(['retention', 'sweep', '--root', root, '--format', 'json'], {env});
	const clean = sweep();
	assert.equal(clean.code, 0, clean.stderr);
	damage();
	const after = sweep();
	assert.equal(after.code, 0, after.stderr);
	assert.equal(after.json().plan_sha256, clean.json().plan_sha256, 'the same plan');
	assert.match(catalogWarnings(after.json()).join('\n'), /^catalog_corrupt: .*SQLITE_CORRUPT/);
	assert.doesNotMatch(`${after.stdout}\n${after.stderr}`, /index_corrupt/, 'the index was not the damaged cache');
	assert.deepEqual(readdirSync(join(root, '.engi')).filter(name => name.startsWith('index.sqlite-corrupt-')), [], 'no index moved aside');
});

test('a damaged catalog met by a command that reads it directly (harvest, read, purge, pickup) is rebuilt, with a warning, and the command answers', t => {
	const {env, root, victim, damage} = damagedCatalog(t);
	const commands: Array<[string, string[]]> = [
		['candidates harvest', ['candidates', 'harvest', '--consent', '--all-projects', '--since', '2000-01-01', '--root', root]],
		['read', ['read', victim.id]],
		['retention purge', ['retention', 'purge', victim.id, '--source', 'claude', '--root', root]],
		['pickup', ['pickup', victim.id]],
	];
	for (const [name, command] of commands) {
		const clean = runCli([...command, '--format', 'json'], {env});
		damage();
		const result = runCli([...command, '--format', 'json'], {env});
		assert.equal(result.code, clean.code, `engi ${name}: ${result.stderr}`);
		assert.match(`${result.stdout}\n${result.stderr}`, /catalog_corrupt: .*SQLITE_CORRUPT/, `engi ${name} rebuilt the catalog and said so`);
		assert.doesNotMatch(result.stderr, /cache_corrupt/, `engi ${name}`);
	}
});

test('doctor outside a knowledge base still checks the catalog: a damaged one is deleted, and the missing knowledge base is a warning', t => {
	const base = tempDir(t);
	const {env, catalog} = setup(t, base, 120);
	const before = sessions(env);
	const doctor = (args: readonly string[] = []) => runCli(['doctor', ...args, '--format', 'json'], {env});
	const clean = doctor();
	assert.equal(clean.code, 1, clean.stderr);
	assert.deepEqual(
		clean.json().checks.map((check: {name: string; severity: string}) => [check.name, check.severity]),
		[
			['knowledge-base', 'warning'],
			['catalog-integrity', 'ok'],
		],
	);
	assert.equal(clean.json().root, null);
	assert.match(clean.json().checks[0].detail, /knowledge base root is not configured; only the session catalog was checked$/);
	damageLeaves(catalog);
	const damaged = doctor(['--root', join(base, 'no-kb-here')]);
	assert.equal(damaged.code, 1, damaged.stderr);
	const [missing, check] = damaged.json().checks;
	assert.match(missing.detail, /^no knowledge base at .*no-kb-here/);
	assert.deepEqual([check.name, check.severity], ['catalog-integrity', 'warning']);
	assert.match(check.detail, /fails SQLite's integrity check .*; deleted it: the next call reads every session again$/);
	const after = sessions(env);
	assert.deepEqual(after.sessions, before.sessions, 'the next listing reads every session again');
	assert.equal(after.catalog.scanned, 120);
});

for (const thread of ['off', 'always']) {
	test(`a cache file system that fills up mid-build (writing thread ${thread}): every session command answers from a scan in memory, with a warning`, {skip: mountsUnavailable()}, t => {
		const sandbox = mountSandbox(t);
		const cache = join(sandbox.base, 'cache');
		sandbox.tmpfs(cache, '160k');
		const {env: base, catalog} = setup(t, sandbox.base, 150);
		// A write that fails on the thread fails the refresh as one on its own connection does.
		const env = {...base, ENGI_CATALOG_THREAD: thread};
		for (let round = 0; round < 2; round++) {
			const output = sessions(env);
			assert.equal(output.total, 150, 'nothing is missing from the answer');
			assert.match(catalogWarnings(output).join('\n'), /^catalog_unwritable: .*catalog\.sqlite could not be used \((SQLITE_FULL|SQLITE_IOERR\w*)\); this call read every session from scratch$/m);
		}

		const unfinished = sessions(env, ['unfinished', '--all-projects', '--since', '2000-01-01']);
		assert.match(catalogWarnings(unfinished).join('\n'), /catalog_unwritable/);
		assert.ok(sessions(env, ['standup', '--since', '2000-01-01']).warnings.some((warning: string) => warning.startsWith('catalog_unwritable')));
		const checked = new Database(catalog, {readonly: true});
		assert.deepEqual(checked.pragma('quick_check'), [{quick_check: 'ok'}], 'what was committed before the disk filled is intact');
		checked.close();
	});
}

test('a read-only cache directory: sessions answer from a scan in memory, with a warning', {skip: mountsUnavailable()}, t => {
	const sandbox = mountSandbox(t);
	const {env} = setup(t, sandbox.base);
	sessions(env);
	sandbox.readOnly(join(sandbox.base, 'cache'));
	const output = sessions(env);
	assert.equal(output.total, 30);
	assert.match(catalogWarnings(output).join('\n'), /^catalog_unwritable: .*catalog\.sqlite could not be used \((EROFS|SQLITE_CANTOPEN|SQLITE_READONLY\w*)\)/);
});
