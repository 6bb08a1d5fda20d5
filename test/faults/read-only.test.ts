// Knowledge bases engi cannot write, or cannot read: a read-only mount (EROFS, which binds root
// too), a directory the user may not write (EACCES, run as `nobody` with setpriv because root
// ignores permission bits), a quarantine path that is a file, a journal that is a directory or
// unreadable, a full disk under the index. Each is a typed error at once, never a minute of lock
// retries or "this is a bug in engi", and the journal is left exactly as it was.
import assert from 'node:assert/strict';
import {appendFileSync, chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {prepareEvents, serializeEvent} from '../../source/engine/journal/append.js';
import {fillDisk, runCliAsNobody} from '../helpers/faults.js';
import {mountSandbox, mountsUnavailable} from '../helpers/mounts.js';
import {makeKb, type KbSandbox} from '../helpers/kb.js';

const writeNode = (kb: KbSandbox, id: string) => kb.run(['graph', 'node', '--id', id, '--kind', 'Task', '--label', id, '--format', 'json']);

test('a read-only mount refuses a write at once with read_only; reads still answer', {timeout: 90_000, skip: mountsUnavailable()}, t => {
	const sandbox = mountSandbox(t);
	const mount = sandbox.tmpfs(join(sandbox.base, 'disk'), '16m');
	const kb = makeKb(t, {root: join(mount, 'kb')});
	assert.equal(writeNode(kb, 'a').code, 0);
	const before = readFileSync(kb.journal);
	sandbox.remountReadOnly(mount);

	const started = Date.now();
	const write = writeNode(kb, 'b');
	assert.equal(write.code, 1, write.stdout);
	assert.equal(write.error().code, 'read_only');
	assert.ok(Date.now() - started < 5000, `refused at once (took ${Date.now() - started} ms)`);
	assert.deepEqual(readFileSync(kb.journal), before);
	const status = kb.ok(['status']);
	assert.equal(status.nodes, 1);
});

test('a knowledge base the user may not write is refused at once with read_only', {timeout: 90_000}, t => {
	const kb = makeKb(t);
	chmodSync(kb.base, 0o755); // Let `nobody` reach the knowledge base, read it, and write nothing.
	for (const directory of [kb.root, join(kb.root, '.engi')]) {
		chmodSync(directory, 0o755);
	}

	chmodSync(kb.journal, 0o644);
	const started = Date.now();
	const write = runCliAsNobody(t, ['graph', 'node', '--id', 'b', '--kind', 'Task', '--label', 'B', '--root', kb.root, '--format', 'json'], {env: kb.env});
	if (!write) {
		return;
	}

	assert.equal(write.code, 1, write.stdout);
	assert.equal(write.error().code, 'read_only', write.stderr);
	assert.ok(Date.now() - started < 5000, `refused at once (took ${Date.now() - started} ms)`);
	assert.equal(readFileSync(kb.journal, 'utf8'), '');
});

test('a quarantine path that is a file is a typed error; the journal is left as it was', t => {
	const kb = makeKb(t);
	assert.equal(writeNode(kb, 'a').code, 0);
	writeFileSync(join(kb.root, '.engi', 'quarantine'), 'not a directory');
	appendFileSync(kb.journal, '{"torn":');
	const before = readFileSync(kb.journal);

	const write = writeNode(kb, 'b');
	assert.equal(write.code, 1, write.stdout);
	assert.equal(write.error().code, 'quarantine_unwritable');
	assert.match(write.error().message, /\.engi\/quarantine is not a directory/);
	assert.deepEqual(readFileSync(kb.journal), before);
});

test('a journal that cannot be read is journal_unreadable', t => {
	const kb = makeKb(t);
	rmSync(kb.journal);
	mkdirSync(kb.journal);
	const status = kb.run(['status', '--format', 'json']);
	assert.equal(status.code, 1, status.stdout);
	assert.equal(status.error().code, 'journal_unreadable');

	rmSync(kb.journal, {recursive: true});
	writeFileSync(kb.journal, '', {mode: 0o600});
	chmodSync(kb.base, 0o755);
	for (const directory of [kb.root, join(kb.root, '.engi')]) {
		chmodSync(directory, 0o755);
	}

	const denied = runCliAsNobody(t, ['status', '--root', kb.root, '--format', 'json'], {env: kb.env});
	if (!denied) {
		return;
	}

	assert.equal(denied.code, 1, denied.stdout);
	assert.equal(denied.error().code, 'journal_unreadable', denied.stderr);
	assert.match(denied.error().message, /EACCES/);
});

test('a full disk under the index: reads answer from an index in memory, writes are a typed error', {skip: mountsUnavailable()}, t => {
	const sandbox = mountSandbox(t);
	const mount = sandbox.tmpfs(join(sandbox.base, 'disk'), '16m');
	const kb = makeKb(t, {root: join(mount, 'kb')});
	const drafts = Array.from({length: 4000}, (_, index) => ({op: 'node.upsert' as const, payload: {id: `task:${index}`, kind: 'Task', label: `task ${index} ${'x'.repeat(100)}`}}));
	writeFileSync(kb.journal, prepareEvents(drafts, new Date()).map(event => serializeEvent(event)).join(''));
	fillDisk(mount, 0);

	const before = readFileSync(kb.journal);
	const status = kb.run(['status', '--format', 'json']);
	assert.equal(status.code, 0, status.stderr);
	const document = status.json();
	assert.equal(document.nodes, 4000);
	assert.equal(document.index.in_memory, true);
	assert.ok(document.warnings.some((warning: string) => warning.startsWith('index_unwritable')), document.warnings.join('\n'));

	const write = writeNode(kb, 'one-more');
	assert.equal(write.code, 1, write.stdout);
	assert.ok(['disk_full', 'io_error', 'write_failed'].includes(write.error().code), write.stderr);
	assert.deepEqual(readFileSync(kb.journal), before, 'the journal is left exactly as it was');
});
