import assert from 'node:assert/strict';
import {cpSync, mkdirSync, readFileSync, renameSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {fileURLToPath} from 'node:url';
import Database from 'better-sqlite3';
import {makeKb, type KbSandbox} from './helpers/kb.js';

/**
 * A session the person archived in its tool is put away: `sessions` lists it with
 * `archived: true`, and `unfinished` (with standup and pickup, which judge alike) never offers
 * it, whatever its tail says. Unarchived again (Codex moves the rollout back, Qwen Code the
 * chat, OpenCode clears time_archived), it is a candidate again. Every store here is written
 * where the tool keeps it in the sandbox's home, each session ending on a request no reply
 * answered (invented content).
 */
const cases = fileURLToPath(new URL('fixtures/format-cases', import.meta.url));

const codexLive = '019ad100-3c00-7d00-8e00-0000000000a1';
const codexArchived = '019acc40-5e00-7d00-8e00-0000000000a2';
const qwenLive = '4d6f8a0c-2e4a-4c6e-8a0c-2e4a6c8e0a11';
const qwenArchived = '5e7a9b1d-3f5b-4d7f-9b1d-3f5b7d9f1b22';
const opencodeLive = 'ses_2b41b2e1fffeGc1Hd3Ie5Jf7Kg';
const opencodeArchived = 'ses_2b41c7d0effeAr4Cv6Dx8Ez0Fb';

/** A Qwen Code chat of one unanswered request, as chatRecordingService writes one. */
function qwenChat(id: string, request: string, at: string): string {
	return `${JSON.stringify({uuid: `${id}-u1`, parentUuid: null, sessionId: id, timestamp: at, type: 'user', cwd: '/work/kiln', version: '0.26.0', message: {role: 'user', parts: [{text: request}]}})}\n`;
}

/** An OpenCode 1.x database built from the format case's rows (the session table with their columns). */
function writeOpencodeDatabase(path: string): void {
	type Rows = {session: Array<Record<string, unknown>>; message: Array<{id: string; session_id: string; time: number; data: object; parts: Array<{id: string; data: object}>}>};
	const rows = JSON.parse(readFileSync(join(cases, 'opencode', 'archived', 'v1.json'), 'utf8')) as Rows;
	const db = new Database(path);
	const columns = Object.keys(rows.session[0]!);
	db.exec(`CREATE TABLE session (${columns.map(column => (column === 'id' ? 'id TEXT PRIMARY KEY' : column)).join(', ')})`);
	db.exec(`CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);
		CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);`);
	for (const session of rows.session) {
		db.prepare(`INSERT INTO session VALUES (${columns.map(column => `@${column}`).join(', ')})`).run(session);
	}

	for (const message of rows.message) {
		db.prepare('INSERT INTO message VALUES (?, ?, ?, ?, ?)').run(message.id, message.session_id, message.time, message.time, JSON.stringify(message.data));
		for (const part of message.parts) {
			db.prepare('INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)').run(part.id, message.id, message.session_id, message.time, message.time, JSON.stringify(part.data));
		}
	}

	db.close();
}

/** The three stores in the sandbox's home: one live and one archived session each. */
function writeStores(kb: KbSandbox) {
	const home = kb.env['HOME']!;
	const codex = join(home, '.codex');
	cpSync(join(cases, 'codex', 'archived'), codex, {recursive: true});
	const chats = join(home, '.qwen', 'projects', '-work-kiln', 'chats');
	mkdirSync(join(chats, 'archive'), {recursive: true});
	writeFileSync(join(chats, `${qwenLive}.jsonl`), qwenChat(qwenLive, 'Glaze test tiles for the new clay body.', '2026-11-21T10:00:00.000Z'));
	writeFileSync(join(chats, 'archive', `${qwenArchived}.jsonl`), qwenChat(qwenArchived, 'Log the kiln firing temperatures hourly.', '2026-11-20T10:00:00.000Z'));
	const opencode = join(kb.env['XDG_DATA_HOME']!, 'opencode', 'opencode.db');
	mkdirSync(join(opencode, '..'), {recursive: true});
	writeOpencodeDatabase(opencode);
	return {codex, chats, opencode};
}

type Listed = {id: string; source: string; archived: boolean};
const scope = ['--all-projects', '--since', '2020-01-01', '--source', 'codex', '--source', 'qwen', '--source', 'opencode'];

function listed(kb: KbSandbox): Map<string, boolean> {
	const sessions = kb.ok(['sessions', ...scope, '--limit', '100']).sessions as Listed[];
	return new Map(sessions.map(session => [session.id, session.archived]));
}

const unfinishedIds = (kb: KbSandbox) => new Set((kb.ok(['unfinished', ...scope]).candidates as Array<{id: string}>).map(candidate => candidate.id));

test('an archived Codex, Qwen Code or OpenCode session is listed as archived and is no unfinished candidate; unarchived, it is one again', t => {
	const kb = makeKb(t);
	const {codex, chats, opencode} = writeStores(kb);

	assert.deepEqual(
		listed(kb),
		new Map([
			[codexLive, false],
			[codexArchived, true],
			[qwenLive, false],
			[qwenArchived, true],
			[opencodeLive, false],
			[opencodeArchived, true],
		]),
	);
	assert.deepEqual(unfinishedIds(kb), new Set([codexLive, qwenLive, opencodeLive]), 'each archived session ends on an unanswered request too, and is left out');
	const table = kb.run(['sessions', ...scope, '--format', 'human']).stdout.split('\n');
	assert.deepEqual(
		table.filter(line => line.includes('[archived] ')).map(line => line.split('\t')[2]).sort(),
		[codexArchived, qwenArchived, opencodeArchived].sort(),
		'the human table marks the archived sessions before their titles',
	);
	const standup = kb.ok(['standup', '--since', '2020-01-01', '--source', 'codex', '--source', 'qwen', '--source', 'opencode']);
	assert.equal(standup.totals.candidates, 3, 'the stand-up counts the same candidates');

	// Unarchiving: Codex moves the rollout back under sessions/YYYY/MM/DD/, Qwen Code the chat back
	// to chats/, OpenCode clears time_archived (its time_updated left as it was).
	const rollout = `rollout-2026-12-01T15-30-00-${codexArchived}.jsonl`;
	mkdirSync(join(codex, 'sessions', '2026', '12', '01'), {recursive: true});
	renameSync(join(codex, 'archived_sessions', rollout), join(codex, 'sessions', '2026', '12', '01', rollout));
	renameSync(join(chats, 'archive', `${qwenArchived}.jsonl`), join(chats, `${qwenArchived}.jsonl`));
	const db = new Database(opencode);
	db.prepare('UPDATE session SET time_archived = NULL WHERE id = ?').run(opencodeArchived);
	db.close();

	assert.ok([...listed(kb).values()].every(archived => !archived), 'nothing is archived now');
	assert.deepEqual(unfinishedIds(kb), new Set([codexLive, codexArchived, qwenLive, qwenArchived, opencodeLive, opencodeArchived]));

	// Archived again, on a warm catalog: left out again.
	renameSync(join(chats, `${qwenArchived}.jsonl`), join(chats, 'archive', `${qwenArchived}.jsonl`));
	const again = new Database(opencode);
	again.prepare('UPDATE session SET time_archived = ? WHERE id = ?').run(1_771_000_900_000, opencodeArchived);
	again.close();
	assert.deepEqual(unfinishedIds(kb), new Set([codexLive, codexArchived, qwenLive, opencodeLive]));
	assert.equal(listed(kb).get(opencodeArchived), true);
});

/** A VS Code chat of one request no response answered, as the chat store writes a session (version 3). */
function vscodeChat(id: string, request: string, at: number): string {
	return JSON.stringify({version: 3, sessionId: id, creationDate: at, lastMessageDate: at, requesterUsername: 'dev', responderUsername: 'GitHub Copilot', initialLocation: 'panel', requests: [{requestId: `request_${id.slice(0, 4)}`, message: {text: request, parts: [{kind: 'text', text: request}]}, variableData: {variables: []}, response: [], timestamp: at}]});
}

/**
 * VS Code's Agent Sessions view keeps what the person archived in the workspace's storage
 * database: `agentSessions.state.cache` in `state.vscdb`'s ItemTable, one entry per session
 * resource (`vscode-chat-session://local/<the session id in unpadded base64url>`, serialised as
 * URI components or as the URI string) with `archived` and `read`.
 */
function writeVscodeArchive(database: string, entries: ReadonlyArray<{id: string; archived: boolean; asString?: boolean}>): void {
	const db = new Database(database);
	db.exec('CREATE TABLE IF NOT EXISTS ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)');
	const resource = (id: string, asString: boolean | undefined) => {
		const path = `/${Buffer.from(id, 'utf8').toString('base64url')}`;
		return asString ? `vscode-chat-session://local${path}` : {$mid: 1, scheme: 'vscode-chat-session', authority: 'local', path};
	};

	db.prepare('INSERT INTO ItemTable (key, value) VALUES (?, ?)').run('agentSessions.state.cache', JSON.stringify(entries.map(entry => ({resource: resource(entry.id, entry.asString), archived: entry.archived, read: 1_771_000_000_000}))));
	db.close();
}

test('a VS Code chat archived in the Agent Sessions view (state.vscdb) is listed as archived and no unfinished candidate; unarchived, it is one again', t => {
	const kb = makeKb(t);
	const workspace = join(kb.env['XDG_CONFIG_HOME']!, 'Code', 'User', 'workspaceStorage', 'a1b2c3d4e5f60718293a4b5c6d7e8f90');
	mkdirSync(join(workspace, 'chatSessions'), {recursive: true});
	writeFileSync(join(workspace, 'workspace.json'), JSON.stringify({folder: 'file:///work/loom'}));
	const [live, archived, other] = ['7a1c3e5f-9b2d-4f6a-8c0e-1d3f5b7a9c21', '8b2d4f6a-0c3e-4a7b-9d1f-2e4a6c8b0d32', '9c3e5a7b-1d4f-4b8c-8e2a-3f5b7d9c1e43'];
	writeFileSync(join(workspace, 'chatSessions', `${live}.json`), vscodeChat(live, 'Tension the warp threads evenly.', 1_771_000_000_000));
	writeFileSync(join(workspace, 'chatSessions', `${archived}.json`), vscodeChat(archived, 'Count the heddles on shaft four.', 1_771_000_100_000));
	writeFileSync(join(workspace, 'chatSessions', `${other}.json`), vscodeChat(other, 'Wind a new bobbin of weft.', 1_771_000_200_000));
	const database = join(workspace, 'state.vscdb');
	// One archived (its resource as URI components), one unarchived (as a URI string), one not in the cache.
	writeVscodeArchive(database, [{id: archived, archived: true}, {id: live, archived: false, asString: true}]);
	const vscodeScope = ['--all-projects', '--since', '2020-01-01', '--source', 'vscode'];
	const vscodeListed = () => new Map((kb.ok(['sessions', ...vscodeScope]).sessions as Listed[]).map(session => [session.id, session.archived]));
	const vscodeUnfinished = () => new Set((kb.ok(['unfinished', ...vscodeScope]).candidates as Array<{id: string}>).map(candidate => candidate.id));

	assert.deepEqual(vscodeListed(), new Map([[other, false], [archived, true], [live, false]]));
	assert.deepEqual(vscodeUnfinished(), new Set([live, other]));

	writeVscodeArchive(database, [{id: archived, archived: false}, {id: other, archived: true, asString: true}]);
	assert.deepEqual(vscodeListed(), new Map([[other, true], [archived, false], [live, false]]), 'read again once the database changed');
	assert.deepEqual(vscodeUnfinished(), new Set([live, archived]));

	// A damaged database, or one VS Code is rewriting, archives nothing and breaks nothing.
	writeFileSync(database, 'not a database');
	assert.deepEqual(vscodeUnfinished(), new Set([live, archived, other]));
});
