import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {createHash} from 'node:crypto';
import {appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, watch, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import Database from 'better-sqlite3';
import {prepareEvents, serializeEvent} from '../../source/engine/journal/append.js';
import {cliPath} from '../helpers/cli.js';
import {makeKb, type KbSandbox} from '../helpers/kb.js';
import {mountSandbox, mountsUnavailable} from '../helpers/mounts.js';
import {tempDir} from '../helpers/temp.js';

function seed(kb: KbSandbox, count: number): void {
	const drafts = Array.from({length: count}, (_, index) => ({op: 'node.upsert' as const, payload: {id: `task:${index}`, kind: 'Task', label: `task ${index} ${'words '.repeat(40)}`}}));
	writeFileSync(kb.journal, prepareEvents(drafts, new Date('2026-11-20T10:00:00Z')).map(event => serializeEvent(event)).join(''));
	kb.ok(['status']);
}

/** Every file but the -shm, with its size, mtime and hash. */
function contents(directory: string): Record<string, string> {
	return Object.fromEntries(
		readdirSync(directory)
			.filter(name => !name.endsWith('-shm'))
			.sort()
			.map(name => {
				const stats = statSync(join(directory, name));
				return [name, stats.isDirectory() ? 'dir' : `${stats.size}:${stats.mtimeMs}:${createHash('sha256').update(readFileSync(join(directory, name))).digest('hex')}`];
			}),
	);
}

/** Runs doctor as a real process while watching directories; every file event in them is returned. */
async function doctorWatching(kb: KbSandbox, env: Record<string, string>, directories: readonly string[]) {
	const events: string[] = [];
	const watchers = directories.map(directory => watch(directory, (type, name) => events.push(`${type} ${directory}/${name}`)));
	try {
		const {code, stdout} = await new Promise<{code: number | null; stdout: string}>((resolve, reject) => {
			const child = spawn(process.execPath, [cliPath, 'doctor', '--format', 'json'], {env, cwd: kb.root});
			let out = '';
			child.stdout.on('data', chunk => (out += chunk));
			child.on('error', reject);
			child.on('close', exit => resolve({code: exit, stdout: out}));
		});
		await new Promise(resolve => setTimeout(resolve, 200)); // Let the last file events arrive.
		return {code, output: JSON.parse(stdout) as {checks: Array<{name: string; severity: string; detail: string}>}, events};
	} finally {
		for (const watcher of watchers) {
			watcher.close();
		}
	}
}

test('doctor checks the index in place: nothing made in the temp directory, nothing made or changed in .engi', async t => {
	const kb = makeKb(t);
	seed(kb, 300);
	const temporary = join(tempDir(t), 'tmp');
	mkdirSync(temporary);
	const engi = join(kb.root, '.engi');
	const before = readdirSync(engi).sort();
	const {code, output, events} = await doctorWatching(kb, {...kb.env, TMPDIR: temporary}, [temporary, engi]);
	assert.equal(code, 0);
	assert.equal(output.checks.find(check => check.name === 'index-integrity')!.detail, 'SQLite integrity check passed');
	assert.deepEqual(events, [], 'no copy of the index, no -wal or -shm, no write of any kind');
	assert.deepEqual(readdirSync(engi).sort(), before);
	assert.deepEqual(readdirSync(temporary), []);
});

test('doctor while another connection has the index open reads through its WAL and makes nothing', async t => {
	const kb = makeKb(t);
	seed(kb, 50);
	const engi = join(kb.root, '.engi');
	const other = new Database(join(engi, 'index.sqlite'));
	t.after(() => other.close());
	other.prepare('SELECT count(*) FROM meta').get(); // Connections open lazily; this one holds the WAL open from here on.
	// New lines applied by a read while this connection stays open: the refresh lives in the WAL
	// only, so a look at the main file alone would find the index behind the journal.
	appendFileSync(kb.journal, serializeEvent(prepareEvents([{op: 'node.upsert', payload: {id: 'task:late', kind: 'Task'}}], new Date('2026-11-21T10:00:00Z'))[0]!));
	assert.equal(kb.ok(['status']).index.refresh, 'applied');
	assert.ok(existsSync(join(engi, 'index.sqlite-wal')) && existsSync(join(engi, 'index.sqlite-shm')));
	const before = contents(engi);
	const {code, output, events} = await doctorWatching(kb, kb.env, [engi]);
	assert.equal(code, 0, JSON.stringify(output));
	assert.equal(output.checks.find(check => check.name === 'index-fresh')!.detail, 'index matches the journal');
	assert.deepEqual(events.filter(event => event.startsWith('rename')), [], 'no file made or removed');
	assert.deepEqual(contents(engi), before, 'no file written (the shared-memory -shm aside, which every reader marks)');
});

test('doctor needs no temporary space, even for an index larger than the temp file system', {skip: mountsUnavailable()}, async t => {
	const kb = makeKb(t);
	seed(kb, 600);
	const sandbox = mountSandbox(t);
	const temporary = join(sandbox.base, 'tmp');
	sandbox.tmpfs(temporary, '64k');
	const {code, output} = await doctorWatching(kb, {...kb.env, TMPDIR: temporary}, []);
	assert.equal(code, 0, JSON.stringify(output.checks));
	assert.deepEqual(output.checks.filter(check => check.name.startsWith('index-')).map(check => check.severity), ['ok', 'ok']);
});
