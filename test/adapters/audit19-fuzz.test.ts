// Fuzzing of the reading this stop added (fast-check, seeded, bounded in time): a Claude Desktop
// Cowork task's state file and the walk over its tree (files where directories belong, link
// loops, links out of the store, deep trees), Claude records from peers, other sessions and
// internal agent runs; Codex's later session_meta lines; Copilot's block and folded scalars;
// a Cursor chat's store.db meta row and meta.json, and its tool blocks; Gemini subagent chats
// beside one another and a chat reopened by a second header; Grok's update stream and its
// chat-history fallback; VS Code responses of any shape; and, through every read, the catalog's
// summary (whose user text makes a conversation). Nothing may throw; what is valid is still read;
// nothing costs more than a small multiple of its input; discovery never follows a link, nor an
// id out of its store (an OpenCode regression), and notes what it may not list (run as nobody).
import assert from 'node:assert/strict';
import {chmodSync, lstatSync, mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync} from 'node:fs';
import {dirname, join, relative, sep} from 'node:path';
import {spawnSync} from 'node:child_process';
import test from 'node:test';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import {claudeAdapter} from '../../source/adapters/claude/index.js';
import {grokAdapter} from '../../source/adapters/grok/index.js';
import {codexAdapter} from '../../source/adapters/codex/index.js';
import {workspaceCwd, workspaceName} from '../../source/adapters/copilot/discover.js';
import {cursorAdapter} from '../../source/adapters/cursor/index.js';
import {geminiAdapter} from '../../source/adapters/gemini/index.js';
import {adapters} from '../../source/adapters/index.js';
import {readChatFacts} from '../../source/adapters/cursor/store-db.js';
import type {SessionEvent} from '../../source/adapters/events.js';
import type {DocumentAdapter, LineState, ListedUnit} from '../../source/adapters/types.js';
import {wholeUnit} from '../../source/adapters/types.js';
import {looseUnit, readUnit} from '../helpers/adapters.js';
import {tempDir} from '../helpers/temp.js';

const seed = 20_261_219;

/** Values of every JSON type where one is expected, and the strings that break careless text handling. */
const weird: fc.Arbitrary<unknown> = fc.oneof(
	fc.constant(null),
	fc.integer(),
	fc.double({noNaN: true, noDefaultInfinity: true}),
	fc.constantFrom(1e20, -1, 0, 8.64e15 + 1, Number.MAX_SAFE_INTEGER),
	fc.boolean(),
	fc.string({maxLength: 12}),
	fc.constantFrom('', ' ', '\0', 'a\0b', '\ud800', 'x\udfffy', '__proto__', 'constructor', 'toString', 'New Agent', '/', 'relative/path', 'C:\\work'),
	fc.constant([]),
	fc.constant({}),
	fc.constant(JSON.parse('{"toString": 1, "valueOf": 1}') as unknown),
	fc.constant(JSON.parse('{"__proto__": {"x": 1}}') as unknown),
	fc.constant([['deep', [{text: 7}]]]),
	fc.constant({type: 'text', text: 'typed'}),
);

const orText = (texts: fc.Arbitrary<string>) => fc.oneof(texts, weird);

/** A line no reader can take as a record: torn, NUL, invalid UTF-8, nested past the bound, enormous, or no object. */
const brokenLine: fc.Arbitrary<Buffer> = fc.oneof(
	fc.constantFrom('{', '{"type": "user", "message": {"role": "user", "content": "torn', '\0\0\0', 'null', '[]', '7', '"text"', `${'['.repeat(5000)}${']'.repeat(5000)}`, `{"a": ${'{"a": '.repeat(400)}1${'}'.repeat(401)}`).map(text => Buffer.from(text)),
	fc.constant(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d])),
	fc.nat({max: 100_000}).map(length => Buffer.from(`{"type": "user", "message": {"content": "${'x'.repeat(length)}`)),
);

/** A JSONL file of lines given as text or bytes. */
function writeLines(path: string, lines: ReadonlyArray<string | Buffer>): void {
	mkdirSync(dirname(path), {recursive: true});
	writeFileSync(path, Buffer.concat(lines.flatMap(line => [typeof line === 'string' ? Buffer.from(line) : line, Buffer.from('\n')])));
}

/** The events of a unit read whole, each checked against the event model, with its catalog summary. */
function readEvents(adapter: Parameters<typeof readUnit>[0], unit: ListedUnit) {
	return readUnit(adapter, wholeUnit(unit));
}

const lastHuman = (events: readonly SessionEvent[]) => events.filter(event => event.kind === 'user' && event.human === true).at(-1)?.text;

function isJsonObject(line: Buffer): boolean {
	try {
		const value = JSON.parse(line.toString('utf8')) as unknown;
		return value !== null && typeof value === 'object' && !Array.isArray(value);
	} catch {
		return false;
	}
}

function lstatOrUndefined(path: string) {
	return lstatSync(path, {throwIfNoEntry: false});
}

/** True when no directory between `root` and `path` (nor the file itself) is a symbolic link. */
function linkFree(root: string, path: string): boolean {
	const parts = relative(root, path).split(sep);
	return parts.every((_, index) => !lstatSync(join(root, ...parts.slice(0, index + 1))).isSymbolicLink());
}

const coworkSession = '11111111-1111-4111-8111-111111111111';
const prompt = 'Please make the checkout test stable';

/** A Claude record as Claude Code writes it, with fields from a fuzzed source. */
const claudeBase = {parentUuid: null, sessionId: coworkSession, timestamp: '2026-11-01T10:00:00.000Z', cwd: '/sessions/brave-ada'};

/** Records of the kinds this stop reads anew: peers, other sessions, internal agent runs; with wrong types in every field. */
const claudeRecord: fc.Arbitrary<string> = fc
	.oneof(
		fc.record({
			type: fc.constant('user'),
			uuid: orText(fc.constantFrom('r1', 'r2')),
			origin: fc.oneof(weird, fc.record({kind: orText(fc.constantFrom('peer', 'task-notification', 'human')), from: weird, senderTaskId: weird})),
			isSidechain: weird,
			agentId: orText(fc.constantFrom('acompact-1f', 'aprompt_suggestion-2e', 'a9', '')),
			isMeta: weird,
			message: fc.record({role: orText(fc.constant('user')), content: orText(fc.constantFrom('<cross-session-message from="s" from-name="n">hi</cross-session-message>', '<teammate-message teammate_id="t">x</teammate-message>', '  <cross-session-message', 'Warmup'))}),
		}),
		fc.record({type: fc.constant('assistant'), uuid: weird, isSidechain: weird, agentId: weird, message: fc.record({role: fc.constant('assistant'), content: fc.oneof(weird, fc.array(fc.record({type: orText(fc.constantFrom('text', 'tool_use')), text: weird, name: weird, id: weird, input: weird}), {maxLength: 3}))})}),
		fc.record({type: orText(fc.constantFrom('cowork-state', 'queue-operation', 'x-unknown')), uuid: weird, content: weird}),
	)
	.map(record => JSON.stringify({...claudeBase, ...record}));

