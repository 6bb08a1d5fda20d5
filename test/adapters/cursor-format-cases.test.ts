import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import {copyFileSync, mkdirSync, rmSync, symlinkSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {fileURLToPath, pathToFileURL} from 'node:url';
import {discoverCursor} from '../../source/adapters/cursor/discover.js';
import {cursorSlug, localWorkspace, slugWalkStart} from '../../source/adapters/cursor/projects.js';
import {cursorAdapter} from '../../source/adapters/cursor/index.js';
import {wholeUnit} from '../../source/adapters/types.js';
import {looseUnit, readStore, readUnit} from '../helpers/adapters.js';
import {tempDir} from '../helpers/temp.js';

/**
 * Cursor agent-transcript shapes (formats.md §8), written with invented content. Content block
 * types drift between Cursor builds (agent-sessions `stage0/agents/cursor/schema_drift.jsonl`
 * has a `custom_block` with visible text, which its parser shows as text).
 */
const root = fileURLToPath(new URL('../fixtures/format-cases/cursor/projects', import.meta.url));
const id = '9b1d2e30-4c5f-4a6b-8d7e-1f2a3b4c5d61';
const transcript = join(root, 'home-dev-ledger', 'agent-transcripts', id, `${id}.jsonl`);

test('cursor format: an assistant block of an unknown type keeps its visible text', () => {
	const read = readUnit(cursorAdapter, looseUnit(transcript, {idHint: id}));
	assert.deepEqual(
		read.events.filter(event => event.kind === 'assistant').map(event => [event.line, event.text]),
		[
			[2, 'The import loop stops one row early because it uses length - 1.'],
			[3, 'Changing the bound to length fixes it.'],
		],
	);
	assert.ok(!read.events.some(event => event.text?.includes('off by one')), 'thinking is still never shown');
	assert.equal(read.summary.title, 'Why does the ledger import skip the last row?');
});

/**
 * Older Cursor builds wrote each agent transcript as plain text, `agent-transcripts/<id>.txt`
 * (formats.md §8): turns open with a line `user:` or `assistant:` (`A:` in some builds), the
 * request is wrapped in `<user_query>`, and an assistant turn holds `[Thinking] …` lines, text,
 * `[Tool call] <name>` blocks with `  key: value` arguments, and `[Tool result] <name>` markers,
 * usually with no output. Newer builds write `<id>/<id>.jsonl` and leave an old `.txt` in place.
 */
const seedbank = join(root, 'home-dev-seedbank', 'agent-transcripts');
const textId = 'a3c5e7f9-1b2d-4f6a-8c0e-2d4f6a8b0c11';
const shortTextId = 'b4d6f8a0-2c3e-4a7b-9d1f-3e5a7b9c1d22';
const bothId = 'c5e7f9a1-6b2d-4e8f-a0c4-7d9e1f3b5a02';

test('cursor format: a .txt transcript is discovered as a document, its id the file stem; beside a JSONL of the same id it is that session', () => {
	const units = discoverCursor(root).map(wholeUnit).filter(unit => unit.path.startsWith(seedbank));
	assert.deepEqual(units.map(unit => unit.idHint).sort(), [textId, shortTextId, bothId, 'notes'].sort());
	assert.equal(units.find(unit => unit.idHint === textId)?.variant, 'txt');
	const both = units.filter(unit => unit.idHint === bothId);
	assert.equal(both.length, 1, 'one session for the id');
	assert.ok(both[0]!.path.endsWith('.jsonl') && both[0]!.variant === undefined, 'the JSONL is read');
});

test('cursor format: a .txt transcript reads block by block, each a row on the line where it starts', () => {
	const read = readUnit(cursorAdapter, looseUnit(join(seedbank, `${textId}.txt`), {idHint: textId, variant: 'txt'}));
	assert.deepEqual(read.loaded.rows.map(row => row.line), [1, 12, 13, 14, 17, 20, 21, 22, 26, 30, 32, 35, 37, 43, 49, 52]);
	assert.deepEqual(
		read.events.filter(event => event.kind === 'user').map(event => [event.line, event.human, event.text?.slice(0, 30)]),
		[
			[1, false, '<user_info>\nOS Version: linux '],
			[1, true, 'Why does the seed inventory re'],
			[37, true, 'Add a line about it to the cha'],
		],
	);
	assert.deepEqual(
		read.events.filter(event => event.kind === 'assistant').map(event => [event.line, event.text]),
		[
			[13, 'Let me look at how the report is built.'],
			[21, 'Both loops add each packet to the same total: once per shelf, once per variety.'],
			[35, 'The variety loop now only groups packets; the total comes from the shelf loop alone, and the report tests pass.'],
			[52, 'Added the entry under a new Changelog heading.'],
		],
	);
	assert.ok(!read.events.some(event => event.text?.includes('report builder is the place')), 'thinking is never shown');
	assert.deepEqual(
		read.events.filter(event => event.kind === 'tool_call').map(event => [event.line, event.tool?.name, event.tool?.input]),
		[
			[14, 'ReadFile', {path: '/home/dev/seedbank/src/report.ts'}],
			[22, 'StrReplace', {path: '/home/dev/seedbank/src/report.ts', old_string: 'total += packet.count', new_string: 'byVariety.add(packet)'}],
			[26, 'Shell', {command: 'npm test -- report', description: 'Run the report tests'}],
			[43, 'Write', {path: '/home/dev/seedbank/CHANGELOG.md', contents: '# Changelog\n\n- The inventory report no longer counts each packet twice.'}],
		],
	);
	assert.deepEqual(
		read.events.filter(event => event.kind === 'tool_result').map(event => [event.line, event.result?.is_error, event.result?.output]),
		[
			[17, false, ''],
			[30, false, ''],
			[32, false, ''],
			[49, false, ''],
		],
	);
	assert.equal(read.summary.title, 'Why does the seed inventory report count every packet twice?');
	assert.equal(read.summary.human_turns, 2);
	assert.equal(read.summary.project, '/home/dev/seedbank', 'the workspace the <user_info> states');
	assert.equal(read.loaded.skipped, 0);
});

test('cursor format: a .txt transcript whose assistant turns open with `A:` reads the same way', () => {
	const read = readUnit(cursorAdapter, looseUnit(join(seedbank, `${shortTextId}.txt`), {idHint: shortTextId, variant: 'txt'}));
	assert.deepEqual(
		read.events.map(event => [event.line, event.kind]),
		[
			[1, 'user'],
			[7, 'meta'], // The workspace, from the Grep's path inside the directory the slug spells.
			[7, 'tool_call'],
			[11, 'tool_result'],
			[14, 'assistant'],
		],
	);
	assert.equal(read.summary.title, 'Rename the germination test helper to checkSprouting');
});

test('cursor format: a .txt file with no turns is no session, and bad text never throws', t => {
	const notes = readUnit(cursorAdapter, looseUnit(join(seedbank, 'notes.txt'), {idHint: 'notes', variant: 'txt'}));
	assert.deepEqual([notes.loaded.rows.length, notes.loaded.skipped], [0, 1]);
	const directory = join(tempDir(t), 'agent-transcripts');
	mkdirSync(directory, {recursive: true});
	const odd = join(directory, 'odd.txt');
	writeFileSync(odd, '\uFEFFpreamble before any turn\r\nuser:\r\n<user_query>\r\nuser:\r\nassistant:\r\n</user_query>\r\nassistant:\r\n[Tool result] Shell\r\nexit code: 2\r\n');
	const read = readUnit(cursorAdapter, looseUnit(odd, {variant: 'txt'}));
	assert.equal(read.loaded.skipped, 1, 'the preamble is skipped and counted');
	assert.deepEqual(read.events.map(event => [event.line, event.kind, event.text ?? event.result?.output]), [
		[2, 'user', 'user:\nassistant:'],
		[8, 'tool_result', 'exit code: 2'],
	]);
	assert.equal(read.events[1]?.result?.is_error, true);
});

test('cursor format: a .txt subagent transcript belongs to its parent, and its request is the agent\'s', t => {
	const directory = join(tempDir(t), 'home-dev-seedbank', 'agent-transcripts');
	mkdirSync(join(directory, textId, 'subagents'), {recursive: true});
	copyFileSync(join(seedbank, `${shortTextId}.txt`), join(directory, textId, 'subagents', `${shortTextId}.txt`));
	const [unit] = discoverCursor(join(directory, '..', '..')).map(wholeUnit);
	assert.deepEqual([unit?.idHint, unit?.parentIdHint, unit?.variant], [shortTextId, textId, 'txt']);
	const read = readUnit(cursorAdapter, unit!);
	assert.deepEqual(read.events.filter(event => event.kind === 'user').map(event => [event.human, event.origin]), [[false, 'agent']]);
});

/**
 * Cursor's transcript layouts are `<id>.jsonl`, `<id>/<id>.jsonl` and a subagent's
 * `<parent id>/subagents/<id>.jsonl` (agentsview internal/parser/cursor_test.go
 * TestParseCursorTranscriptRel, cursor_provider_test.go): in a session's folder only the file
 * named after it is its transcript, and a `subagents` folder right under `agent-transcripts`
 * belongs to no session.
 */
test('cursor format: in a session folder only <id>.jsonl is a transcript; a subagents folder with no parent session holds none', () => {
	const kiln = join(root, 'home-dev-kiln', 'agent-transcripts');
	const units = discoverCursor(root).filter(unit => unit.path.startsWith(kiln));
	assert.deepEqual(units.map(unit => unit.idHint), ['e1f3a5c7-9b2d-4e6f-8a0c-4d6e8f0a2b33']);
});

/**
 * Builds since mid-2026 open each user turn with `<timestamp>Weekday, Mon D, YYYY, h:mm AM|PM
 * (UTC±H[:MM])</timestamp>` before the `<user_query>`, and end assistant text blocks with a
 * `[REDACTED]` marker where the reasoning was left out (a turn that only reasoned is the marker
 * alone). Readers checked against real transcripts: receptron/mulmoterminal pull request #2072
 * and caura-ai/caura pull request #612 (both strip the trailing marker and read the tag as the
 * turn's time); jhlee0409/claude-code-history-viewer drops marker-only blocks (its issue #472).
 */
const orchardId = 'd7e9f1a3-5b6c-4d8e-9f0a-1b2c3d4e5f60';
const orchard = join(root, 'home-dev-orchard', 'agent-transcripts', orchardId, `${orchardId}.jsonl`);

test('cursor format: a user turn\'s <timestamp> tag is its time, never text; the trailing [REDACTED] reasoning marker is no reply', () => {
	const read = readUnit(cursorAdapter, looseUnit(orchard, {idHint: orchardId}));
	assert.deepEqual(
		read.events.filter(event => event.kind === 'user').map(event => [event.line, event.human, event.text, event.timestamp]),
		[
			[1, true, 'Why does the orchard sync drop every pear?', '2026-07-21T10:11:00.000Z'],
			[5, true, 'Keep the word [REDACTED] in the log line, then add a test.', '2026-07-21T16:35:00.000Z'],
		],
	);
	assert.deepEqual(
		read.events.filter(event => event.kind === 'assistant').map(event => [event.line, event.text]),
		[
			[3, 'The filter compares fruit names case-sensitively, so Pear never equals pear.'],
			[6, 'Done: the log line still says [REDACTED] for hidden names, and the new test covers Pear.'],
		],
	);
	assert.equal(read.events.filter(event => event.kind === 'tool_call').length, 1, 'the call beside a marker-only block stays');
	assert.deepEqual([read.summary.started, read.summary.modified], ['2026-07-21T10:11:00.000Z', '2026-07-21T16:35:00.000Z']);
});

test('cursor format: a <timestamp> spelling other than Cursor\'s English one is no time', async () => {
	const {cursorSentAt} = await import('../../source/adapters/cursor/normalize.js');
	assert.equal(cursorSentAt('Monday, Mar 2, 2026, 12:00 AM (UTC)'), '2026-03-02T00:00:00.000Z');
	assert.equal(cursorSentAt('Monday, Mar 2, 2026, 12:30 PM (UTC+5:30)'), '2026-03-02T07:00:00.000Z');
	for (const odd of ['Monday, Feb 30, 2026, 1:00 PM (UTC)', 'Monday, Mär 2, 2026, 1:00 PM (UTC)', 'Monday, Mar 2, 2026, 13:00 PM (UTC)', '2026-03-02T10:00:00Z', 'Monday, Mar 2, 2026, 1:00 PM (UTC+15)']) {
		assert.equal(cursorSentAt(odd), undefined, odd);
	}
});

/**
 * Cursor writes `projects/<slug>/.workspace-trusted` once the person trusts the workspace (the
 * prompt, or the CLI's --trust): `{"trustedAt", "workspacePath", "trustMethod"}`, the workspace's
 * own path. The slug spells it lossily (a space, a dot and a separator are all `-`, and a long
 * path is cut and hashed), so the file names the project where no directory on this machine
 * spells the slug (moved, deleted, another machine's store). Readers that take the project from
 * it: stablyai/orca pull requests #13935 and #15705 (`.workspace-trusted` `workspacePath` first,
 * then the slug).
 */
test('cursor format: the workspace .workspace-trusted names is the project of the slug\'s transcripts', () => {
	const tallyId = 'f4a6c8e0-2b3d-4f5a-8c7e-9d1b3f5a7c02';
	const unit = discoverCursor(root).find(found => found.idHint === tallyId);
	assert.equal(unit?.projectHint, undefined, 'no directory here spells the slug');
	const read = readUnit(cursorAdapter, wholeUnit(unit!));
	assert.equal(read.summary.project, '/srv/builds/tally web');
	assert.equal(read.summary.title, 'Why does the tally page round totals down?');
});

/**
 * The Cursor CLI's agent worker logs the workspace it serves to `projects/<slug>/worker.log`, a
 * line ending `workspacePath=<path>`: the path itself, where the slug only spells it. Evidence:
 * siteboon/claudecodeui server/modules/providers/list/cursor/cursor-session-synchronizer.provider.ts
 * (extractProjectPathFromWorkerLog, its only source of a Cursor session's project).
 */
test('cursor format: the workspacePath the slug\'s worker.log states is the project of its transcripts, where no .workspace-trusted names one', () => {
	const glazeId = 'a3c5e7f9-1b2d-4e6f-8a0c-2e4f6a8c0b13';
	const unit = discoverCursor(root).find(found => found.idHint === glazeId);
	assert.equal(unit?.projectHint, undefined, 'no directory here spells the slug');
	const read = readUnit(cursorAdapter, wholeUnit(unit!));
	assert.equal(read.summary.project, '/srv/kilns/glaze lab');
	assert.equal(read.summary.title, 'Which cone does the celadon recipe fire to?');
});

/** A chat store `chats/<md5>/<id>/store.db` whose meta row '0' is `meta` as hex (or as plain JSON, as a few older stores wrote it). */
function writeChatStore(cursorHome: string, sessionId: string, meta: Record<string, unknown>, encoding: 'hex' | 'plain' = 'hex'): void {
	const directory = join(cursorHome, 'chats', '5d41402abc4b2a76b9719d911017c592', sessionId);
	mkdirSync(directory, {recursive: true});
	const db = new Database(join(directory, 'store.db'));
	db.exec('CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT); CREATE TABLE blobs (id TEXT PRIMARY KEY, data BLOB)');
	db.prepare('INSERT INTO meta VALUES (?, ?)').run('0', encoding === 'hex' ? Buffer.from(JSON.stringify(meta)).toString('hex') : JSON.stringify(meta));
	db.close();
}

test('cursor format: "New Agent", the name Cursor gives a chat store before the chat is named, is no title', t => {
	// A child store the agent created starts as "New Agent" (its meta also names the parent in
	// subagentInfo); agent-sessions CursorChatMetaReader.swift treats that name as no name.
	const home = join(tempDir(t), '.cursor');
	const parent = '4c2e6a80-1b3d-4f5a-9c7e-0d2f4a6c8e11';
	const child = '6e4a8c02-3d5f-4b7c-8e9a-1f3b5d7f9a22';
	const transcripts = join(home, 'projects', 'home-dev-vineyard', 'agent-transcripts', parent);
	mkdirSync(join(transcripts, 'subagents'), {recursive: true});
	writeFileSync(join(transcripts, `${parent}.jsonl`), [
		'{"role":"user","message":{"content":[{"type":"text","text":"<user_query>\\nCount the rows in harvest.csv\\n</user_query>"}]}}',
		'{"role":"assistant","message":{"content":[{"type":"tool_use","name":"Task","input":{"description":"Count harvest rows","prompt":"Count the data rows of harvest.csv"}}]}}',
	].join('\n') + '\n');
	writeFileSync(join(transcripts, 'subagents', `${child}.jsonl`), [
		'{"role":"user","message":{"content":[{"type":"text","text":"Count the data rows of harvest.csv"}]}}',
		'{"role":"assistant","message":{"content":[{"type":"text","text":"harvest.csv has 412 data rows."}]}}',
	].join('\n') + '\n');
	writeChatStore(home, parent, {agentId: parent, name: 'Harvest row count', mode: 'default', createdAt: 1796380000000});
	writeChatStore(home, child, {
		agentId: child,
		name: 'New Agent',
		mode: 'default',
		createdAt: 1796380005000,
		subagentInfo: {parentAgentId: parent, rootParentAgentId: parent, toolCallId: 'toolu_vineyard_1', typeName: 'generalPurpose'},
	});
	const sessions = new Map(readStore(cursorAdapter, home).map(read => [read.summary.id, read.summary]));
	assert.equal(sessions.get(child)?.parent_id, parent);
	assert.equal(sessions.get(child)?.title, 'Count the data rows of harvest.csv', 'the task its parent gave, not the placeholder name');
	assert.equal(sessions.get(parent)?.title, 'Count the rows in harvest.csv');
});

test('cursor format: a Task subagent written as a peer transcript folder (not under subagents/) belongs to the parent its chat store\'s subagentInfo names', t => {
	// Cursor Task subagents often land as their own agent-transcripts/<id>/ folder, beside the
	// parent's: siteboon/claudecodeui cursor-session-synchronizer.provider.ts links them to their
	// parent; the child's store meta names it (subagentInfo.parentAgentId).
	const home = join(tempDir(t), '.cursor');
	const parent = '9b1d3f57-2c4e-4a6b-8d0f-5e7a9c1b3d44';
	const child = 'a0c2e468-3d5f-4b7c-9e1a-6f8b0d2c4e55';
	const transcripts = join(home, 'projects', 'home-dev-granary', 'agent-transcripts');
	mkdirSync(join(transcripts, parent), {recursive: true});
	mkdirSync(join(transcripts, child), {recursive: true});
	writeFileSync(join(transcripts, parent, `${parent}.jsonl`), [
		'{"role":"user","message":{"content":[{"type":"text","text":"<user_query>\\nWhich silo is fullest?\\n</user_query>"}]}}',
		'{"role":"assistant","message":{"content":[{"type":"tool_use","name":"Task","input":{"description":"Read silo levels","prompt":"Read the fill level of every silo in levels.json"}}]}}',
	].join('\n') + '\n');
	writeFileSync(join(transcripts, child, `${child}.jsonl`), [
		'{"role":"user","message":{"content":[{"type":"text","text":"<user_query>\\nRead the fill level of every silo in levels.json\\n</user_query>"}]}}',
		'{"role":"assistant","message":{"content":[{"type":"text","text":"Silo 3 is at 91 percent, the fullest."}]}}',
	].join('\n') + '\n');
	writeChatStore(home, parent, {agentId: parent, name: 'Silo levels', mode: 'default', createdAt: 1796390000000});
	writeChatStore(home, child, {
		agentId: child,
		name: 'New Agent',
		mode: 'default',
		createdAt: 1796390004000,
		subagentInfo: {parentAgentId: parent, rootParentAgentId: parent, toolCallId: 'toolu_granary_1', typeName: 'explore'},
	});
	const sessions = new Map(readStore(cursorAdapter, home).map(read => [read.summary.id, read.summary]));
	assert.equal(sessions.get(child)?.parent_id, parent);
	assert.equal(sessions.get(parent)?.parent_id ?? null, null);
	assert.equal(sessions.get(parent)?.title, 'Which silo is fullest?');
});

test('cursor format: a chat store whose meta row holds plain JSON rather than hex (older stores) still names the chat and its start', t => {
	// Readers of Cursor's chat store note that a few older stores wrote meta.value as JSON text,
	// not hex-encoded JSON, and fall back to parsing it as it is.
	const home = join(tempDir(t), '.cursor');
	const id = '8a6c0e24-5f71-4d93-b2a4-3e5f7a9c1b33';
	const transcripts = join(home, 'projects', 'home-dev-apiary', 'agent-transcripts', id);
	mkdirSync(transcripts, {recursive: true});
	writeFileSync(join(transcripts, `${id}.jsonl`), '{"role":"assistant","message":{"content":[{"type":"text","text":"The hive log is empty."}]}}\n');
	writeChatStore(home, id, {agentId: id, name: 'Hive log check', mode: 'default', createdAt: 1796390000000}, 'plain');
	const [session] = readStore(cursorAdapter, home);
	assert.equal(session?.summary.title, 'Hive log check');
	assert.equal(session?.summary.started, new Date(1796390000000).toISOString());
});

test('cursor format: tool blocks typed with a hyphen (`tool-call`, `tool-use`) are calls, named by `name` or `tool`; a result may hold its text in `output`', () => {
	// Cursor's block names drift between builds; agent-sessions CursorSessionParser.swift reads
	// tool_use, tool-use, tool_call and tool-call alike, the name from `name` or `tool`, and a
	// result's text from `content` or `output`.
	const quarry = '2e4a6c8e-0b1d-4c3f-8e5a-7b9d1f3a5c77';
	const read = readUnit(cursorAdapter, looseUnit(join(root, 'home-dev-quarry', 'agent-transcripts', quarry, `${quarry}.jsonl`), {idHint: quarry}));
	assert.deepEqual(
		read.events.filter(event => event.kind === 'tool_call').map(event => [event.line, event.tool?.name, event.tool?.input]),
		[
			[2, 'read_file', {path: 'logs/saw.csv'}],
			[4, 'Shell', {command: 'wc -l logs/saw.csv'}],
		],
	);
	assert.deepEqual(
		read.events.filter(event => event.kind === 'tool_result').map(event => [event.line, event.result?.output]),
		[[3, 'date,blocks\n2026-12-05,14']],
	);
	assert.equal(read.summary.tool_calls, 2);
});

test('cursor format: the chat\'s meta.json beside its store (title, cwd) names the session\'s workspace, and its title where the store has none', t => {
	// The Cursor CLI keeps `chats/<md5 of the workspace>/<chat id>/meta.json` with the chat's title
	// (rewritten by /rename, mirrored as the store's meta name) and its `cwd`: the workspace
	// itself, where the project slug only spells it lossily.
	const home = join(tempDir(t), '.cursor');
	const id = '5c7e9a1b-3d4f-4a6b-8c0d-2e4f6a8b0c55';
	const transcripts = join(home, 'projects', 'srv-cider-press', 'agent-transcripts', id);
	mkdirSync(transcripts, {recursive: true});
	writeFileSync(join(transcripts, `${id}.jsonl`), '{"role":"assistant","message":{"content":[{"type":"text","text":"Pressing schedule updated."}]}}\n');
	const chat = join(home, 'chats', '1f3870be274f6c49b3e31a0c6728957f', id);
	mkdirSync(chat, {recursive: true});
	writeFileSync(join(chat, 'meta.json'), JSON.stringify({title: 'Cider press schedule', cwd: '/srv/cider.press', updatedAtMs: 1796400000000}));
	const [unit] = discoverCursor(join(home, 'projects')).map(wholeUnit);
	assert.equal(unit?.projectHint, '/srv/cider.press', 'the cwd meta.json states, which the slug srv-cider-press alone cannot tell from /srv/cider-press');
	const [session] = readStore(cursorAdapter, home);
	assert.equal(session?.summary.project, '/srv/cider.press');
	assert.equal(session?.summary.title, 'Cider press schedule');
});

test('cursor format: a Shell result\'s exit status is the "Exit code: N" line its template opens with, not one the command printed; a file read that mentions an exit code is no failure', () => {
	// Cursor's Shell template: "Exit code: N", "Command output:" and the fenced output, "Command completed in … ms."
	// (other readers' tests of it, e.g. a shell-output compressor's extract_shell_output_strips_wrapper).
	const kiln = 'e2c4a6b8-7d1f-4a3c-9e5b-6f8a0c2e4d71';
	const read = readUnit(cursorAdapter, looseUnit(join(root, '..', 'exit-status', `${kiln}.jsonl`), {idHint: kiln}));
	assert.equal(read.loaded.skipped, 0);
	assert.deepEqual(
		read.events.filter(event => event.kind === 'tool_result').map(event => [event.result?.call_id, event.result?.is_error, event.result?.exit_code]),
		[
			['tool_k1', false, undefined],
			['tool_k2', false, 0],
			['tool_k3', true, 2],
		],
	);
});

test('cursor format: images a prompt attached (an [Image] line each, and <image_files> listing where Cursor saved them) are noted after the request, no path copied; an image alone is a request whose text is its note', () => {
	// Cursor writes a pasted image into the user turn as "[Image]" before an <image_files> block ("The following images
	// were provided by the user and saved to the workspace…", a numbered list of paths under ~/.cursor/projects/<slug>/assets),
	// then the <user_query>: the shape third-party Cursor readers strip (a Rust session indexer's CURSOR_META_BLOCKS and its
	// "[Image]" prefix test; a transcript viewer's extractImages reading the numbered asset paths).
	const mosaic = 'd7e9f1a3-5b6c-4d8e-9f01-2a3b4c5d6e44';
	const read = readUnit(cursorAdapter, looseUnit(join(root, 'home-dev-mosaic', 'agent-transcripts', mosaic, `${mosaic}.jsonl`), {idHint: mosaic}));
	assert.deepEqual(
		read.events.filter(event => event.kind === 'user').map(event => [event.line, event.human, event.text]),
		[
			[1, true, 'The grout lines in the tile preview are uneven, compare these two renders.\n[image]\n[image]'],
			[4, true, '[image]'],
		],
	);
	assert.equal(read.events.find(event => event.line === 4 && event.kind === 'user')?.timestamp, '2026-12-04T08:15:00.000Z', 'the image-only request keeps the time its turn states');
	assert.equal(read.summary.human_turns, 2);
	assert.equal(read.summary.title, 'The grout lines in the tile preview are uneven, compare these two renders. [image] [image]');
	assert.doesNotMatch(JSON.stringify(read.events), /assets|image-0a1b|image_files|\[Image\]/);
});

test('cursor format: a chat whose directory holds meta.json but no store.db takes its start from meta.json\'s createdAtMs', t => {
	// deja-vu #3772 (cursor-agent 2026.09): `chats/<md5>/<id>/meta.json` states schemaVersion,
	// createdAtMs and updatedAtMs, and many chats keep it without a store.db beside it.
	const home = join(tempDir(t), '.cursor');
	const id = '7a1c3e5f-9b2d-4f60-8a4c-6e8f0a2b4c77';
	const transcripts = join(home, 'projects', 'srv-loom', 'agent-transcripts', id);
	mkdirSync(transcripts, {recursive: true});
	writeFileSync(join(transcripts, `${id}.jsonl`), '{"role":"user","message":{"content":[{"type":"text","text":"<user_query>\\nWhy does the loom scheduler skip the first shift?\\n</user_query>"}]}}\n');
	const chat = join(home, 'chats', '9e107d9d372bb6826bd81d3542a419d6', id);
	mkdirSync(chat, {recursive: true});
	writeFileSync(join(chat, 'meta.json'), JSON.stringify({schemaVersion: 1, createdAtMs: 1796500000000, updatedAtMs: 1796500600000, cwd: '/srv/loom'}));
	const [session] = readStore(cursorAdapter, home);
	assert.equal(session?.summary.started, new Date(1796500000000).toISOString());
	assert.equal(session?.summary.project, '/srv/loom');
});

test('cursor format: a transcript of cursor-agent run outside any workspace (projects/agent-transcripts/<id>/) is a session, and the projects beside it are still read', () => {
	// codeburn PR #542: cursor-agent run with no workspace writes `projects/agent-transcripts/<id>/<id>.jsonl`,
	// the projects directory standing in for a workspace's; every other chat keeps its own
	// `projects/<slug>/agent-transcripts/`. The folder named `projects` spells no workspace.
	const projects = fileURLToPath(new URL('../fixtures/format-cases/cursor/workspace-less/projects', import.meta.url));
	const units = discoverCursor(projects).map(wholeUnit);
	assert.deepEqual(units.map(unit => unit.idHint).sort(), ['3d5f7b9d-1e2a-4c4e-8f6a-0b2c4d6e8f10', '7f9b1d3f-5a6c-4e8a-9c0e-2d4f6a8c0e21']);
	const loose = units.find(unit => unit.idHint === '3d5f7b9d-1e2a-4c4e-8f6a-0b2c4d6e8f10');
	assert.equal(loose?.projectHint, undefined, 'no workspace is claimed for a chat that ran in none');
	const read = readUnit(cursorAdapter, loose!);
	assert.equal(read.summary.title, 'What is the capital of Portugal?');
	assert.equal(read.summary.project, null, 'a path under /projects is no workspace the folder `projects` spells');
});

test('cursor format: CURSOR_CONFIG_DIR, the Cursor CLI\'s documented relocation of ~/.cursor, is where its projects/ store is', () => {
	// vshulcz/deja-vu internal/sources/cursor.go CursorCLIHome: transcripts are read under $CURSOR_CONFIG_DIR/projects;
	// the Cursor CLI reference lists CURSOR_CONFIG_DIR as overriding its config directory (~/.cursor).
	assert.deepEqual(cursorAdapter.defaultRoots({env: {CURSOR_CONFIG_DIR: '/srv/agents/cursor-home'}, home: '/home/dev', platform: 'linux'}), ['/srv/agents/cursor-home/projects']);
	assert.deepEqual(cursorAdapter.defaultRoots({env: {CURSOR_CONFIG_DIR: '  '}, home: '/home/dev', platform: 'linux'}), ['/home/dev/.cursor/projects']);
});

/**
 * A `[Thinking]` block of a text transcript may run on over indented lines (agentsview
 * internal/parser/cursor.go isBlockBodyEnd, cursor_test.go TestExtractAssistantContent "thinking
 * then text": a block's body is its indented or blank lines; the first line at the left margin is
 * reply text again). Those indented lines are reasoning, never a reply to show.
 */
test('cursor format: the indented lines under a .txt [Thinking] marker are its reasoning, never reply text; the next line at the margin is the reply', () => {
	const trellis = join(root, 'home-dev-trellis', 'agent-transcripts');
	const thinkingId = 'd6e8f0a2-3b4c-4d5e-8f6a-7b8c9d0e1f23';
	const read = readUnit(cursorAdapter, looseUnit(join(trellis, `${thinkingId}.txt`), {idHint: thinkingId, variant: 'txt'}));
	assert.deepEqual(
		read.events.filter(event => event.kind === 'assistant').map(event => [event.line, event.text]),
		[
			[11, 'The height check reads the bed config in inches but compares it with centimetres.'],
			[20, 'Converting the config to centimetres when it loads fixes the check.'],
		],
	);
	assert.ok(!read.events.some(event => /some other unit|probably stores|tab-indented/.test(event.text ?? '')), 'reasoning is never shown');
	assert.deepEqual(read.events.filter(event => event.kind === 'tool_call').map(event => [event.line, event.tool?.input]), [[12, {path: '/home/dev/trellis/src/beds.ts'}]]);
	assert.equal(read.loaded.skipped, 0);
});

/**
 * A `[Tool call]` of a text transcript does not always list `key: value` arguments: an
 * ApplyPatch call may hold the raw patch, indented, or a JSON object, and some calls list
 * `key=value` lines (agentsview internal/parser/cursor.go cursorToolInputJSON; cursor_test.go
 * TestExtractAssistantContentCursorApplyPatch, ...DedentsRawPatch, TestExtractAssistantContent
 * "tool call then prose"). Each is the call's input, never lost.
 */
test('cursor format: a .txt tool call whose body is a raw patch, a JSON object or key=value lines keeps it as its input', () => {
	const trellis = join(root, 'home-dev-trellis', 'agent-transcripts');
	const patchId = 'e7f9a1b3-4c5d-4e6f-9a7b-8c9d0e1f2a34';
	const read = readUnit(cursorAdapter, looseUnit(join(trellis, `${patchId}.txt`), {idHint: patchId, variant: 'txt'}));
	assert.deepEqual(
		read.events.filter(event => event.kind === 'tool_call').map(event => [event.line, event.tool?.name, event.tool?.input]),
		[
			[7, 'ApplyPatch', {patch: '*** Begin Patch\n*** Update File: /home/dev/trellis/data/planting.csv\n@@\n-last_frost,04-20\n+last_frost,04-28\n*** End Patch'}],
			[18, 'ApplyPatch', {path: '/home/dev/trellis/README.md', patch: '@@\n-April 20\n+April 28'}],
			[24, 'Shell', {command: 'npm test -- planting', working_directory: '/home/dev/trellis'}],
		],
	);
	assert.equal(read.loaded.skipped, 0);
});

test('cursor format: an editor chat\'s transcript takes its name and start from the editor\'s global state database (cursorDiskKV composerData:<id>), where no chat store names it', t => {
	// The editor's agent transcripts are named by the chat's composer id, and no ~/.cursor/chats
	// store is written for them: the editor keeps the chat's name and creation time (ms) in
	// <User>/globalStorage/state.vscdb, key composerData:<id> (fear-ai/codess CursorSchema.md §2
	// and §4; CursorSessions.md found a transcript and a composerData row of the same id).
	const userHome = tempDir(t);
	const home = join(userHome, '.cursor');
	const named = '3f5b7d91-2a4c-4e6f-8b0d-7c9e1a3b5d66';
	const unnamed = '4a6c8e02-3b5d-4f7a-9c1e-8d0f2b4c6e77';
	const broken = '5b7d9f13-4c6e-4a8b-8d2f-9e1a3c5d7f88';
	for (const session of [named, unnamed, broken]) {
		const transcripts = join(home, 'projects', 'home-dev-foundry', 'agent-transcripts', session);
		mkdirSync(transcripts, {recursive: true});
		// The named chat's transcript holds no request (as where it was cut short): only then is a stored name its title.
		const request = '{"role":"user","message":{"content":[{"type":"text","text":"<user_query>\\nWhy does the kiln sensor drift?\\n</user_query>"}]}}\n';
		writeFileSync(join(transcripts, `${session}.jsonl`), `${session === named ? '' : request}{"role":"assistant","message":{"content":[{"type":"text","text":"The sensor reads 4 degrees high after an hour."}]}}\n`);
	}

	const global = join(userHome, '.config', 'Cursor', 'User', 'globalStorage');
	mkdirSync(global, {recursive: true});
	const db = new Database(join(global, 'state.vscdb'));
	db.exec('CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB); CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)');
	const put = db.prepare('INSERT INTO cursorDiskKV VALUES (?, ?)');
	put.run(`composerData:${named}`, JSON.stringify({_v: 10, composerId: named, name: 'Kiln sensor drift', createdAt: 1796400000000, lastUpdatedAt: 1796400900000, fullConversationHeadersOnly: [{bubbleId: 'b1', type: 1}]}));
	put.run(`composerData:${unnamed}`, Buffer.from(JSON.stringify({_v: 10, composerId: unnamed, createdAt: 1796410000000})));
	put.run(`composerData:${broken}`, '{"name": "torn');
	put.run(`bubbleId:${named}:b1`, JSON.stringify({type: 1, text: 'Why does the kiln sensor drift?'}));
	db.close();

	const sessions = new Map(readStore(cursorAdapter, join(home, 'projects')).map(read => [read.summary.id, read.summary]));
	assert.equal(sessions.get(named)?.title, 'Kiln sensor drift');
	assert.equal(sessions.get(named)?.started, new Date(1796400000000).toISOString());
	assert.equal(sessions.get(unnamed)?.title, 'Why does the kiln sensor drift?', 'no name: the request names it');
	assert.equal(sessions.get(unnamed)?.started, new Date(1796410000000).toISOString(), 'a value stored as a blob reads the same');
	assert.equal(sessions.get(broken)?.title, 'Why does the kiln sensor drift?', 'a value that is not JSON names nothing, and nothing throws');
	assert.notEqual(sessions.get(broken)?.started, new Date(1796400000000).toISOString());

	// The editor rewrites its database all the time: a warm discovery asks it nothing for a
	// transcript that did not change (here the database is gone, and the facts stay).
	const saved = new Map<string, {stamp: string; value: unknown}>();
	const memo = {get: (key: string, stamp: string) => (saved.get(key)?.stamp === stamp ? saved.get(key)?.value : undefined), set: (key: string, stamp: string, value: unknown) => saved.set(key, {stamp, value})};
	const projects = join(home, 'projects');
	const cold = discoverCursor(projects, memo).find(unit => unit.idHint === named);
	rmSync(join(global, 'state.vscdb'));
	const warm = discoverCursor(projects, memo).find(unit => unit.idHint === named);
	assert.deepEqual(warm?.facts, {title: 'Kiln sensor drift', started: new Date(1796400000000).toISOString()});
	assert.equal(warm?.fingerprint, cold?.fingerprint);
});

test('cursor format: an editor chat\'s workspace is the folder its composerHeaders row\'s workspaceId names in workspaceStorage (newer editors), not the slug\'s guess; isArchived marks it archived', t => {
	// Cursor 3.x indexes chats in composerHeaders(composerId, workspaceId, createdAt, …) in the
	// global state.vscdb; workspaceStorage/<workspaceId>/workspace.json names the window's folder
	// (fear-ai/codess CursorSchema.md §2 and §5, CursorSessions.md's composerHeaders DDL).
	const userHome = tempDir(t);
	const home = join(userHome, '.cursor');
	const chat = '6c8e0a24-5d7f-4b9c-8e3a-0f2b4d6e8a99';
	const elsewhere = '7d9f1b35-6e8a-4cad-9f4b-1a3c5e7f9baa';
	const workspace = join(userHome, 'work', 'bell-foundry');
	mkdirSync(workspace, {recursive: true});
	for (const session of [chat, elsewhere]) {
		const transcripts = join(home, 'projects', 'srv-casting-bell-foundry', 'agent-transcripts', session);
		mkdirSync(transcripts, {recursive: true});
		writeFileSync(join(transcripts, `${session}.jsonl`), '{"role":"user","message":{"content":[{"type":"text","text":"<user_query>\\nList the bell molds\\n</user_query>"}]}}\n');
	}

	const user = join(userHome, '.config', 'Cursor', 'User');
	mkdirSync(join(user, 'globalStorage'), {recursive: true});
	mkdirSync(join(user, 'workspaceStorage', 'a1b2c3d4e5f60718293a4b5c6d7e8f90'), {recursive: true});
	writeFileSync(join(user, 'workspaceStorage', 'a1b2c3d4e5f60718293a4b5c6d7e8f90', 'workspace.json'), JSON.stringify({folder: pathToFileURL(workspace).href}));
	const db = new Database(join(user, 'globalStorage', 'state.vscdb'));
	db.exec('CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)');
	db.exec('CREATE TABLE composerHeaders (composerId TEXT PRIMARY KEY, workspaceId TEXT, createdAt INTEGER, lastUpdatedAt INTEGER, isArchived INTEGER, isSubagent INTEGER, recency INTEGER, checkpointAt INTEGER, value TEXT)');
	db.prepare('INSERT INTO composerHeaders (composerId, workspaceId, createdAt, lastUpdatedAt) VALUES (?, ?, ?, ?)').run(chat, 'a1b2c3d4e5f60718293a4b5c6d7e8f90', 1796420000000, 1796420600000);
	db.prepare('INSERT INTO composerHeaders (composerId, workspaceId, createdAt, isArchived) VALUES (?, ?, ?, 1)').run(elsewhere, '../../..', 1796430000000);
	db.close();

	const sessions = new Map(readStore(cursorAdapter, join(home, 'projects')).map(read => [read.summary.id, read.summary]));
	assert.equal(sessions.get(chat)?.project, workspace);
	assert.equal(sessions.get(chat)?.started, new Date(1796420000000).toISOString(), 'the header\'s createdAt, where composerData has none');
	assert.notEqual(sessions.get(elsewhere)?.project, workspace, 'a workspaceId that is no directory name is never followed');
	assert.equal(sessions.get(elsewhere)?.started, new Date(1796430000000).toISOString());
	const units = new Map(discoverCursor(join(home, 'projects')).map(unit => [unit.idHint, unit]));
	assert.equal(units.get(elsewhere)?.archived, true, 'isArchived: the person put the chat away');
	assert.equal(units.get(chat)?.archived ?? false, false);
});

test('cursor format: a chat store kept in WAL mode changes in store.db-wal: a name committed there (store.db untouched until a checkpoint) is read on the next discovery', t => {
	// The Cursor CLI holds store.db open in WAL mode while it runs: every ~/.cursor/chats store has a
	// -wal sibling, and a commit reaches store.db only at a checkpoint (AstroQore/vibe-bar #184; the
	// review of angristan/fast-resume #76 asks for the WAL's mtime for the same reason).
	const home = join(tempDir(t), '.cursor');
	const session = '7c9e1b24-5d6f-4a8b-9c0d-2e4f6a8c0b33';
	const transcripts = join(home, 'projects', 'home-dev-pottery', 'agent-transcripts', session);
	mkdirSync(transcripts, {recursive: true});
	writeFileSync(join(transcripts, `${session}.jsonl`), '{"role":"assistant","message":{"content":[{"type":"text","text":"The glaze batch needs 120 g of silica."}]}}\n');
	const directory = join(home, 'chats', '5d41402abc4b2a76b9719d911017c592', session);
	mkdirSync(directory, {recursive: true});
	const writer = new Database(join(directory, 'store.db'));
	t.after(() => writer.close());
	writer.pragma('journal_mode = WAL');
	writer.exec('CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT); CREATE TABLE blobs (id TEXT PRIMARY KEY, data BLOB)');
	const setName = (name: string) => writer.prepare('INSERT OR REPLACE INTO meta VALUES (?, ?)').run('0', Buffer.from(JSON.stringify({agentId: session, name, mode: 'default', createdAt: 1796500000000})).toString('hex'));
	setName('Glaze batch sizes');
	writer.pragma('wal_checkpoint(TRUNCATE)'); // The store as a checkpoint left it: the name is in store.db.
	const saved = new Map<string, {stamp: string; value: unknown}>();
	const memo = {get: (key: string, stamp: string) => (saved.get(key)?.stamp === stamp ? saved.get(key)?.value : undefined), set: (key: string, stamp: string, value: unknown) => saved.set(key, {stamp, value})};
	const projects = join(home, 'projects');
	const before = discoverCursor(projects, memo).find(unit => unit.idHint === session);
	assert.equal(before?.facts?.title, 'Glaze batch sizes');
	setName('Silica in the glaze batch'); // A rename committed into the WAL only.
	const after = discoverCursor(projects, memo).find(unit => unit.idHint === session);
	assert.equal(after?.facts?.title, 'Silica in the glaze batch');
	assert.notEqual(after?.fingerprint, before?.fingerprint, 'what discovery adds changed: the session is read again');
});

/**
 * Cursor's `<timestamp>` tag may state seconds too (`9:04:27 AM`): tuo-lei/vibe-replay
 * `packages/provider-cursor/src/cursor/sanitize.ts` reads the minute's seconds as optional, and
 * its `test/jsonl-parser-comprehensive.test.ts` has a turn stamped `12:00:10 AM (UTC-7)`.
 */
test('cursor format: a <timestamp> tag that states seconds is still the turn\'s time', async () => {
	const {cursorSentAt} = await import('../../source/adapters/cursor/normalize.js');
	assert.equal(cursorSentAt('Saturday, Oct 3, 2026, 9:04:27 AM (UTC+2)'), '2026-10-03T07:04:27.000Z');
	assert.equal(cursorSentAt('Saturday, Oct 3, 2026, 9:04:60 AM (UTC+2)'), undefined, 'no 60th second');
	const lanternId = '3c5e7a9b-1d2f-4a6c-8e0b-2d4f6a8c0e13';
	const lantern = join(root, 'home-dev-lantern', 'agent-transcripts', lanternId, `${lanternId}.jsonl`);
	const read = readUnit(cursorAdapter, looseUnit(lantern, {idHint: lanternId}));
	assert.deepEqual(
		read.events.filter(event => event.kind === 'user').map(event => [event.line, event.text, event.timestamp]),
		[
			[1, 'Why does the lantern dimmer flicker at 40 percent?', '2026-10-03T07:04:27.000Z'],
			[4, 'Now add a test for 40 percent.', '2026-10-03T10:00:05.000Z'],
		],
	);
	assert.ok(!read.events.some(event => (event.text ?? '').includes('<timestamp>')), 'the tag is never text');
	assert.deepEqual([read.summary.started, read.summary.modified], ['2026-10-03T07:04:27.000Z', '2026-10-03T10:00:05.000Z']);
});

/**
 * Transcripts that stamp each line with an ISO `timestamp` (user, assistant and tool-result
 * lines alike): tuo-lei/vibe-replay `packages/provider-cursor/src/cursor/parser.ts` takes a
 * line's `timestamp` as its turn's time and a result line's as the result's, and its tests
 * (`test/jsonl-parser-comprehensive.test.ts`, `test/subagent-transcript.test.ts`) write such
 * lines. A value that is no time is ignored.
 */
test('cursor format: a line\'s own `timestamp` is the time of its rows; a value that is no time is ignored', () => {
	const beaconId = '4d6f8b0c-2e3a-4b7d-9f1c-3e5a7b9d1f24';
	const beacon = join(root, 'home-dev-beacon', 'agent-transcripts', beaconId, `${beaconId}.jsonl`);
	const read = readUnit(cursorAdapter, looseUnit(beacon, {idHint: beaconId}));
	assert.deepEqual(
		read.events.filter(event => event.kind !== 'meta').map(event => [event.line, event.kind, event.timestamp]),
		[
			[1, 'user', '2026-10-05T08:30:00.000Z'],
			[2, 'assistant', '2026-10-05T08:30:04.250Z'],
			[2, 'tool_call', '2026-10-05T08:30:04.250Z'],
			[3, 'tool_result', '2026-10-05T08:30:05.000Z'],
			[4, 'assistant', '2026-10-05T08:30:09.500Z'],
			[6, 'user', undefined],
			[7, 'assistant', undefined],
		],
	);
	assert.equal(read.summary.started, '2026-10-05T08:30:00.000Z');
});

/**
 * An image a prompt attached, written as an Anthropic-style content block beside the text
 * (`{type: "image", source: {type: "base64", media_type, data}}`) rather than as an
 * `<image_files>` listing: tuo-lei/vibe-replay `packages/provider-cursor/src/cursor/parser.ts`
 * reads such blocks on user lines as the prompt's images (its
 * `test/jsonl-parser-comprehensive.test.ts`, "direct image block"). Noted, never copied; an
 * image sent alone is still a request.
 */
test('cursor format: an image block on a user line is noted after its request by media type, its data never copied; an image alone is a request', () => {
	const prismId = '5e7a9c1d-3f4b-4c8e-a02d-4f6b8c0e2a35';
	const prism = join(root, 'home-dev-prism', 'agent-transcripts', prismId, `${prismId}.jsonl`);
	const read = readUnit(cursorAdapter, looseUnit(prism, {idHint: prismId}));
	assert.deepEqual(
		read.events.filter(event => event.kind === 'user').map(event => [event.line, event.human, event.text]),
		[
			[1, true, 'The legend overlaps the chart in this screenshot, can you fix the layout?\n[image: image/png]'],
			[3, true, '[image: image/jpeg]'],
		],
	);
	assert.equal(read.summary.human_turns, 2);
	assert.doesNotMatch(JSON.stringify(read.events), /PRISM/);
});

/**
 * A tool result that holds an image (a browser screenshot) as an Anthropic-style image block
 * among its content: tuo-lei/vibe-replay packages/provider-cursor/src/cursor/parser.ts reads
 * `image` blocks with `source.data` in a Cursor tool_result's content as the result's images
 * (extractToolResultImages). Noted by media type, the payload never copied into the output.
 */
test('cursor format: an image in a tool result is noted by its media type, its base64 never copied', () => {
	const easelId = '6f8b0d2e-4a5c-4d9f-b13e-5a7c9e1f3b46';
	const easel = join(root, 'home-dev-easel', 'agent-transcripts', easelId, `${easelId}.jsonl`);
	const read = readUnit(cursorAdapter, looseUnit(easel, {idHint: easelId}));
	const outputs = read.events.filter(event => event.kind === 'tool_result').map(event => event.result?.output);
	assert.deepEqual(outputs, ['Captured the page.\n[image: image/png]', '[image: image/jpeg]']);
	assert.doesNotMatch(JSON.stringify(read.events), /EASELSHOT/);
});

test('cursor format: the workspacePath a chat store\'s meta row states is the session\'s workspace where no meta.json names one; meta.json\'s cwd still comes first', t => {
	// The CLI's agent record (store.db meta '0') carries `workspacePath` beside name and createdAt
	// (skillsynchq/txcript docs/formats/cursor.md: its cwd comes from it). A chat directory may
	// hold the store without meta.json; the slug srv-malt-house alone cannot tell /srv/malt.house
	// from /srv/malt-house.
	const home = join(tempDir(t), '.cursor');
	const id = '3b5d7f91-4a6c-4e8b-9d1f-2c4e6a8b0d66';
	const other = '7d9f1b35-6c8e-4a2b-8f3d-4e6a8c0b2d77';
	const transcripts = join(home, 'projects', 'srv-malt-house', 'agent-transcripts');
	for (const chat of [id, other]) {
		mkdirSync(join(transcripts, chat), {recursive: true});
		writeFileSync(join(transcripts, chat, `${chat}.jsonl`), '{"role":"assistant","message":{"content":[{"type":"text","text":"Kiln temperatures logged."}]}}\n');
	}

	writeChatStore(home, id, {agentId: id, name: 'Kiln log', mode: 'default', createdAt: 1796410000000, workspacePath: '/srv/malt.house', lastUsedModel: 'composer-2'});
	writeChatStore(home, other, {agentId: other, name: 'Kiln log 2', mode: 'default', createdAt: 1796410005000, workspacePath: '/srv/malt.house'});
	writeFileSync(join(home, 'chats', '5d41402abc4b2a76b9719d911017c592', other, 'meta.json'), JSON.stringify({title: 'Kiln log 2', cwd: '/srv/malt.house/kiln'}));
	const units = new Map(discoverCursor(join(home, 'projects')).map(wholeUnit).map(unit => [unit.idHint, unit]));
	assert.equal(units.get(id)?.projectHint, '/srv/malt.house', 'the workspace the store states');
	assert.equal(units.get(other)?.projectHint, '/srv/malt.house/kiln', 'meta.json\'s cwd over the store\'s');
	const sessions = new Map(readStore(cursorAdapter, home).map(read => [read.summary.id, read.summary]));
	assert.equal(sessions.get(id)?.project, '/srv/malt.house');
	assert.equal(sessions.get(id)?.title, 'Kiln log');
});

test('cursor format: a store meta workspacePath that is not an absolute path, or not a string, names no workspace', t => {
	const home = join(tempDir(t), '.cursor');
	const ids = ['1a3c5e79-2b4d-4f6a-8c0e-9d1f3b5a7c88', '2b4d6f8a-3c5e-4a7b-9d1f-0e2a4c6b8d99'];
	const transcripts = join(home, 'projects', 'srv-oast', 'agent-transcripts');
	for (const chat of ids) {
		mkdirSync(join(transcripts, chat), {recursive: true});
		writeFileSync(join(transcripts, chat, `${chat}.jsonl`), '{"role":"assistant","message":{"content":[{"type":"text","text":"Done."}]}}\n');
	}

	writeChatStore(home, ids[0]!, {agentId: ids[0], name: 'Relative', createdAt: 1796410000000, workspacePath: 'oast/house'});
	writeChatStore(home, ids[1]!, {agentId: ids[1], name: 'Object', createdAt: 1796410000000, workspacePath: {path: '/srv/oast'}});
	const units = discoverCursor(join(home, 'projects')).map(wholeUnit);
	assert.deepEqual(units.map(unit => unit.projectHint), [undefined, undefined]);
	assert.deepEqual(units.map(unit => unit.facts?.title).sort(), ['Object', 'Relative'], 'the rest of the record still read');
});

test('cursor format: an editor chat\'s composerHeaders value (the chat\'s head: name, workspaceIdentifier.uri) names it and its workspace where composerData and workspace.json do not', t => {
	// Cursor 3.x keeps each chat's head as JSON in composerHeaders.value: `{"type":"head", name,
	// workspaceIdentifier: {uri: {fsPath, scheme, …}}, isArchived, …}` (skillsynchq/txcript
	// docs/formats/cursor-desktop.md: the title is the head's name, the cwd its
	// workspaceIdentifier.uri.fsPath). A window with no workspace.json to read (an `empty-window`
	// id, or a storage directory since cleaned) still has its workspace in the head.
	const userHome = tempDir(t);
	const home = join(userHome, '.cursor');
	const headed = '8e0a2c46-7f9b-4d1e-a5c7-2b4d6f8a0c11';
	const remote = '9f1b3d57-8a0c-4e2f-b6d8-3c5e7a9b1d22';
	const notJson = 'a02c4e68-9b1d-4f3a-87e9-4d6f8b0c2e33';
	const workspace = join(userHome, 'work', 'rope.walk');
	mkdirSync(workspace, {recursive: true});
	for (const session of [headed, remote, notJson]) {
		const transcripts = join(home, 'projects', 'srv-ropery', 'agent-transcripts', session);
		mkdirSync(transcripts, {recursive: true});
		writeFileSync(join(transcripts, `${session}.jsonl`), '{"role":"assistant","message":{"content":[{"type":"text","text":"The tension table is sorted."}]}}\n');
	}

	const user = join(userHome, '.config', 'Cursor', 'User');
	mkdirSync(join(user, 'globalStorage'), {recursive: true});
	const db = new Database(join(user, 'globalStorage', 'state.vscdb'));
	db.exec('CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)');
	db.exec('CREATE TABLE composerHeaders (composerId TEXT PRIMARY KEY, workspaceId TEXT, createdAt INTEGER, lastUpdatedAt INTEGER, isArchived INTEGER, isSubagent INTEGER, recency INTEGER, checkpointAt INTEGER, value TEXT)');
	const head = (name: string, uri: Record<string, unknown>) => JSON.stringify({type: 'head', composerId: 'x', name, workspaceIdentifier: {id: 'b2c3d4e5f60718293a4b5c6d7e8f90a1', uri: {$mid: 1, ...uri}}, isArchived: false});
	const insert = db.prepare('INSERT INTO composerHeaders (composerId, workspaceId, createdAt, value) VALUES (?, ?, ?, ?)');
	insert.run(headed, 'empty-window', 1796440000000, head('Rope tension table', {fsPath: workspace, external: pathToFileURL(workspace).href, path: workspace, scheme: 'file'}));
	insert.run(remote, 'b2c3d4e5f60718293a4b5c6d7e8f90a1', 1796440005000, head('Remote ropes', {fsPath: '/srv/ropery', path: '/srv/ropery', scheme: 'vscode-remote', authority: 'ssh-remote+mill'}));
	insert.run(notJson, 'empty-window', 1796440010000, '{"type":"head","name":"torn');
	db.close();

	const units = new Map(discoverCursor(join(home, 'projects')).map(wholeUnit).map(unit => [unit.idHint, unit]));
	assert.equal(units.get(headed)?.projectHint, workspace, 'the head\'s workspace, over the slug srv-ropery');
	assert.equal(units.get(headed)?.facts?.title, 'Rope tension table');
	assert.notEqual(units.get(remote)?.projectHint, '/srv/ropery', 'a remote workspace is no path on this machine');
	assert.equal(units.get(remote)?.facts?.title, 'Remote ropes');
	assert.equal(units.get(notJson)?.facts?.title, undefined, 'a head that is not JSON names nothing');
	assert.equal(units.get(notJson)?.facts?.started, new Date(1796440010000).toISOString(), 'and the header\'s own columns still count');
});

test('cursor format: a Windows workspace\'s slug opens with its drive letter (c-Users-…): on Windows the walk for it starts at that drive\'s root, elsewhere it is no path', () => {
	// Cursor spells C:\Users\dev\rope as c-Users-dev-rope (nick-fullpath/cursor-history lib/paths.py
	// takes a first single-letter word as the drive and rebuilds the path from C:/). The walk
	// began at the root of the current drive with the letter as a directory name, so no
	// workspace on Windows was ever found by its slug.
	assert.deepEqual(slugWalkStart('c-Users-dev-rope', true), ['C:\\', 'Users-dev-rope']);
	assert.deepEqual(slugWalkStart('d-src-mill', true), ['D:\\', 'src-mill']);
	assert.equal(slugWalkStart('c-Users-dev-rope', false), undefined, 'another machine\'s drive: not a path here');
	assert.deepEqual(slugWalkStart('home-dev-rope', false), ['/', 'home-dev-rope']);
	assert.equal(slugWalkStart('c-', true), undefined, 'a drive alone is no workspace');
});

test('cursor format: a workspace reached through a symbolic link (macOS /var and /tmp, a linked code folder) is found by its slug', t => {
	// Cursor spells the workspace path as the agent was given it, links and all: on macOS /var and
	// /tmp are links to /private/…, and nick-fullpath/cursor-history lib/paths.py resolves slugs
	// with os.path.exists (which follows links), with a shortcut for var-… slugs. The walk skipped
	// every entry that was a link, so no such workspace was ever found.
	const base = tempDir(t);
	mkdirSync(join(base, 'volume', 'rope-walk'), {recursive: true});
	symlinkSync(join(base, 'volume'), join(base, 'code'), 'dir');
	writeFileSync(join(base, 'notes'), 'not a directory');
	symlinkSync(join(base, 'notes'), join(base, 'linked-notes'));
	symlinkSync(join(base, 'nowhere'), join(base, 'dangling'));
	const workspace = join(base, 'code', 'rope-walk');
	assert.equal(localWorkspace(cursorSlug(workspace)), workspace, 'the path as spelled, through the link');
	assert.equal(localWorkspace(cursorSlug(join(base, 'linked-notes'))), undefined, 'a link to a file is no workspace');
	assert.equal(localWorkspace(cursorSlug(join(base, 'dangling'))), undefined, 'nor is a dangling link');
});

test('cursor format: the editor\'s global state database is found where Electron keeps app data ($XDG_CONFIG_HOME, %APPDATA%, a CURSOR_CONFIG_DIR home), not only beside the home ~/.cursor sits in', t => {
	// Cursor is an Electron app: its `User` directory is under Electron's appData, `%APPDATA%\Cursor\User`
	// on Windows (melagiri/code-insights cli/src/providers/cursor.ts getCursorDataDir and
	// docs/MULTI-TOOL-VISION.md) and `$XDG_CONFIG_HOME/Cursor/User` on Linux when that is set
	// (Electron's app.getPath('appData')); neither need sit beside ~/.cursor.
	const chat = '8e0a2c46-7f9b-4dce-a05c-2b4d6f8a0cbb';
	const cases: Array<{label: string; platform: NodeJS.Platform; env: (userHome: string) => Record<string, string>; appData: (userHome: string) => string; cursorHome?: (userHome: string) => string}> = [
		{label: 'XDG_CONFIG_HOME', platform: 'linux', env: userHome => ({XDG_CONFIG_HOME: join(userHome, 'dotconfig')}), appData: userHome => join(userHome, 'dotconfig')},
		{label: 'APPDATA', platform: 'win32', env: userHome => ({APPDATA: join(userHome, 'roaming-profile')}), appData: userHome => join(userHome, 'roaming-profile')},
		{
			label: 'CURSOR_CONFIG_DIR',
			platform: 'linux',
			env: userHome => ({CURSOR_CONFIG_DIR: join(userHome, 'tools', 'cursor-cfg')}),
			appData: userHome => join(userHome, '.config'),
			cursorHome: userHome => join(userHome, 'tools', 'cursor-cfg'),
		},
	];
	for (const shape of cases) {
		const userHome = tempDir(t);
		const home = shape.cursorHome?.(userHome) ?? join(userHome, '.cursor');
		const transcripts = join(home, 'projects', 'home-dev-loom', 'agent-transcripts', chat);
		mkdirSync(transcripts, {recursive: true});
		writeFileSync(join(transcripts, `${chat}.jsonl`), '{"role":"assistant","message":{"content":[{"type":"text","text":"The warp tension is set."}]}}\n');
		const global = join(shape.appData(userHome), 'Cursor', 'User', 'globalStorage');
		mkdirSync(global, {recursive: true});
		const db = new Database(join(global, 'state.vscdb'));
		db.exec('CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)');
		db.prepare('INSERT INTO cursorDiskKV VALUES (?, ?)').run(`composerData:${chat}`, JSON.stringify({_v: 10, composerId: chat, name: 'Loom warp tension', createdAt: 1796500000000}));
		db.close();

		const roots = cursorAdapter.defaultRoots({env: shape.env(userHome), home: userHome, platform: shape.platform});
		assert.deepEqual(roots, [join(home, 'projects')], shape.label);
		const read = roots.flatMap(root => cursorAdapter.discover(root).map(wholeUnit)).map(unit => readUnit(cursorAdapter, unit));
		assert.equal(read[0]?.summary.title, 'Loom warp tension', shape.label);
		assert.equal(read[0]?.summary.started, new Date(1796500000000).toISOString(), shape.label);
	}
});

test('cursor format: an editor chat made in a window opened on a .code-workspace file takes the one folder that file lists as its workspace', t => {
	// A window opened on a workspace file records `{"workspace": "file:///…/<name>.code-workspace"}`
	// in workspaceStorage/<id>/workspace.json, not `folder` (the same store VS Code keeps; the
	// VS Code reader already follows it): the file's one `folders` entry is the workspace.
	const userHome = tempDir(t);
	const home = join(userHome, '.cursor');
	const chat = '9f1b3d57-8a0c-4e2f-b16d-3c5e7f9a1bcc';
	const workspace = join(userHome, 'work', 'tide-gauge');
	mkdirSync(workspace, {recursive: true});
	const configFile = join(userHome, 'work', 'gauge.code-workspace');
	// JSON with comments and a trailing comma, as VS Code writes and reads it; the path is relative to the file.
	writeFileSync(configFile, '{\n\t// the one root\n\t"folders": [{"path": "tide-gauge"},],\n}\n');
	const transcripts = join(home, 'projects', 'srv-harbour-tide-gauge', 'agent-transcripts', chat);
	mkdirSync(transcripts, {recursive: true});
	writeFileSync(join(transcripts, `${chat}.jsonl`), '{"role":"user","message":{"content":[{"type":"text","text":"<user_query>\\nRead the gauge log\\n</user_query>"}]}}\n');

	const user = join(userHome, '.config', 'Cursor', 'User');
	const storage = join(user, 'workspaceStorage', 'b2c3d4e5f60718293a4b5c6d7e8f90a1');
	mkdirSync(join(user, 'globalStorage'), {recursive: true});
	mkdirSync(storage, {recursive: true});
	writeFileSync(join(storage, 'workspace.json'), JSON.stringify({workspace: pathToFileURL(configFile).href}));
	const db = new Database(join(user, 'globalStorage', 'state.vscdb'));
	db.exec('CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)');
	db.exec('CREATE TABLE composerHeaders (composerId TEXT PRIMARY KEY, workspaceId TEXT, createdAt INTEGER, lastUpdatedAt INTEGER, isArchived INTEGER)');
	db.prepare('INSERT INTO composerHeaders (composerId, workspaceId, createdAt) VALUES (?, ?, ?)').run(chat, 'b2c3d4e5f60718293a4b5c6d7e8f90a1', 1796600000000);
	db.close();

	const [read] = readStore(cursorAdapter, join(home, 'projects'));
	assert.equal(read?.summary.project, workspace);
});

test('cursor format: a message whose content is one block object, not a list of them, is read as that block', () => {
	// The Claude-style content Cursor's agent transcripts share may hold a lone block without its
	// list (Atituiset/agent-session-format tests/claude-code.test.ts, "single-block (non-array) content").
	const furnaceId = '6f2b8d40-1a3c-4e5f-9b7d-0c2e4a6b8d13';
	const read = readUnit(cursorAdapter, looseUnit(join(root, 'home-dev-furnace', 'agent-transcripts', furnaceId, `${furnaceId}.jsonl`), {idHint: furnaceId}));
	assert.equal(read.summary.title, 'Why is the furnace schedule off by an hour in March?');
	assert.equal(read.summary.human_turns, 1);
	assert.deepEqual(
		read.events.filter(event => event.kind !== 'meta').map(event => [event.line, event.kind, event.text ?? event.tool?.name]),
		[
			[1, 'user', 'Why is the furnace schedule off by an hour in March?'],
			[2, 'tool_call', 'ReadFile'],
			[3, 'assistant', 'It adds a fixed UTC offset; the switch to summer time moves the local hour.'],
		],
	);
});

test('cursor format: the model a chat store\'s meta names (lastUsedModel) is the session\'s model; "default", Cursor\'s Auto, names none', t => {
	// The Cursor CLI's store.db meta row '0' holds {agentId, name, createdAt, workspacePath,
	// lastUsedModel, latestRootBlobId, mode, …}; readers of it take the chat's model from
	// lastUsedModel. Found auditing NazmusSayad/mytokens (its Claude, Codex and Copilot readers take
	// each session's model from the records; engi's Cursor reader named none from any field).
	const home = join(tempDir(t), '.cursor');
	const named = '3e5a7c91-2b4d-4f6a-8c0e-1d3f5b7d9a61';
	const auto = '5f7b9d13-4c6e-4a8b-9d1f-2e4a6c8e0b72';
	for (const id of [named, auto]) {
		const transcripts = join(home, 'projects', 'home-dev-loom', 'agent-transcripts', id);
		mkdirSync(transcripts, {recursive: true});
		writeFileSync(join(transcripts, `${id}.jsonl`), '{"role":"user","message":{"content":[{"type":"text","text":"<user_query>\\nWhy is the warp tension uneven?\\n</user_query>"}]}}\n');
	}

	writeChatStore(home, named, {agentId: named, name: 'Warp tension', mode: 'default', createdAt: 1796400000000, lastUsedModel: 'gpt-5.1-codex-high'});
	writeChatStore(home, auto, {agentId: auto, name: 'Warp tension again', mode: 'default', createdAt: 1796400100000, lastUsedModel: 'default'});
	const units = new Map(discoverCursor(join(home, 'projects')).map(wholeUnit).map(unit => [unit.idHint, unit]));
	assert.equal(units.get(named)?.facts?.model, 'gpt-5.1-codex-high');
	assert.equal(units.get(auto)?.facts?.model, undefined);
	assert.equal(units.get(auto)?.facts?.title, 'Warp tension again');
});

test('cursor format: an editor chat\'s model is its composerData modelConfig.modelName; "default" (Auto) or a malformed modelConfig names none', t => {
	// The editor's composerData:<id> value holds `modelConfig: {modelName, maxMode, selectedModels?}`
	// beside name and createdAt; readers of state.vscdb take the chat's model from modelName. Found
	// auditing NazmusSayad/mytokens (its readers name each session's model; engi's Cursor reader
	// named none for an editor chat).
	const userHome = tempDir(t);
	const home = join(userHome, '.cursor');
	const chosen = '6c8e0a24-5d7f-4b9c-8e1a-0f2b4d6e8a91';
	const auto = '7d9f1b35-6e8a-4c0d-9f2b-1a3c5e7f9ba2';
	const odd = '8e0a2c46-7f9b-4d1e-8a3c-2b4d6f8a0cb3';
	for (const session of [chosen, auto, odd]) {
		const transcripts = join(home, 'projects', 'home-dev-pottery', 'agent-transcripts', session);
		mkdirSync(transcripts, {recursive: true});
		writeFileSync(join(transcripts, `${session}.jsonl`), '{"role":"user","message":{"content":[{"type":"text","text":"<user_query>\\nWhy does the wheel wobble?\\n</user_query>"}]}}\n');
	}

	const global = join(userHome, '.config', 'Cursor', 'User', 'globalStorage');
	mkdirSync(global, {recursive: true});
	const db = new Database(join(global, 'state.vscdb'));
	db.exec('CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB); CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)');
	const put = db.prepare('INSERT INTO cursorDiskKV VALUES (?, ?)');
	put.run(`composerData:${chosen}`, JSON.stringify({_v: 13, composerId: chosen, createdAt: 1796500000000, modelConfig: {modelName: 'gpt-5.1-codex', maxMode: false}}));
	put.run(`composerData:${auto}`, JSON.stringify({_v: 13, composerId: auto, createdAt: 1796500100000, modelConfig: {modelName: 'default', maxMode: false}}));
	put.run(`composerData:${odd}`, JSON.stringify({_v: 13, composerId: odd, createdAt: 1796500200000, modelConfig: {modelName: {id: 7}}}));
	db.close();

	const units = new Map(discoverCursor(join(home, 'projects')).map(wholeUnit).map(unit => [unit.idHint, unit]));
	assert.equal(units.get(chosen)?.facts?.model, 'gpt-5.1-codex');
	assert.equal(units.get(auto)?.facts?.model, undefined);
	assert.equal(units.get(odd)?.facts?.model, undefined);
	assert.equal(units.get(odd)?.facts?.started, new Date(1796500200000).toISOString());
});
