import assert from 'node:assert/strict';
import {cpSync, mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {grokAdapter} from '../../source/adapters/grok/index.js';
import {wholeUnit} from '../../source/adapters/types.js';
import {readUnit} from '../helpers/adapters.js';
import {runCli, sandboxEnv} from '../helpers/cli.js';
import {tempDir} from '../helpers/temp.js';

/**
 * Grok Build format features found in other projects' readers of its `updates.jsonl` and their
 * tests. Every fixture line is invented; only the layout and record shapes are the tool's.
 */
const cases = join(import.meta.dirname, '..', 'fixtures', 'format-cases', 'grok');

test('grok format: turn_completed ends each turn; one the person stopped (stop_reason "cancelled") is an interruption, and neither is a skipped line', () => {
	const [unit] = grokAdapter.discover(join(cases, 'sessions'));
	assert.ok(unit);
	const {loaded, events, summary} = readUnit(grokAdapter, wholeUnit(unit));
	assert.equal(loaded.skipped, 0, 'a turn_completed update is a record Grok writes after every turn');
	assert.equal(summary.human_turns, 2);
	const stopped = events.filter(event => event.interrupted);
	assert.deepEqual(stopped.map(event => [event.line, event.kind]), [[6, 'system']], 'the cancelled turn, not the one that ended');
	assert.equal(events.some(event => event.line === 3 && event.kind !== 'meta'), false, 'a turn that ended normally adds nothing to read');
});

test('grok format: an update is timed by params._meta.agentTimestampMs (milliseconds) where the envelope only has seconds', () => {
	const [unit] = grokAdapter.discover(join(cases, 'agent-timestamps'));
	assert.ok(unit);
	const {loaded, events} = readUnit(grokAdapter, wholeUnit(unit));
	assert.equal(loaded.skipped, 0);
	const user = events.find(event => event.kind === 'user');
	assert.equal(user?.timestamp, '2026-12-02T09:00:00.120Z', 'the agent stamp, not the envelope second');
	const reply = events.find(event => event.kind === 'assistant');
	assert.equal(reply?.timestamp, '2026-12-02T09:00:00.480Z', 'a reply merged from chunks is timed by its first chunk');
});

test('grok format: a prompt the runtime wraps in <user_query> after its context blocks (<user_info>, <git_status>) is the person\'s request, the blocks the host\'s', () => {
	// xai-grok-build compaction_utils extract_user_query / is_real_user_turn; agentsview internal/parser/grok.go grokNormalizeUserText.
	const [unit] = grokAdapter.discover(join(cases, 'user-query', 'sessions'));
	assert.ok(unit);
	const {events, summary} = readUnit(grokAdapter, wholeUnit(unit));
	assert.deepEqual(
		events.filter(event => event.kind === 'user').map(event => [event.line, event.human, event.text]),
		[
			[2, false, '<user_info>\nOS Version: linux\nShell: zsh\n</user_info>\n<git_status>\nOn branch main, 2 files modified\n</git_status>'],
			[2, true, 'Why does the glaze firing schedule skip cone 6?'],
			[4, true, 'Fix the bound and add a test for cone 6.'],
		],
	);
	assert.equal(summary.human_turns, 2);
	assert.equal(summary.title, 'Why does the glaze firing schedule skip cone 6?');
});

test('grok format: an interjection (synthetic_reason "interjection", typed with Ctrl+Enter while the model runs) is a human request; the runtime\'s own user items are not', () => {
	// Grok Build conversation.rs SyntheticReason::Interjection ("User-initiated mid-turn interjection sent via Ctrl+Enter"),
	// its text format_interjection's note before the <user_query>; agentsview internal/parser/grok.go keeps it as a user turn.
	const [unit] = grokAdapter.discover(join(cases, 'interjection', 'sessions'));
	assert.ok(unit);
	const {events, summary} = readUnit(grokAdapter, wholeUnit(unit));
	assert.deepEqual(
		events.filter(event => event.kind === 'user').map(event => [event.line, event.human, event.text]),
		[
			[2, false, '<user_info>\nOS Version: linux\n</user_info>'],
			[3, true, 'Move the tide table parser out of main.rs into its own module.'],
			[6, false, 'The user sent a message while you were working:'],
			[6, true, 'Keep the old function name as a re-export so the benches still build.'],
			[7, false, '<system-reminder>Two files changed since the last read.</system-reminder>'],
		],
	);
	assert.equal(summary.human_turns, 2);
	assert.equal(summary.title, 'Move the tide table parser out of main.rs into its own module.');
});

test('grok format: a server-run code interpreter call keeps the code it ran as its input and its logs as its output', () => {
	// backend_tool_call {kind: {tool_type: "code_interpreter", code, container_id, outputs: [{type: "logs", logs}], status}}
	// (Responses-API CodeInterpreterToolCall); agentsview grok_test.go TestParseGrokChatHistoryPreservesCodeInterpreterInput.
	const [unit] = grokAdapter.discover(join(cases, 'backend-tools', 'sessions'));
	assert.ok(unit);
	const {events} = readUnit(grokAdapter, wholeUnit(unit));
	const call = events.find(event => event.kind === 'tool_call');
	assert.equal(call?.tool?.name, 'code_interpreter');
	assert.deepEqual(call?.tool?.input, {code: "import csv\nrows = list(csv.DictReader(open('varieties.csv')))\nprint(len(rows), sum(int(r['week']) for r in rows) / len(rows))"});
	const result = events.find(event => event.kind === 'tool_result');
	assert.deepEqual(result?.result, {call_id: 'ci_4Hq8Tz', is_error: false, output: '37 38.4'});
});

test('grok format: server-run calls an older build kept only in the assistant item\'s raw_output are read, once each beside their backend_tool_call copies', () => {
	// Grok Build conversation.rs BackendToolCallItem::id (the legacy-session upgrader dedupes against the same call inside a
	// sibling assistant's raw_output); agentsview grok_test.go "legacy raw output reasoning" and DeduplicatesRawBackendToolCalls.
	const [unit] = grokAdapter.discover(join(cases, 'raw-output', 'sessions'));
	assert.ok(unit);
	const {events} = readUnit(grokAdapter, wholeUnit(unit));
	assert.deepEqual(
		events.filter(event => event.kind !== 'meta' && event.kind !== 'user').map(event => [event.line, event.kind, event.tool?.call_id ?? event.result?.call_id ?? event.text]),
		[
			[3, 'tool_call', 'ws_7Kd2Lq'],
			[3, 'tool_result', 'ws_7Kd2Lq'],
			[4, 'tool_call', 'ws_9Pm4Rv'],
			[4, 'tool_result', 'ws_9Pm4Rv'],
			[4, 'assistant', 'Little bluestem and switchgrass both tolerate heavy clay in zone 6.'],
		],
	);
	const search = events.find(event => event.kind === 'tool_call' && event.tool?.call_id === 'ws_9Pm4Rv');
	assert.equal(search?.tool?.name, 'web_search');
});

test('grok format: parent_session_id alone (a fork, or a remote session restored into a local child) is no subagent: its prompts are the person\'s', () => {
	// Grok Build session/persistence.rs find_local_child_for_remote: a restored remote session is a local child with
	// summary.parent_session_id; agentsview grok_test.go reads parent_session_id as a fork. Subagents say session_kind "subagent".
	const [unit] = grokAdapter.discover(join(cases, 'restored', 'sessions'));
	assert.ok(unit);
	const {events, summary} = readUnit(grokAdapter, wholeUnit(unit));
	assert.deepEqual(
		events.filter(event => event.kind === 'user').map(event => [event.line, event.human, event.origin ?? null]),
		[[2, true, null]],
	);
	assert.equal(summary.human_turns, 1);
	assert.equal(summary.parent_id, '019b5a10-1c00-7000-8000-0000000000a9', 'the session it came from is still its parent');
});

test('grok format: in updates.jsonl an interjection is an unnumbered user chunk under the runtime\'s note; its <user_query> is a human request', () => {
	// Grok Build interjection.rs drain_pending_interjections → inject_synthetic_user_message: one user_message_chunk of
	// format_interjection's text, with no promptIndex (an interjection starts no prompt turn).
	const [unit] = grokAdapter.discover(join(cases, 'interjection-updates', 'sessions'));
	assert.ok(unit);
	const {events, summary} = readUnit(grokAdapter, wholeUnit(unit));
	assert.deepEqual(
		events.filter(event => event.kind === 'user').map(event => [event.line, event.human, event.text]),
		[
			[1, true, 'Move the tide table parser out of main.rs into its own module.'],
			[3, true, 'Keep the old function name as a re-export so the benches still build.'],
		],
	);
	assert.equal(summary.human_turns, 2);
});

test('grok format: after a compaction chat_history.jsonl holds only the compacted history; the session is read from updates.jsonl, which keeps every turn', () => {
	// grok-build's persistence actor replaces chat_history.jsonl whole on compaction (and on a
	// rewind): it is a cache of what the model is sent, rebuilt from updates.jsonl, the durable log
	// (session/persistence.rs PersistenceMsg::ReplaceChatHistory). franken_agent_detection
	// src/connectors/grok.rs reads updates.jsonl first for the same reason.
	const units = grokAdapter.discover(join(cases, 'compacted', 'sessions'));
	assert.equal(units.length, 1);
	const unit = wholeUnit(units[0]!);
	assert.ok(unit.path.endsWith('updates.jsonl'), 'the durable update stream is the transcript');
	assert.ok(unit.paths.some(path => path.endsWith('chat_history.jsonl')), 'the cache still belongs to the session');
	const {loaded, events, summary} = readUnit(grokAdapter, unit);
	assert.equal(loaded.skipped, 0);
	assert.equal(summary.title, 'Why does the gravel price export count returns twice?', 'the first request, from before the compaction');
	assert.equal(summary.human_turns, 3);
	assert.deepEqual(events.filter(event => event.kind === 'tool_result').map(event => [event.result?.call_id, event.result?.is_error]), [['call-q1', false]]);
	assert.ok(events.some(event => event.kind === 'summary'), 'the compaction itself is still seen');
});

test('grok format: when every model call failed, updates.jsonl holds only hook and retry telemetry; the prompt is read from chat_history.jsonl', () => {
	// franken_agent_detection src/connectors/grok.rs falls back to chat_history.jsonl when the
	// update stream carries no message (its test: "the empirical shape from a real broken session").
	const units = grokAdapter.discover(join(cases, 'failed-calls', 'sessions'));
	assert.equal(units.length, 1);
	const {loaded, events, summary} = readUnit(grokAdapter, wholeUnit(units[0]!));
	assert.equal(summary.title, 'Why does the flour mill schedule skip Sundays?');
	assert.equal(summary.human_turns, 1);
	assert.equal(events.find(event => event.kind === 'user' && event.human)?.line, 3, 'lines are the chat history\'s');
	assert.match(loaded.warnings.join('\n'), /chat_history\.jsonl/, 'the reading says which file it came from');
});

test('grok format: a prompt\'s images ({type: "image", url} content parts) are noted after its text, one a line, the payload never copied; an image alone is a request whose text is its note', () => {
	const [unit] = grokAdapter.discover(join(cases, 'prompt-images', 'sessions'));
	assert.ok(unit);
	const {events, summary} = readUnit(grokAdapter, wholeUnit(unit));
	assert.deepEqual(
		events.filter(event => event.kind === 'user').map(event => [event.line, event.human, event.text]),
		[
			[2, true, 'Why is this glaze crawling on the rim?\n[image: image/jpeg]'],
			[4, true, '[image: image/png]'],
		],
	);
	assert.equal(summary.human_turns, 2);
	assert.equal(summary.title, 'Why is this glaze crawling on the rim? [image: image/jpeg]');
	assert.doesNotMatch(JSON.stringify(events), /9j\/4AAQ|iVBORw0KGgo/);
});

test('grok format: a tool result\'s images (chat_history tool_result `images`, {type: "image", url} parts) are noted after its output, the payload never copied', () => {
	// formats.md §6 (grok-build conversation.rs: tool_result {tool_call_id, content, images?});
	// byteowlz/hstry adapters/grok/adapter.ts reads tool_result.images as {type: "image", url} parts.
	const [unit] = grokAdapter.discover(join(cases, 'tool-result-images', 'sessions'));
	assert.ok(unit);
	const {loaded, events} = readUnit(grokAdapter, wholeUnit(unit));
	assert.equal(loaded.skipped, 0);
	assert.deepEqual(
		events.filter(event => event.kind === 'tool_result').map(event => [event.line, event.result?.call_id, event.result?.is_error, event.result?.output]),
		[
			[4, 'call_kiln_view', false, '[image: image/png]'],
			[5, 'call_kiln_shot', false, 'Captured 390x844\n[image: image/jpeg]\n[image: file:///work/kiln/docs/narrow.webp]'],
		],
	);
	assert.doesNotMatch(JSON.stringify(events), /iVBORw0KGgo|9j\/4AAQ/);
});

test('grok format: in updates.jsonl the images a tool returned (tool_call_update content {type: "content", content: {type: "image", data, mimeType}}) are noted after its text, the bytes never copied', () => {
	// ACP agentclientprotocol/agent-client-protocol src/tool_call.rs: ToolCallContent::Content, "standard content block
	// (text, images, resources)"; updates.jsonl is the stream chat_history (whose tool_result keeps `images`) is rebuilt from.
	const [unit] = grokAdapter.discover(join(cases, 'tool-result-images-updates', 'sessions'));
	assert.ok(unit);
	const {loaded, events} = readUnit(grokAdapter, wholeUnit(unit));
	assert.equal(loaded.skipped, 0);
	assert.deepEqual(
		events.filter(event => event.kind === 'tool_result').map(event => [event.line, event.result?.call_id, event.result?.is_error, event.result?.output]),
		[
			[3, 'call-k1', false, '[image: image/png]'],
			[5, 'call-k2', false, 'Captured 390x844\n[image: image/jpeg]'],
		],
	);
	assert.doesNotMatch(JSON.stringify(events), /iVBORw0KGgo|9j\/4AAQ/);
});

test('grok format: in updates.jsonl a prompt\'s image blocks (ACP user_message_chunk {type: "image", data, mimeType}) are noted after its text, the bytes never copied; an image alone is a request whose text is its note', () => {
	// grok-build's handle_prompt writes each of the prompt's ACP content blocks as its own user_message_chunk
	// under the prompt's promptIndex (xai-grok-shell session turn admission), an image block included.
	const [unit] = grokAdapter.discover(join(cases, 'prompt-images-updates', 'sessions'));
	assert.ok(unit);
	const {loaded, events, summary} = readUnit(grokAdapter, wholeUnit(unit));
	assert.equal(loaded.skipped, 0);
	assert.deepEqual(
		events.filter(event => event.kind === 'user').map(event => [event.line, event.human, event.text]),
		[
			[1, true, 'Why did this cone bend early?\n[image: image/png]'],
			[4, true, '[image]'],
		],
		'a media type that is no string is not copied',
	);
	assert.equal(summary.human_turns, 2);
	assert.equal(summary.title, 'Why did this cone bend early? [image: image/png]');
	assert.doesNotMatch(JSON.stringify(events), /iVBORw0KGgo|9j\/4AAQ|subtype/);
});

test('grok format: chat history results carry no error flag, so only a shell tool\'s stated exit status fails one; a file read that mentions an exit code is no failure', () => {
	const [unit] = grokAdapter.discover(join(cases, 'exit-status', 'sessions'));
	assert.ok(unit);
	const {loaded, events} = readUnit(grokAdapter, wholeUnit(unit));
	assert.equal(loaded.skipped, 0);
	const results = new Map(events.filter(event => event.kind === 'tool_result').map(event => [event.result?.call_id, event.result]));
	assert.equal(results.get('call-f1')?.is_error, false, 'read_file output quoting "exit code 1" is the file\'s text');
	assert.equal(results.get('call-f1')?.exit_code, undefined);
	assert.deepEqual([results.get('call-f2')?.is_error, results.get('call-f2')?.exit_code], [true, 2], 'the shell command\'s own failure still counts');
});

test('grok format: a shell result states its exit status before the command\'s output, which may quote another status: the first statement is the result\'s', () => {
	const [unit] = grokAdapter.discover(join(cases, 'exit-status', 'sessions'));
	assert.ok(unit);
	const {events} = readUnit(grokAdapter, wholeUnit(unit));
	const retried = events.find(event => event.kind === 'tool_result' && event.result?.call_id === 'call-f3');
	assert.deepEqual([retried?.result?.is_error, retried?.result?.exit_code], [false, 0], '"Process exited with code 0" above the output, not the "Exit code: 1" the retry wrapper printed');
});

test('grok format: in updates.jsonl only a call of ACP kind execute states an exit status in its output; a read (or search, edit, fetch) that quotes one is no failure', () => {
	// ACP ToolKind: read, edit, delete, move, search, execute, think, fetch, switch_mode, other.
	const [unit] = grokAdapter.discover(join(cases, 'exit-kinds', 'sessions'));
	assert.ok(unit);
	const {loaded, events} = readUnit(grokAdapter, wholeUnit(unit));
	assert.equal(loaded.skipped, 0);
	assert.deepEqual(
		events.filter(event => event.kind === 'tool_result').map(event => [event.result?.call_id, event.result?.is_error, event.result?.exit_code]),
		[
			['call-r1', false, undefined],
			['call-r2', true, 1],
		],
	);
});

test('grok format: a session resumes natively with `grok --resume <id>`, GROK_HOME set when it was found under another home; one with no updates.jsonl, or in no sessions directory, has none', t => {
	// `grok --resume <session-id>` reopens a session kept under ~/.grok/sessions/ (keyed by working
	// directory), $GROK_HOME/sessions when GROK_HOME is set, and replays it from updates.jsonl.
	// Evidence: docs.x.ai/build/features/sessions (Resuming: `grok --resume <session-id>`) and
	// build/cli/reference; docs.specstory.com/integrations/grok-build (GROK_HOME moves sessions);
	// docs.rs txcript harness/grok (updates.jsonl is what grok --resume replays).
	const env = sandboxEnv(tempDir(t));
	const id = '019b1d20-4a00-7000-8000-0000000000a1';
	const other = join(env['HOME']!, 'grok homes', 'lab');
	cpSync(join(cases, 'sessions'), join(other, 'sessions'), {recursive: true});
	const run = (sessionId: string, args: string[], extra: Record<string, string> = {}) => {
		const result = runCli(['resume', sessionId, '--source', 'grok', ...args, '--format', 'json'], {env: {...env, ...extra}});
		assert.equal(result.code, 0, result.stderr);
		return result.json();
	};

	assert.equal(run(id, ['--source-root', other]).native_resume_command, `GROK_HOME='${other}' grok --resume ${id}`);
	assert.equal(run(id, ['--source-root', join(other, 'sessions')]).native_resume_command, `GROK_HOME='${other}' grok --resume ${id}`);
	assert.equal(run(id, ['--source-root', other], {GROK_HOME: other}).native_resume_command, `grok --resume ${id}`, 'GROK_HOME already names it');
	cpSync(join(cases, 'sessions'), join(env['HOME']!, '.grok', 'sessions'), {recursive: true});
	assert.equal(run(id, []).native_resume_command, `grok --resume ${id}`);

	// Only chat_history.jsonl: nothing grok --resume replays.
	const chatOnly = '019b4a10-2c00-7000-8000-0000000000d4';
	cpSync(join(cases, 'prompt-images', 'sessions'), join(env['HOME']!, '.grok', 'sessions'), {recursive: true});
	const brief = run(chatOnly, []);
	assert.equal(brief.native_resume_command, null);
	assert.ok(brief.warnings.some((warning: string) => /updates\.jsonl/.test(warning)), JSON.stringify(brief.warnings));

	// A store under another name: GROK_HOME cannot point there.
	const loose = join(env['HOME']!, 'grok backup');
	cpSync(join(cases, 'sessions'), loose, {recursive: true});
	const looseBrief = run(id, ['--source-root', loose]);
	assert.equal(looseBrief.native_resume_command, null);
	assert.ok(looseBrief.warnings.some((warning: string) => /GROK_HOME/.test(warning)), JSON.stringify(looseBrief.warnings));
});

test('grok format: a turn the service stopped (retry_state "exhausted", turn_completed stop_reason "rate_limit") ends in an error, not as a finished turn', () => {
	const [unit] = grokAdapter.discover(join(cases, 'usage-limit', 'sessions'));
	assert.ok(unit);
	const {loaded, events} = readUnit(grokAdapter, wholeUnit(unit));
	assert.equal(loaded.skipped, 0);
	assert.deepEqual(
		events.filter(event => event.kind === 'system').map(event => [event.line, Boolean(event.error), event.interrupted ?? false]),
		[
			[5, true, false],
			[7, true, false],
		],
		'the retry still under way at line 4 is no error yet',
	);
	assert.match(events.find(event => event.line === 5 && event.kind === 'system')?.text ?? '', /429 Too Many Requests/);
});

/**
 * A chat_history line whose `type` this reader does not know but which carries an OpenAI-style
 * `role` (a Responses-style `{"type":"message","role":…}` item, or a later item type) is read by
 * its role, as a legacy line is; a file may mix both shapes (agentsview internal/parser/grok.go
 * grokChatRowKind, grok_test.go TestParseGrokChatHistoryUnknownTypeFallsBackToLegacyRole and
 * TestGrokProviderParsesMixedTranscriptFormats).
 */
test('grok format: a chat_history line of an unknown type that carries a role is read by its role, never skipped', () => {
	const [unit] = grokAdapter.discover(join(cases, 'role-fallback', 'sessions'));
	assert.ok(unit);
	const {loaded, events, summary} = readUnit(grokAdapter, wholeUnit(unit));
	assert.equal(loaded.skipped, 0);
	assert.deepEqual(
		events.filter(event => event.kind === 'user' || event.kind === 'assistant').map(event => [event.line, event.kind, event.text]),
		[
			[2, 'user', 'Which hedge plants cope with salt spray on the dunes?'],
			[3, 'assistant', 'Sea buckthorn and escallonia both cope with salt spray.'],
			[4, 'user', 'Which of those flowers in spring?'],
			[5, 'assistant', 'Escallonia flowers from late spring into summer.'],
		],
	);
	assert.equal(summary.human_turns, 2);
	assert.equal(summary.title, 'Which hedge plants cope with salt spray on the dunes?');
});

test('grok format: a tool call is named by its native tool (update._meta["x.ai/tool"].name), not its display title; the title stands in only where no name is stated', () => {
	// Grok 0.2.x writes the ACP `title` as a label ("Edit", "Run npm test") and the tool's own name in `_meta["x.ai/tool"]`.
	const [unit] = grokAdapter.discover(join(cases, 'native-tool-names', 'sessions'));
	assert.ok(unit);
	const {loaded, events} = readUnit(grokAdapter, wholeUnit(unit));
	assert.equal(loaded.skipped, 0);
	assert.deepEqual(
		events.filter(event => event.kind === 'tool_call').map(event => [event.tool?.call_id, event.tool?.name]),
		[
			['call-o1', 'search_replace'],
			['call-o2', 'run_terminal_cmd'],
			['call-o3', 'read_file'],
		],
	);
});

test('grok format: a summary naming the session itself as its parent_session_id names no parent, so the session is listed and its prompt is a person\'s', () => {
	const [unit] = grokAdapter.discover(join(cases, 'self-parent', 'sessions'));
	assert.ok(unit);
	const {summary} = readUnit(grokAdapter, wholeUnit(unit));
	assert.equal(summary.id, '019b4b22-7e00-7000-8000-0000000000f3');
	assert.equal(summary.parent_id, null, 'a session is never its own parent');
	assert.equal(wholeUnit(unit).parentIdHint, undefined, 'nor does listing name one');
	assert.equal(summary.human_turns, 1);
});

test('grok format: a tool_call_update\'s rawInput replaces the arguments its call started with (an empty {} while streaming, or fewer fields)', () => {
	// ACP: a tool_call_update carries only the fields that changed, each replacing the call's own.
	const [unit] = grokAdapter.discover(join(cases, 'updated-input', 'sessions'));
	assert.ok(unit);
	const {loaded, events} = readUnit(grokAdapter, wholeUnit(unit));
	assert.equal(loaded.skipped, 0);
	assert.deepEqual(
		events.filter(event => event.kind === 'tool_call').map(event => [event.tool?.call_id, event.tool?.input]),
		[
			['call-t1', {pattern: 'soak_hours: 48', path: 'recipes'}],
			['call-t2', {target_file: 'recipes/oak.yml', offset: 1, limit: 20}],
		],
	);
});

test('grok format: an image pasted into a prompt as an embedded resource ({type: "resource", resource: {blob, mimeType}}) is noted as an image, its bytes never copied', () => {
	const [unit] = grokAdapter.discover(join(cases, 'prompt-resource-image', 'sessions'));
	assert.ok(unit);
	const {events} = readUnit(grokAdapter, wholeUnit(unit));
	assert.deepEqual(events.filter(event => event.kind === 'user').map(event => [event.human, event.text]), [[true, 'Is this glaze pinholing?\n[image: image/png]']]);
	assert.doesNotMatch(JSON.stringify(events), /R2xhemVQaG90b0Jsb2I|clipboard:/);
});

test('grok format: an empty updates.jsonl beside a written chat_history.jsonl does not hide the conversation', t => {
	const sessions = join(tempDir(t), 'sessions');
	const session = join(sessions, '%2Fhome%2Fnoor%2Fpottery', '019a7c10-5e00-7000-8000-0000000000f1');
	mkdirSync(session, {recursive: true});
	writeFileSync(join(session, 'summary.json'), JSON.stringify({info: {id: '019a7c10-5e00-7000-8000-0000000000f1', cwd: '/home/noor/pottery'}, created_at: '2026-11-22T09:00:00.000Z'}));
	writeFileSync(join(session, 'updates.jsonl'), '');
	writeFileSync(join(session, 'chat_history.jsonl'), `${JSON.stringify({role: 'user', content: 'List the kilns due for a service'})}\n${JSON.stringify({role: 'assistant', content: 'Kiln 2 and kiln 4 are due.'})}\n`);
	const [unit] = grokAdapter.discover(sessions);
	assert.ok(unit);
	assert.equal(unit.path, join(session, 'chat_history.jsonl'));
	assert.equal(readUnit(grokAdapter, wholeUnit(unit)).summary.title, 'List the kilns due for a service');
});

test('grok format: a user item holding only a context block Grok Build adds (<agent_skills>, <git_status>), with no <user_query>, is the host\'s, not a request', () => {
	// bbsteel/session-insight internal/reader/grok/grok.go extractUserQuery: user text without a
	// <user_query> that carries <system-reminder>, <user_info>, <git_status> or <agent_skills> is
	// injected context, not a prompt.
	const [unit] = grokAdapter.discover(join(cases, 'context-only', 'sessions'));
	assert.ok(unit);
	const {events, summary} = readUnit(grokAdapter, wholeUnit(unit));
	assert.deepEqual(
		events.filter(event => event.kind === 'user').map(event => [event.line, event.human]),
		[
			[2, false],
			[3, false],
			[4, true],
		],
	);
	assert.equal(summary.human_turns, 1);
	assert.equal(summary.title, 'Why does the twill card repeat every seven picks?');
});

test('grok format: a shell result kept only as its structured rawOutput (type "Bash": output_for_prompt, the output as a byte array, exit_code) reads as the command\'s text, never the JSON of its bytes', () => {
	// Grok's ToolOutput for a shell call: {type: "Bash", command, output: [bytes], output_for_prompt,
	// exit_code, …}. bbsteel/session-insight internal/reader/grok/render.go toolResultText prefers
	// output_for_prompt and decodes the byte array when only it is there.
	const [unit] = grokAdapter.discover(join(cases, 'raw-tool-output', 'sessions'));
	assert.ok(unit);
	const {events} = readUnit(grokAdapter, wholeUnit(unit));
	const results = events.filter(event => event.kind === 'tool_result').map(event => [event.result?.call_id, event.result?.output, event.result?.exit_code, event.result?.is_error]);
	assert.deepEqual(results, [
		['call-m1', 'bin 4: 19%\n', 2, true],
		['call-m2', 'bin 1\nbin 4\n', 0, false],
	]);
});

test('grok format: a subagent session kept under its parent\'s directory (`<session>/subagents/<id>/`) is a session, the parent\'s child', () => {
	// Grok Build session/persistence.rs new_with_explicit_dir: "subagent child sessions whose files live under the parent's
	// session directory: {parent_session_dir}/subagents/{subagent_id}/", with summary.json (session_kind "subagent") there.
	const units = grokAdapter.discover(join(cases, 'nested-subagent', 'sessions')).map(wholeUnit);
	const parent = '019b5c40-2a00-7000-8000-0000000000e1';
	const child = '019b5c40-3b00-7000-8000-0000000000e2';
	assert.deepEqual(units.map(unit => unit.idHint).sort(), [parent, child]);
	const childUnit = units.find(unit => unit.idHint === child)!;
	assert.equal(childUnit.parentIdHint, parent, 'the enclosing session, when the summary names no parent');
	assert.equal(childUnit.projectHint, '/work/orchard');
	const {summary} = readUnit(grokAdapter, childUnit);
	assert.equal(summary.title, 'Locate the orchard sensor feed');
	assert.equal(summary.human_turns, 0, 'its prompt is the parent agent\'s');
	assert.equal(summary.parent_id, parent);
});

test('grok format: a session of kind "subagent_fork" or "subagent_resume" is a subagent\'s too: its prompts are the parent agent\'s', () => {
	// Grok Build marks a forked or resumed subagent's session with these kinds beside "subagent"; readers of Grok
	// summaries count all three as child sessions (duqaXxX/seedeep pull #86: `subagent` / `subagent_resume` go under
	// Automated; a Go reader's isGrokChildKind: subagent, subagent_fork, subagent_resume).
	const units = grokAdapter.discover(join(cases, 'child-kinds', 'sessions')).map(wholeUnit);
	assert.equal(units.length, 2);
	for (const unit of units) {
		const {events, summary} = readUnit(grokAdapter, unit);
		assert.equal(summary.human_turns, 0, unit.idHint);
		assert.ok(events.filter(event => event.kind === 'user').every(event => event.human !== true && event.origin === 'agent'), unit.idHint);
		assert.equal(summary.parent_id, '019b6d50-1a00-7000-8000-0000000000d0');
	}
});