const validPrompt = JSON.stringify({...claudeBase, type: 'user', uuid: 'last-prompt', message: {role: 'user', content: prompt}});

/** A Cowork task's `local_<id>.json`: the app's own shape with wrong types, or text that is no such document. */
const coworkState: fc.Arbitrary<string | 'missing' | 'directory'> = fc.oneof(
	fc
		.record(
			{
				cliSessionId: orText(fc.constant(coworkSession)),
				userSelectedFolders: fc.oneof(weird, fc.array(orText(fc.constantFrom('/home/ada/shop', 'C:\\Users\\ada\\shop', 'shop', ' ', '')), {maxLength: 3})),
				title: orText(fc.constantFrom('Fix the checkout test', '  ', `${'t'.repeat(10_000)}`)),
			},
			{requiredKeys: []},
		)
		.map(value => JSON.stringify(value)),
	fc.constantFrom('', '{', '{"cliSessionId": "11111111-1111-4111-8111-111111111111", "title": "torn', '\0\0', '[]', 'null', `${'['.repeat(100_000)}`, `{"a": ${'['.repeat(300)}${']'.repeat(300)}, "cliSessionId": "${coworkSession}", "title": "deep"}`, 'missing', 'directory'),
);

/** Writes what a Cowork task's state file holds (or a directory where it belongs, or nothing). */
function writeState(path: string, state: string): void {
	rmSync(path, {recursive: true, force: true});
	if (state === 'directory') {
		mkdirSync(path);
	} else if (state !== 'missing') {
		writeFileSync(path, state);
	}
}

/** The folder and title a state file names, as desktop.ts reads them (the oracle). */
function expectedCowork(state: string): {cwd?: string; title?: string} {
	let value: unknown;
	try {
		value = JSON.parse(state);
	} catch {
		return {};
	}

	if (value === null || typeof value !== 'object' || Array.isArray(value) || state.length > 1_000_000) {
		return {};
	}

	const record = value as Record<string, unknown>;
	const folders = record['userSelectedFolders'];
	const folder = Array.isArray(folders) ? folders[0] : undefined;
	const title = record['title'];
	if (record['cliSessionId'] !== coworkSession || state.includes('deep')) {
		return {};
	}

	return {
		...(typeof folder === 'string' && /^(?:\/|[A-Za-z]:[\\/])/.test(folder) ? {cwd: folder} : {}),
		...(typeof title === 'string' && title.trim() !== '' ? {title: title.trim()} : {}),
	};
}

test('claude cowork: a state file holding anything and records with wrong types never throw; the prompt after them is still the human turn', t => {
	const directory = tempDir(t);
	const task = join(directory, 'local-agent-mode-sessions', 'acct', 'ws', 'local_a1');
	const transcript = join(task, '.claude', 'projects', '-sessions-brave-ada', `${coworkSession}.jsonl`);
	// A record whose text holds bytes that are no UTF-8 is still a record (they read as U+FFFD). It
	// has a uuid of its own: one under the prompt's uuid and time would be the prompt written twice,
	// read once (the first copy).
	const ownRecord = validPrompt.replace('"uuid":"last-prompt"', '"uuid":"mangled-prompt"');
	assert.notEqual(ownRecord, validPrompt);
	const mangled = Buffer.concat([Buffer.from(ownRecord.slice(0, -3)), Buffer.from([0xff, 0xc3, 0x28, 0xed, 0xa0, 0x80]), Buffer.from(ownRecord.slice(-3))]);
	const line = fc.oneof({arbitrary: claudeRecord.map(text => Buffer.from(text)), weight: 3}, {arbitrary: brokenLine, weight: 1}, {arbitrary: fc.constant(mangled), weight: 1});
	fc.assert(
		fc.property(coworkState, fc.array(line, {maxLength: 8}), (state, lines) => {
			writeLines(transcript, [...lines, validPrompt]);
			writeState(`${task}.json`, state);
			const {events, loaded, summary} = readEvents(claudeAdapter, looseUnit(transcript, {idHint: coworkSession}));
			assert.equal(lastHuman(events), prompt);
			assert.ok(summary.conversational);
			const expected = expectedCowork(state);
			// The state file's facts come as a meta event of their own, without the time and id a record's carry.
			const stated = events.find(event => event.kind === 'meta' && event.timestamp === undefined && event.session?.id === undefined)?.session;
			assert.equal(stated?.cwd, expected.cwd);
			assert.equal(stated?.title, expected.title);
			// Every line that is no JSON object is skipped and counted.
			assert.ok(loaded.skipped >= lines.filter(each => !isJsonObject(each)).length);
		}),
		{seed, numRuns: 80},
	);
});

test('claude internal agent runs: whatever their records say, nothing in them is a human turn or a tool call', t => {
	const directory = tempDir(t);
	const file = join(directory, 'projects', '-work-app', coworkSession, 'subagents', 'agent-acompact-9f2e.jsonl');
	fc.assert(
		fc.property(fc.array(claudeRecord, {maxLength: 8}), lines => {
			writeLines(file, [...lines, validPrompt]);
			const {events} = readEvents(claudeAdapter, looseUnit(file, {parentIdHint: coworkSession}));
			assert.ok(events.every(event => event.kind !== 'tool_call' && event.kind !== 'tool_result' && !(event.kind === 'user' && event.human === true)));
		}),
		{seed, numRuns: 50},
	);
});

/** One thing in a Cowork tree, at a place (account, workspace and an optional `agent` level under the root). */
type TreeThing = {kind: 'task' | 'task-file' | 'claude-file' | 'projects-file' | 'loop' | 'link-out' | 'claude-link' | 'projects-link' | 'deep' | 'in-uploads' | 'no-claude'; account: number; scheduled: boolean};

