import assert from 'node:assert/strict';
import {closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, truncateSync, writeFileSync, writeSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import Database from 'better-sqlite3';
import {prepareEvents, serializeEvent} from '../../source/engine/journal/append.js';
import {runCli, sandboxEnv} from '../helpers/cli.js';
import {makeKb, type KbSandbox} from '../helpers/kb.js';
import {mountSandbox, mountsUnavailable} from '../helpers/mounts.js';

const taskCount = 400;

/** A journal of `taskCount` tasks (enough rows that each table spans several pages), indexed by one read. */
function seeded(kb: KbSandbox): string {
	const drafts = Array.from({length: taskCount}, (_, index) => ({
		op: 'node.upsert' as const,
		payload: {id: `task:${index}`, kind: 'Task', label: `task number ${index} about the streaming parser`, status: 'open', next_action: `step ${index}`},
	}));
	writeFileSync(kb.journal, prepareEvents(drafts, new Date('2026-11-20T10:00:00Z')).map(event => serializeEvent(event)).join(''));
	assert.equal(kb.ok(['status']).nodes, taskCount);
	return join(kb.root, '.engi', 'index.sqlite');
}

function integrity(path: string): string[] {
	const db = new Database(path, {readonly: true, fileMustExist: true});
	try {
		return (db.pragma('integrity_check') as Array<{integrity_check: string}>).map(row => row.integrity_check);
	} finally {
		db.close();
	}
}

/** Leaf pages (not roots) of the named tables and indexes, and the page size. */
function leafPages(path: string, names: readonly string[]): {pages: number[]; pageSize: number} {
	const db = new Database(path);
	try {
		const pages = db
			.prepare(`SELECT pageno FROM dbstat WHERE name IN (SELECT value FROM json_each(?)) AND pagetype = 'leaf' AND pageno NOT IN (SELECT rootpage FROM sqlite_master) ORDER BY pageno`)
			.pluck()
			.all(JSON.stringify(names)) as number[];
		return {pages, pageSize: db.pragma('page_size', {simple: true}) as number};
	} finally {
		db.close();
	}
}

/** Inverts `length` bytes in the middle of a page's cell content (not its free space, where damage changes nothing). */
function flipMidPage(path: string, page: number, pageSize: number, length: number): void {
	const fd = openSync(path, 'r+');
	try {
		const header = Buffer.alloc(8);
		readSync(fd, header, 0, 8, (page - 1) * pageSize);
		const contentStart = header.readUInt16BE(5);
		const position = (page - 1) * pageSize + Math.floor((contentStart + pageSize) / 2);
		const bytes = Buffer.alloc(length);
		readSync(fd, bytes, 0, length, position);
		writeSync(fd, bytes.map(byte => byte ^ 0xff), 0, length, position);
	} finally {
		closeSync(fd);
	}
}

function overwrite(path: string, position: number, bytes: Buffer): void {
	const fd = openSync(path, 'r+');
	try {
		writeSync(fd, bytes, 0, bytes.length, position);
	} finally {
		closeSync(fd);
	}
}

const aside = (kb: KbSandbox) => readdirSync(join(kb.root, '.engi')).filter(name => name.startsWith('index.sqlite-corrupt-') && !name.endsWith('-wal'));

test('a truncated index is moved aside and rebuilt from the journal, with a warning, once', t => {
	const kb = makeKb(t);
	const index = seeded(kb);
	truncateSync(index, 1000);
	const status = kb.ok(['status']);
	assert.equal(status.nodes, taskCount, 'the answer comes from the journal');
	assert.equal(status.index.refresh, 'rebuilt');
	assert.match(status.warnings.join('\n'), /^index_corrupt: .*index\.sqlite was damaged \(SQLITE_CORRUPT.*moved it to index\.sqlite-corrupt-\d{8}T\d{6}Z and rebuilt the index from the journal$/m);
	assert.equal(aside(kb).length, 1, 'the damaged file is kept for inspection');
	assert.deepEqual(integrity(index), ['ok']);
	const again = kb.ok(['status']);
	assert.deepEqual([again.index.refresh, again.warnings], ['fresh', []], 'recovered once, then warm');
});

test('an index overwritten with text recovers in every command that opens it, readers and writers', t => {
	const kb = makeKb(t);
	const index = seeded(kb);
	const commands: string[][] = [
		['project'],
		['query', '--q', 'streaming parser', '--view', 'hits'],
		['timeline', '--limit', '1'],
		['harvest', '--check'],
		['graph', 'node', '--id', 'task:new', '--kind', 'Task', '--label', 'new'],
		['index', 'rebuild'],
	];
	for (const [round, command] of commands.entries()) {
		writeFileSync(index, 'this is not a database, it is text written over one\n'.repeat(50));
		for (const suffix of ['-wal', '-shm']) {
			assert.ok(!existsSync(`${index}${suffix}`));
		}

		const result = kb.run([...command, '--format', 'json']);
		assert.equal(result.code, 0, `engi ${command.join(' ')}: ${result.stderr}`);
		const said = `${result.stderr}\n${JSON.stringify(result.json().warnings ?? [])}`;
		assert.match(said, /index_corrupt: .*SQLITE_NOTADB/, `engi ${command.join(' ')} warns`);
		assert.doesNotMatch(result.stderr, /internal_error|bug in engi/);
		assert.equal(aside(kb).length, round + 1, 'each damaged file is kept under its own name');
	}

	assert.equal(kb.ok(['timeline', '--limit', '1']).total, taskCount + 1, 'the write went through');
	assert.deepEqual(integrity(index), ['ok']);
});

test('a node whose stored payload was damaged mid-page (SQLite reads it without complaint; its JSON no longer parses): the read moves the index aside and rebuilds it', t => {
	const kb = makeKb(t);
	const index = seeded(kb);
	const clean = kb.ok(['query', '--q', 'task number 123', '--view', 'hits']);
	const db = new Database(index);
	const pageSize = db.pragma('page_size', {simple: true}) as number;
	const pages = new Set(db.prepare(`SELECT pageno FROM dbstat WHERE name = 'nodes'`).pluck().all() as number[]);
	db.close();
	const bytes = readFileSync(index);
	let at = bytes.indexOf('"label":"task number 123 ');
	while (at !== -1 && !pages.has(Math.floor(at / pageSize) + 1)) {
		at = bytes.indexOf('"label":"task number 123 ', at + 1); // The events table holds it too.
	}

	assert.ok(at !== -1, 'the payload is in a page of the nodes table');
	bytes[at + 9] = 0x01; // A control character inside the JSON string.
	writeFileSync(index, bytes);
	const result = kb.run(['query', '--q', 'task number 123', '--view', 'hits', '--format', 'json']);
	assert.equal(result.code, 0, result.stderr);
	assert.deepEqual(result.json().hits, clean.hits, 'the same answer, from the journal');
	assert.match(result.json().warnings.join('\n'), /^index_corrupt: .*SQLITE_CORRUPT: a stored value does not parse.*rebuilt the index from the journal$/m);
	assert.equal(aside(kb).length, 1);
});

test('damage in the middle of a page: doctor finds it with the integrity check, index rebuild replaces the file', t => {
	const kb = makeKb(t);
	const index = seeded(kb);
	const {pages, pageSize} = leafPages(index, ['events']);
	assert.ok(pages.length > 3, `events spans ${pages.length} leaf pages`);
	const page = pages[Math.floor(pages.length / 2)]!;
	flipMidPage(index, page, pageSize, 32);
	assert.notDeepEqual(integrity(index), ['ok'], 'the damage is real');
	assert.equal(kb.ok(['status']).nodes, taskCount, 'a read that does not touch the page is not slowed by a check');

	const doctor = kb.run(['doctor', '--format', 'json']);
	assert.equal(doctor.code, 1, doctor.stderr);
	const check = doctor.json().checks.find((entry: {name: string}) => entry.name === 'index-integrity');
	assert.equal(check.severity, 'warning');
	assert.match(check.detail, /^index fails SQLite's integrity check \(.+\); engi index rebuild moves it aside/);

	const rebuilt = kb.run(['index', 'rebuild', '--format', 'json']);
	assert.equal(rebuilt.code, 0, rebuilt.stderr);
	assert.equal(rebuilt.json().nodes, taskCount);
	assert.match(rebuilt.stderr, /index_corrupt: .*quick_check/);
	assert.deepEqual(integrity(index), ['ok']);
	const after = kb.run(['doctor', '--format', 'json']).json().checks.find((entry: {name: string}) => entry.name === 'index-integrity');
	assert.match(after.detail, /^SQLite integrity check passed; indexes set aside after damage, safe to delete once inspected: index\.sqlite-corrupt-/);
});

test('a damaged page met only while reading (after the index opened fine) is recovered and the read answered', t => {
	const kb = makeKb(t);
	const index = seeded(kb);
	const expected = kb.ok(['project', '--limit', String(taskCount)]);
	const timeline = kb.ok(['timeline', '--limit', '5', '--offset', '200']);
	for (const command of [
		['project', '--limit', String(taskCount)],
		['timeline', '--limit', '5', '--offset', '200'],
	]) {
		const {pages, pageSize} = leafPages(index, ['nodes', 'nodes_kind', 'events']);
		for (const page of pages) {
			overwrite(index, (page - 1) * pageSize, Buffer.from([0x00, 0xff, 0xff, 0xff]));
		}

		const result = kb.run([...command, '--format', 'json']);
		assert.equal(result.code, 0, `engi ${command.join(' ')}: ${result.stderr}`);
		assert.deepEqual(result.json(), command[0] === 'project' ? expected : timeline, 'the same answer as before the damage');
		assert.match(result.stderr, /^\{"warning":"index_corrupt: .*SQLITE_CORRUPT/m);
	}
});

test('a corrupt index on a read-only knowledge base: the read answers from an index in memory and changes nothing', {skip: mountsUnavailable()}, t => {
	const sandbox = mountSandbox(t);
	const env = sandboxEnv(sandbox.base);
	const root = join(sandbox.base, 'kb');
	assert.equal(runCli(['init', root], {env}).code, 0);
	const kb: KbSandbox = {base: sandbox.base, root, env, journal: join(root, '.engi', 'journal.jsonl'), run: (args, options = {}) => runCli(args, {env, ...options}), ok: args => runCli([...args, '--format', 'json'], {env}).json()};
	const index = seeded(kb);
	writeFileSync(index, 'not a database');
	sandbox.readOnly(root);
	const before = readdirSync(join(root, '.engi')).sort();
	const status = kb.run(['status', '--format', 'json']);
	assert.equal(status.code, 0, status.stderr);
	const output = status.json();
	assert.deepEqual([output.nodes, output.index.in_memory], [taskCount, true]);
	assert.match(output.warnings.join('\n'), /index_corrupt: .* cannot be moved aside \(EROFS\); built a temporary in-memory index/);
	assert.deepEqual(readdirSync(join(root, '.engi')).sort(), before);
});

test('an index damaged where a command reads it inside the catalog\'s scope (retention plan): the index is rebuilt, and the catalog is left alone', t => {
	const kb = makeKb(t);
	const index = seeded(kb);
	kb.ok(['graph', 'node', '--id', 'receipt:damaged', '--kind', 'SessionRetentionReceipt', '--provenance', 'a test', '--label', 'a receipt about the streaming parser']);
	const clean = kb.ok(['retention', 'plan']) as Record<string, unknown>;
	const db = new Database(index);
	const pageSize = db.pragma('page_size', {simple: true}) as number;
	const pages = new Set(db.prepare(`SELECT pageno FROM dbstat WHERE name = 'nodes'`).pluck().all() as number[]);
	db.close();
	const bytes = readFileSync(index);
	let at = bytes.indexOf('"label":"a receipt about');
	while (at !== -1 && !pages.has(Math.floor(at / pageSize) + 1)) {
		at = bytes.indexOf('"label":"a receipt about', at + 1);
	}

	assert.ok(at !== -1, 'the payload is in a page of the nodes table');
	bytes[at + 9] = 0x01;
	writeFileSync(index, bytes);
	const result = kb.run(['retention', 'plan', '--format', 'json']);
	assert.equal(result.code, 0, result.stderr);
	assert.deepEqual({...(result.json() as Record<string, unknown>), warnings: [], cutoff_utc: null}, {...clean, warnings: [], cutoff_utc: null}, 'the same plan');
	assert.match(result.json().warnings.join('\n'), /^index_corrupt: .*a stored value does not parse/m);
	assert.doesNotMatch(`${result.stdout}\n${result.stderr}`, /catalog_corrupt/, 'the catalog was not the damaged cache');
	assert.equal(aside(kb).length, 1);
});
