// The catalog killed mid-scan: a cold refresh writes what it reads in short transactions, so a
// SIGKILL after one of them leaves a catalog holding whole units only, and the next call reads
// the rest and answers exactly as a catalog built in one go does.
import assert from 'node:assert/strict';
import {mkdirSync, rmSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import Database from 'better-sqlite3';
import {runCli, sandboxEnv} from '../helpers/cli.js';
import {requireProc, startCli, waitStopped} from '../helpers/faults.js';
import {tempDir} from '../helpers/temp.js';

/** Three Claude sessions; the middle one has enough lines to take several write batches. */
function writeStores(home: string): void {
	const sizes = [40, 10_000, 40];
	sizes.forEach((lines, index) => {
		const id = `c0ffee0${index}-0000-4000-8000-000000000000`;
		const directory = join(home, '.claude', 'projects', `-src-kill${index}`);
		mkdirSync(directory, {recursive: true});
		let parent: string | null = null;
		const records: string[] = [];
		for (let line = 0; line < lines; line++) {
			const uuid = `${id.slice(0, 8)}-${line}`;
			const common = {parentUuid: parent, isSidechain: false, cwd: `/src/kill${index}`, sessionId: id, uuid, timestamp: new Date(Date.parse('2026-11-02T00:00:00Z') + line * 1000).toISOString()};
			records.push(
				JSON.stringify(
					line % 2 === 0
						? {...common, type: 'user', message: {role: 'user', content: `request ${line} about the lexer ${index === 1 ? 'zebra' : 'otter'}`}}
						: {...common, type: 'assistant', message: {id: `msg_${uuid}`, role: 'assistant', content: [{type: 'text', text: `reply ${line} about the lexer`}]}},
				),
			);
			parent = uuid;
		}

		writeFileSync(join(directory, `${id}.jsonl`), records.join('\n') + '\n');
	});
}

for (const thread of ['off', 'always']) {
	test(`a cold catalog scan killed after a committed batch (writing thread ${thread}): the next call completes it, with the results of an uninterrupted build`, async t => {
		if (!requireProc(t)) {
			return;
		}

		const base = tempDir(t);
		const env = sandboxEnv(base, {ENGI_CATALOG_THREAD: thread});
		writeStores(env['HOME']!);
		const clean = {...env, XDG_CACHE_HOME: join(base, 'clean-cache')};
		const list = ['sessions', '--all-projects', '--format', 'json'];
		const search = ['sessions', '--all-projects', '--q', 'zebra', '--format', 'json'];
		const stripped = (stdout: string) => {
			const document = JSON.parse(stdout) as Record<string, unknown>;
			delete document['catalog'];
			return document;
		};

		const killed = startCli(list, {env: {...env, ENGI_TEST_PAUSE_AT: 'catalog.after_batch'}});
		await waitStopped(killed.pid);
		killed.kill('SIGKILL');
		await killed.done;

		const resumed = runCli(list, {env});
		assert.equal(resumed.code, 0, resumed.stderr);
		const expected = runCli(list, {env: clean});
		assert.deepEqual(stripped(resumed.stdout), stripped(expected.stdout));
		assert.equal(JSON.parse(resumed.stdout).total, 3);
		assert.deepEqual(stripped(runCli(search, {env}).stdout), stripped(runCli(search, {env: clean}).stdout));
		assert.equal(JSON.parse(runCli(search, {env}).stdout).total, 1);
	});
}

test('a new session whose file vanishes while a refresh reads it leaves none of its documents in the text index', async t => {
	if (!requireProc(t)) {
		return;
	}

	const base = tempDir(t);
	// On the refresh's own connection: a writing thread commits a batch while the reading goes on,
	// so its pause would not hold the reading at the batch's end (the unit's removal is the same
	// queued write either way).
	const env = sandboxEnv(base, {ENGI_CATALOG_THREAD: 'off'});
	writeStores(env['HOME']!);
	const vanishing = join(env['HOME']!, '.claude', 'projects', '-src-kill1', 'c0ffee01-0000-4000-8000-000000000000.jsonl');
	// Stopped after the first committed batch, which holds part of the long session's documents;
	// the file goes while the scan still has it open, so reading it again at the end fails.
	const running = startCli(['sessions', '--all-projects', '--format', 'json'], {env: {...env, ENGI_TEST_PAUSE_AT: 'catalog.after_batch#1'}});
	await waitStopped(running.pid);
	rmSync(vanishing);
	running.kill('SIGCONT');
	const result = await running.done;
	assert.equal(result.code, 0, result.stderr);
	const listing = JSON.parse(result.stdout) as {total: number; warnings: string[]};
	assert.ok(listing.warnings.some(warning => /could not read .*c0ffee01-0000-4000-8000-000000000000\.jsonl \(ENOENT\)/.test(warning)), listing.warnings.join('\n'));
	assert.equal(listing.total, 2);

	const db = new Database(join(env['XDG_CACHE_HOME']!, 'engi', 'catalog.sqlite'), {readonly: true});
	t.after(() => db.close());
	const unitNumbers = db.prepare('SELECT no FROM text_units ORDER BY no').pluck().all() as number[];
	assert.equal(unitNumbers.length, 2, 'only the two sessions still on disk have a text unit');
	const strays = db.prepare('SELECT count(*) FROM text_lines WHERE rowid / 4294967296 NOT IN (SELECT no FROM text_units)').pluck().get();
	assert.equal(strays, 0);
	assert.equal(db.prepare("SELECT count(*) FROM text_fts WHERE text_fts MATCH 'zebra'").pluck().get(), 0);
	assert.equal(JSON.parse(runCli(['sessions', '--all-projects', '--q', 'zebra', '--format', 'json'], {env}).stdout).total, 0);
});