const treeThing: fc.Arbitrary<TreeThing> = fc.record({
	kind: fc.constantFrom('task', 'task-file', 'claude-file', 'projects-file', 'loop', 'link-out', 'claude-link', 'projects-link', 'deep', 'in-uploads', 'no-claude'),
	account: fc.nat({max: 2}),
	scheduled: fc.boolean(),
});

/** A task's transcript under its `projects` directory. */
function writeTask(task: string): string {
	const file = join(task, '.claude', 'projects', '-sessions-x', `${coworkSession}.jsonl`);
	writeLines(file, [validPrompt]);
	return file;
}

/** Builds one thing of a Cowork tree; the transcript discovery must find, if any. */
function buildThing(root: string, outside: string, thing: TreeThing, index: number): string | undefined {
	const workspace = join(root, `acct-${thing.account}`, 'ws', ...(thing.scheduled ? ['agent'] : []));
	const task = join(workspace, `local_${index}`);
	mkdirSync(workspace, {recursive: true});
	switch (thing.kind) {
		case 'task':
			return writeTask(task);
		case 'task-file':
			writeFileSync(task, 'not a directory');
			return undefined;
		case 'claude-file':
			mkdirSync(task);
			writeFileSync(join(task, '.claude'), '');
			return undefined;
		case 'projects-file':
			mkdirSync(join(task, '.claude'), {recursive: true});
			writeFileSync(join(task, '.claude', 'projects'), '');
			return undefined;
		case 'loop':
			// A link to the root and one to itself: a walk that follows links never ends.
			symlinkSync(root, join(workspace, `loop-${index}`));
			symlinkSync(join(workspace, `self-${index}`), join(workspace, `self-${index}`));
			return undefined;
		case 'link-out':
			symlinkSync(dirname(writeTask(join(outside, `local_${index}`))), task);
			return undefined;
		case 'claude-link':
			writeTask(join(outside, `c${index}`));
			mkdirSync(task);
			symlinkSync(join(outside, `c${index}`, '.claude'), join(task, '.claude'));
			return undefined;
		case 'projects-link':
			writeTask(join(outside, `p${index}`));
			mkdirSync(join(task, '.claude'), {recursive: true});
			symlinkSync(join(outside, `p${index}`, '.claude', 'projects'), join(task, '.claude', 'projects'));
			return undefined;
		case 'deep':
			// Deeper than any task Claude Desktop makes: not walked.
			writeTask(join(workspace, 'a', 'b', 'c', `local_${index}`));
			return undefined;
		case 'in-uploads':
			writeTask(join(workspace, 'uploads', `local_${index}`));
			return undefined;
		case 'no-claude':
			mkdirSync(join(task, 'outputs'), {recursive: true});
			return undefined;
	}
}

test('claude cowork discovery: odd trees end quickly, never follow a link out or round, and find each real task once', t => {
	const directory = tempDir(t);
	let run = 0;
	fc.assert(
		fc.property(fc.array(treeThing, {maxLength: 8}), things => {
			const base = join(directory, String(run++));
			const root = join(base, 'local-agent-mode-sessions');
			const outside = join(base, 'outside');
			mkdirSync(root, {recursive: true});
			mkdirSync(outside, {recursive: true});
			const expected = things.map((thing, index) => buildThing(root, outside, thing, index)).filter(path => path !== undefined);
			const started = performance.now();
			const found = claudeAdapter.discover(root).map(unit => unit.path);
			assert.ok(performance.now() - started < 500);
			assert.deepEqual([...found].sort(), [...expected].sort());
			for (const path of found) {
				assert.ok(realpathSync(path).startsWith(realpathSync(root) + sep), path);
				assert.ok(linkFree(root, path), path);
			}
		}),
		{seed, numRuns: 25},
	);
});

test('regression: a Cowork task whose .claude or projects is a link is not read through it (the same session was found twice)', t => {
	const directory = tempDir(t);
	const root = join(directory, 'local-agent-mode-sessions');
	const real = writeTask(join(root, 'acct', 'ws', 'local_real'));
	mkdirSync(join(root, 'acct', 'ws', 'local_linked'));
	symlinkSync(join(root, 'acct', 'ws', 'local_real', '.claude'), join(root, 'acct', 'ws', 'local_linked', '.claude'));
	mkdirSync(join(root, 'acct', 'ws', 'local_projects', '.claude'), {recursive: true});
	symlinkSync(join(root, 'acct', 'ws', 'local_real', '.claude', 'projects'), join(root, 'acct', 'ws', 'local_projects', '.claude', 'projects'));
	assert.deepEqual(claudeAdapter.discover(root).map(unit => unit.path), [real]);
});

/** A chat's meta row as Cursor writes it (hex of the JSON), as older stores did (the JSON), or damaged. */
const metaRow: fc.Arbitrary<string | Buffer | number | null> = fc.oneof(
	fc.tuple(fc.record({name: orText(fc.constantFrom('Fix the export', ' New Agent ', '  ')), createdAt: weird, agentId: weird}, {requiredKeys: []}), fc.boolean()).map(([meta, hex]) => {
		const json = JSON.stringify(meta);
		return hex ? Buffer.from(json).toString('hex') : json;
	}),
	fc.constantFrom('', 'zz', 'abc', '7b', '{', `{"name": "${'n'.repeat(100_000)}"}`, `${'['.repeat(3000)}`, Buffer.from('{"name": "in a blob"}').toString('hex').toUpperCase(), `  ${Buffer.from('{"name": "padded"}').toString('hex')}\n`),
	fc.constantFrom(Buffer.from([0xff, 0xfe, 0x00]), Buffer.from('{"name": "blob"}'), 7, null),
);

/** What meta.json beside the store holds, or a directory in its place. */
const chatMeta: fc.Arbitrary<string> = fc.oneof(
	fc.record({title: orText(fc.constantFrom('Renamed chat', 'New Agent', ' ')), cwd: orText(fc.constantFrom('/home/ada/shop', 'C:\\work\\shop', 'shop', ''))}, {requiredKeys: []}).map(value => JSON.stringify(value)),
	fc.constantFrom('', '{', '{"title": "torn', 'null', '[]', '\0', `${'{"a":'.repeat(400)}1${'}'.repeat(400)}`, 'directory', 'missing'),
);

