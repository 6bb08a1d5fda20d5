// The knowledge base's index held by another process past SQLite's busy timeout (a long rebuild,
// a writer applying a large journal): nothing is wrong with the file, it is only locked. A reader
// answers from the journal in an index built in memory for that call, a writer appends to the
// journal (the truth) all the same, both with an index_busy warning, and the index on disk takes
// the new lines on the next call. Never an internal_error.
import assert from 'node:assert/strict';
import {appendFileSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import Database from 'better-sqlite3';
import {prepareEvents, serializeEvent} from '../../source/engine/journal/append.js';
import {requireProc, startCli, waitStopped} from '../helpers/faults.js';
import {makeKb, type KbSandbox} from '../helpers/kb.js';

/** Runs `during` (or waits for the promise it returns) while this process holds the index's write lock (BEGIN IMMEDIATE), then lets it go. */
function whileIndexLocked<T>(kb: KbSandbox, during: () => T): T;
function whileIndexLocked<T>(kb: KbSandbox, during: () => Promise<T>): Promise<T>;
function whileIndexLocked<T>(kb: KbSandbox, during: () => T | Promise<T>): T | Promise<T> {
	const holder = new Database(join(kb.root, '.engi', 'index.sqlite'));
	holder.exec('BEGIN IMMEDIATE');
	const release = () => {
		holder.exec('COMMIT');
		holder.close();
	};
	let result: T | Promise<T>;
	try {
		result = during();
	} catch (error) {
		release();
		throw error;
	}

	if (result instanceof Promise) {
		return result.finally(release);
	}

	release();
	return result;
}

function seeded(t: Parameters<typeof makeKb>[0]): KbSandbox {
	const kb = makeKb(t);
	for (const id of ['a', 'b']) {
		kb.ok(['graph', 'node', '--id', `task:${id}`, '--kind', 'Task', '--label', `task ${id} about the streaming parser`]);
	}

	// A line another writer appended since the index last read the journal: this call must refresh.
	appendFileSync(kb.journal, serializeEvent(prepareEvents([{op: 'node.upsert', payload: {id: 'task:c', kind: 'Task', label: 'task c about the streaming parser'}}], new Date('2026-11-20T10:00:00Z'))[0]!));
	return kb;
}

const busy = /^index_busy: .*index\.sqlite stayed locked by another process \(SQLITE_BUSY\); this call read the journal into a temporary in-memory index$/m;

test('readers of an index another process keeps locked answer from the journal, with an index_busy warning', {timeout: 120_000}, t => {
	const kb = seeded(t);
	const results = whileIndexLocked(kb, () => [kb.run(['status', '--format', 'json']), kb.run(['query', '--q', 'streaming parser', '--view', 'hits', '--format', 'json'])]);
	for (const result of results) {
		assert.equal(result.code, 0, result.stderr);
		assert.doesNotMatch(result.stderr, /internal_error/);
		assert.match(result.json().warnings.join('\n'), busy);
	}

	assert.equal(results[0]!.json().nodes, 3, 'status counts the line the index had not read');
	assert.equal(results[1]!.json().hits.length, 3, 'query finds it too');
	const after = kb.ok(['status']);
	assert.deepEqual([after.nodes, after.index.refresh, after.warnings], [3, 'applied', []], 'the index on disk takes the line on the next call');
});

test('a writer meeting an index another process keeps locked appends to the journal all the same, with an index_busy warning, and loses nothing', {timeout: 120_000}, t => {
	const kb = seeded(t);
	const result = whileIndexLocked(kb, () => kb.run(['graph', 'node', '--id', 'task:d', '--kind', 'Task', '--label', 'task d', '--format', 'json']));
	assert.equal(result.code, 0, result.stderr);
	assert.doesNotMatch(result.stderr, /internal_error/);
	// Its document has no warnings field: the warning goes to stderr, as a JSON line.
	const warnings = result.stderr.split('\n').filter(line => line.startsWith('{')).map(line => String(JSON.parse(line).warning));
	assert.match(warnings.join('\n'), busy);
	const after = kb.ok(['status']);
	assert.equal(after.nodes, 4, 'the new node and the line before it are both in the index now');
	assert.deepEqual(after.warnings, []);
});

test('a writer whose index another process locks after it appended warns index_busy (not index_behind), and the next read applies the write', {timeout: 120_000}, async t => {
	if (!requireProc(t)) {
		return;
	}

	const kb = makeKb(t);
	kb.ok(['graph', 'node', '--id', 'task:a', '--kind', 'Task', '--label', 'task a']);
	// Planned against the index on disk, stopped under the journal lock just before it appends.
	const writer = startCli(['graph', 'node', '--id', 'task:d', '--kind', 'Task', '--label', 'task d', '--root', kb.root, '--format', 'json'], {env: {...kb.env, ENGI_TEST_PAUSE_AT: 'journal.before_append'}});
	t.after(() => writer.kill('SIGKILL'));
	await waitStopped(writer.pid);
	const result = await whileIndexLocked(kb, () => {
		writer.kill('SIGCONT');
		return writer.done;
	});

	assert.equal(result.code, 0, result.stderr);
	const warnings = result.stderr.split('\n').filter(line => line.startsWith('{')).map(line => String(JSON.parse(line).warning));
	assert.match(warnings.join('\n'), /^index_busy: .*index\.sqlite stayed locked by another process \(SQLITE_BUSY\); the journal has this write: the next read applies it to the index$/m);
	assert.doesNotMatch(warnings.join('\n'), /index_behind/);
	assert.match(readFileSync(kb.journal, 'utf8'), /task:d/, 'the write is in the journal');
	const after = kb.ok(['status']);
	assert.deepEqual([after.nodes, after.index.refresh, after.warnings], [2, 'applied', []], 'the index takes it on the next call');
});

test('a writer whose journal moved on while it waited, and whose index another process then keeps locked, fails typed (index_busy, retryable) and appends nothing', {timeout: 120_000}, async t => {
	if (!requireProc(t)) {
		return;
	}

	const kb = makeKb(t);
	kb.ok(['graph', 'node', '--id', 'task:a', '--kind', 'Task', '--label', 'task a']);
	// Planned against the index, stopped before it takes the journal lock.
	const writer = startCli(['graph', 'node', '--id', 'task:d', '--kind', 'Task', '--label', 'task d', '--root', kb.root, '--format', 'json'], {env: {...kb.env, ENGI_TEST_PAUSE_AT: 'write.before_lock'}});
	t.after(() => writer.kill('SIGKILL'));
	await waitStopped(writer.pid);
	// Another writer appended, so under the lock it must bring the index up to date to plan again.
	appendFileSync(kb.journal, serializeEvent(prepareEvents([{op: 'node.upsert', payload: {id: 'task:c', kind: 'Task', label: 'task c'}}], new Date('2026-11-20T10:00:00Z'))[0]!));
	const result = await whileIndexLocked(kb, () => {
		writer.kill('SIGCONT');
		return writer.done;
	});

	assert.equal(result.code, 1, result.stdout);
	const error = result.error();
	assert.equal(error.code, 'index_busy', JSON.stringify(error));
	assert.match(String(error.hint), /retry/);
	assert.doesNotMatch(readFileSync(kb.journal, 'utf8'), /task:d/, 'nothing appended');
	kb.ok(['graph', 'node', '--id', 'task:d', '--kind', 'Task', '--label', 'task d']);
	assert.equal(kb.ok(['status']).nodes, 3, 'the retry went through, after the other writer\'s line');
});

test('index rebuild on an index another process keeps locked fails typed (index_busy), not with a rebuild in memory that rebuilt nothing', {timeout: 120_000}, t => {
	const kb = seeded(t);
	const result = whileIndexLocked(kb, () => kb.run(['index', 'rebuild', '--format', 'json']));
	assert.equal(result.code, 1, result.stdout);
	assert.equal(result.error().code, 'index_busy');
	assert.equal(kb.ok(['index', 'rebuild']).nodes, 3, 'the retry rebuilds it');
});
