import assert from 'node:assert/strict';
import {mkdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {fileURLToPath} from 'node:url';
import Database from 'better-sqlite3';
import {opencodeAdapter} from '../../source/adapters/opencode/index.js';
import {fixtureMtime, settle} from '../fixtures/home.js';
import {readStore, type ReadSession} from '../helpers/adapters.js';
import {runCli, sandboxEnv} from '../helpers/cli.js';
import {tempDir} from '../helpers/temp.js';

/**
 * OpenCode 2.x writes each session's conversation to `session_message` (one row per record, its
 * kind in `type`, read in `seq` order), in the same opencode.db; a database from before the
 * upgrade keeps its `message`/`part` rows, and their migrated copies keep their ids. Evidence:
 * anomalyco/opencode packages/core/src/session/sql.ts and database/schema.gen.ts (the table),
 * packages/schema/src/session-message.ts (the record union); ccusage/ccusage
 * rust/adapters/opencode/src/loader.rs (v1 and v2 rows counted once by message id).
 */
const cases = fileURLToPath(new URL('../fixtures/format-cases/opencode/session-message', import.meta.url));

type Rows = {
	session: Array<Record<string, unknown>>;
	message?: Array<{id: string; session_id: string; time: number; data: object; parts: Array<{id: string; data: object}>}>;
	session_message: Array<{id: string; session_id: string; type: string; seq: number; time: number; data: unknown}>;
};

const freshId = 'ses_2f61c0a7effeKq3Lm8Np2Rs5Tv';
const upgradedId = 'ses_2f7a11b3cffeGl4Zz9Wq1Ep6Ru';
const backfilledId = 'ses_2f7a05c1bffeBk2Fl9Ld3Ww7Xe';

/** Builds `opencode.db` in `directory` from a fixture's rows, with the tables OpenCode 2.x creates. */
function buildDatabase(directory: string, name: string, sessionTable = 'session'): string {
	const rows = JSON.parse(readFileSync(join(cases, `${name}.json`), 'utf8')) as Rows;
	mkdirSync(directory, {recursive: true});
	const path = join(directory, 'opencode.db');
	const db = new Database(path);
	db.exec(`CREATE TABLE ${sessionTable} (id TEXT PRIMARY KEY, project_id TEXT NOT NULL, parent_id TEXT, slug TEXT NOT NULL, directory TEXT NOT NULL, title TEXT NOT NULL, version TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL);
		CREATE TABLE session_message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, type TEXT NOT NULL, seq INTEGER NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);
		CREATE UNIQUE INDEX session_message_session_seq_idx ON session_message (session_id, seq);`);
	for (const session of rows.session) {
		db.prepare(`INSERT INTO ${sessionTable} VALUES (@id, @project_id, @parent_id, @slug, @directory, @title, @version, @time_created, @time_updated)`).run(session);
	}

	if (rows.message) {
		db.exec(`CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);
			CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);`);
		for (const message of rows.message) {
			db.prepare('INSERT INTO message VALUES (?, ?, ?, ?, ?)').run(message.id, message.session_id, message.time, message.time, JSON.stringify(message.data));
			for (const part of message.parts) {
				db.prepare('INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)').run(part.id, message.id, message.session_id, message.time, message.time, JSON.stringify(part.data));
			}
		}
	}

	for (const row of rows.session_message) {
		// A torn row keeps its text as written; every other row's data is JSON as OpenCode stores it.
		const data = typeof row.data === 'string' ? row.data : JSON.stringify(row.data);
		db.prepare('INSERT INTO session_message VALUES (?, ?, ?, ?, ?, ?, ?)').run(row.id, row.session_id, row.type, row.seq, row.time, row.time, data);
	}

	db.close();
	return path;
}

function readOne(path: string, id: string): ReadSession {
	const session = readStore(opencodeAdapter, path).find(read => read.summary.id === id);
	assert.ok(session, `session ${id} is listed`);
	return session;
}

const shown = (session: ReadSession) => session.events.filter(event => event.kind !== 'meta');

test('opencode 2.x: a session whose messages live only in session_message is read (no message/part tables)', t => {
	const path = buildDatabase(tempDir(t), 'fresh');
	const session = readOne(path, freshId);
	assert.equal(session.summary.title, 'Why does the kiln scheduler skip Sunday batches?', 'the first real request, not the system, skill or synthetic rows before it');
	assert.equal(session.summary.human_turns, 2);
	assert.equal(session.events.find(event => event.session?.model)?.session?.model, 'glaze-large-2', 'the model of the first row naming one');
	assert.equal(session.loaded.skipped, 2, 'the row of an unknown type and the torn row');

	const users = shown(session).filter(event => event.kind === 'user');
	assert.deepEqual(users.map(event => [event.text?.slice(0, 20), event.human]), [
		['<env>\nWorking direct', false],
		['# Firing log\nAlways ', false],
		['<system-reminder>Pla', false],
		['Why does the kiln sc', true],
		['Fix it and run the o', true],
	]);
	assert.ok(shown(session).some(event => event.kind === 'system' && event.text === 'Attached file: kiln.toml (text/plain) file:///work/kiln/kiln.toml'));

	const results = new Map(shown(session).filter(event => event.kind === 'tool_result').map(event => [event.result?.call_id, event]));
	const calls = shown(session).filter(event => event.kind === 'tool_call');
	assert.deepEqual(calls.map(event => [event.tool?.name, event.tool?.call_id]), [
		['read', 'call_kiln_read_01'],
		['grep', 'call_kiln_grep_02'],
		// Some 2.x builds name the call in `callID` and give the item an `id` of its own (session/message-backfill.ts).
		['read', 'call_kiln_cal_04'],
		['shell', 'call_kiln_test_03'],
		['shell', 'shl_kiln_status01'],
	]);
	assert.deepEqual(calls[0]?.tool?.input, {path: 'src/schedule.ts'});
	assert.deepEqual(results.get('call_kiln_read_01')?.result, {call_id: 'call_kiln_read_01', is_error: false, output: '12: if (day.getDay() < 6) queue(batch)'});
	assert.equal(results.get('call_kiln_grep_02')?.result?.is_error, true);
	assert.match(results.get('call_kiln_grep_02')?.result?.output ?? '', /ripgrep exited with code 2/);
	assert.equal(results.get('call_kiln_grep_02')?.interrupted, undefined, 'a failed tool is not an interruption');
	assert.equal(results.get('call_kiln_test_03')?.interrupted, true, 'a tool the user aborted');
	assert.match(results.get('call_kiln_test_03')?.result?.output ?? '', /PASS oven\/heat\.test\.ts\nTool execution aborted/);
	assert.deepEqual(results.get('shl_kiln_status01')?.result, {call_id: 'shl_kiln_status01', is_error: false, exit_code: 0, output: ' M src/schedule.ts'});

	// packages/core/src/session/message-backfill.ts maps 1.x's MessageAbortedError to a step error of type "aborted".
	assert.deepEqual(shown(session).filter(event => event.interrupted && event.kind === 'system').map(event => event.text), ['The operation was aborted.', 'The turn was interrupted.'], 'the step the person stopped, and the idle marker saying so');
	assert.ok(!shown(session).some(event => event.error !== undefined && /abort/i.test(event.error)), 'a stop is not a failure');
	assert.ok(shown(session).some(event => event.kind === 'summary' && /Sunday gap/.test(event.text ?? '')), 'the compaction summary');
	assert.ok(shown(session).some(event => event.kind === 'assistant' && /getDay\(\) is 0 on Sunday/.test(event.text ?? '')));
	assert.ok(!shown(session).some(event => /weekday check is probably/.test(event.text ?? '')), 'reasoning is not shown');
});

test('opencode 2.x: sessions kept in session_v2 (some 2.x builds) are listed and read', t => {
	// Third-party evidence only: ccusage/ccusage rust/adapters/opencode/src/loader.rs reads session_v2 where it exists.
	const session = readOne(buildDatabase(tempDir(t), 'fresh', 'session_v2'), freshId);
	assert.equal(session.summary.title, 'Why does the kiln scheduler skip Sunday batches?');
	assert.equal(session.summary.project, '/work/kiln');
});

test('opencode 2.x: an upgraded database reads old rows and new rows, each migrated message once', t => {
	const path = buildDatabase(tempDir(t), 'upgraded');
	const session = readOne(path, upgradedId);
	assert.deepEqual(shown(session).map(event => [event.kind, event.text]), [
		['user', 'Rename the glaze table to finishes.'],
		['assistant', 'Renamed glaze to finishes in db/schema.sql and every query.'],
		['user', 'Now rename the fixtures under test/ceramics too.'],
		['assistant', 'Renamed the stoneware fixtures to finishes as well.'],
	]);
	assert.equal(session.summary.human_turns, 2);
	assert.equal(session.loaded.skipped, 0);

	// Search snippets read rows back by their offset: a message row's rowid, a record's negated.
	const places = session.loaded.rows.map(row => ({line: row.line, offset: row.offset!}));
	assert.equal(places.filter(place => place.offset > 0).length, 2);
	assert.equal(places.filter(place => place.offset < 0).length, 2);
	const again = opencodeAdapter.rowsAt?.(session.unit, [places[1]!, places[3]!]);
	assert.deepEqual(again?.map(row => [row.line, row.events.filter(event => event.kind !== 'meta').map(event => event.text)]), [
		[2, ['Renamed glaze to finishes in db/schema.sql and every query.']],
		[4, ['Renamed the stoneware fixtures to finishes as well.']],
	]);
});

test('opencode 2.x: copies OpenCode\'s backfill wrote under ids of their own are counted once too', t => {
	// packages/core/src/session/message-backfill-service.ts: legacy messages copied as `evt_legacy_backfill_m_…` rows.
	const session = readOne(buildDatabase(tempDir(t), 'upgraded'), backfilledId);
	assert.deepEqual(shown(session).map(event => [event.kind, event.text]), [
		['user', 'Rotate kiln.log daily and keep a week.'],
		['assistant', 'Added a logrotate rule keeping seven days of kiln.log.'],
		['user', 'Compress the rotated logs too.'],
	]);
	assert.equal(session.summary.human_turns, 2);
});

test('opencode 2.x: a new session_message row changes only its session\'s fingerprint', t => {
	const path = buildDatabase(tempDir(t), 'upgraded');
	const other = 'ses_2f7a0f00dffeUn7Ch4Ng3dXy1Q';
	const setup = new Database(path);
	setup.prepare('INSERT INTO session VALUES (?, ?, NULL, ?, ?, ?, ?, ?, ?)').run(other, 'prj_glaze', 'quiet-otter', '/work/glaze', '', '2.0.14', 1785100000000, 1785100000000);
	setup.prepare('INSERT INTO session_message VALUES (?, ?, ?, ?, ?, ?, ?)').run('msg_d1b2000000aaOtherAsk00', other, 'user', 1, 1785100000500, 1785100000500, JSON.stringify({text: 'List the kiln presets.', time: {created: 1785100000500}}));
	setup.close();
	const fingerprintOf = (id: string) => opencodeAdapter.discover(path).find(unit => unit.idHint === id)?.fingerprint;
	const fingerprint = () => fingerprintOf(upgradedId);
	const before = fingerprint();
	const untouched = fingerprintOf(other);
	assert.ok(before);
	const db = new Database(path);
	db.prepare('INSERT INTO session_message VALUES (?, ?, ?, ?, ?, ?, ?)').run('msg_d1b200000005Later00000', upgradedId, 'user', 7, 1785100005000, 1785100005000, JSON.stringify({text: 'And the seed data.', time: {created: 1785100005000}}));
	db.close();
	const added = fingerprint();
	assert.notEqual(added, before, 'a row appended to session_message');

	// An assistant step is rewritten in place while it streams: only its time_updated moves.
	const rewrite = new Database(path);
	rewrite.prepare('UPDATE session_message SET time_updated = ?, data = ? WHERE id = ?').run(1785100009000, JSON.stringify({agent: 'build', model: {id: 'glaze-large-2', providerID: 'kilnworks'}, content: [{type: 'text', text: 'Renamed them, and the seed data.'}], time: {created: 1785100001000}}), 'msg_d1b200000004NewAnswer000');
	rewrite.close();
	assert.notEqual(fingerprint(), added, 'a row rewritten in place');
	assert.equal(fingerprintOf(other), untouched, 'the other session did not change');
});

test('opencode 2.x: sessions in session_message are listed, read and searched through the built CLI', t => {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	const root = join(base, 'opencode');
	buildDatabase(root, 'fresh');
	const upgraded = join(base, 'upgraded');
	buildDatabase(upgraded, 'upgraded');
	settle(root, fixtureMtime);
	settle(upgraded, fixtureMtime);
	const run = (dir: string, args: string[]) => {
		const result = runCli([...args, '--source', 'opencode', '--source-root', dir, '--format', 'json'], {env});
		assert.equal(result.code, 0, result.stderr);
		return result.json();
	};

	const listed = run(root, ['sessions', '--all-projects']).sessions as Array<{id: string; title: string; human_turns: number}>;
	assert.deepEqual(listed.map(one => [one.id, one.title, one.human_turns]), [[freshId, 'Why does the kiln scheduler skip Sunday batches?', 2]]);

	const records = run(root, ['read', freshId, '--view', 'context', '--limit', '100']).records as Array<{kind: string; text?: string; human?: boolean}>;
	assert.deepEqual(records.filter(record => record.kind === 'user' && record.human).map(record => record.text), ['Why does the kiln scheduler skip Sunday batches?', 'Fix it and run the oven tests.']);

	const found = run(root, ['sessions', '--all-projects', '--q', 'Saturday']).sessions as Array<{id: string}>;
	assert.deepEqual(found.map(one => one.id), [freshId], 'a word only an assistant row of session_message holds');

	const again = run(upgraded, ['sessions', '--all-projects', '--q', 'stoneware']).sessions as Array<{id: string; human_turns: number}>;
	assert.deepEqual(again.map(one => [one.id, one.human_turns]), [[upgradedId, 2]], 'a word only a row written after the upgrade holds; migrated rows counted once');
});