/** The title and start time a meta row states, as store-db.ts reads them (the oracle). */
function expectedStoreFacts(row: unknown): {title?: string; started?: string} {
	const text = typeof row === 'string' ? row.trim() : Buffer.isBuffer(row) ? row.toString('utf8').trim() : '';
	let meta: unknown;
	try {
		meta = JSON.parse(/^(?:[0-9a-f]{2})+$/i.test(text) ? Buffer.from(text, 'hex').toString('utf8') : text.startsWith('{') ? text : '');
	} catch {
		return {};
	}

	if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) {
		return {};
	}

	const {name, createdAt} = meta as Record<string, unknown>;
	const title = typeof name === 'string' ? name.trim() : '';
	// A time no chat was made at (before 2001, or past the year 5000) states nothing; the name still stands.
	const started = typeof createdAt === 'number' && createdAt >= 1e9 && createdAt < 1e14 ? new Date(Math.round(createdAt < 1e11 ? createdAt * 1000 : createdAt)).toISOString() : undefined;
	return {...(title !== '' && title !== 'New Agent' ? {title} : {}), ...(started === undefined ? {} : {started})};
}

test('cursor chat facts: a meta row and meta.json holding anything never throw; a name is read whatever its time says', t => {
	const chat = tempDir(t);
	// One store, its row changed between reads (no WAL: a read opens the file as it stands).
	const db = new Database(join(chat, 'store.db'));
	t.after(() => db.close());
	db.exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value); INSERT INTO meta VALUES ('0', NULL)");
	const update = db.prepare("UPDATE meta SET value = ? WHERE key = '0'");
	fc.assert(
		fc.property(metaRow, chatMeta, (row, meta) => {
			update.run(row);
			writeState(join(chat, 'meta.json'), meta);
			const facts = readChatFacts(join(chat, 'store.db'));
			const expected = expectedStoreFacts(row);
			assert.equal(facts.started, expected.started);
			if (expected.title !== undefined) {
				assert.equal(facts.title, expected.title);
			}

			assert.ok(facts.cwd === undefined || /^(?:\/|[A-Za-z]:[\\/])/.test(facts.cwd), facts.cwd);
		}),
		{seed, numRuns: 120},
	);
});

test('regression: a Cursor meta row whose createdAt is past the range of a Date keeps its name (toISOString threw, and the name went with it)', t => {
	const chat = tempDir(t);
	const db = new Database(join(chat, 'store.db'));
	db.exec('CREATE TABLE meta (key TEXT PRIMARY KEY, value)');
	db.prepare("INSERT INTO meta VALUES ('0', ?)").run(Buffer.from(JSON.stringify({name: 'Fix the export', createdAt: 1e20})).toString('hex'));
	db.close();
	assert.deepEqual(readChatFacts(join(chat, 'store.db')), {title: 'Fix the export'});
});

const grokSession = '019a7c10-0c00-7000-8000-00000000000c';

/** A line of Grok's update stream: telemetry with no message, a chunk with wrong types, or a prompt's chunk. */
const grokUpdate = (update: unknown) => JSON.stringify({timestamp: 1_795_082_400, method: 'session/update', params: {sessionId: grokSession, update}});
const grokTelemetry: fc.Arbitrary<Buffer> = fc.oneof(
	fc.record({sessionUpdate: orText(fc.constantFrom('hook_event', 'retry', 'usage_update', 'available_commands_update', 'turn_completed')), content: weird, _meta: weird}).map(update => Buffer.from(grokUpdate(update))),
	fc.record({sessionUpdate: fc.constantFrom('user_message_chunk', 'agent_message_chunk'), content: fc.oneof(weird, fc.record({type: orText(fc.constant('text')), text: fc.oneof(weird, fc.constantFrom('', ' '))}))}).map(update => Buffer.from(grokUpdate(update))),
	brokenLine,
);
const grokPrompt = 'Why does the checkout test fail?';

test('grok: an update stream with no message falls back to the chat history, whatever state that is in, and never throws', t => {
	const directory = tempDir(t);
	const session = join(directory, 'sessions', '%2Fwork%2Fshop', grokSession);
	mkdirSync(session, {recursive: true});
	writeFileSync(join(session, 'summary.json'), JSON.stringify({info: {id: grokSession, cwd: '/work/shop'}}));
	const chatLine = JSON.stringify({type: 'user', content: [{type: 'text', text: grokPrompt}], prompt_index: 0});
	const history = fc.oneof(fc.constantFrom('missing', 'directory'), fc.array(fc.oneof(brokenLine, fc.constant(Buffer.from(chatLine))), {maxLength: 4}));
	fc.assert(
		fc.property(fc.array(grokTelemetry, {maxLength: 6}), fc.boolean(), history, (updates, prompted, chat) => {
			const promptLine = grokUpdate({sessionUpdate: 'user_message_chunk', content: {type: 'text', text: grokPrompt}, _meta: {promptIndex: 0}});
			writeLines(join(session, 'updates.jsonl'), [...updates, ...(prompted ? [promptLine] : [])]);
			const cache = join(session, 'chat_history.jsonl');
			rmSync(cache, {recursive: true, force: true});
			if (chat === 'directory') {
				mkdirSync(cache);
			} else if (chat !== 'missing') {
				writeLines(cache, chat);
			}

			const [unit] = grokAdapter.discover(join(directory, 'sessions'));
			const {events} = readEvents(grokAdapter, unit!);
			// The cache is read only where the stream holds no message: with no chunk of a message, surely none.
			const silent = updates.every(line => !line.includes('_message_chunk'));
			if (prompted || (silent && Array.isArray(chat) && chat.some(line => line.toString() === chatLine))) {
				assert.equal(lastHuman(events), grokPrompt);
			}
		}),
		{seed, numRuns: 60},
	);
});

/** A Grok session directory whose stream holds the given lines and whose chat history holds the prompt. */
function grokStore(directory: string, updates: readonly string[]): string {
	const session = join(directory, 'sessions', '%2Fwork%2Fshop', grokSession);
	writeLines(join(session, 'updates.jsonl'), updates);
	writeFileSync(join(session, 'summary.json'), JSON.stringify({info: {id: grokSession, cwd: '/work/shop'}}));
	writeLines(join(session, 'chat_history.jsonl'), [JSON.stringify({type: 'user', content: [{type: 'text', text: grokPrompt}], prompt_index: 0})]);
	return session;
}

