// A full disk and a file size limit under the journal. Whatever fails, every event already in
// the journal stays: a torn tail is cut off in place (no rewrite that could come up short), a
// rewrite that cannot be written whole is never renamed over the journal, and an append that
// fails is cut back off, with a typed error (disk_full, write_failed) instead of a bug report.
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {prepareEvents, serializeEvent} from '../../source/engine/journal/append.js';
import {cliPath} from '../helpers/cli.js';
import {fillDisk} from '../helpers/faults.js';
import {mountSandbox, mountsUnavailable} from '../helpers/mounts.js';
import {makeKb} from '../helpers/kb.js';

/** `count` real events of about 250 bytes each, as the journal writer serialises them. */
function journalText(count: number): string {
	const drafts = Array.from({length: count}, (_, index) => ({op: 'node.upsert' as const, payload: {id: `task:${index}`, kind: 'Task', label: `task number ${index} ${'x'.repeat(150)}`}}));
	return prepareEvents(drafts, new Date('2026-11-20T10:00:00Z')).map(event => serializeEvent(event)).join('');
}

const payloadIds = (journal: string) =>
	readFileSync(journal, 'utf8')
		.split('\n')
		.filter(line => line.startsWith('{"id"'))
		.map(line => (JSON.parse(line) as {payload: {id: string}}).payload.id);

const noTemporaryFiles = (directory: string) => assert.deepEqual(readdirSync(directory).filter(name => name.endsWith('.tmp')), [], 'no replacement file is left behind');

test('a torn tail on a nearly full disk is cut off in place: all 4,000 events stay', {skip: mountsUnavailable()}, t => {
	const sandbox = mountSandbox(t);
	const mount = sandbox.tmpfs(join(sandbox.base, 'disk'), '16m');
	const kb = makeKb(t, {root: join(mount, 'kb')});
	writeFileSync(kb.journal, journalText(4000));
	kb.ok(['status']); // The index is built while there is room.
	const torn = '{"id":"deadbeef","observed_utc":"2026-1';
	appendFileSync(kb.journal, torn);
	fillDisk(mount, 64 * 1024); // Far less than the journal: a whole-file rewrite could not fit.

	const write = kb.run(['graph', 'node', '--id', 'after', '--kind', 'Task', '--label', 'written on a full disk', '--format', 'json']);
	assert.equal(write.code, 0, write.stderr);
	assert.deepEqual(write.json().quarantined, [{line: 4001, reason: 'torn_tail'}]);
	const ids = payloadIds(kb.journal);
	assert.equal(ids.length, 4001);
	assert.deepEqual(ids.slice(0, 4000), Array.from({length: 4000}, (_, index) => `task:${index}`));
	assert.equal(ids[4000], 'after');
	const quarantine = join(kb.root, '.engi', 'quarantine');
	assert.equal(readFileSync(join(quarantine, readdirSync(quarantine)[0]!), 'utf8'), torn + '\n');
	noTemporaryFiles(join(kb.root, '.engi'));
});

test('index rebuild with a corrupt line on a nearly full disk fails with disk_full and leaves the journal as it was', {skip: mountsUnavailable()}, t => {
	const sandbox = mountSandbox(t);
	const mount = sandbox.tmpfs(join(sandbox.base, 'disk'), '16m');
	const kb = makeKb(t, {root: join(mount, 'kb')});
	const events = journalText(4000).split('\n');
	writeFileSync(kb.journal, [...events.slice(0, 2000), 'not json at all', ...events.slice(2000)].join('\n'));
	const before = readFileSync(kb.journal);
	fillDisk(mount, 64 * 1024);

	const rebuild = kb.run(['index', 'rebuild', '--format', 'json']);
	assert.equal(rebuild.code, 1, rebuild.stdout);
	assert.equal(rebuild.error().code, 'disk_full');
	assert.match(rebuild.error().message, /journal\.jsonl/);
	assert.deepEqual(readFileSync(kb.journal), before, 'the journal is untouched');
	noTemporaryFiles(join(kb.root, '.engi'));
});

test('an append that does not fit is cut back off: no partial line, disk_full', {skip: mountsUnavailable()}, t => {
	const sandbox = mountSandbox(t);
	const mount = sandbox.tmpfs(join(sandbox.base, 'disk'), '16m');
	const kb = makeKb(t, {root: join(mount, 'kb')});
	writeFileSync(kb.journal, journalText(100));
	kb.ok(['status']);
	const before = readFileSync(kb.journal);
	fillDisk(mount, 128 * 1024); // Room for the index to open, and for part of the line only.

	// About 240 KB: one argument may not pass 128 KiB, so label and body share it.
	const write = kb.run(['graph', 'node', '--id', 'big', '--kind', 'Task', '--label', 'y'.repeat(120_000), '--body', 'z'.repeat(120_000), '--format', 'json']);
	assert.equal(write.code, 1, write.stdout);
	assert.equal(write.error().code, 'disk_full');
	assert.deepEqual(readFileSync(kb.journal), before, 'no partial line is left');
});

test('a file size limit (ulimit -f) fails the rewrite with write_failed; the journal stays whole', t => {
	if (spawnSync('bash', ['-c', 'ulimit -f 64']).status !== 0) {
		t.skip('needs bash with ulimit -f');
		return;
	}

	const kb = makeKb(t);
	const events = journalText(4000).split('\n');
	writeFileSync(kb.journal, [...events.slice(0, 10), '{"torn":', ...events.slice(10)].join('\n'));
	const before = readFileSync(kb.journal);
	// bash counts -f in KiB: the journal is about 1 MB, its replacement may not pass 256 KiB.
	const result = spawnSync('bash', ['-c', 'ulimit -f 256 && exec "$@"', 'engi', process.execPath, cliPath, 'index', 'rebuild', '--format', 'json'], {env: kb.env, encoding: 'utf8'});
	assert.equal(result.status, 1, result.stdout);
	const error = JSON.parse(result.stderr).error;
	assert.equal(error.code, 'write_failed');
	assert.match(error.message, /EFBIG/);
	assert.deepEqual(readFileSync(kb.journal), before, 'the journal is untouched');
	noTemporaryFiles(join(kb.root, '.engi'));
});

test('a disk too full to hold the lock refuses the write with disk_full and leaves no lock behind', {skip: mountsUnavailable()}, t => {
	const sandbox = mountSandbox(t);
	const mount = sandbox.tmpfs(join(sandbox.base, 'disk'), '16m');
	const kb = makeKb(t, {root: join(mount, 'kb')});
	writeFileSync(kb.journal, journalText(10));
	const before = readFileSync(kb.journal);
	fillDisk(mount, 0);

	const rebuild = kb.run(['index', 'rebuild', '--format', 'json']);
	assert.equal(rebuild.code, 1, rebuild.stdout);
	assert.equal(rebuild.error().code, 'disk_full');
	assert.equal(existsSync(join(kb.root, '.engi', 'journal.lock')), false, 'an ownerless lock would stall every writer');
	assert.deepEqual(readFileSync(kb.journal), before);
});
