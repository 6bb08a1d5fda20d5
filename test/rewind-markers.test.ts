import assert from 'node:assert/strict';
import {cpSync, mkdirSync, readdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import Database from 'better-sqlite3';
import {runCli, sandboxEnv} from './helpers/cli.js';
import {fixtureMtime, settle} from './fixtures/home.js';
import {tempDir} from './helpers/temp.js';

/** Sessions with a rewind marker, read in place (test/fixtures/rewinds/README.md). */
const rewinds = new URL('fixtures/rewinds/', import.meta.url).pathname;

type ContextRecord = {line: number; kind: string; text?: string; human?: boolean; abandoned?: boolean; pending?: boolean};

/** Runs engi on a copy of a store, its files dated in the past (a file written just now is not judged). */
function reader(t: Parameters<typeof tempDir>[0], source: string, store: string) {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	const root = join(base, source);
	cpSync(store, root, {recursive: true});
	settle(root, fixtureMtime);
	return (args: string[]) => {
		const result = runCli([...args, '--source', source, '--source-root', root, '--format', 'json'], {env});
		assert.equal(result.code, 0, result.stderr);
		return result.json();
	};
}

test('grok: what a rewind_marker discards is an abandoned branch: not counted, labelled in read, not open work', t => {
	const run = reader(t, 'grok', join(rewinds, 'grok'));
	const id = '019a7c10-1100-7000-8000-000000000011';
	const session = run(['sessions', '--all-projects']).sessions.find((one: {id: string}) => one.id === id);
	assert.equal(session.human_turns, 2, 'the first prompt and the one typed after the rewind');
	const context: ContextRecord[] = run(['read', id, '--view', 'context', '--limit', '100']).records;
	assert.deepEqual(context.filter(record => record.abandoned).map(record => [record.line, record.kind]), [
		[3, 'user'],
		[4, 'assistant'],
		[5, 'tool_call'],
	], 'prompt 1 and everything after it, up to the marker');
	assert.deepEqual(context.filter(record => record.kind === 'user' && record.human && !record.abandoned).map(record => record.text), ['Add pagination to the orders API', 'Document the page parameters instead']);
	const dialogue = run(['read', id, '--limit', '100']).records;
	assert.equal(dialogue.find((record: {line: number}) => record.line === 3)?.abandoned, true);

	// Right after the rewind, the discarded prompt and its running call are the file's last records.
	const justRewound = '019a7c10-1200-7000-8000-000000000012';
	assert.equal(run(['sessions', '--all-projects']).sessions.find((one: {id: string}) => one.id === justRewound).human_turns, 1);
	const candidates: Array<{id: string; reasons: Array<{code: string}>}> = run(['unfinished', '--all-projects', '--since', '3650d']).candidates;
	assert.deepEqual(candidates.find(one => one.id === justRewound)?.reasons.map(reason => reason.code) ?? [], [], 'the live conversation ends answered: the discarded call is not pending work');
});

test('gemini: the messages a $rewindTo deleted are an abandoned branch: not counted, labelled in read', t => {
	const run = reader(t, 'gemini', new URL('fixtures/stores/gemini', import.meta.url).pathname);
	const id = '3f2a9c1e-5b7d-4e21-9a8f-0c6d2e4b7a15';
	assert.equal(run(['sessions', '--all-projects']).sessions.find((one: {id: string}) => one.id === id).human_turns, 3);
	const context: ContextRecord[] = run(['read', id, '--view', 'context', '--limit', '100']).records;
	assert.deepEqual(context.filter(record => record.abandoned).map(record => [record.line, record.kind, record.text]), [
		[8, 'user', 'Hand-roll the validation without a library'],
		[9, 'assistant', 'Writing a hand-rolled validator.'],
	]);
	assert.match(context.find(record => record.line === 10)?.text ?? '', /abandoned branch/);
});

/** What an OpenCode `/undo` left in the store (test/fixtures/rewinds/opencode/make-storage.mjs). */
const reverted = {id: 'ses_4f9b10a2cff2Kp3Wd8Rt6Yv1Rv', storage: join(rewinds, 'opencode')};

function assertRevertDiscards(run: (args: string[]) => any) {
	const session = run(['sessions', '--all-projects']).sessions.find((one: {id: string}) => one.id === reverted.id);
	assert.equal(session.human_turns, 1, 'the request typed after the revert point is discarded');
	const context: ContextRecord[] = run(['read', reverted.id, '--view', 'context', '--limit', '100']).records;
	assert.deepEqual(context.filter(record => record.abandoned).map(record => [record.line, record.kind]), [
		[3, 'user'],
		[4, 'tool_call'],
	], 'the revert point and every message after it');
	assert.match(context.find(record => record.line === 2 && record.kind === 'system')?.text ?? '', /Reverted with \/undo: the last 2 messages/);
	const candidates: Array<{id: string; reasons: Array<{code: string}>}> = run(['unfinished', '--all-projects', '--since', '3650d']).candidates;
	assert.deepEqual(candidates.find(one => one.id === reverted.id)?.reasons.map(reason => reason.code) ?? [], [], 'the discarded running call is not open work');
}

test('opencode storage: what session.revert (/undo) discards is an abandoned branch: not counted, labelled, not open work', t => {
	assertRevertDiscards(reader(t, 'opencode', reverted.storage));
});

test('opencode database: a revert column names the same discarded tail', t => {
	const base = tempDir(t);
	const dbRoot = join(base, 'opencode-db');
	mkdirSync(dbRoot);
	const storage = join(reverted.storage, 'storage');
	const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));
	const session = readJson(join(storage, 'session', 'global', `${reverted.id}.json`));
	const db = new Database(join(dbRoot, 'opencode.db'));
	db.exec(`CREATE TABLE session (id TEXT PRIMARY KEY, project_id TEXT NOT NULL, parent_id TEXT, slug TEXT NOT NULL, directory TEXT NOT NULL, title TEXT NOT NULL, version TEXT NOT NULL, revert TEXT, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL);
		CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);
		CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);`);
	db.prepare('INSERT INTO session VALUES (?, ?, NULL, ?, ?, ?, ?, ?, ?, ?)').run(reverted.id, 'global', 'upload-retries', session.directory, session.title, '1.2.14', JSON.stringify(session.revert), session.time.created, session.time.updated);
	const messageDir = join(storage, 'message', reverted.id);
	for (const file of readdirSync(messageDir).sort()) {
		const {id, sessionID, ...data} = readJson(join(messageDir, file));
		db.prepare('INSERT INTO message VALUES (?, ?, ?, ?, ?)').run(id, sessionID, data.time.created, data.time.created, JSON.stringify(data));
		const partDir = join(storage, 'part', id);
		for (const partFile of readdirSync(partDir).sort()) {
			const {id: partId, messageID, sessionID: partSession, ...part} = readJson(join(partDir, partFile));
			db.prepare('INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)').run(partId, messageID, partSession, data.time.created, data.time.created, JSON.stringify(part));
		}
	}

	db.close();
	assertRevertDiscards(reader(t, 'opencode', dbRoot));
});