test('regression: a Grok stream whose only message chunk is blank still falls back to the chat history (a blank chunk counted as a message)', t => {
	const directory = tempDir(t);
	grokStore(directory, [grokUpdate({sessionUpdate: 'user_message_chunk', content: {type: 'text', text: ' '}})]);
	const [unit] = grokAdapter.discover(join(directory, 'sessions'));
	assert.equal(lastHuman(readEvents(grokAdapter, unit!).events), grokPrompt);
});

test('regression: a Grok chat history that cannot be read leaves the stream read, not the session failed (the fallback threw)', t => {
	// Root reads any file: the read runs as nobody, where permission bits apply.
	const directory = tempDir(t);
	const session = grokStore(directory, [grokUpdate({sessionUpdate: 'hook_event'})]);
	chmodSync(directory, 0o755);
	chmodSync(join(session, 'chat_history.jsonl'), 0o000);
	const adapter = new URL('../../source/adapters/grok/index.js', import.meta.url).href;
	const output = runAsNobody(t, `const {grokAdapter} = await import(${JSON.stringify(adapter)}); const [unit] = grokAdapter.discover(${JSON.stringify(join(directory, 'sessions'))}); console.log(JSON.stringify(grokAdapter.loadSession(unit).warnings));`);
	if (output !== undefined) {
		assert.deepEqual(JSON.parse(output) as unknown, ['chat_history.jsonl cannot be read']);
	}
});

const codexOwn = '0195a1c2-0c00-7c00-8c00-0000000000aa';
const codexIds = fc.constantFrom(codexOwn, '0195a1c2-0c00-7c00-8c00-0000000000bb', '0195a1c2-0c00-7c00-8c00-0000000000cc', '');

/** A string field as the Codex schema reads it (lenient: any other type is absent). */
const textOf = (value: unknown) => (typeof value === 'string' ? value : undefined);

test('codex: later session_meta lines with wrong types in id, session_id and source never throw; a parentless subagent takes the first other id as its parent', () => {
	const unit = looseUnit('test/fixtures/stores/codex/sessions/2026/11/21/rollout-2026-11-21T15-00-00-0195a1c2-0c00-7c00-8c00-00000000000c.jsonl');
	const firstSource = fc.constantFrom<unknown>({subagent: {other: 'guardian'}}, {subagent: 'review'}, 'cli', 'exec', {subagent: {thread_spawn: {parent_thread_id: '0195a1c2-0c00-7c00-8c00-0000000000dd'}}});
	const later = fc.record({id: orText(codexIds), session_id: orText(codexIds), source: fc.oneof(weird, firstSource), cwd: weird}, {requiredKeys: []});
	fc.assert(
		fc.property(firstSource, fc.oneof(weird, codexIds), fc.array(later, {maxLength: 5}), (source, ownId, laters) => {
			const state: LineState = {};
			const meta = (payload: unknown) => JSON.parse(JSON.stringify({timestamp: '2026-11-21T14:00:00.000Z', type: 'session_meta', payload})) as unknown;
			const read = [meta({id: ownId, source, cwd: '/work/app'}), ...laters.map(meta)].flatMap((value, index) => {
				const events = codexAdapter.normalizeLine(value, index + 1, state, unit);
				return Array.isArray(events) ? events : [];
			});
			const prompt = codexAdapter.normalizeLine({timestamp: '2026-11-21T14:00:01.000Z', type: 'response_item', payload: {type: 'message', role: 'user', content: [{type: 'input_text', text: 'Check the retry loop'}]}}, laters.length + 2, state, unit);
			assert.ok(Array.isArray(prompt) && prompt.some(event => event.kind === 'user' && event.text === 'Check the retry loop'));
			// The oracle: only a subagent whose own meta names no parent looks further.
			const spawnedBy = JSON.stringify(source).includes('thread_spawn');
			const orphan = typeof source === 'object' && !spawnedBy;
			const own = textOf(ownId) ?? '';
			const parent = orphan ? laters.map(each => textOf(each.id) ?? textOf(each.session_id)).find(id => id && id !== own) : undefined;
			const stated = read.filter(event => event.kind === 'meta' && event.session?.parent_id !== undefined).map(event => event.session?.parent_id);
			const spawned = spawnedBy ? ['0195a1c2-0c00-7c00-8c00-0000000000dd'] : [];
			assert.deepEqual(stated, [...spawned, ...(parent ? [parent] : [])]);
		}),
		{seed, numRuns: 200},
	);
});

test('copilot workspace.yaml: block and folded scalars on hostile text (runs of blanks, many indented lines, CRLF, huge lines) never throw and take linear time', t => {
	const directory = tempDir(t);
	const path = join(directory, 'workspace.yaml');
	const indicator = fc.constantFrom('|', '>', '|-', '>+', '|2', '>-9', '|+1', '| # note', '>2-', '|0', '||', '> x', '');
	const body = fc.oneof(
		fc.tuple(fc.constantFrom('  ', '\t', ' ', '    '), fc.constantFrom('text', '', ' ', 'a: b', '#', '"q', "'"), fc.integer({min: 1, max: 20_000}), fc.constantFrom('\n', '\r\n', '\n\n', '\r')).map(([indent, text, count, end]) => `${indent}${text}${end}`.repeat(count)),
		fc.tuple(fc.constantFrom(' ', '\t', '\r', '\n', ' \r\n'), fc.integer({min: 1, max: 60_000})).map(([blank, count]) => blank.repeat(count)),
		fc.integer({min: 1, max: 100_000}).map(length => `  ${'w'.repeat(length)}\n`),
		fc.constantFrom('  first\n  second\n', '  "folded\n  quoted"\n', "  'it''s\n  folded'\n", '\n  after a blank\n'),
	);
	const yaml = fc.tuple(fc.constantFrom('name', 'summary', 'cwd'), indicator, body, fc.constantFrom('', 'cwd: /work/app\n', 'name: tail\n', '\r\n')).map(([key, head, rest, tail]) => `${key}: ${head}\n${rest}${tail}`);
	writeFileSync(path, 'name: warm-up\n');
	workspaceName(path);
	fc.assert(
		fc.property(yaml, text => {
			writeFileSync(path, text);
			const started = performance.now();
			const values = [workspaceName(path), workspaceCwd(path)];
			assert.ok(performance.now() - started < 50, `${Math.round(performance.now() - started)} ms for ${text.length} characters`);
			for (const value of values) {
				assert.ok(value === undefined || (typeof value === 'string' && value.trim() === value && value !== '' && !value.includes('\r')), JSON.stringify(value?.slice(0, 80)));
			}
		}),
		{seed, numRuns: 150},
	);
});

