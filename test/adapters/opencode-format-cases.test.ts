import assert from 'node:assert/strict';
import {cpSync, mkdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {fileURLToPath} from 'node:url';
import Database from 'better-sqlite3';
import {opencodeAdapter} from '../../source/adapters/opencode/index.js';
import {readStore, type ReadSession} from '../helpers/adapters.js';
import {tempDir} from '../helpers/temp.js';
import {computeTail} from '../../source/engine/continuity/tail.js';
import {runCli, sandboxEnv} from '../helpers/cli.js';

/**
 * OpenCode format features other readers meet in real stores (formats.md §3 and OpenCode's own
 * source), each with a small hand-written fixture under test/fixtures/format-cases/opencode/.
 */
const cases = fileURLToPath(new URL('../fixtures/format-cases/opencode', import.meta.url));

function sessionsOf(name: string): Map<string | null, ReadSession> {
	return new Map(readStore(opencodeAdapter, join(cases, name, 'storage')).map(session => [session.summary.id, session]));
}

test('opencode format: the placeholder titles OpenCode gives a session before it names one are no titles', () => {
	// session/session.ts createDefaultTitle: "New session - <ISO>" / "Child session - <ISO>" until a title is generated.
	const sessions = sessionsOf('placeholder-titles');
	const shellOnly = sessions.get('ses_3c1a0b2d4ffeQm7Vx2Lp9Rt4Kd');
	assert.ok(shellOnly, 'the shell-only session is read');
	assert.equal(shellOnly.summary.human_turns, 0, 'the shell-mode turn is synthetic');
	assert.equal(shellOnly.summary.title, null, 'no human request and no real title: no title, not "New session - …"');

	const child = sessions.get('ses_3c19f8e07ffdNw5Hy8Jc3Ue6Tb');
	assert.ok(child, 'the child session is read');
	assert.equal(child.summary.parent_id, 'ses_3c1a0b2d4ffeQm7Vx2Lp9Rt4Kd');
	assert.equal(child.summary.title, 'List every SVG under sketches/ with its viewBox.', "an untitled child is named by its task, not by OpenCode's placeholder");
});

test('opencode format: the placeholder title of 0.1.x ("New Session - <time>", capital S) is no title either', () => {
	// session/index.ts of 0.1.x, create(): `title: "New Session - " + new Date().toISOString()`.
	const session = readStore(opencodeAdapter, join(cases, 'first-message-format')).find(read => read.summary.id === 'ses_7e41b9f3effeUv1Wx2Yz3Ab4Cd');
	assert.ok(session, 'the untitled session is read');
	assert.equal(session.summary.human_turns, 0, 'its one reply failed before any request was kept');
	assert.equal(session.summary.title, null, 'no request and no real title: no title, not "New Session - …"');
});

test('opencode format: a subtask the user cancelled ends its task call as interrupted', () => {
	// session/prompt.ts handleSubtask: interrupting a running subtask stores `status:"error", error:"Cancelled"`.
	const session = sessionsOf('subtask-cancelled').get('ses_3b2e1d0c9ffeKp4Rt7Wx1Za3Cd');
	assert.ok(session, 'the session is read');
	const result = session.events.find(event => event.kind === 'tool_result');
	assert.equal(result?.result?.call_id, '01JNR2M8Q4V6X9Z1B3D5F7H9K2');
	assert.equal(result?.result?.is_error, true);
	assert.equal(result?.interrupted, true, 'a user cancel is an interruption, not a tool failure');
});

test('opencode format: a command the person ran that OpenCode hands to a subagent (a user message holding only a subtask part naming the command) is their request', () => {
	// session/prompt.ts `command`: a command bound to a subagent stores its expanded template as a
	// subtask part `{prompt, description, agent, command}` in place of text parts; ensureTitle counts
	// that message as the person's first. A subtask part sent without a command (a plugin, the SDK) is not.
	const sessions = sessionsOf('subtask-command');
	const ran = sessions.get('ses_3a9f0e1d2ffeHb6Nc3Vd8Wq1Lp');
	assert.ok(ran, 'the session is read');
	const asked = 'List every dependency in package.json that has no release in the last two years, and say what replaces it.';
	assert.equal(ran.summary.human_turns, 1, 'the command is a human turn');
	assert.equal(ran.summary.title, asked, 'the command titles a session OpenCode left with its placeholder');
	assert.deepEqual(
		ran.events.filter(event => event.kind === 'user').map(event => [event.line, event.human, event.text]),
		[[1, true, asked]],
	);
	assert.ok(ran.events.some(event => event.kind === 'system' && event.text === 'Subtask for @scout: Audit stale dependencies'), 'the subagent it went to is still noted');

	const sent = sessions.get('ses_3a9f0d7c4ffdJt2Ks5Ym8Zr4Qx');
	assert.ok(sent, 'the plugin\'s session is read');
	assert.equal(sent.summary.human_turns, 0, 'a subtask no command wrote is no request of the person\'s');
	assert.equal(sent.summary.title, null);
});

test('opencode format: a subagent command\'s subtask part read from the database is the person\'s request too', t => {
	const sessions = new Map(readStore(opencodeAdapter, buildDatabase(tempDir(t), 'subtask-command/v1.json')).map(session => [session.summary.id, session]));
	const session = sessions.get('ses_3a9f0e1d2ffeHb6Nc3Vd8Wq1Lp');
	assert.equal(session?.summary.human_turns, 1);
	assert.equal(session?.summary.title, 'List every dependency in package.json that has no release in the last two years, and say what replaces it.');
	// Hostile input: a command or prompt that is no string names no command.
	const odd = sessions.get('ses_3a9f0c2b8ffcWe4Rt5Yu6Io7Pa');
	assert.ok(odd, 'a subtask part with fields of other types is read');
	assert.equal(odd.summary.human_turns, 0);
});

test('opencode format: a subagent command OpenCode sends again after an overflow compaction is the host\'s copy, not a second request', t => {
	// session/compaction.ts replays every part of the last request but its compaction part, a subtask part among them.
	const [session] = readStore(opencodeAdapter, buildDatabase(tempDir(t), 'subtask-command/replay.json'));
	assert.ok(session, 'the session is read');
	assert.equal(session.summary.human_turns, 1);
	assert.deepEqual(session.events.filter(event => event.kind === 'user').map(event => [event.line, event.human, event.origin]), [[1, true, undefined], [5, false, 'host']], 'the replayed command is the host\'s');
});

test('opencode format: a 2.x prompt\'s task request naming a command (taskRequests) is the person\'s request; one without a command is not', t => {
	// session/message-backfill.ts mapTaskRequestPart: 1.x subtask parts become `taskRequests` of a user record whose text is empty.
	const [session] = readStore(opencodeAdapter, buildDatabase(tempDir(t), 'subtask-command/v2.json'));
	assert.ok(session, 'the session is read');
	assert.equal(session.summary.human_turns, 1);
	assert.equal(session.summary.title, 'Find every TODO left in src/quarry and group them by module.');
	assert.deepEqual(session.events.filter(event => event.kind === 'system').map(event => event.text), ['Subtask for @scout: Collect the TODOs', 'Subtask for @scout: Nightly summary', 'Subtask for @scout:']);
});

test('opencode format: sessions of the per-project tree older versions wrote are read from the data directory', () => {
	// storage/storage.ts MIGRATIONS[0]: `project/<dir>/storage/session/info/<ses>.json`, `…/session/message/<ses>/<msg>.json`,
	// `…/session/part/<ses>/<msg>/<prt>.json`. The migration skips the `global` project and vanished worktrees, so they stay there.
	const root = join(cases, 'project-layout');
	assert.deepEqual(opencodeAdapter.resolveRoot(root), [root], 'a data directory holding only the per-project tree is a data directory');
	const sessions = readStore(opencodeAdapter, root);
	assert.deepEqual(sessions.map(session => session.summary.id), ['ses_5d0c2b7a1ffeRt2Yu4Io6Pa8Sd']);
	const [session] = sessions;
	assert.equal(session!.summary.title, 'Remove the unused --legacy flag from the orchard CLI.');
	assert.equal(session!.summary.project, '/work/orchard', "the assistant's path.cwd");
	assert.deepEqual(
		session!.events.filter(event => event.kind !== 'meta').map(event => [event.line, event.kind, event.tool?.call_id ?? event.result?.call_id ?? event.text]),
		[
			[1, 'user', 'Remove the unused --legacy flag from the orchard CLI.'],
			[2, 'tool_call', 'toolu_01Qx7Ws3Ed5Rf7Tg9Yh1Uj3Ik'],
			[2, 'tool_result', 'toolu_01Qx7Ws3Ed5Rf7Tg9Yh1Uj3Ik'],
			[2, 'assistant', 'The flag is only parsed in src/cli.ts:41; I removed it there.'],
		],
	);
	assert.equal(session!.unit.paths.length, 6, 'the session, message and part files are all the unit\'s');
});

test('opencode format: a shared session\'s share record beside its info file (session/share/<ses>.json) is no second session', () => {
	// session/index.ts of the per-project tree: `share()` writes `{secret, url}` to `session/share/<id>`, a sibling of
	// `session/info/<id>`; `session/` there holds no project directories. Read as a store root, the tree lists its session once.
	const storage = join(cases, 'project-layout', 'project', '-work-orchard', 'storage');
	assert.deepEqual(opencodeAdapter.resolveRoot(storage), [storage]);
	const sessions = readStore(opencodeAdapter, storage);
	assert.deepEqual(sessions.map(session => [session.summary.id, session.summary.title]), [['ses_5d0c2b7a1ffeRt2Yu4Io6Pa8Sd', 'Remove the unused --legacy flag from the orchard CLI.']]);
});

test('opencode format: messages of the first format (0.1.x: parts inline, facts under metadata) left in a per-project tree are read', () => {
	// session/message.ts before message-v2.ts: `{id, role, parts[], metadata{time, sessionID, tool{<call id>: {title, time, …}},
	// assistant{modelID, path, …}, error}}`. The storage migration skipped trees whose messages state no `path.root`.
	const session = readStore(opencodeAdapter, join(cases, 'first-message-format')).find(read => read.summary.id === 'ses_7e41c0a2dffeGh5Jk6Lm7Np8Qr');
	assert.ok(session, 'the session is read');
	assert.equal(session.summary.human_turns, 1);
	assert.equal(session.summary.project, '/work/kiln', 'the working directory under metadata.assistant.path');
	assert.equal(session.summary.started, '2025-06-17T09:00:00.000Z');
	assert.deepEqual(
		session.events.filter(event => event.kind !== 'meta').map(event => [event.line, event.kind, event.tool?.name ?? event.result?.call_id ?? event.text, event.result?.is_error ?? event.pending ?? event.interrupted ?? null]),
		[
			[1, 'user', 'The kiln temperature test fails on Celsius input; fix the conversion.\n[image: image/png]', null],
			[2, 'tool_call', 'read', null],
			[2, 'tool_result', 'toolu_01KilnRead4', false],
			[2, 'tool_call', 'bash', null],
			[2, 'tool_result', 'toolu_01KilnTest5', true],
			[2, 'tool_call', 'glob', null],
			[2, 'tool_result', 'toolu_01KilnGlob7', true],
			[2, 'assistant', 'The offset is 273.15, not 237.15; the test fails until that is fixed.', null],
			[2, 'tool_call', 'edit', true],
			[2, 'system', 'The operation was aborted.', true],
		],
	);
	assert.equal(session.events.find(event => event.result?.call_id === 'toolu_01KilnTest5')?.result?.exit_code, 1, 'the exit code the tool reported beside the call');
});

test('opencode format: messages of the first format that the move into opencode.db copied as they were are read from the database', t => {
	// storage/json-migration.ts copies each message file into `message.data` unchanged (its time_created the move's, lacking `time`).
	const [session] = readStore(opencodeAdapter, buildDatabase(tempDir(t), 'first-message-format/copied.json'));
	assert.equal(session?.summary.human_turns, 1);
	assert.equal(session.summary.project, '/work/kiln');
	assert.deepEqual(said(session), ['The kiln temperature test fails on Celsius input; fix the conversion.', 'The offset is 273.15, not 237.15.']);
});

test('opencode format: a 2.x shell record that states no status (callID, output text, time.completed) ended when it has a completion time', t => {
	// packages/core/src/session/message.ts Shell: `{callID, command, output, time{created, completed?}}`, no status field.
	const [session] = readStore(opencodeAdapter, buildDatabase(tempDir(t), 'shell-record/v2.json'));
	assert.ok(session, 'the session is read');
	const calls = session.events.filter(event => event.kind === 'tool_call').map(event => [event.tool?.call_id, event.pending ?? false]);
	assert.deepEqual(calls, [['call_furnace_make_01', false], ['call_furnace_read_03', false], ['call_furnace_tail_02', true]], 'the finished command is no pending call; the one still running is');
	assert.deepEqual(session.events.find(event => event.kind === 'tool_result')?.result, {call_id: 'call_furnace_make_01', is_error: false, output: 'all 14 checks passed'});
});

test('opencode format: the files a 2.x tool call returned beside its content (state.attachments) are noted by their type, the data: URI never copied', t => {
	// packages/core/src/session/message.ts ToolStateCompleted: `attachments` of `{uri, mime, name}` apart from `content`.
	const [session] = readStore(opencodeAdapter, buildDatabase(tempDir(t), 'shell-record/v2.json'));
	const output = session?.events.find(event => event.result?.call_id === 'call_furnace_read_03')?.result?.output;
	assert.equal(output, 'Image read successfully\n[image: image/png]');
});

test('opencode format: a call OpenCode could not run (unknown tool, arguments that do not parse) is stored as the "invalid" tool, a completed part whose result is a failure', () => {
	// tool/invalid.ts and session/llm.ts (experimental_repairToolCall): the call becomes tool "invalid",
	// input {tool, error}, and completes with "The arguments provided to the tool are invalid: …".
	// agentsview internal/parser/opencode_test.go TestParseOpenCodeDB_InvalidToolCall reads it as errored.
	const session = sessionsOf('invalid-tool').get('ses_3a7f2c1b8ffeGh5Jk6Lm7No8Pq');
	assert.ok(session, 'the session is read');
	assert.deepEqual(
		session.events.filter(event => event.kind === 'tool_result').map(event => [event.result?.call_id, event.result?.is_error]),
		[
			['call_q7Rt2Yw9Lp4Kd6Mx', true],
			['call_z3Nb8Vc1Xq5Ws7Ea', false],
		],
	);
	const rejected = session.events.find(event => event.kind === 'tool_call' && event.tool?.call_id === 'call_q7Rt2Yw9Lp4Kd6Mx');
	assert.equal(rejected?.tool?.name, 'invalid', 'the call keeps the name OpenCode stored');
});

type ForkRows = {
	session: Array<Record<string, unknown>>;
	message?: Array<{id: string; session_id: string; time: number; data: object; parts: Array<{id: string; data: object}>}>;
	session_message?: Array<{id: string; session_id: string; type: string; seq: number; time: number; data: object}>;
	session_inbox?: Array<{id: string; session_id: string; type: string; payload: object; delivery: string; enqueued_seq: number; time: number}>;
};

/** Builds `opencode.db` from a fixture's rows: the session table with the columns its rows have, and the message tables they fill. */
function buildDatabase(directory: string, fixture: string): string {
	const rows = JSON.parse(readFileSync(join(cases, fixture), 'utf8')) as ForkRows;
	const path = join(directory, 'opencode.db');
	const db = new Database(path);
	const columns = Object.keys(rows.session[0]!);
	db.exec(`CREATE TABLE session (${columns.map(column => (column === 'id' ? 'id TEXT PRIMARY KEY' : column)).join(', ')})`);
	for (const session of rows.session) {
		db.prepare(`INSERT INTO session VALUES (${columns.map(column => `@${column}`).join(', ')})`).run(session);
	}

	if (rows.message) {
		db.exec(`CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);
			CREATE INDEX message_session_time_created_id_idx ON message (session_id, time_created, id);
			CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);`);
		for (const message of rows.message) {
			db.prepare('INSERT INTO message VALUES (?, ?, ?, ?, ?)').run(message.id, message.session_id, message.time, message.time, JSON.stringify(message.data));
			for (const part of message.parts) {
				db.prepare('INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)').run(part.id, message.id, message.session_id, message.time, message.time, JSON.stringify(part.data));
			}
		}
	}

	if (rows.session_message) {
		db.exec('CREATE TABLE session_message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, type TEXT NOT NULL, seq INTEGER NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL)');
		for (const row of rows.session_message) {
			db.prepare('INSERT INTO session_message VALUES (?, ?, ?, ?, ?, ?, ?)').run(row.id, row.session_id, row.type, row.seq, row.time, row.time, JSON.stringify(row.data));
		}
	}

	if (rows.session_inbox) {
		db.exec('CREATE TABLE session_inbox (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, type TEXT NOT NULL, payload TEXT NOT NULL, delivery TEXT NOT NULL, enqueued_seq INTEGER NOT NULL, time_created INTEGER NOT NULL)');
		for (const row of rows.session_inbox) {
			db.prepare('INSERT INTO session_inbox VALUES (?, ?, ?, ?, ?, ?, ?)').run(row.id, row.session_id, row.type, JSON.stringify(row.payload), row.delivery, row.enqueued_seq, row.time);
		}
	}

	db.close();
	return path;
}

const said = (session: ReadSession) => session.events.filter(event => event.kind === 'user' || event.kind === 'assistant').map(event => event.text);

test('opencode format: a 1.x fork opens with a copy of its source\'s messages, read in the source; the fork names it as its parent', t => {
	// session/session.ts `fork`: a new session without a parent; the source's messages copied under new ids, keeping time.created.
	const sessions = new Map(readStore(opencodeAdapter, buildDatabase(tempDir(t), 'forked-session/v1.json')).map(session => [session.summary.id, session]));
	const source = sessions.get('ses_2e90aa11cffeHx3Tn6Bv8Lq2Wd');
	const fork = sessions.get('ses_2e8ff0d2bffeMp4Qs7Ut1Vw3Xy');
	const sibling = sessions.get('ses_2e8ff5e3cffeRa6Sb8Tc0Ud2Ve');
	assert.ok(source && fork && sibling, 'the source and both forks are read');
	assert.equal(source.summary.human_turns, 1);
	assert.equal(source.summary.parent_id, null);

	assert.equal(fork.summary.parent_id, 'ses_2e90aa11cffeHx3Tn6Bv8Lq2Wd', 'the session its copy came from, not the other fork holding the same copy');
	assert.equal(fork.summary.title, 'Try an LRU keyed by tenant instead of the global list.', "the fork's own request, not the source's");
	assert.equal(fork.summary.human_turns, 1, 'the copied request is the source\'s');
	assert.deepEqual(said(fork), ['Try an LRU keyed by tenant instead of the global list.']);
	const notice = fork.events.find(event => event.kind === 'system');
	assert.match(notice?.text ?? '', /History copied from session ses_2e90aa11cffeHx3Tn6Bv8Lq2Wd/);
	assert.equal(fork.loaded.rows.length, 3, 'the copied rows are still there to read');
	assert.equal(fork.summary.started, '2025-12-29T09:25:00.000Z', 'the fork started when it was made, not when the source did');

	assert.equal(sibling.summary.parent_id, 'ses_2e90aa11cffeHx3Tn6Bv8Lq2Wd');
	assert.deepEqual(said(sibling), ['Make the 64 MiB cap configurable through LEDGER_CACHE_BYTES.', 'The cap is read from LEDGER_CACHE_BYTES in src/config.ts, defaulting to 64 MiB.']);

	const untouched = sessions.get('ses_2e8fd0a5effeHv5Iw7Jx9Ky1Lz');
	assert.equal(untouched?.summary.parent_id, 'ses_2e90aa11cffeHx3Tn6Bv8Lq2Wd', 'a fork not continued yet is all copy; its "(fork #N)" title says so');
	assert.equal(untouched?.summary.human_turns, 0);

	// storage/json-migration.ts dates a session that states no creation time at the move: older messages alone make no fork.
	const moved = sessions.get('ses_2e8fe1b4dffeCq7Dr9Es1Ft3Gu');
	assert.equal(moved?.summary.parent_id, null);
	assert.equal(moved?.summary.title, 'Port the ledger CLI from getopts to clap.');
	assert.equal(moved?.summary.human_turns, 1);
});

test('opencode format: a 2.x fork names its source in fork_session_id and opens with copies of its records', t => {
	// packages/core/src/session/projector.ts projectFork: parent_id null, fork_session_id and fork_boundary set; the
	// source's records up to the boundary copied with their seq, time_created and data under ids `<fork event>_<seq>`.
	const sessions = new Map(readStore(opencodeAdapter, buildDatabase(tempDir(t), 'forked-session/v2.json')).map(session => [session.summary.id, session]));
	const fork = sessions.get('ses_2d3f1e20bffeZa2Ab4Bc6Cd8De');
	assert.ok(fork, 'the fork is read');
	assert.equal(fork.unit.parentIdHint, 'ses_2d40b7c1affeKc5Vd7Wf9Xg1Yh', 'listing names the source without reading the session');
	assert.equal(fork.summary.parent_id, 'ses_2d40b7c1affeKc5Vd7Wf9Xg1Yh');
	assert.equal(fork.summary.title, 'Instead, default a null region to "unassigned" before the join.');
	assert.equal(fork.summary.human_turns, 1, 'a fork is no Task child: its own prompt is a person\'s');
	assert.deepEqual(said(fork), ['Instead, default a null region to "unassigned" before the join.']);
	assert.match(fork.events.find(event => event.kind === 'system')?.text ?? '', /History copied from session ses_2d40b7c1affeKc5Vd7Wf9Xg1Yh/);
});

test('opencode format: the request OpenCode sends again after an overflow compaction is the host\'s copy, not a second request', t => {
	// session/compaction.ts: with `overflow`, the last request before the compaction is replayed after the summary
	// as a new user message holding copies of its parts (a media file becomes "[Attached <mime>: <name>]").
	const [session] = readStore(opencodeAdapter, buildDatabase(tempDir(t), 'compaction-replay/v1.json'));
	assert.ok(session, 'the session is read');
	const asked = 'Summarise every CSV under data/raw into one parquet file per month.';
	assert.deepEqual(
		session.events.filter(event => event.kind === 'user' && event.text?.split('\n')[0] === asked).map(event => [event.line, event.human, event.origin]),
		[
			[1, true, undefined],
			[5, false, 'host'],
			[7, true, undefined],
		],
		'the replay is the host\'s; the person asking again later is the person',
	);
	assert.equal(session.summary.human_turns, 2);
	assert.equal(session.events.find(event => event.line === 1 && event.kind === 'user')?.text, `${asked}\n[image: image/png]`, 'the request\'s pasted image is noted on it, its data never copied');
});

test('opencode format: a fork in the legacy JSON tree opens with older copies too; its source is not named there', () => {
	// session/index.ts (0.x) `fork`: a new session with the default title, the source's messages copied under new ids with their times.
	const fork = sessionsOf('forked-session').get('ses_2f0fd3b1cffeZf9Ag1Bh3Ci5Dj');
	assert.ok(fork, 'the fork is read');
	assert.equal(fork.summary.parent_id, null, 'the tree does not say which session it came from');
	assert.equal(fork.summary.title, 'Skip the GPU tile tests on CI with an environment flag instead.');
	assert.equal(fork.summary.human_turns, 1);
	assert.match(fork.events.find(event => event.kind === 'system')?.text ?? '', /^History copied from the session this one was forked from/);
});

test('opencode format: a 2.x prompt still waiting in the session inbox is the person\'s latest request', t => {
	// packages/core/src/session/inbox.ts: a prompt sent while the session is busy waits in session_inbox until delivered
	// into session_message (the row is then deleted); a session stopped first keeps it waiting there.
	const path = buildDatabase(tempDir(t), 'waiting-prompt/v2.json');
	const [session] = readStore(opencodeAdapter, path);
	assert.ok(session, 'the session is read');
	assert.deepEqual(said(session), ['Rename the export job to nightly-export.', 'Renamed it in jobs/export.ts and the job registry.', 'Also update the cron entry in deploy/cron.yaml.']);
	const waiting = session.events.find(event => event.text === 'Also update the cron entry in deploy/cron.yaml.');
	assert.equal(waiting?.human, true);
	assert.equal(waiting?.line, 3);
	assert.equal(session.summary.human_turns, 2, 'the host reminder waiting beside it is no request');

	// Delivering it deletes the row: the listing's stamp moves, so the session is read again.
	const before = opencodeAdapter.discover(path)[0]!.fingerprint;
	const db = new Database(path);
	db.prepare("DELETE FROM session_inbox WHERE type = 'user'").run();
	db.close();
	assert.notEqual(opencodeAdapter.discover(path)[0]!.fingerprint, before);
});

test('opencode format: the feedback typed when rejecting a permission, kept only in the tool\'s error, is a request', () => {
	// anomalyco/opencode packages/opencode/src/permission/next.ts: a reject with a message becomes CorrectedError "The user
	// rejected permission to use this specific tool call with the following feedback: <message>" (the agent goes on with
	// it), one without a message RejectedError; session/processor.ts stores the error as `error.toString()`.
	const session = sessionsOf('rejected-with-feedback').get('ses_3b8e1d2c9ffeKq4Wm7Tn2Rb5Yc');
	assert.ok(session, 'the session is read');
	assert.deepEqual(
		session.events.filter(event => event.kind === 'user').map(event => [event.human, event.text]),
		[
			[true, 'Tidy the firing log: drop the duplicate cone-6 entries.'],
			[true, 'keep firing-old.csv, only edit firing.csv'],
		],
	);
	assert.equal(session.summary.human_turns, 2);
	assert.equal(session.summary.title, 'Tidy the firing log: drop the duplicate cone-6 entries.');
});

test('opencode format: a shell call aborted mid-run has no exit status, though the output it printed so far names one', () => {
	// tool/bash.ts keeps the exit status in metadata.exit, never in the output text; an aborted call has none.
	const session = sessionsOf('aborted-shell').get('ses_3a7f2c1d8ffeNm3Kp5Rt7Vx9Zb');
	assert.ok(session, 'the session is read');
	const result = session.events.find(event => event.kind === 'tool_result');
	assert.equal(result?.result?.call_id, 'call_kiln_loop_1');
	assert.equal(result?.interrupted, true);
	assert.equal(result?.result?.exit_code, undefined, '"run 2: exit code 1" is the command\'s own output');
	assert.match(result?.result?.output ?? '', /run 2: exit code 1/, 'the partial output stays as evidence');
});

test('opencode format: a shell command the bash tool killed at its timeout failed, and one the person aborted was interrupted, though both parts say completed', () => {
	// tool/bash.ts returns normally from a killed command: status "completed", metadata.exit null (the
	// process has no exit code), and its own note after the output: "(Command timed out after N ms)" /
	// "(Command was aborted)" in early 1.x, later a <bash_metadata> (now <shell_metadata>) block saying
	// "… terminated command after exceeding timeout N ms" or "User aborted the command".
	const session = sessionsOf('shell-timeout').get('ses_4b8e3d2c9eefPq4Ls6Tu8Wy0Ac');
	assert.ok(session, 'the session is read');
	assert.deepEqual(
		session.events.filter(event => event.kind === 'tool_result').map(event => [event.result?.call_id, event.result?.is_error, event.interrupted === true]),
		[
			['call_orchard_seed', true, false],
			['call_orchard_serve', true, true],
			['call_orchard_migrate', true, false],
			['call_orchard_grep', false, false],
		],
		'a note only counts at the end of a result with no exit status; one the command printed is its output',
	);
	assert.match(session.events.find(event => event.result?.call_id === 'call_orchard_seed')?.result?.output ?? '', /seeding pears/, 'what it printed stays as evidence');
});

test('opencode format: a session whose row has time_archived is archived; clearing it (unarchiving) moves the stamp, so it is read again', t => {
	// session/index.ts setArchived sets time_archived (some 1.x builds without touching time_updated)
	// and clears it to unarchive; OpenCode's own list leaves archived sessions out.
	const path = buildDatabase(tempDir(t), 'archived/v1.json');
	const units = opencodeAdapter.discover(path);
	assert.deepEqual(
		units.map(unit => [unit.idHint, unit.archived === true]),
		[
			['ses_2b41b2e1fffeGc1Hd3Ie5Jf7Kg', false],
			['ses_2b41c7d0effeAr4Cv6Dx8Ez0Fb', true],
		],
	);
	const archived = units.find(unit => unit.archived)!;
	const db = new Database(path);
	db.prepare('UPDATE session SET time_archived = NULL WHERE id = ?').run(archived.idHint);
	db.close();
	const after = opencodeAdapter.discover(path).find(unit => unit.idHint === archived.idHint)!;
	assert.equal(after.archived, undefined, 'unarchived');
	assert.notEqual(after.fingerprint, archived.fingerprint, 'its time_updated unchanged, the stamp still moves');
	const kept = units.find(unit => !unit.archived)!;
	assert.equal(opencodeAdapter.discover(path).find(unit => unit.idHint === kept.idHint)!.fingerprint, kept.fingerprint, 'a session never archived keeps its stamp');
});

test('opencode format: a legacy session file with time.archived is archived', () => {
	// session/index.ts (JSON storage) Info.time.archived.
	const [session] = readStore(opencodeAdapter, join(cases, 'archived', 'storage'));
	assert.equal(session?.summary.id, 'ses_2a90d4e3cffeWk2Xl4Ym6Zn8Ao');
	assert.equal(session?.unit.archived, true);
});

test('opencode format: an image pasted without a word is the person\'s request, noted by its type and never copied', t => {
	// A pasted image is a user `file` part whose url is a `data:` URL (session/prompt.ts); it alone makes the prompt.
	const [session] = readStore(opencodeAdapter, buildDatabase(tempDir(t), 'image-only-prompt/v1.json'));
	assert.ok(session, 'the session is read');
	assert.deepEqual(
		session.events.filter(event => event.kind === 'user').map(event => [event.text, event.human]),
		[['[image: image/jpeg]', true]],
	);
	assert.equal(session.summary.human_turns, 1);
	assert.doesNotMatch(JSON.stringify(session.events), /9j\/4AAQ|base64/, 'the data URL never reaches an event');
});

test('opencode format: the native resume of a session kept in another database runs with OPENCODE_DB naming it, one of a JSON tree in another data directory with XDG_DATA_HOME above it; a tree in no opencode directory has none', t => {
	// `opencode --session <id>` opens the session in the one database OpenCode uses: $OPENCODE_DB
	// (absolute, or relative to the data directory), else opencode.db in $XDG_DATA_HOME/opencode;
	// a JSON storage/ tree is read into it only from that data directory. Evidence:
	// anomalyco/opencode packages/opencode/src/storage/db.ts (Database.Path, getChannelPath),
	// src/global/index.ts (Global.Path.data = xdgData/opencode), src/storage/json-migration.ts
	// (storageDir = Global.Path.data/storage).
	const env = sandboxEnv(tempDir(t));
	const id = 'ses_2b41c7d0effeAr4Cv6Dx8Ez0Fb';
	const backup = join(env['HOME']!, 'opencode backups', 'march');
	mkdirSync(backup, {recursive: true});
	const database = buildDatabase(backup, 'archived/v1.json');
	const native = (sessionId: string, args: string[], extra: Record<string, string> = {}) => {
		const result = runCli(['resume', sessionId, '--source', 'opencode', ...args, '--format', 'json'], {env: {...env, ...extra}});
		assert.equal(result.code, 0, result.stderr);
		return result.json();
	};

	assert.equal(native(id, ['--source-root', database]).native_resume_command, `OPENCODE_DB='${database}' opencode --session ${id}`);
	assert.equal(native(id, ['--source-root', backup]).native_resume_command, `OPENCODE_DB='${database}' opencode --session ${id}`, 'the data directory named: the database in it');
	assert.equal(native(id, ['--source-root', backup], {OPENCODE_DB: database}).native_resume_command, `opencode --session ${id}`, 'OPENCODE_DB already names it');

	// The database plain opencode opens: no variable; a channel's database beside it is named.
	const data = join(env['XDG_DATA_HOME']!, 'opencode');
	mkdirSync(data, {recursive: true});
	buildDatabase(data, 'archived/v1.json');
	assert.equal(native(id, []).native_resume_command, `opencode --session ${id}`);
	const context = {home: env['HOME']!, env: {XDG_DATA_HOME: env['XDG_DATA_HOME']!}, platform: 'linux' as const};
	assert.equal(opencodeAdapter.nativeResumeCommand(id, {parentId: null, root: data, path: join(data, 'opencode-dev.db'), context}), `OPENCODE_DB=${join(data, 'opencode-dev.db')} opencode --session ${id}`);

	// A JSON tree: in another data directory named opencode, XDG_DATA_HOME above it; in the plain one, nothing; elsewhere, no command.
	const shell = 'ses_3a7f2c1d8ffeNm3Kp5Rt7Vx9Zb';
	const otherData = join(env['HOME']!, 'old data', 'opencode');
	cpSync(join(cases, 'aborted-shell', 'storage'), join(otherData, 'storage'), {recursive: true});
	assert.equal(native(shell, ['--source-root', otherData]).native_resume_command, `XDG_DATA_HOME='${join(env['HOME']!, 'old data')}' opencode --session ${shell}`);
	cpSync(join(cases, 'aborted-shell', 'storage'), join(data, 'storage'), {recursive: true});
	assert.equal(native(shell, []).native_resume_command, `opencode --session ${shell}`);
	const loose = join(env['HOME']!, 'loose tree');
	cpSync(join(cases, 'aborted-shell', 'storage'), join(loose, 'storage'), {recursive: true});
	const brief = native(shell, ['--source-root', loose]);
	assert.equal(brief.native_resume_command, null);
	assert.ok(brief.warnings.some((warning: string) => /XDG_DATA_HOME/.test(warning)), JSON.stringify(brief.warnings));
});

test('opencode format: a 2.x tool result\'s file content (an image read, a snapshot) is noted by its type beside its text, the data: URI never copied', t => {
	// packages/schema/src/tool.ts Content: {type: "text", text} | {type: "file", uri, mime, name?}; the read tool returns
	// "Image read successfully" and the image as a data: URI (tool/plugin/read.ts toModelContent).
	const [session] = readStore(opencodeAdapter, buildDatabase(tempDir(t), 'tool-file-content/v2.json'));
	assert.ok(session, 'the session is read');
	assert.deepEqual(
		session.events.filter(event => event.kind === 'tool_result').map(event => [event.result?.call_id, event.result?.is_error, event.result?.output]),
		[
			['call_kiln_read1', false, 'Image read successfully\n[image: image/png]'],
			['call_kiln_snap2', false, '[image: image/png]'],
			['call_kiln_snap3', true, 'last frame before the drop:\n[image: image/png]\ncamera offline'],
		],
	);
	assert.doesNotMatch(JSON.stringify(session.events), /iVBORw0KGgo|base64/, 'no data URI reaches an event');
});

test('opencode format: a 1.x tool result\'s attachments (state.attachments, file parts: an image or a PDF the read tool returned) are noted by their type after its text, the data: URL never copied', t => {
	// OpenCode's ToolStateCompleted: `attachments: FilePart.array().optional()`, beside the output text sent to the model.
	const [session] = readStore(opencodeAdapter, buildDatabase(tempDir(t), 'tool-attachments/v1.json'));
	assert.ok(session, 'the session is read');
	assert.deepEqual(
		session.events.filter(event => event.kind === 'tool_result').map(event => [event.result?.call_id, event.result?.is_error, event.result?.output]),
		[
			['call_loom_read1', false, 'Image read successfully\n[image: image/png]'],
			['call_loom_spec2', false, '[file: application/pdf]\n[file]'],
		],
	);
	assert.doesNotMatch(JSON.stringify(session.events), /iVBORw0KGgo|JVBERi0|base64/, 'no data URL reaches an event');
});

test('opencode format: a session row naming the session itself as parent_id names no parent, so it is listed and its prompt is a person\'s', t => {
	const [session] = readStore(opencodeAdapter, buildDatabase(tempDir(t), 'self-parent/v1.json'));
	assert.ok(session, 'the session is read');
	assert.equal(session.unit.parentIdHint, undefined, 'listing names no parent');
	assert.equal(session.summary.parent_id, null, 'a session is never its own parent');
	assert.equal(session.summary.human_turns, 1, 'no Task child: its prompt is the person\'s');
});

test('opencode format: 1.x session rows OpenCode 2.x has already copied (kv migration.v1-v2 cursor, or phase completed) are leftovers; one deleted in 2.x stays deleted', async t => {
	// OpenCode 2.x copies 1.x sessions into session_v2 newest id first, keeps its progress in
	// kv['migration.v1-v2'] ({phase:"sessions",cursor} then {phase:"completed"}), leaves the 1.x
	// rows behind and deletes only from session_v2 afterwards.
	const rows = JSON.parse(readFileSync(join(cases, 'migration-state', 'v2.json'), 'utf8')) as Record<'session' | 'session_v2', Array<Record<string, unknown>>>;
	const path = join(tempDir(t), 'opencode.db');
	const db = new Database(path);
	for (const table of ['session', 'session_v2'] as const) {
		const columns = Object.keys(rows[table][0]!);
		db.exec(`CREATE TABLE ${table} (${columns.map(column => (column === 'id' ? 'id TEXT PRIMARY KEY' : column)).join(', ')})`);
		for (const row of rows[table]) {
			db.prepare(`INSERT INTO ${table} VALUES (${columns.map(column => `@${column}`).join(', ')})`).run(row);
		}
	}

	db.close();
	// A connection is kept for one synchronous run: each step lists from a fresh one.
	const listed = async () => {
		await new Promise(resolve => setImmediate(resolve));
		return opencodeAdapter.discover(path).map(unit => unit.idHint).sort();
	};
	const [fresh, copied, deleted, pending] = ['ses_2c10a0b1cffeNw1Fr2Es3Hp4Sq', 'ses_2b93e4f5affeCp5Yd6Ze7Af8Bg', 'ses_2b72c1d2effeDl9Gk8Hj7Ki6Lm', 'ses_2b51a9b8cffeQz3Rx4Sw5Tv6Uu'];
	assert.deepEqual(await listed(), [pending, deleted, copied, fresh].sort(), 'no kv table: the copy has not begun, every 1.x row is live');
	const setState = (state: string) => {
		const writer = new Database(path);
		writer.exec('CREATE TABLE IF NOT EXISTS kv (key TEXT PRIMARY KEY, value TEXT NOT NULL, time_created INTEGER, time_updated INTEGER)');
		writer.prepare('INSERT OR REPLACE INTO kv VALUES (?, ?, 1, 1)').run('migration.v1-v2', state);
		writer.close();
	};

	setState(JSON.stringify({phase: 'sessions', cursor: deleted}));
	assert.deepEqual(await listed(), [pending, copied, fresh].sort(), 'at or above the cursor the 1.x rows were copied: one missing from session_v2 was deleted');
	setState(JSON.stringify({phase: 'completed'}));
	assert.deepEqual(await listed(), [copied, fresh].sort(), 'after the copy only session_v2 counts');
	setState('{not json');
	assert.deepEqual(await listed(), [pending, deleted, copied, fresh].sort(), 'a state that does not read is a copy not begun');
});

test('opencode format: a permission the person rejected without a word, or a question they dismissed, ends the turn there: an interruption, not only a failed call', () => {
	// anomalyco/opencode session/processor.ts: a tool error that is Permission.RejectedError ("The user rejected permission to
	// use this specific tool call.", older builds storing `error.toString()`) or Question.RejectedError ("The user dismissed
	// this question") sets `blocked`, and the loop stops unless continue_loop_on_deny is set; the part says only `error`.
	const sessions = sessionsOf('rejection-ends-turn');
	for (const [id, callId] of [
		['ses_3a9d4c1b7ffeMw2Hq8Ts5Xe3Lb', 'call_tension_reset_1'],
		['ses_3a9d4b0a6ffdRc7Jn1Vk4Pz6Gu', 'call_heddle_question_1'],
	] as const) {
		const session = sessions.get(id);
		assert.ok(session, `${id} is read`);
		const result = session.events.find(event => event.kind === 'tool_result');
		assert.equal(result?.result?.call_id, callId);
		assert.equal(result?.result?.is_error, true, 'the call did not run');
		assert.equal(result?.interrupted, true, 'the person stopped the turn there');
		assert.ok(computeTail(session.events, false).interruption, `${id}: the turn ends interrupted`);
		assert.deepEqual(session.events.filter(event => event.kind === 'user').map(event => event.human), [true], 'no feedback: no second request');
	}
});

test('opencode format: a tool a failed request cut off ("Tool execution aborted" beside the message\'s APIError) failed; the person did not interrupt it', () => {
	// anomalyco/opencode session/processor.ts: when a step's stream ends for any reason (an abort, a
	// provider error, a context overflow) every tool part not yet completed or failed is set to
	// `error: "Tool execution aborted"`; the message's own `error` says why (MessageV2.fromError:
	// MessageAbortedError only for an abort, APIError and the like for a failed request). Newer builds
	// add `metadata.interrupted: true` to each such part (the cleanup runs after any ending).
	const session = sessionsOf('tool-cut-by-failure').get('ses_3b1e5a7c2ffdHk4Wq9Zr2Tn6Lp');
	assert.ok(session, 'the session is read');
	assert.deepEqual(
		session.events.filter(event => event.kind === 'tool_result').map(event => [event.result?.call_id, event.result?.is_error, event.interrupted === true]),
		[
			['call_loom_cards_1', true, false],
			['call_loom_cards_2', true, false],
		],
		'the request failed; nobody stopped the calls',
	);
	const stop = computeTail(session.events, false).interruption;
	assert.match(stop?.detail ?? '', /APIError: Overloaded/, 'the turn ends at the failed request');
});