test('vscode: a request the log truncated away (edited and resent) is an abandoned branch after the live ones', t => {
	const run = reader(t, 'vscode', join(rewinds, 'vscode', 'Code', 'User'));
	const id = '6a1c3e5f-2b4d-4c6e-8a0b-1d3f5a7c9eb7';
	assert.equal(run(['sessions', '--all-projects']).sessions.find((one: {id: string}) => one.id === id).human_turns, 2, 'the first request and the edited one');
	const context: ContextRecord[] = run(['read', id, '--view', 'context', '--limit', '100']).records;
	assert.deepEqual(context.filter(record => record.kind === 'user').map(record => [record.line, record.text, record.abandoned ?? false]), [
		[1, 'Add input validation to the signup form', false],
		[2, 'Keep zod, but add a unit test for the email rule', false],
		[3, 'Replace zod with yup everywhere', true],
	]);
	assert.match(context.find(record => record.line === 2 && record.kind === 'system')?.text ?? '', /Request edited or undone: the last request is no longer in the conversation/);
	const candidates: Array<{id: string; reasons: Array<{code: string}>}> = run(['unfinished', '--all-projects', '--since', '3650d']).candidates;
	assert.deepEqual(candidates.find(one => one.id === id)?.reasons.map(reason => reason.code) ?? [], [], 'the replaced request\'s unfinished reply is not open work');
});