test('regression: a workspace.yaml whose lines end in a lone CR gives no CR inside the name (the block scalar kept it)', t => {
	const path = join(tempDir(t), 'workspace.yaml');
	writeFileSync(path, 'name: |\r  first\r  second\rcwd: /work/app\r');
	assert.equal(workspaceName(path), 'first\nsecond');
	assert.equal(workspaceCwd(path), '/work/app');
});

test('cursor: tool blocks under every spelling, with wrong types in name, tool, input, content and output, never throw; the prompt after them is read', t => {
	const transcript = join(tempDir(t), 'projects', 'work-app', 'agent-transcripts', 'c0ffee00-0000-4000-8000-000000000001.jsonl');
	const block = fc.oneof(
		fc.record({type: orText(fc.constantFrom('tool_use', 'tool-use', 'tool_call', 'tool-call')), name: weird, tool: weird, id: weird, input: fc.oneof(weird, fc.constantFrom('{"path": "a"}', '{', `${'['.repeat(3000)}`))}, {requiredKeys: ['type']}),
		fc.record({type: orText(fc.constantFrom('tool_result', 'tool-result')), tool_use_id: weird, content: weird, output: fc.oneof(weird, fc.constantFrom('exit code: 1', 'Exit code 0\n', ''), fc.array(weird, {maxLength: 3})), is_error: weird}, {requiredKeys: ['type']}),
		fc.record({type: orText(fc.constant('text')), text: weird}),
		weird,
	);
	const line = fc.oneof(
		fc.record({role: orText(fc.constantFrom('assistant', 'user', 'tool')), message: fc.oneof(weird, fc.record({content: fc.oneof(weird, fc.array(block, {maxLength: 4}))}))}).map(value => Buffer.from(JSON.stringify(value))),
		brokenLine,
	);
	const query = 'Round the cart totals once';
	const prompt = JSON.stringify({role: 'user', message: {content: [{type: 'text', text: `<user_query>\n${query}\n</user_query>`}]}});
	fc.assert(
		fc.property(fc.array(line, {maxLength: 6}), lines => {
			writeLines(transcript, [...lines, prompt]);
			const {events} = readEvents(cursorAdapter, looseUnit(transcript));
			assert.equal(lastHuman(events), query);
			for (const event of events) {
				assert.ok(event.tool === undefined || (typeof event.tool.name === 'string' && event.tool.name !== ''), JSON.stringify(event.tool));
			}
		}),
		{seed, numRuns: 80},
	);
});

const geminiSession = '3f2a9c1e-5b7d-4e21-9a8f-0c6d2e4b7a15';
const geminiHeader = (facts: Record<string, unknown> = {}) => JSON.stringify({sessionId: geminiSession, projectHash: 'ab', startTime: '2026-11-18T09:00:00.000Z', lastUpdated: '2026-11-18T09:00:00.000Z', kind: 'main', ...facts});
const geminiUser = (id: string, text: string) => JSON.stringify({id, timestamp: '2026-11-18T09:00:05.000Z', type: 'user', content: [{text}]});

test('gemini: a second header after messages, $set.messages and patches with wrong types never throw; the prompts before and after are both read', t => {
	const chat = join(tempDir(t), 'tmp', 'webapp', 'chats', 'session-2026-11-18T09-00-3f2a9c1e.jsonl');
	const header = fc.record({sessionId: orText(fc.constant(geminiSession)), startTime: weird, lastUpdated: weird, kind: weird, summary: weird, messages: fc.oneof(weird, fc.array(fc.oneof(weird, fc.record({id: orText(fc.constantFrom('u1', 'g1', 'x')), type: orText(fc.constant('user')), content: weird})), {maxLength: 3}))}, {requiredKeys: ['sessionId']});
	const line = fc.oneof(
		header.map(value => Buffer.from(JSON.stringify(value))),
		fc.record({$set: fc.oneof(weird, header)}).map(value => Buffer.from(JSON.stringify(value))),
		fc.record({$patch: fc.oneof(weird, fc.record({id: weird, updates: weird, removeIds: weird, orderIds: weird, content: weird}))}).map(value => Buffer.from(JSON.stringify(value))),
		fc.record({$rewindTo: weird}).map(value => Buffer.from(JSON.stringify(value))),
		fc.record({id: weird, type: orText(fc.constantFrom('gemini', 'info', 'error')), content: weird, toolCalls: weird}).map(value => Buffer.from(JSON.stringify(value))),
		brokenLine,
	);
	fc.assert(
		fc.property(fc.array(line, {maxLength: 6}), lines => {
			writeLines(chat, [geminiHeader(), geminiUser('first', 'Validate the signup form'), ...lines, geminiUser('last', 'Now the login form')]);
			const {events} = readEvents(geminiAdapter, looseUnit(chat));
			assert.equal(lastHuman(events), 'Now the login form');
			// Checkpoints and patches may take the first prompt out of the model's history, never out of the conversation.
			assert.ok(events.some(event => event.kind === 'user' && event.text === 'Validate the signup form'));
		}),
		{seed, numRuns: 100},
	);
});

test('gemini: a chat reopened by a second header keeps the conversation its first checkpoint drops', t => {
	const chat = join(tempDir(t), 'tmp', 'webapp', 'chats', 'session-2026-11-18T09-00-3f2a9c1e.jsonl');
	writeLines(chat, [geminiHeader(), geminiUser('u1', 'Validate the signup form'), geminiHeader({startTime: '2026-11-18T09:00:40.000Z'}), JSON.stringify({$set: {messages: []}}), geminiUser('u2', 'Now the login form')]);
	const {events} = readEvents(geminiAdapter, looseUnit(chat));
	assert.deepEqual(events.filter(event => event.kind === 'user' && event.human).map(event => event.text), ['Validate the signup form', 'Now the login form']);
});

