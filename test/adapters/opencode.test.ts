import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {appendFileSync, copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import type {SessionEvent} from '../../source/adapters/events.js';
import {opencodeAdapter} from '../../source/adapters/opencode/index.js';
import {SessionCorruptError, type DiscoveredUnit, wholeUnit} from '../../source/adapters/types.js';
import {openDatabase} from '../../source/lib/sqlite.js';
import {fixtureStores, looseUnit, readStore, readUnit, sharedFixtures, type ReadSession} from '../helpers/adapters.js';
import {tempDir} from '../helpers/temp.js';

const store = join(fixtureStores, 'opencode');
const database = join(store, 'opencode.db');
const storage = join(store, 'storage');

const ids = {
	parent: 'ses_4f8e2a1c0ffeA7kQ2mZ8pXw4Nd',
	child: 'ses_4f8e29d7bffdC3rT9vLq1Hs6Ye',
	shared: 'ses_4f8e3b60aff9Wd2Lk8Pq5Tn1Zc',
	notes: 'ses_4f9a77c10ff3Hb6Jm4Rs9Xe2Ku',
	notesChild: 'ses_4f9a77a2cff2Gy8Vn3Qd7Lc5Pw',
};

const byId = (root = store) => new Map(readStore(opencodeAdapter, root).map(session => [session.summary.id, session]));

function session(id: string, root = store): ReadSession {
	const found = byId(root).get(id);
	assert.ok(found, `session ${id} is read`);
	return found;
}

const context = (env: Record<string, string>, home: string | undefined) => ({env, home, platform: 'linux' as const});

test('opencode: default roots honour XDG_DATA_HOME and OPENCODE_DB; resolveRoot accepts each form', t => {
	assert.deepEqual(opencodeAdapter.defaultRoots(context({}, '/home/ada')), ['/home/ada/.local/share/opencode']);
	assert.deepEqual(opencodeAdapter.defaultRoots({...context({}, '/Users/ada'), platform: 'darwin'}), ['/Users/ada/.local/share/opencode']);
	assert.deepEqual(opencodeAdapter.defaultRoots(context({XDG_DATA_HOME: '/data'}, '/home/ada')), ['/data/opencode']);
	assert.deepEqual(opencodeAdapter.defaultRoots(context({}, undefined)), []);
	assert.deepEqual(opencodeAdapter.defaultRoots(context({OPENCODE_DB: '/srv/oc/main.db'}, undefined)), ['/srv/oc/main.db']);
	assert.deepEqual(opencodeAdapter.defaultRoots(context({OPENCODE_DB: 'dev.db'}, '/home/ada')), ['/home/ada/.local/share/opencode/dev.db']);

	assert.deepEqual(opencodeAdapter.resolveRoot(store), [store], 'the data directory: database and storage together, so they deduplicate');
	assert.deepEqual(opencodeAdapter.resolveRoot(storage), [storage]);
	assert.deepEqual(opencodeAdapter.resolveRoot(database), [database]);
	const share = tempDir(t);
	mkdirSync(join(share, 'opencode', 'storage', 'session'), {recursive: true});
	assert.deepEqual(opencodeAdapter.resolveRoot(share), [join(share, 'opencode')], '~/.local/share resolves to its opencode directory');
	assert.equal(opencodeAdapter.nativeResumeCommand(ids.parent), `opencode --session ${ids.parent}`);
});

test('opencode: discovery lists database sessions and storage-only sessions, one unit per session id', () => {
	const units = opencodeAdapter.discover(store).map(wholeUnit);
	assert.deepEqual(
		units.map(unit => [unit.idHint, unit.variant]),
		[
			[ids.child, 'db'],
			[ids.parent, 'db'],
			[ids.shared, 'db'],
			[ids.notesChild, 'storage'],
			[ids.notes, 'storage'],
		],
		'the storage copy of the shared session is dropped in favour of the database row',
	);
	const child = units.find(unit => unit.idHint === ids.child)!;
	assert.equal(child.key, `${database}#${ids.child}`);
	assert.equal(child.parentIdHint, ids.parent);
	assert.equal(child.projectHint, '/work/garden');
	assert.deepEqual(child.paths, [database]);
	const notes = units.find(unit => unit.idHint === ids.notes)!;
	assert.equal(notes.key, join(storage, 'session', 'global', `${ids.notes}.json`));
	assert.equal(notes.projectHint, '/work/notes');
	assert.equal(notes.paths.length, 16, 'session file, 4 message files, 9 part files, session_diff and todo sidecars');
	assert.ok(notes.paths.includes(join(storage, 'todo', `${ids.notes}.json`)));
	assert.equal(units.find(unit => unit.idHint === ids.notesChild)!.parentIdHint, ids.notes);

	const storageOnly = opencodeAdapter.discover(storage).map(wholeUnit);
	assert.deepEqual(storageOnly.map(unit => unit.idHint).sort(), [ids.shared, ids.notesChild, ids.notes].sort(), 'the storage tree alone still lists its copy');
	assert.deepEqual(
		opencodeAdapter.discover(database).map(unit => unit.idHint),
		[ids.child, ids.parent, ids.shared],
	);
	assert.deepEqual(opencodeAdapter.discover(join(store, 'no-such-dir')), []);
});

test('opencode: summaries carry ids, parents, projects, titles and counts', () => {
	const sessions = byId();
	const parent = sessions.get(ids.parent)!;
	assert.equal(parent.summary.parent_id, null);
	assert.equal(parent.summary.project, '/work/garden');
	assert.equal(parent.summary.title, 'The scheduler test fails about one run in five. Find out why and fix it. [image: image/png]', 'a pasted image is noted after the words');
	assert.equal(parent.summary.human_turns, 2, 'synthetic parts, the compaction and the "continue" turn are not human');
	assert.equal(parent.summary.assistant_messages, 3, 'parts of one message count once; the compaction summary is not a reply');
	assert.equal(parent.summary.tool_calls, 4);
	assert.equal(parent.summary.started, '2026-11-20T09:00:00.000Z');
	assert.equal(parent.summary.modified, '2026-11-20T09:03:24.000Z');
	assert.equal(parent.loaded.rows.length, 9, 'one row per message');
	assert.deepEqual(parent.loaded.rows.map(row => row.line), [1, 2, 3, 4, 5, 6, 7, 8, 9]);
	const raw = parent.loaded.rows[0]!.raw as {message: {id: string; sessionID: string}; parts: Array<{id: string; messageID: string; sessionID: string}>};
	assert.equal(raw.message.sessionID, ids.parent, 'ids the data column lacks are put back from the columns');
	assert.equal(raw.parts.length, 3);
	assert.equal(raw.parts[0]!.messageID, raw.message.id);

	const child = sessions.get(ids.child)!;
	assert.equal(child.summary.parent_id, ids.parent);
	assert.equal(child.summary.human_turns, 0, "a Task child's prompt was written by the parent agent");
	assert.equal(child.summary.title, 'Inspect clock usage (@explore subagent)', 'no human request: the title OpenCode recorded');
	assert.equal(child.summary.tool_calls, 2);

	const notes = sessions.get(ids.notes)!;
	assert.equal(notes.summary.project, '/work/notes');
	assert.equal(notes.summary.title, 'Summarise the open TODOs in notes/*.md');
	assert.equal(notes.summary.human_turns, 2, 'the ignored part is not a request');
	assert.equal(notes.summary.started, '2026-11-21T14:00:00.000Z');
	assert.equal(sessions.get(ids.notesChild)!.summary.parent_id, ids.notes);
	assert.equal(sessions.get(ids.notesChild)!.summary.human_turns, 0);
	const meta = notes.events.find(event => event.kind === 'meta');
	assert.deepEqual(meta?.session, {id: ids.notes, cwd: '/work/notes', title: 'Open TODOs in notes', started: '2026-11-21T14:00:00.000Z', model: 'gpt-5.1-codex'});
});

const calls = (events: SessionEvent[]) => events.filter(event => event.kind === 'tool_call').map(event => [event.line, event.tool?.name, event.tool?.call_id, event.pending ?? false]);
const results = (events: SessionEvent[]) => events.filter(event => event.kind === 'tool_result').map(event => [event.line, event.result?.call_id, event.result?.is_error, event.result?.exit_code]);

test('opencode: tool calls, exit codes, failures, pending calls, aborts and API errors', () => {
	const {events} = session(ids.parent);
	assert.deepEqual(calls(events), [
		[2, 'bash', 'toolu_01Sched0Bash1Run', false],
		[2, 'read', 'toolu_01Sched0Read2Clk', false],
		[3, 'task', 'toolu_01Sched0Task3Exp', false],
		[9, 'bash', 'toolu_01Sched0Bash4Tsc', true],
	]);
	assert.deepEqual(results(events), [
		[2, 'toolu_01Sched0Bash1Run', true, 1],
		[2, 'toolu_01Sched0Read2Clk', true, undefined],
		[3, 'toolu_01Sched0Task3Exp', false, undefined],
	]);
	assert.deepEqual(events.find(event => event.tool?.call_id === 'toolu_01Sched0Bash1Run')?.tool?.input, {command: 'npm test -- test/scheduler.test.ts', description: 'Run the scheduler test'});
	assert.equal(events.find(event => event.result?.call_id === 'toolu_01Sched0Read2Clk')?.result?.output, 'Error: File not found: /work/garden/src/clock.ts');
	assert.match(events.find(event => event.result?.call_id === 'toolu_01Sched0Bash1Run')?.result?.output ?? '', /not ok 3 - fires the job/);

	const stops = events.filter(event => event.interrupted || event.error);
	assert.deepEqual(
		stops.map(event => [event.line, event.kind, event.interrupted ?? false, event.error]),
		[
			[7, 'system', false, 'APIError: Overloaded'],
			[9, 'system', true, undefined],
		],
		'a retry that is followed by the final error is not itself an error',
	);
	const kinds = (line: number) => events.filter(event => event.line === line).map(event => event.kind);
	assert.deepEqual(kinds(4), ['system'], 'a user compaction part is a system note, not a request');
	assert.deepEqual(kinds(5), ['summary'], 'the assistant summary:true message is a summary');
	assert.deepEqual(
		events.filter(event => event.kind === 'user').map(event => [event.line, event.human]),
		[
			[1, true],
			[1, false],
			[6, false],
			[8, true],
		],
	);
	const everything = JSON.stringify(events);
	assert.doesNotMatch(everything, /iVBORw0KGgo|base64/, 'a data: URL never reaches event text');
	assert.equal(events.find(event => event.line === 1 && event.human)?.text, 'The scheduler test fails about one run in five. Find out why and fix it.\n[image: image/png]', 'a pasted image is noted on its request');
	assert.ok(!events.some(event => event.text?.startsWith('Attached file')), 'no separate line for it');
	assert.doesNotMatch(everything, /timing dependency/, 'reasoning is never shown');
	assert.equal(events.filter(event => event.kind === 'meta').length, 1, 'session facts are stated once');
	assert.equal(events.filter(event => event.message_id === events.find(event => event.line === 2 && event.kind === 'assistant')?.message_id).length, 5);
});

test('opencode: storage sessions read the same way, and bad files are skipped, counted and named without content', () => {
	const notes = session(ids.notes);
	assert.deepEqual(calls(notes.events), [[2, 'bash', 'call_Notes0Grep1Todo', false]]);
	assert.deepEqual(results(notes.events), [[2, 'call_Notes0Grep1Todo', false, 0]]);
	assert.equal(notes.loaded.rows.length, 3, 'the torn message file is not a row');
	assert.equal(notes.loaded.skipped, 3, 'a torn message file, a torn part file and a part of an unknown type');
	const warnings = notes.loaded.warnings.join('\n');
	assert.match(warnings, /msg_1a1fe690d60004Rt5Yu8Io3Pa6Sd\.json: skipped, not valid JSON/);
	assert.match(warnings, /prt_1a1fe684240009Fg2Hj5Kl8Zx1Cv\.json: skipped, not valid JSON/);
	assert.match(warnings, /prt_1a1fe68462800aFg2Hj5Kl8Zx1Cv\.json: skipped a part of an unknown type/);
	assert.doesNotMatch(warnings, /There are thr|assis|sparkle/, 'warnings never echo content');
	const last = notes.events.at(-1)!;
	assert.deepEqual([last.kind, last.human, last.text], ['user', true, 'Now sort them by due date.'], 'the unanswered request is the last event');

	const child = session(ids.notesChild);
	const aborted = child.events.find(event => event.kind === 'tool_result')!;
	assert.deepEqual([aborted.result?.is_error, aborted.interrupted], [true, true], 'a tool cut off by an abort failed and was interrupted');
	assert.equal(aborted.result?.output, '1\t# House\n2\t\nTool execution aborted');
	assert.deepEqual(
		child.events.filter(event => event.interrupted).map(event => event.kind),
		['tool_result', 'system'],
	);

	const shared = session(ids.shared);
	assert.equal(shared.unit.variant, 'db');
	assert.equal(shared.loaded.skipped, 2, 'one torn message row and one part of an unknown type');
	assert.deepEqual(shared.loaded.rows.map(row => row.line), [1, 2], 'ordinals stay those of the database rows');
	assert.match(shared.loaded.warnings.join('\n'), new RegExp(`opencode\\.db#${ids.shared}:3: message skipped`));
	assert.doesNotMatch(shared.loaded.warnings.join('\n'), /hologram|spin|"role"/);
	assert.equal(shared.summary.title, 'Rename plantBed to gardenBed across the codebase.');
});

test('opencode: the committed database is exactly what make-db.mjs builds', t => {
	const directory = tempDir(t);
	const fresh = join(directory, 'opencode.db');
	execFileSync(process.execPath, [join(store, 'make-db.mjs'), fresh]);
	const strip = (sessions: ReadSession[]) => sessions.map(read => ({id: read.unit.idHint, fingerprint: read.unit.fingerprint, events: read.events, skipped: read.loaded.skipped}));
	assert.deepEqual(strip(readStore(opencodeAdapter, fresh)), strip(readStore(opencodeAdapter, database)));
});

/** Inserts a message (and optionally parts) the way OpenCode does: ids in columns, not in data. */
function insertMessage(db: ReturnType<typeof openDatabase>, sessionId: string, messageId: string, ms: number, data: object, parts: Array<[string, object]> = []): void {
	db.prepare('INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)').run(messageId, sessionId, ms, ms, JSON.stringify(data));
	for (const [partId, part] of parts) {
		db.prepare('INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)').run(partId, messageId, sessionId, ms, ms, JSON.stringify(part));
	}
}

test('opencode: reads a live WAL database; fingerprints change only for the session that changed', t => {
	const directory = tempDir(t);
	const copy = join(directory, 'opencode.db');
	copyFileSync(database, copy);
	const writer = openDatabase(copy);
	t.after(() => writer.close());
	// Discovery goes through a memo as the catalog lends one: it must be reused only while the
	// database files are untouched, so every assertion below also proves it never goes stale.
	const saved = new Map<string, {stamp: string; value: string}>();
	let hits = 0;
	const memo = {
		get(key: string, stamp: string) {
			const entry = saved.get(key);
			if (entry?.stamp !== stamp) {
				return undefined;
			}

			hits++;
			return JSON.parse(entry.value) as unknown;
		},
		set(key: string, stamp: string, value: unknown) {
			saved.set(key, {stamp, value: JSON.stringify(value)});
		},
	};
	const fingerprints = () => new Map(opencodeAdapter.discover(directory, memo).map(wholeUnit).map(unit => [unit.idHint, unit.fingerprint]));
	const before = fingerprints();
	assert.equal(before.size, 3);
	// The first open may create the write-ahead log (a change of files); after that, nothing changes.
	assert.deepEqual(fingerprints(), before);
	assert.deepEqual(fingerprints(), before);
	assert.ok(hits >= 1, 'an untouched database is listed from the memo');
	assert.deepEqual(opencodeAdapter.discover(directory, memo).map(wholeUnit), opencodeAdapter.discover(directory).map(wholeUnit), 'the memo gives exactly what a fresh listing does');
	// A warm call reads the memo back whole: it keeps each session's own facts, not whole units
	// repeating the database's path three times (700 KB to parse at 1,500 sessions).
	const kept = [...saved.values()][0]!.value;
	assert.equal(kept.includes(copy), false, 'the database\'s path is not repeated per session');
	assert.equal(kept.length < 3 * 160, true, `${kept.length} characters for three sessions`);

	const ms = Date.parse('2026-11-20T10:05:00.000Z');
	insertMessage(writer, ids.shared, 'msg_1a1f8700000001Lk8Pq5Tn1ZcWd2', ms, {role: 'user', time: {created: ms}, agent: 'build'}, [
		['prt_1a1f8700000002Zx4Cv7Bn2Mq9Wk', {type: 'text', text: 'Also update the README.'}],
	]);
	assert.ok(existsSync(`${copy}-wal`), 'the writer keeps a live WAL');
	const grown = fingerprints();
	assert.notEqual(grown.get(ids.shared), before.get(ids.shared), 'a new message changes the session fingerprint');
	assert.equal(grown.get(ids.parent), before.get(ids.parent), 'other sessions keep theirs');
	assert.equal(grown.get(ids.child), before.get(ids.child));
	const unit = opencodeAdapter.discover(directory).map(wholeUnit).find(found => found.idHint === ids.shared)!;
	assert.equal(readUnit(opencodeAdapter, unit).events.at(-1)?.text, 'Also update the README.', 'committed WAL content is read');

	// A write transaction in progress: readers see the last committed state and are never blocked.
	writer.exec('BEGIN IMMEDIATE');
	insertMessage(writer, ids.shared, 'msg_1a1f8800000001Lk8Pq5Tn1ZcWd2', ms + 60_000, {role: 'user', time: {created: ms + 60_000}, agent: 'build'}, [
		['prt_1a1f8800000002Zx4Cv7Bn2Mq9Wk', {type: 'text', text: 'Uncommitted request.'}],
	]);
	assert.equal(fingerprints().get(ids.shared), grown.get(ids.shared));
	assert.doesNotMatch(JSON.stringify(readUnit(opencodeAdapter, unit).events), /Uncommitted request/);
	writer.exec('ROLLBACK');

	// OpenCode rewrites a tool part in place when it finishes: no new rows, yet the session changed.
	const running = writer.prepare("SELECT id, data FROM part WHERE session_id = ? AND data LIKE '%\"running\"%'").get(ids.parent) as {id: string; data: string};
	const completed = JSON.parse(running.data) as {state: Record<string, unknown>};
	completed.state = {...completed.state, status: 'completed', output: '', title: 'npx tsc --noEmit', metadata: {exit: 0}, time: {start: ms, end: ms + 1000}};
	writer.prepare('UPDATE part SET data = ?, time_updated = ? WHERE id = ?').run(JSON.stringify(completed), ms + 1000, running.id);
	const rewritten = fingerprints();
	assert.notEqual(rewritten.get(ids.parent), grown.get(ids.parent));
	assert.equal(rewritten.get(ids.child), grown.get(ids.child));
});

test('opencode: older databases with fewer columns and a renamed session table still read', t => {
	const directory = tempDir(t);
	const path = join(directory, 'opencode.db');
	const db = openDatabase(path);
	db.exec(`CREATE TABLE sessions (id TEXT PRIMARY KEY, directory TEXT, title TEXT);
		CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT, data TEXT);
		CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT, data TEXT);`);
	db.prepare('INSERT INTO sessions VALUES (?, ?, ?)').run('ses_old1', '/work/old', 'Old session');
	db.prepare('INSERT INTO message VALUES (?, ?, ?)').run('msg_002', 'ses_old1', JSON.stringify({role: 'assistant', time: {created: Date.parse('2026-11-02T08:00:05Z')}, error: {name: 'ProviderAuthError', data: {providerID: 'openai', message: 'Invalid API key'}}}));
	db.prepare('INSERT INTO message VALUES (?, ?, ?)').run('msg_001', 'ses_old1', JSON.stringify({role: 'user', time: {created: Date.parse('2026-11-02T08:00:00Z')}}));
	db.prepare('INSERT INTO part VALUES (?, ?, ?)').run('prt_001', 'msg_001', JSON.stringify({type: 'text', text: 'Upgrade the lockfile.'}));
	db.close();

	const [unit, ...rest] = opencodeAdapter.discover(path).map(wholeUnit);
	assert.equal(rest.length, 0);
	assert.equal(unit?.idHint, 'ses_old1');
	assert.equal(unit?.projectHint, '/work/old');
	const read = readUnit(opencodeAdapter, unit!);
	assert.deepEqual(
		read.events.map(event => [event.line, event.kind, event.text ?? event.session?.title, event.error]),
		[
			[1, 'meta', 'Old session', undefined],
			[1, 'user', 'Upgrade the lockfile.', undefined],
			[2, 'system', 'ProviderAuthError: Invalid API key', 'ProviderAuthError: Invalid API key'],
		],
		'messages without time columns are ordered by id',
	);
});

test('opencode: unreadable sessions fail with SessionCorruptError naming the file, never its content', t => {
	const directory = tempDir(t);
	cpSync(storage, join(directory, 'storage'), {recursive: true});
	const sessionFile = join(directory, 'storage', 'session', 'global', `${ids.notes}.json`);
	const before = opencodeAdapter.discover(directory).map(wholeUnit).find(unit => unit.idHint === ids.notes)!;
	appendFileSync(join(directory, 'storage', 'part', 'msg_1a1fe683688003Rt5Yu8Io3Pa6Sd', 'prt_1a1fe68944800bFg2Hj5Kl8Zx1Cv.json'), '\n');
	const after = opencodeAdapter.discover(directory).map(wholeUnit).find(unit => unit.idHint === ids.notes)!;
	assert.notEqual(after.fingerprint, before.fingerprint, 'rewriting a part file changes the storage fingerprint');

	writeFileSync(sessionFile, '{"id":"ses_4f9a77c10ff3Hb6Jm4Rs9Xe2Ku","directory":"/work/se');
	const torn = opencodeAdapter.discover(directory).map(wholeUnit).find(unit => unit.key === sessionFile)!;
	assert.equal(torn.idHint, ids.notes, 'the id still comes from the file name');
	assert.throws(
		() => opencodeAdapter.loadSession(torn),
		(error: unknown) => error instanceof SessionCorruptError && error.path === sessionFile && !error.message.includes('/work/se'),
	);

	const notADatabase = join(directory, 'opencode.db');
	writeFileSync(notADatabase, 'this is not a database, just text in a file');
	const units = opencodeAdapter.discover(notADatabase).map(wholeUnit);
	assert.deepEqual(units.map(unit => [unit.key, unit.idHint]), [[notADatabase, undefined]], 'a damaged database is one unit, not silence');
	assert.throws(
		() => opencodeAdapter.loadSession(units[0] as DiscoveredUnit),
		(error: unknown) => error instanceof SessionCorruptError && !error.message.includes('just text'),
	);
});

test('opencode: conformance over the shared third-party storage trees', t => {
	const directory = sharedFixtures(t, 'opencode');
	if (!directory) {
		return;
	}

	const sessionFiles = ['storage_legacy', 'storage_v2'].flatMap(tree =>
		readdirSync(join(directory, tree, 'session'), {recursive: true, encoding: 'utf8'})
			.filter(name => name.endsWith('.json'))
			.map(name => join(directory, tree, 'session', name)),
	);
	assert.equal(sessionFiles.length, 3);
	const read = new Map<string, ReadSession>();
	for (const file of sessionFiles) {
		const loaded = readUnit(opencodeAdapter, looseUnit(file, {variant: 'storage'}));
		assert.ok(loaded.loaded.rows.length > 0, `${file} has rows`);
		assert.equal(loaded.loaded.skipped, 0, `${file} reads cleanly`);
		read.set(loaded.summary.id ?? file, loaded);
		for (const event of loaded.events.filter(event => event.kind === 'user' && event.human)) {
			assert.ok(!isInjected(event.text ?? ''), `${file}:${event.line} injected text is not human`);
		}
	}

	const small = read.get('s_stage0_small')!;
	assert.equal(small.summary.project, '/tmp/repo');
	assert.equal(small.summary.title, 'Hello');
	assert.deepEqual(results(small.events), [[2, 'call_1', false, 0]]);

	const large = read.get('s_stage0_large')!;
	assert.equal(large.summary.project, '/tmp/large');
	assert.equal(large.summary.parent_id, null);
	assert.deepEqual(results(large.events), [[2, 'call_large_1', true, 1]], 'exit 1 with status "completed" is a failure');
	assert.ok(large.events.some(event => event.line === 2 && event.interrupted), 'MessageAbortedError is an interruption');
	assert.equal(large.summary.human_turns, 2);

	// Early tree: parts flat in part/, message directory named without the ses_ prefix, status "success".
	const drift = read.get('s_stage0_drift')!;
	assert.equal(drift.summary.project, '/tmp/drift');
	assert.equal(drift.summary.title, 'OpenCode Drift');
	assert.deepEqual(results(drift.events), [[2, 'call_legacy_1', false, undefined]]);

	const discovered = opencodeAdapter.discover(join(directory, 'storage_v2')).map(wholeUnit);
	assert.deepEqual(discovered.map(unit => unit.idHint), ['s_stage0_large', 's_stage0_small'], 'ids come from the session files, not their names');
});

function isInjected(text: string): boolean {
	return /^(<environment_context>|<system-reminder>|Called the \w+ tool|Continue if you have next steps)/.test(text.trimStart());
}
