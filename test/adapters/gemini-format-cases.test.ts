import assert from 'node:assert/strict';
import {cpSync, mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {geminiAdapter} from '../../source/adapters/gemini/index.js';
import {looseUnit, readStore, readUnit} from '../helpers/adapters.js';
import {runCli, sandboxEnv} from '../helpers/cli.js';
import {tempDir} from '../helpers/temp.js';

/**
 * Gemini CLI format features found in gemini-cli's own recorder (packages/core/src/services/
 * chatRecordingService.ts) and in other projects' readers of its chats. Every fixture line is
 * invented; only the record shapes are the CLI's.
 */
const cases = join(import.meta.dirname, '..', 'fixtures', 'format-cases', 'gemini');
const read = (name: string) => readUnit(geminiAdapter, looseUnit(join(cases, name)));

test('gemini format: $patch records (updates, removeIds, orderIds) are replayed as the CLI replays them, not skipped', () => {
	const chat = read('session-2026-11-21T14-00-a7c4e2f0.jsonl');
	assert.equal(chat.loaded.skipped, 0, 'a $patch is a record of the format, not a malformed line');
	assert.deepEqual(chat.loaded.warnings, []);
	const texts = chat.events.filter(event => event.kind === 'user' || event.kind === 'assistant').map(event => event.text);
	assert.ok(!texts.includes('Try a rounding fix'), 'removeIds takes the failed request out of the conversation');
	assert.ok(!texts.includes('Rounding each row to cents now.'));
	assert.ok(texts.includes('Switched the ledger to integer cents; totals now match.'), 'an update replaces the content');
	assert.ok(!texts.includes('Switched the ledger to integer cents.'));
	assert.equal(chat.summary.title, 'Find why the ledger totals drift');
	assert.equal(chat.summary.human_turns, 2);
	const results = chat.events.filter(event => event.kind === 'tool_result');
	assert.deepEqual(
		results.map(event => [event.result?.call_id, event.result?.output, event.result?.is_error]),
		[
			['grep-1', 'src/ledger.ts:12: total += row.amount', false],
			['read-2', 'export function sum(rows) { let total = 0; }', false],
		],
		'an updated result holding the whole response turn still gives each call its own response',
	);
});

test('gemini format: a tool call whose result holds its siblings\' responses gets only its own output and error', () => {
	const chat = read('session-2026-11-22T10-00-b8d5f3a1.jsonl');
	const results = chat.events.filter(event => event.kind === 'tool_result');
	assert.deepEqual(
		results.map(event => [event.result?.call_id, event.result?.is_error, event.result?.output]),
		[
			['read_file-1', false, '{"name":"a"}'],
			['write_file-2', true, "EACCES: permission denied, open '/work/kit/dist/a.json'"],
		],
	);
});

test('gemini format: hook and IDE context the CLI records as user messages is never a human request', () => {
	const chat = read('session-2026-11-23T08-00-c9e6a4b2.jsonl');
	const users = chat.events.filter(event => event.kind === 'user');
	assert.deepEqual(
		users.map(event => [event.uuid, event.human]),
		[
			['h-ctx', false],
			['h-hook', false],
			['h-ide', false],
			['h-u1', true],
			['h-ide2', false],
		],
	);
	assert.equal(users.find(event => event.uuid === 'h-u1')?.text, 'Fix the flaky date test', 'a BeforeAgent hook part is not what the person typed');
	assert.equal(chat.summary.title, 'Fix the flaky date test');
	assert.equal(chat.summary.human_turns, 1);

	const headless = read('session-2026-11-23T09-00-d0f7b5c3.jsonl');
	assert.equal(headless.summary.title, 'List the open TODOs in src/sync', 'SessionStart context prepended to a headless prompt is not part of the request');
	assert.equal(headless.summary.human_turns, 1);
});

test('gemini format: function calls and responses in message content (history turns the sync re-recorded) are tool calls and results, copies of toolCalls entries are not counted twice', () => {
	// A compression's history sync re-records the turns it keeps under new ids, parts and all,
	// and removes the originals: the copies are then the only record of those calls.
	const compressed = read('session-2026-11-24T16-00-e1a8c6d4.jsonl');
	const calls = compressed.events.filter(event => event.kind === 'tool_call');
	assert.deepEqual(
		calls.map(event => [event.uuid, event.tool?.name, event.tool?.call_id]),
		[
			['c-g3', 'replace', 'c-g3#1'],
			['c-g4', 'run_shell_command', 'run-9'],
		],
	);
	const results = compressed.events.filter(event => event.kind === 'tool_result');
	assert.deepEqual(
		results.map(event => [event.uuid, event.result?.call_id, event.result?.is_error, event.result?.exit_code]),
		[
			['c-r3', 'c-g3#1', false, undefined],
			['c-r4', 'run-9', true, 1],
		],
		'a response without an id answers the previous turn\'s call of its name',
	);
	assert.match(results[1]?.result?.output ?? '', /Exit Code: 1\n\[output truncated/, 'text after a response is that tool\'s output');
	assert.deepEqual(
		compressed.events.filter(event => event.kind === 'user').map(event => [event.uuid, event.human]),
		[['i-u1', true], ['c-u2', true]],
		'no part of a tool response turn is a human request (the compressed-away request stays: see below)',
	);
	assert.equal(compressed.summary.human_turns, 2);
	assert.equal(compressed.summary.title, 'Why does the importer skip empty rows?');

	// A resumed chat: the sync writes the call into the message's content and the response turn
	// it rebuilt from toolCalls as a message of its own; both copy the recorded call.
	const resumed = read('session-2026-11-25T11-00-f2b9d7e5.jsonl');
	assert.deepEqual(
		resumed.events.filter(event => event.kind === 'tool_call' || event.kind === 'tool_result').map(event => [event.kind, event.uuid, event.tool?.call_id ?? event.result?.call_id]),
		[
			['tool_call', 'm-g1', 'read_file-4'],
			['tool_result', 'm-g1', 'read_file-4'],
		],
	);
	assert.equal(resumed.summary.human_turns, 1);
});

test('gemini format: the turns a compression took out of the model\'s history stay in the conversation, before its summary; the turns it kept and re-recorded are not read twice', () => {
	// A compression hands the model a state snapshot and the tail it keeps, re-recorded under new
	// ids, and a $patch removes the originals from the history the CLI resumes. The lines stay in
	// the file (the recorder only appends), and gemini-cli's session list still names the chat by
	// the first user message recorded (chatRecordingService.ts loadConversationRecord:
	// firstUserMessage comes from the message records, not the synced history; sessionUtils.ts
	// getAllSessionFiles shows it). A rollback's removeIds (no snapshot) still drop the messages.
	const compressed = read('session-2026-11-24T16-00-e1a8c6d4.jsonl');
	assert.deepEqual(
		compressed.events.filter(event => event.kind === 'user').map(event => [event.uuid, event.human]),
		[['i-u1', true], ['c-u2', true]],
		'the compressed-away request is kept; the kept request is read once, as its copy',
	);
	assert.deepEqual(compressed.events.filter(event => event.kind === 'assistant').map(event => event.uuid), ['i-g1', 'c-g0', 'c-g3', 'c-g5']);
	assert.equal(compressed.events.find(event => event.kind === 'summary')?.uuid, 'c-u0');
	assert.equal(compressed.summary.title, 'Why does the importer skip empty rows?');
	assert.equal(compressed.summary.human_turns, 2);
	const rollback = read('session-2026-11-21T14-00-a7c4e2f0.jsonl');
	assert.ok(!rollback.events.some(event => event.text === 'Try a rounding fix'), 'a rollback has no snapshot: its removed request is gone');
	// The checkpoint form: a history sync's $set.messages lists the snapshot, the acknowledgement
	// and the kept turns under their own ids (chatRecordingService.ts updateMessagesFromHistory).
	const synced = read('session-2026-11-26T13-00-a3c0e8f6.jsonl');
	assert.deepEqual(
		synced.events.filter(event => event.kind === 'user').map(event => [event.uuid, event.human]),
		[['k-u1', true], ['k-u2', true], ['k-u3', true]],
	);
	assert.equal(synced.summary.title, 'Why is the nightly backup job slow?');
	assert.equal(synced.events.find(event => event.kind === 'summary')?.uuid, 'k-s0');
});


test('gemini format: the chats one CLI process writes under one sessionId (its main chat, a chat after /clear, a subagent\'s chat) are each a session, not copies of one', () => {
	// Before JSONL, every GeminiChat the process made opened its own recorder, which took the
	// process's sessionId and wrote session-<minute>-<id prefix>.json: /clear (resetChat) and
	// each subagent run started a new file with the same sessionId, a subagent's marked kind
	// "subagent" (gemini-cli geminiChat.ts constructor, chatRecordingService.ts initialize, client.ts
	// resetChat; Sinity/polylogue local_agent.py gemini_cli_chat_identity keys a chat by sessionId,
	// kind and startTime for this reason).
	const chats = new Map(readStore(geminiAdapter, join(cases, 'one-process-chats')).map(chat => [chat.summary.id, chat.summary]));
	const process = '5e1c7a90-3b2d-4f6e-8a1c-9d0e2f4b6a73';
	assert.deepEqual([...chats.keys()].sort(), [process, 'session-2025-10-14T09-13-5e1c7a90', 'session-2025-10-14T09-40-5e1c7a90'], 'the first chat keeps the process id; a later one is named by its file');
	assert.equal(chats.get(process)?.title, 'Map out how the invoice exporter batches its writes');
	assert.equal(chats.get(process)?.parent_id, null);
	const agent = chats.get('session-2025-10-14T09-13-5e1c7a90');
	assert.equal(agent?.parent_id, process, "a subagent's chat belongs to the process's main chat");
	assert.equal(agent?.human_turns, 0, "its task came from the agent, not a person");
	const cleared = chats.get('session-2025-10-14T09-40-5e1c7a90');
	assert.equal(cleared?.title, 'Rename the flush helper to writeBatch');
	assert.equal(cleared?.parent_id, null, 'a chat after /clear is a new conversation, no child');
	assert.equal(cleared?.human_turns, 1);
	assert.equal(geminiAdapter.nativeResumeCommand('session-2025-10-14T09-40-5e1c7a90'), null, 'gemini --resume takes a session id, not a file name');
});

test('gemini format: a session\'s truncated tool outputs (tool-outputs/session-<id>/, its subagents\' too) and its <id>/ directory go with it when it is retired', () => {
	// A tool result too large for the transcript is masked there (<tool_output_masked>) and kept
	// whole in <project>/tool-outputs/session-<sessionId>/, one directory per session; gemini-cli
	// deletes it, <project>/<id>/ and the subagents' chats and outputs with the session. Evidence:
	// google-gemini/gemini-cli packages/core/src/utils/sessionOperations.ts
	// (deleteSessionArtifactsAsync, deleteSubagentSessionDirAndArtifactsAsync); Sinity/polylogue
	// polylogue/sources/live/gemini_tool_output_sidecars.py (resolve_tool_outputs_dir: the
	// directory is session-scoped, never shared with another transcript).
	const project = join(cases, 'tool-outputs-project');
	const main = '6c2d8e4f-1a3b-4c5d-8e9f-2a4b6c8d0e1f';
	const unit = looseUnit(join(project, 'chats', 'session-2026-12-01T09-30-6c2d8e4f.jsonl'));
	const retirement = geminiAdapter.retirement?.(unit, cases, main);
	assert.deepEqual(retirement?.directories.map(directory => directory.slice(project.length + 1)).sort(), [
		`chats/${main}`,
		`tool-outputs/session-${main}`,
		'tool-outputs/session-9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
	], "another session's outputs stay");
	assert.equal(retirement?.boundary, cases);
	assert.deepEqual(geminiAdapter.retirement?.(unit, cases, 'tool-outputs')?.directories, [], 'an id naming a directory of the project itself owns nothing');
});

test('gemini format: the header-only file `gemini --resume` opens beside the chat it resumes (same session id) is no second copy of the session', t => {
	// gemini-cli's --resume starts its recorder before it reopens the resumed chat, so a second
	// session-<minute>-<id8>.jsonl holding only the metadata header is written for the same
	// sessionId (one per resume); the conversation goes on in the original file.
	const env = sandboxEnv(tempDir(t));
	cpSync(join(cases, 'resume-orphan'), join(env['HOME']!, '.gemini', 'tmp'), {recursive: true});
	const id = '4b9e1d7a-6c2f-4e8b-a1d3-5f7091b2c4e6';
	const run = (...args: string[]) => runCli([...args, '--format', 'json'], {env});
	const listing = run('sessions', '--all-projects', '--source', 'gemini');
	assert.equal(listing.code, 0, listing.stderr);
	assert.deepEqual(listing.json().sessions.map((session: {id: string; title: string | null}) => [session.id, session.title]), [[id, 'Why does the ferry timetable skip Sundays?']]);
	const read = run('read', id);
	assert.equal(read.code, 0, read.stdout + read.stderr);
	assert.match(read.stdout, /ferry timetable skip Sundays/);
});

test('gemini format: a tool response turn recorded flattened to text ([Function Response: <tool>] and what the tool returned beside it) is no human request', () => {
	// Builds of late 2025 recorded each user turn as partListUnionToString of its parts, skipping
	// only turns made of nothing but function responses; a tool that returns parts beside its
	// response (read_many_files' files, read_file's image) made a mixed turn, recorded as one
	// string: "[Function Response: <name>]" then those parts' text. The call's toolCalls entry
	// already holds the same result. Evidence: yoavf/ai-sessions src/lib/providers/gemini.ts and
	// its gemini.test.ts ("edge cases from real sessions": such user messages are skipped);
	// gemini-cli geminiChat.ts (recordMessage of partListUnionToString unless isFunctionResponse),
	// geminiRequest.ts (partToString verbose: `[Function Response: ${name}]`).
	const chat = read(join('flattened-responses', 'chats', 'session-2025-10-21T15-04-8d2a6f31.json'));
	assert.equal(chat.loaded.skipped, 0);
	const users = chat.events.filter(event => event.kind === 'user');
	assert.deepEqual(
		users.map(event => [event.uuid, event.human]),
		[
			['f-u1', true],
			['f-u2', true],
		],
		'the flattened copies of the tool results are not requests',
	);
	assert.equal(chat.summary.title, 'Compare what the two release notes say about the cache rewrite');
	assert.equal(chat.summary.human_turns, 2);
	const results = chat.events.filter(event => event.kind === 'tool_result');
	assert.deepEqual(
		results.map(event => event.result?.call_id),
		['read_many_files-1761059058540-7c1e2a', 'read_file-1761059289120-3b9d4f'],
		'each result is read once, from its toolCalls entry',
	);
	assert.match(results[0]?.result?.output ?? '', /expires entries on write/);
});

test('gemini format: a session\'s activity log (logs/session-<id>.jsonl, its subagents\' too) goes with it when it is retired, never a log another chat of its id still holds', t => {
	// Gemini CLI's activity logger appends the session's console and network records to
	// <project>/logs/session-<sessionId>.jsonl, and deletes that file with the session (and its
	// subagents' logs). Evidence: google-gemini/gemini-cli packages/cli/src/utils/activityLogger.ts
	// (setupFileLogging: getProjectTempLogsDir(), session-<getSessionId()>.jsonl) and
	// packages/core/src/utils/sessionOperations.ts (deleteSessionArtifactsAsync: logs/session-<id>.jsonl).
	const project = join(cases, 'activity-logs-project');
	const main = '3f8a1c2e-7b4d-4e6f-9a1c-5d2e8f0b3a7c';
	const subagent = 'e5d4c3b2-a190-4f8e-b7d6-c5b4a3928170';
	const relative = (paths: readonly string[] | undefined) => (paths ?? []).map(path => path.slice(project.length + 1)).sort();
	const mainUnit = looseUnit(join(project, 'chats', 'session-2026-12-02T10-15-3f8a1c2e.jsonl'));
	const retirement = geminiAdapter.retirement?.(mainUnit, cases, main);
	assert.deepEqual(relative(retirement?.files), [`logs/session-${main}.jsonl`, `logs/session-${subagent}.jsonl`], "another session's log stays");
	const agentUnit = looseUnit(join(project, 'chats', main, `${subagent}.jsonl`));
	assert.deepEqual(relative(geminiAdapter.retirement?.(agentUnit, cases, subagent)?.files), [`logs/session-${subagent}.jsonl`]);
	// A header-only file `gemini --resume` left under the same id is no other session: the log is still this one's.
	const resumed = '8d4b2a6c-0e1f-4a2b-9c3d-7e6f5a4b3c2d';
	const resumedUnit = looseUnit(join(project, 'chats', 'session-2026-12-02T11-00-8d4b2a6c.jsonl'));
	assert.deepEqual(relative(geminiAdapter.retirement?.(resumedUnit, cases, resumed)?.files), [`logs/session-${resumed}.jsonl`]);
	// An older process's one id shared by its first chat and a later one (after /clear): the log is both chats', so it stays.
	const store = tempDir(t);
	const shared = join(store, 'ledger');
	cpSync(project, shared, {recursive: true});
	cpSync(resumedUnit.path, join(shared, 'chats', 'session-2026-12-02T12-40-8d4b2a6c.jsonl'));
	assert.deepEqual(geminiAdapter.retirement?.(looseUnit(join(shared, 'chats', 'session-2026-12-02T11-00-8d4b2a6c.jsonl')), store, resumed)?.files, []);
});

test('gemini format: the file `gemini --resume` opens beside the chat it resumes, holding only the header and the host\'s <session_context>, is no conversation', t => {
	// The recorder the resume starts writes its metadata line and the session context into a new
	// session-<minute>-<id8>.jsonl, while the conversation goes on in the original file. Evidence:
	// google-gemini/gemini-cli issue #28036 (the new file "contained only the initial session
	// metadata and <session_context> message"), pull request #29206 (the orphan opened by
	// config.initialize before resumeChat reopens the real file).
	const env = sandboxEnv(tempDir(t));
	cpSync(join(cases, 'resume-orphan-context'), join(env['HOME']!, '.gemini', 'tmp'), {recursive: true});
	const orphan = read(join('resume-orphan-context', 'harbour', 'chats', 'session-2026-11-30T19-02-7e2a9c4b.jsonl'));
	assert.equal(orphan.summary.conversational, false, 'host text alone is no conversation');
	assert.equal(orphan.summary.human_turns, 0);
	assert.ok(orphan.events.some(event => event.kind === 'user' && event.human === false && event.origin === undefined && event.text?.includes('<session_context>')), 'the context is still read, as the host\'s text');
	const listing = runCli(['sessions', '--all-projects', '--source', 'gemini', '--format', 'json'], {env});
	assert.equal(listing.code, 0, listing.stderr);
	assert.deepEqual(listing.json().sessions.map((session: {id: string; title: string | null}) => [session.id, session.title]), [['7e2a9c4b-3d1f-4a6e-b8c2-9f0d1e3a5b7c', 'Which berth does the evening ferry use?']], 'the orphan is no session of its own');
	const real = read(join('resume-orphan-context', 'harbour', 'chats', 'session-2026-11-30T08-10-7e2a9c4b.jsonl'));
	assert.ok(real.events.some(event => event.kind === 'user' && event.human === false && event.text?.includes('<session_context>')), 'beside a conversation the context stays a non-human user turn');
});

test('gemini format: a subagent chat of the JSON era (chats/<parentSessionId>/<sessionId>.json) is listed under its parent', () => {
	// Before the move to JSONL, gemini-cli already nested a subagent's recording under the complete
	// parent session id, as one JSON document named `<sessionId>.json` (chatRecordingService.ts
	// initialize, pre-JSONL: `filename = ${safeSessionId}.json` for kind "subagent"); only its
	// extension changed with JSONL. Evidence also: zszz3/AgentRecall issue #561.
	const chats = readStore(geminiAdapter, join(cases, 'legacy-nested-subagent'));
	const parent = '7a3c9e51-2d4b-4f8a-b6c1-0e9d8f7a6b54';
	const agent = chats.find(chat => chat.summary.id === 'c4f1a8e2-9b3d-4c6e-8f0a-2b5d7e9c1a36');
	assert.ok(agent, 'the nested .json subagent chat is discovered');
	assert.equal(agent.loaded.skipped, 0, 'read as a legacy document, not as JSON lines');
	assert.equal(agent.summary.parent_id, parent);
	assert.equal(agent.summary.human_turns, 0, 'its task came from the parent agent');
	assert.match(agent.events.filter(event => event.kind === 'assistant').map(event => event.text).join('\n'), /harbour\.ts parses it/);
	assert.equal(chats.length, 2);
});

test('gemini format: a recorder restarted on the chat it is asked to load (a second metadata header, then a checkpoint of only the new session context) does not erase the turns recorded before it', () => {
	// An ACP session/load (Zed and other ACP clients) initialises a recorder for a *new* session
	// before it resolves the one to load; the new file name is the current minute plus the id
	// prefix, so a load within the chat's first minute appends a fresh header and a
	// `$set.messages` checkpoint holding only the new session context to the chat itself, which
	// folds the recorded turns out of gemini-cli's own replay (the chat then vanishes from its
	// session list). The turns are still the conversation the person had, and still in the file.
	// Evidence: google-gemini/gemini-cli issues #28775 and #28693, pull request #29368 (review note).
	const chat = read('session-2026-11-27T15-42-5c8e0a1d.jsonl');
	assert.equal(chat.loaded.skipped, 0);
	assert.equal(chat.summary.id, '5c8e0a1d-9f2b-4c7e-a3d6-1b0e8f4c2a97');
	assert.equal(chat.summary.title, 'Which lock guards the quarry conveyor queue?');
	assert.equal(chat.summary.human_turns, 1);
	assert.deepEqual(chat.events.filter(event => event.kind === 'assistant').map(event => event.uuid), ['p-g1']);
	assert.equal(chat.summary.started, '2026-11-27T15:42:02.000Z', 'the first header dates the chat');
});

test('gemini format: media parts (inlineData, fileData) in a prompt or a tool result are noted by their media type, their base64 payload never copied', () => {
	// gemini-cli sends an @-referenced image as an inlineData part of the prompt (the recorded
	// content; displayContent holds only what was typed), and convertToFunctionResponse
	// (packages/core/src/utils/generateContentResponseUtilities.ts) puts a tool's media in the
	// functionResponse's own `parts` for models that take multimodal responses, or after the
	// response as sibling parts (inlineData, fileData) for the others.
	const chat = read('session-2026-11-28T09-30-6d1f9b2e.jsonl');
	assert.equal(chat.loaded.skipped, 0);
	const prompt = chat.events.find(event => event.kind === 'user');
	assert.equal(prompt?.human, true);
	assert.match(prompt?.text ?? '', /^Why is the legend clipped in @plots\/rainfall\.png/);
	assert.match(prompt?.text ?? '', /\[image: image\/png\]/, 'the attached image is noted');
	assert.equal(chat.summary.title, 'Why is the legend clipped in @plots/rainfall.png [image: image/png]');
	const results = chat.events.filter(event => event.kind === 'tool_result');
	assert.deepEqual(
		results.map(event => [event.result?.call_id, event.result?.output]),
		[
			['read_file-11', 'Binary content provided (1 item(s)).\n[image: image/png]'],
			['read_file-12', 'Binary content provided (1 item(s)).\n[file: application/pdf]'],
			['m-g2#1', 'Clip attached.\n[video: https://media.example.org/clips/legend-bug.mp4]'],
			['read_file-13', 'Binary content (audio/mpeg) read successfully. Content will be injected for analysis in the next sequence.'],
		],
	);
	// Audio the model cannot take in a function response is sent as a turn of its own, which the
	// recorder writes as an `info` message holding only the media (geminiChat.ts binary injection).
	assert.equal(chat.events.find(event => event.uuid === 'm-i5')?.text, '[audio: audio/mpeg]');
	const text = JSON.stringify(chat.events);
	assert.doesNotMatch(text, /iVBORw0KGgo|R0lGODlh|JVBERi0|SUQzBA/, 'no base64 payload is copied into an event');
});

test('gemini format: the placeholder model turn the CLI writes after a tool response left unanswered is an interruption, not the model\'s reply', () => {
	// gemini-cli's GeminiChat.closeUnansweredToolResponseTurn (packages/core/src/core/geminiChat.ts)
	// pushes a model turn of INTERRUPTED_RESPONSE_PLACEHOLDER when a new prompt follows a tool
	// response that got no answer (a stream error, a cancelled call), and the history sync records
	// it as a `gemini` message. Evidence also: gemini-cli#28700, pull request #29397.
	const chat = read('session-2026-11-29T16-10-8a3c5e7f.jsonl');
	assert.equal(chat.loaded.skipped, 0);
	assert.deepEqual(chat.events.filter(event => event.kind === 'assistant').map(event => event.text), ['src/ holds boot.ts and cfg.ts.']);
	assert.equal(chat.summary.assistant_messages, 2, 'the call and the reply; the placeholder is none');
	const notice = chat.events.find(event => event.uuid === '7d2e9a41-5c3b-4f8e-a1d6-0b9c8e7f6a54');
	assert.equal(notice?.kind, 'system');
	assert.equal(notice?.interrupted, true);
	assert.equal(chat.summary.human_turns, 2);
});

test('gemini format: a prompt recorded without displayContent is what was typed, without the @-file contents the CLI appended between its reference markers', () => {
	// gemini-cli's at-command processor appends each @-referenced file between
	// "--- Content from referenced files ---" and "--- End of content ---"; builds before
	// displayContent recorded only that expanded content, and gemini-cli's own rewind viewer
	// recovers the typed prompt with stripReferenceContent (packages/cli/src/ui/utils/
	// formatters.ts, used by RewindViewer.tsx when displayContent is absent).
	const chat = read('session-2026-11-30T10-05-9b4d6f8a.jsonl');
	assert.equal(chat.loaded.skipped, 0);
	const prompts = chat.events.filter(event => event.kind === 'user');
	assert.deepEqual(prompts.map(event => [event.text, event.human]), [
		['Why does @src/tally.py double count refunds?', true],
		['Compare it with @src/ledger.py', true],
	]);
	assert.equal(chat.summary.title, 'Why does @src/tally.py double count refunds?');
});

test('gemini format: info and error messages a later history checkpoint does not restate (it restates only model turns) stay in the conversation', () => {
	// gemini-cli's ChatRecordingService.updateMessagesFromHistory writes `$set.messages` built from
	// the model history alone (user and model turns), so every such checkpoint (on resume, on the
	// rollback of a cancelled request) leaves out the info, error and warning messages the UI
	// recorded: an API error, "Request cancelled.". They are still what happened in the chat.
	const chat = read('session-2026-12-01T08-15-0c2e4a6b.jsonl');
	assert.equal(chat.loaded.skipped, 0);
	const error = chat.events.find(event => event.uuid === 'k-e1');
	assert.equal(error?.kind, 'system');
	assert.match(error?.error ?? '', /503/);
	const cancelled = chat.events.find(event => event.uuid === 'k-i3');
	assert.equal(cancelled?.interrupted, true);
	assert.deepEqual(chat.events.filter(event => event.kind === 'user').map(event => event.uuid), ['k-u1', 'k-u2'], 'the rolled-back request is still gone, as the CLI drops it');
});

test('gemini format: a shell result\'s exit status is the `Exit Code:` line its template writes after Output and Error, not one the command printed; a file read that quotes one is no failure', () => {
	// gemini-cli packages/core/src/tools/shell.ts: llmContent is Command, Directory, Output, Error, Exit Code, Signal, … lines.
	const chat = read('session-2026-12-06T22-10-e1a8c6d4.jsonl');
	const results = chat.events.filter(event => event.kind === 'tool_result');
	assert.deepEqual(
		results.map(event => [event.result?.call_id, event.result?.is_error, event.result?.exit_code]),
		[
			['run-1', false, 0],
			['run-2', true, 3],
			['read-3', false, undefined],
		],
	);
});

test('gemini format: a shell command ended by a signal (`Exit Code: (none)`, `Signal: 9`) or stopped by the tool\'s inactivity timeout failed, though its status is success', () => {
	// gemini-cli packages/core/src/tools/shell.ts: a command killed by a signal has no exit code and
	// its number on the template's `Signal:` line ("Command terminated by signal"); a command stopped
	// by the inactivity timeout returns "Command was automatically cancelled because it exceeded the
	// timeout …" with no error, so the scheduler records `success`. mantra-hq/mantra-releases
	// src-tauri/src/parsers/gemini/types.rs reads the same template's Signal field.
	const chat = read('session-2026-12-07T07-40-7d2a5c91.jsonl');
	const results = chat.events.filter(event => event.kind === 'tool_result');
	assert.deepEqual(
		results.map(event => [event.result?.call_id, event.result?.is_error, event.result?.exit_code]),
		[
			['sh-kill', true, undefined],
			['sh-ok', false, 0],
			['sh-slow', true, undefined],
		],
		'a `Signal:` the command printed in its output is not the template\'s',
	);
});

test('gemini format: the native resume of a chat kept under another home runs with GEMINI_CLI_HOME set to it; a store in no .gemini/tmp has none, and a subagent\'s chat none', t => {
	// `gemini --resume <uuid>` looks only in <home>/.gemini/tmp/<project>/chats of the project it
	// runs in, <home> being $GEMINI_CLI_HOME, else the user's home. Evidence: google-gemini/gemini-cli
	// packages/cli/src/utils/sessionUtils.ts (SessionSelector.findSession over
	// storage.getProjectTempDir()/chats; getAllSessionFiles skips kind "subagent") and
	// packages/core/src/utils/paths.ts (homedir: GEMINI_CLI_HOME first).
	const env = sandboxEnv(tempDir(t));
	const id = '4b9e1d7a-6c2f-4e8b-a1d3-5f7091b2c4e6';
	const other = join(env['HOME']!, 'gemini homes', 'work');
	cpSync(join(cases, 'resume-orphan'), join(other, '.gemini', 'tmp'), {recursive: true});
	const native = (root: string, extra: Record<string, string> = {}) => {
		const result = runCli(['resume', id, '--source', 'gemini', '--source-root', root, '--format', 'json'], {env: {...env, ...extra}});
		assert.equal(result.code, 0, result.stderr);
		return result.json();
	};

	assert.equal(native(join(other, '.gemini')).native_resume_command, `GEMINI_CLI_HOME='${other}' gemini --resume ${id}`);
	assert.equal(native(join(other, '.gemini', 'tmp')).native_resume_command, `GEMINI_CLI_HOME='${other}' gemini --resume ${id}`);
	assert.equal(native(join(other, '.gemini'), {GEMINI_CLI_HOME: other}).native_resume_command, `gemini --resume ${id}`, 'GEMINI_CLI_HOME already names it');

	// The same chat in the home plain `gemini` reads: no variable.
	cpSync(join(other, '.gemini'), join(env['HOME']!, '.gemini'), {recursive: true});
	const plain = runCli(['resume', id, '--source', 'gemini', '--format', 'json'], {env});
	assert.equal(plain.json().native_resume_command, `gemini --resume ${id}`);

	// A store that is in no .gemini/tmp: GEMINI_CLI_HOME cannot point there.
	const loose = join(env['HOME']!, 'gemini backup');
	cpSync(join(cases, 'resume-orphan'), loose, {recursive: true});
	const brief = native(loose);
	assert.equal(brief.native_resume_command, null);
	assert.ok(brief.warnings.some((warning: string) => /GEMINI_CLI_HOME/.test(warning)), JSON.stringify(brief.warnings));

	// A subagent's chat: gemini lists none to resume.
	const context = {home: env['HOME']!, env: {}, platform: 'linux' as const};
	assert.equal(geminiAdapter.nativeResumeCommand(id, {parentId: '7a3c9e51-2d4b-4f8a-b6c1-0e9d8f7a6b54', root: join(env['HOME']!, '.gemini', 'tmp'), context}), null);
	assert.equal(geminiAdapter.nativeResumeCommand(id, {parentId: null, root: '/srv/$(id) x/.gemini/tmp', context}), `GEMINI_CLI_HOME='/srv/$(id) x' gemini --resume ${id}`);
});

test('gemini format: a build that types its records merges a message_update (tool calls, tokens) into the message it names, even one written later, and reads a session_metadata that states only a summary', () => {
	const chat = read('session-2026-12-07T06-00-3c9d1e5a.jsonl');
	assert.equal(chat.loaded.skipped, 0, 'message_update and a partial session_metadata are records of the format');
	assert.deepEqual(chat.loaded.warnings, []);
	assert.deepEqual(
		chat.events.filter(event => event.kind !== 'meta').map(event => [event.line, event.kind, event.text ?? event.tool?.name ?? event.result?.is_error]),
		[
			[2, 'user', 'Prune the stale branches in the garden repo'],
			[3, 'assistant', 'Listing the merged branches first.'],
			[3, 'tool_call', 'run_shell_command'],
			[3, 'tool_result', false],
			[6, 'user', 'delete both, keep main'],
			[8, 'assistant', 'Deleted fern-beds and old-trellis; only main is left.'],
		],
		'an update never replaces the message it completes',
	);
	assert.equal(chat.summary.id, '3c9d1e5a-7b42-4e18-9a63-5d0f2c8b1e47');
	assert.equal(chat.summary.human_turns, 2);
	assert.equal(chat.summary.assistant_messages, 2);
	assert.equal(chat.summary.tool_calls, 1);
	assert.equal(chat.summary.started, '2026-12-07T06:00:00.000Z');
	assert.equal(chat.summary.modified, '2026-12-07T06:01:20.000Z', 'the last session_metadata states when the chat was last updated');
	assert.equal(chat.summary.title, 'Prune the stale branches in the garden repo');
});

test('gemini format: a blank entry first in `directories` is no working directory; the first one with a path is', t => {
	// gemini-cli records the workspace list with the project root first and never a blank one; a
	// blank entry is hostile input and named the project "".
	const chats = join(tempDir(t), 'tmp', 'hive', 'chats');
	mkdirSync(chats, {recursive: true});
	const path = join(chats, 'session-2026-12-07T08-00-6c1d2e3f.jsonl');
	writeFileSync(path, [
		{sessionId: '6c1d2e3f-7a8b-4c9d-8e0f-1a2b3c4d5e6f', projectHash: 'f'.repeat(64), startTime: '2026-12-07T08:00:00.000Z', lastUpdated: '2026-12-07T08:00:09.000Z', kind: 'main', directories: ['  ', '/work/apiary']},
		{id: 'h1', timestamp: '2026-12-07T08:00:03.000Z', type: 'user', content: [{text: 'List the hives due for inspection'}]},
	].map(line => JSON.stringify(line)).join('\n') + '\n');
	const read = readUnit(geminiAdapter, looseUnit(path));
	assert.equal(read.summary.project, '/work/apiary');
	assert.equal(read.loaded.skipped, 0);
});

test('gemini format: the turn a `!` shell command leaves in the history (the command and its output wrapped by the CLI) is no human request', () => {
	// gemini-cli's shell mode adds "I ran the following shell command: … This produced the
	// following result: …" to the model's history as a user turn (useExecutionLifecycle.ts); it
	// is recorded as a user message with no model turn after it.
	const chat = read('session-2026-12-07T09-00-4e7a2c91.jsonl');
	const users = chat.events.filter(event => event.kind === 'user');
	assert.deepEqual(users.map(event => [event.uuid, event.human]), [['sx-u0', false], ['sx-u1', true], ['sx-u2', false]]);
	assert.ok(users[0]?.text?.includes('ls docs'), 'the command and its output stay in the conversation');
	assert.equal(chat.summary.title, 'Merge feeding.md into migration.md under a new heading');
	assert.equal(chat.summary.human_turns, 1);
});

test('gemini format: the "Please continue." the CLI sends itself (the next-speaker check, a retry after an invalid stream) is no human request', () => {
	// gemini-cli's client sends these through the chat, which records every non-response user
	// turn, so they are user messages; the person typed none of them.
	const chat = read('session-2026-12-07T10-00-5f8b3d02.jsonl');
	const users = chat.events.filter(event => event.kind === 'user');
	assert.deepEqual(users.map(event => [event.uuid, event.human]), [['nc-u1', true], ['nc-u2', false], ['nc-u3', false]]);
	assert.equal(chat.summary.human_turns, 1);
	assert.equal(chat.summary.title, 'Rename the pottery module to ceramics everywhere');
});

test('gemini format: the feedback the CLI sends when it detects a loop ("System: Potential loop detected. …") is no human request', () => {
	// gemini-cli's loop recovery sends this through the chat, which records it as a user message.
	const chat = read('session-2026-12-07T11-00-6a9c4e13.jsonl');
	const users = chat.events.filter(event => event.kind === 'user');
	assert.deepEqual(users.map(event => [event.uuid, event.human]), [['lp-u1', true], ['lp-u2', false]]);
	assert.equal(chat.summary.human_turns, 1);
});