test('gemini subagent chats: .json beside .jsonl, directories and links where chats belong: each chat found once, never through a link, and read without throwing', t => {
	const directory = tempDir(t);
	const names = fc.constantFrom('a1', 'b2', 'c3', 'd4');
	const child = fc.record({stem: names, kind: fc.constantFrom('json', 'jsonl', 'both', 'directory', 'loop', 'link-out', 'empty', 'broken')});
	let run = 0;
	fc.assert(
		fc.property(fc.array(child, {maxLength: 6}), children => {
			const project = join(directory, String(run++), 'tmp', 'webapp');
			const parent = join(project, 'chats', geminiSession);
			const outside = join(directory, `outside-${run}`);
			mkdirSync(parent, {recursive: true});
			mkdirSync(outside, {recursive: true});
			writeLines(join(project, 'chats', 'session-2026-11-18T09-00-3f2a9c1e.jsonl'), [geminiHeader(), geminiUser('u1', 'Validate the signup form')]);
			const expected = new Map<string, string>();
			for (const {stem, kind} of children) {
				const path = join(parent, stem);
				if (expected.has(stem) || lstatOrUndefined(`${path}.json`) || lstatOrUndefined(`${path}.jsonl`)) {
					continue; // One thing per name.
				}

				if (kind === 'json' || kind === 'both') {
					writeFileSync(`${path}.json`, JSON.stringify({sessionId: stem, kind: 'subagent', messages: [{id: 'm', type: 'user', content: 'task'}]}));
					expected.set(stem, `${path}.json`);
				}

				if (kind === 'jsonl' || kind === 'both' || kind === 'empty' || kind === 'broken') {
					writeLines(`${path}.jsonl`, kind === 'empty' ? [] : kind === 'broken' ? [Buffer.from([0xff, 0x00]), '{'] : [geminiHeader({sessionId: stem, kind: 'subagent'}), geminiUser('m', 'task')]);
					expected.set(stem, `${path}.jsonl`);
				} else if (kind === 'directory') {
					mkdirSync(`${path}.jsonl`);
				} else if (kind === 'loop') {
					symlinkSync(`${path}.jsonl`, `${path}.jsonl`);
				} else if (kind === 'link-out') {
					writeLines(join(outside, `${stem}.jsonl`), [geminiHeader({sessionId: stem}), geminiUser('m', 'task')]);
					symlinkSync(join(outside, `${stem}.jsonl`), `${path}.jsonl`);
				}
			}

			const units = geminiAdapter.discover(join(directory, String(run - 1), 'tmp')).filter(unit => unit.path.startsWith(parent + sep));
			assert.deepEqual(units.map(unit => unit.path).sort(), [...expected.values()].sort());
			for (const unit of units) {
				assert.equal(wholeUnit(unit).parentIdHint, geminiSession);
				readEvents(geminiAdapter, unit);
			}
		}),
		{seed, numRuns: 25},
	);
});

const vscodeSession = '9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5e';

/** A response as early builds wrote it (one string), as later ones do (parts), or mixed and wrongly typed. */
const vscodeResponse: fc.Arbitrary<unknown> = fc.oneof(
	weird,
	fc.constantFrom('A plain reply', '', '   '),
	fc.array(fc.oneof(weird, fc.constantFrom('part one ', 'part two'), fc.record({kind: orText(fc.constantFrom('markdownContent', 'inlineReference', 'toolInvocationSerialized')), value: weird, content: fc.oneof(weird, fc.record({value: weird}))})), {maxLength: 6}),
);

/** The text a string response (or the strings in a list) puts in the reply. */
const stringParts = (response: unknown): string[] => (typeof response === 'string' ? [response] : Array.isArray(response) ? response.filter((part): part is string => typeof part === 'string') : []);

test('vscode: a response of any shape, in a snapshot or set by an edit of the log, never throws; its strings are reply text and the next request is read', t => {
	const vscode = adapters.vscode as DocumentAdapter;
	const directory = join(tempDir(t), 'workspaceStorage', '7d3c1e0b9a4f4c2d8e6b5a4c3d2e1f00', 'chatSessions');
	mkdirSync(directory, {recursive: true});
	const request = (id: string, text: string, response: unknown) => ({requestId: id, timestamp: 1_794_474_005_000, message: {text, parts: []}, response});
	fc.assert(
		fc.property(vscodeResponse, fc.boolean(), (response, log) => {
			const requests = [request('r1', 'Explain the retry loop', response), request('r2', 'Now fix it', 'Fixed.')];
			const file = join(directory, `${vscodeSession}.${log ? 'jsonl' : 'json'}`);
			rmSync(join(directory, `${vscodeSession}.${log ? 'json' : 'jsonl'}`), {force: true});
			const snapshot = {version: 3, sessionId: vscodeSession, creationDate: 1_794_474_000_000, requests};
			writeFileSync(
				file,
				log
					? [{kind: 0, v: {...snapshot, requests: []}}, {kind: 2, k: ['requests'], v: requests}, {kind: 1, k: ['requests', 0, 'response'], v: response}].map(each => JSON.stringify(each)).join('\n')
					: JSON.stringify(snapshot),
			);
			const {events} = readEvents(vscode, looseUnit(file));
			assert.equal(lastHuman(events), 'Now fix it');
			const replies = events.filter(event => event.kind === 'assistant').map(event => event.text ?? '');
			assert.equal(replies.at(-1), 'Fixed.');
			const said = stringParts(response).join('');
			if (said.trim() !== '') {
				assert.ok(replies.some(reply => reply.includes(said.trim())), JSON.stringify(replies));
			}
		}),
		{seed, numRuns: 120},
	);
});

test('regression: an OpenCode session or message whose id leads out of the store (../..) reads nothing there and lists no file there (a message directory was joined from the id)', t => {
	const directory = tempDir(t);
	const storage = join(directory, 'opencode', 'storage');
	const elsewhere = join(directory, 'elsewhere');
	mkdirSync(join(storage, 'session', 'global'), {recursive: true});
	mkdirSync(join(storage, 'message', 'ses_a'), {recursive: true});
	mkdirSync(elsewhere);
	writeFileSync(join(storage, 'session', 'global', 'ses_b.json'), JSON.stringify({id: '../../../elsewhere', projectID: 'global', directory: '/work/app', title: 'out', time: {created: 1_795_269_640_000, updated: 1_795_269_640_000}}));
	writeFileSync(join(storage, 'session', 'global', 'ses_a.json'), JSON.stringify({id: 'ses_a', projectID: 'global', directory: '/work/app', title: 'in', time: {created: 1_795_269_640_000, updated: 1_795_269_640_000}}));
	writeFileSync(join(storage, 'message', 'ses_a', 'msg_1.json'), JSON.stringify({id: '../../../elsewhere', sessionID: 'ses_a', role: 'user', time: {created: 1_795_269_641_000}}));
	writeFileSync(join(elsewhere, 'msg_2.json'), JSON.stringify({id: 'msg_2', sessionID: 'ses_b', type: 'text', text: 'not the store', role: 'user', time: {created: 1_795_269_641_000}}));
	const opencode = adapters.opencode as DocumentAdapter;
	const units = opencode.resolveRoot(join(directory, 'opencode')).flatMap(root => opencode.discover(root)).map(unit => wholeUnit(unit));
	assert.equal(units.length, 2);
	for (const unit of units) {
		assert.ok(unit.paths.every(path => path.startsWith(storage + sep)), JSON.stringify(unit.paths));
		assert.ok(readEvents(opencode, unit).events.every(event => event.text !== 'not the store'));
	}
});

/**
 * Runs a short module as nobody (permission bits apply), printing what it logs; undefined (the
 * test skipped, saying why) without root and setpriv, or where nobody cannot read this checkout
 * (a clone under a private home directory).
 */
function runAsNobody(t: {skip(message: string): void}, script: string): string | undefined {
	if (process.getuid?.() !== 0 || spawnSync('setpriv', ['--version']).status !== 0) {
		t.skip('needs root and setpriv to read as an unprivileged user');
		return undefined;
	}

	const asNobody = (args: string[]) => spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', '--', process.execPath, ...args], {cwd: process.cwd(), encoding: 'utf8'});
	if (asNobody(['-e', "require('node:fs').accessSync('package.json'); require('node:fs').accessSync('node_modules/tsx/package.json')"]).status !== 0) {
		t.skip('nobody cannot read this checkout, so nothing can be read as an unprivileged user here');
		return undefined;
	}

	const read = asNobody(['--import', 'tsx', '--input-type=module', '-e', script]);
	assert.equal(read.status, 0, read.stderr);
	return read.stdout;
}

test('regression: a Cowork directory discovery may not list, a task\'s .claude among them, is passed over and noted (a task\'s vanished unsaid), the tasks beside it found', t => {
	const directory = tempDir(t);
	const root = join(directory, 'local-agent-mode-sessions');
	const task = writeTask(join(root, 'acct-1', 'ws', 'local_ok'));
	writeTask(join(root, 'acct-0', 'ws', 'local_hidden'));
	mkdirSync(join(root, 'acct-2', 'ws', 'local_closed', '.claude'), {recursive: true});
	chmodSync(directory, 0o755);
	chmodSync(join(root, 'acct-0'), 0o000);
	chmodSync(join(root, 'acct-2', 'ws', 'local_closed', '.claude'), 0o000);
	const claude = new URL('../../source/adapters/claude/index.js', import.meta.url).href;
	const fs = new URL('../../source/adapters/shared/fs.js', import.meta.url).href;
	const script = `const {claudeAdapter} = await import(${JSON.stringify(claude)}); const {takeUnlistedDirectories} = await import(${JSON.stringify(fs)}); console.log(JSON.stringify({paths: claudeAdapter.discover(${JSON.stringify(root)}).map(unit => unit.path), unlisted: takeUnlistedDirectories().map(each => each.path)}));`;
	const out = runAsNobody(t, script);
	if (out !== undefined) {
		assert.deepEqual(JSON.parse(out) as unknown, {paths: [task], unlisted: [join(root, 'acct-0'), join(root, 'acct-2', 'ws', 'local_closed', '.claude')]});
	}
});

test('codex: a user message opening with one of the newer contextual fragments is the host\'s, whatever follows; a request beside them stays the person\'s', () => {
	const unit = looseUnit('test/fixtures/stores/codex/sessions/2026/11/21/rollout-2026-11-21T15-00-00-0195a1c2-0c00-7c00-8c00-00000000000c.jsonl');
	const fragment = fc.constantFrom('<recommended_plugins>', '<goal_context>', '<extension_context>', '<codex_internal_context source="x">', '<external_hook>', '<agent_message_board_notification>', 'Warning: apply_patch was requested via ');
	const user = (text: string, line: number, state: LineState) => {
		const events = codexAdapter.normalizeLine({timestamp: '2026-11-21T14:00:01.000Z', type: 'response_item', payload: {type: 'message', role: 'user', content: [{type: 'input_text', text}]}}, line, state, unit);
		return Array.isArray(events) ? events.filter(event => event.kind === 'user') : [];
	};
	fc.assert(
		fc.property(fc.constantFrom('', ' ', '\n'), fragment, fc.string({maxLength: 40}), fc.string({minLength: 1, maxLength: 40}), (lead, opening, rest, request) => {
			const state: LineState = {};
			assert.ok(user(`${lead}${opening}${rest}`, 1, state).every(event => event.human !== true));
			const typed = `Please ${request}`;
			assert.ok(user(typed, 2, state).some(event => event.human === true && event.text === typed));
		}),
		{seed, numRuns: 150},
	);
});

test('regression: a Grok session directory discovery may not search is passed over and noted (it vanished unsaid), the sessions beside it found', t => {
	const directory = tempDir(t);
	const open = grokStore(directory, [grokUpdate({sessionUpdate: 'user_message_chunk', content: {type: 'text', text: grokPrompt}})]);
	const closed = join(dirname(open), '019a7c10-0b00-7000-8000-0000000000ff');
	mkdirSync(closed);
	writeFileSync(join(closed, 'summary.json'), '{}');
	writeFileSync(join(closed, 'updates.jsonl'), '');
	chmodSync(directory, 0o755);
	chmodSync(closed, 0o000);
	const grok = new URL('../../source/adapters/grok/index.js', import.meta.url).href;
	const fs = new URL('../../source/adapters/shared/fs.js', import.meta.url).href;
	const script = `const {grokAdapter} = await import(${JSON.stringify(grok)}); const {takeUnlistedDirectories} = await import(${JSON.stringify(fs)}); console.log(JSON.stringify({paths: grokAdapter.discover(${JSON.stringify(join(directory, 'sessions'))}).map(unit => unit.path), unlisted: takeUnlistedDirectories().map(each => [each.path, each.code])}));`;
	const out = runAsNobody(t, script);
	if (out !== undefined) {
		assert.deepEqual(JSON.parse(out) as unknown, {paths: [join(open, 'updates.jsonl')], unlisted: [[closed, 'EACCES']]});
	}
});
