import assert from 'node:assert/strict';
import {appendFileSync, cpSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test, {type TestContext} from 'node:test';
import {fileURLToPath} from 'node:url';
import {discoverCodex} from '../../source/adapters/codex/discover.js';
import {codexAdapter} from '../../source/adapters/codex/index.js';
import {SessionCorruptError} from '../../source/adapters/types.js';
import {looseUnit, readUnit} from '../helpers/adapters.js';
import {tempDir} from '../helpers/temp.js';
import {commandOf, filesTouched} from '../../source/engine/conversation/tool-calls.js';
import {runCli, sandboxEnv} from '../helpers/cli.js';
import {searchableText} from '../../source/engine/search/session-text.js';
import {computeTail} from '../../source/engine/continuity/tail.js';
import {scanUnit, type LineMark, type ScanResult, type TextSink} from '../../source/engine/catalog/scan.js';

/** Rollouts written for one format feature each (invented content, Codex's record shapes). */
const cases = fileURLToPath(new URL('../fixtures/format-cases/codex', import.meta.url));
const mcpAndHooks = join(cases, 'rollout-2026-10-02T14-00-00-0195b7d4-2a00-7a00-8a00-0000000000a1.jsonl');

const resultOf = (events: ReturnType<typeof readUnit>['events'], callId: string) => events.find(event => event.kind === 'tool_result' && event.result?.call_id === callId)?.result;

test('codex format: an MCP result written as the JSON text of its content blocks reads as their text', () => {
	const {events} = readUnit(codexAdapter, looseUnit(mcpAndHooks));
	const result = resultOf(events, 'call_mcp_ok');
	assert.ok(result, 'the MCP call has a result');
	assert.equal(result.output, 'Tomato beds: water every second morning.\nSkip after rain.\nSource: garden handbook, page 4');
	assert.equal(result.is_error, false);
});

test('codex format: an MCP call that failed (`err: "…"` output) is a failed result', () => {
	const {events} = readUnit(codexAdapter, looseUnit(mcpAndHooks));
	const result = resultOf(events, 'call_mcp_err');
	assert.ok(result, 'the MCP call has a result');
	assert.equal(result.is_error, true);
	assert.match(result.output, /request timed out/);
});

test('codex format: a <hook_prompt> a hook fed back into the thread is not a human request', () => {
	const {events, summary} = readUnit(codexAdapter, looseUnit(mcpAndHooks));
	const hook = events.find(event => event.kind === 'user' && /greenhouse log/.test(event.text ?? ''));
	assert.ok(hook, 'the hook prompt is kept as an event');
	assert.equal(hook.human, false);
	assert.equal(summary.human_turns, 1);
	assert.equal(summary.title, 'Look up the watering schedule for the tomato beds');
});

const refusedTools = join(cases, 'rollout-2025-11-18T10-10-00-0195b7d4-2b00-7b00-8b00-0000000000a2.jsonl');

test('codex format: a tool Codex refused to run (patch that does not verify, arguments that do not parse) is a failed result', () => {
	const {events} = readUnit(codexAdapter, looseUnit(refusedTools));
	assert.equal(resultOf(events, 'call_patch_bad')?.is_error, true, 'apply_patch verification failed');
	assert.equal(resultOf(events, 'call_args_bad')?.is_error, true, 'failed to parse function arguments');
	assert.equal(resultOf(events, 'call_grep_ok')?.is_error, false, 'a command that ran and exited 0');
});

/**
 * The TypeScript Codex CLI (spring 2025) saved each session as one pretty-printed JSON document,
 * `sessions/rollout-<date>-<uuid>.json`: `{session: {timestamp, id, instructions}, items: [ResponseItem…]}`,
 * rewritten whole on every save.
 */
const jsonRolloutName = 'rollout-2025-04-22-3b7e9d1c-5a2f-4c8e-9f61-0d4a7b2e8c15.json';
const jsonRolloutId = '3b7e9d1c-5a2f-4c8e-9f61-0d4a7b2e8c15';

/** A sessions directory holding the JSON rollout (optionally edited) beside `others`. */
function jsonSessions(t: TestContext, edit?: (document: {session: Record<string, unknown>; items: unknown[]}) => unknown, others: Record<string, string> = {}): string {
	const sessions = join(tempDir(t), 'sessions');
	mkdirSync(sessions, {recursive: true});
	const text = readFileSync(join(cases, jsonRolloutName), 'utf8');
	writeFileSync(join(sessions, jsonRolloutName), edit ? JSON.stringify(edit(JSON.parse(text)), null, 2) : text);
	for (const [name, content] of Object.entries(others)) {
		writeFileSync(join(sessions, name), content);
	}

	return sessions;
}

const discoveredJson = (sessions: string) => discoverCodex(sessions).find(unit => unit.path.endsWith('.json'));

test('codex format: a TypeScript-era JSON rollout is discovered, its id from the file name', t => {
	const unit = discoveredJson(jsonSessions(t));
	assert.ok(unit, 'the .json rollout is listed');
	assert.equal(unit.idHint, jsonRolloutId);
});

test('codex format: a JSON rollout reads as one row per item (line = item index + 1), with its session facts', t => {
	const unit = discoveredJson(jsonSessions(t));
	assert.ok(unit);
	const {loaded, events, summary} = readUnit(codexAdapter, unit);
	assert.equal(loaded.skipped, 0);
	assert.deepEqual([...new Set(loaded.rows.map(row => row.line))], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], 'the reasoning item (line 2) is a row without events');
	assert.equal(summary.id, jsonRolloutId);
	assert.equal(summary.started, '2025-04-22T08:41:17.503Z', 'the document states when it was saved; its items carry no times');
	assert.equal(summary.project, null, 'the TypeScript CLI recorded no working directory');
	assert.equal(summary.title, 'Rename the helper parseBedLayout to readBedLayout in the greenhouse planner');
	assert.equal(summary.human_turns, 2);
	assert.equal(summary.assistant_messages, 2);
	assert.equal(summary.tool_calls, 3);
	assert.deepEqual(
		events.filter(event => event.kind === 'tool_call').map(event => [event.line, event.tool?.name, event.tool?.call_id]),
		[
			[3, 'shell', 'call_R4nQmZ7tW1xYb2Lk9PsV3hJd'],
			[5, 'shell', 'call_8YhTnB2cXq5Wm0Rz6LfK1aGe'],
			[9, 'local_shell', 'call_Vb3Lq8Zn2Tw6Ks1Xm4Pd7Rf'],
		],
	);
	assert.equal(resultOf(events, 'call_R4nQmZ7tW1xYb2Lk9PsV3hJd')?.is_error, false);
	const failed = resultOf(events, 'call_Vb3Lq8Zn2Tw6Ks1Xm4Pd7Rf');
	assert.equal(failed?.is_error, true, 'the local shell call exited 1');
	assert.match(failed?.output ?? '', /Expected 4 beds, received 3/);
});

test('codex format: a JSON rollout\'s project is session.cwd, else the first <environment_context> it holds', t => {
	const stated = discoveredJson(jsonSessions(t, document => ({...document, session: {...document.session, cwd: '/home/ana/greenhouse'}})));
	assert.equal(readUnit(codexAdapter, stated!).summary.project, '/home/ana/greenhouse');
	const injected = discoveredJson(
		jsonSessions(t, document => ({
			...document,
			items: [{type: 'message', role: 'user', content: [{type: 'input_text', text: '<environment_context>\n  <cwd>/home/ana/orchard</cwd>\n</environment_context>'}]}, ...document.items],
		})),
	);
	const read = readUnit(codexAdapter, injected!);
	assert.equal(read.summary.project, '/home/ana/orchard');
	assert.equal(read.summary.human_turns, 2, 'the injection is not a request');
});

test('codex format: a JSON file that is not a rollout document is skipped and counted, never thrown', t => {
	const sessions = jsonSessions(t, undefined, {'rollout-2025-04-23-7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f.json': '{"history": []}', 'rollout-2025-04-24-0a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d.json': '{"session": {"id": "x"}, "items": ['});
	const other = discoverCodex(sessions).find(unit => unit.path.includes('7c1d2e3f'));
	assert.ok(other);
	const read = readUnit(codexAdapter, other);
	assert.deepEqual([read.loaded.rows.length, read.loaded.skipped, read.summary.conversational], [0, 1, false]);
	const torn = discoverCodex(sessions).find(unit => unit.path.includes('0a1b2c3d'));
	assert.ok(torn);
	assert.throws(() => readUnit(codexAdapter, torn), SessionCorruptError);
});

test('codex format: the parent history `codex fork` copies into the new rollout is not the fork\'s own; its own later turns are', () => {
	const fork = join(cases, 'rollout-2026-03-10T15-00-00-019cd843-1180-7a3e-9d21-4c8b5e0f2a17.jsonl');
	const {events, loaded, summary} = readUnit(codexAdapter, looseUnit(fork));
	assert.equal(summary.id, '019cd843-1180-7a3e-9d21-4c8b5e0f2a17');
	assert.equal(summary.parent_id, '019cd19c-3000-7b11-8c42-1d9e7f3a6b05');
	assert.equal(summary.title, 'Draw it as a bar chart instead', "the parent's first request is not the fork's title");
	assert.deepEqual([summary.human_turns, summary.assistant_messages, summary.tool_calls], [1, 1, 1], 'only the turn typed in the fork counts');
	assert.equal(summary.started, '2026-03-10T15:00:00.000Z');
	const copied = events.filter(event => event.line >= 2 && event.line <= 14);
	assert.deepEqual(copied.map(event => event.kind), ['system'], 'the copy (its session_meta, a turn from before turn ids, a turn with an older turn id) is one notice');
	assert.match(copied[0]?.text ?? '', /019cd19c-3000-7b11-8c42-1d9e7f3a6b05/);
	assert.ok(!events.some(event => event.result?.call_id === 'call_copied_plot'), "the parent's failed call is not the fork's failure");
	const searchable = loaded.rows.map(row => searchableText(row.events)).join('\n');
	assert.doesNotMatch(searchable, /rainfall from rain\.csv|seed packets/, "the parent's lines are not searched as the fork's");
	assert.match(searchable, /bar chart/);
	assert.deepEqual(events.filter(event => event.session?.model).map(event => [event.line, event.session?.model]), [[17, 'gpt-5.4']]);
});

test('codex format: a subagent whose own session_meta names no parent, followed by another thread\'s session_meta, names that thread as its parent; its own id and folder stay', () => {
	// A subagent whose source names no parent ({"subagent": {"other": "guardian"}}) repeats the
	// session_meta of the thread that started it after its own (a main session's later metas stay
	// no parents: the conformance test over stage0-small). Evidence: kvsankar/agent-history agent_history/utils/session_identity.py
	// (CodexSessionMeta: a later payload with another id names the parent when the first named
	// none) and tests/unit/storage/test_codex_session_identity.py,
	// tests/unit/backends/test_codex_linkage.py.
	const {summary} = readUnit(codexAdapter, looseUnit(join(cases, 'rollout-2026-10-27T13-00-00-01a2a9c0-6e00-7a00-8b00-0000000000e9.jsonl')));
	assert.equal(summary.id, '01a2a9c0-6e00-7a00-8b00-0000000000e9');
	assert.equal(summary.parent_id, '01a2a7f1-2b00-7c00-8d00-0000000000d8');
	assert.equal(summary.project, '/home/dev/tidepool');
	assert.equal(summary.started, '2026-10-27T13:00:00.000Z');
});

test('codex format: a fork whose turn ids are not UUIDv7 keeps every line (no boundary can be told)', t => {
	const directory = tempDir(t);
	const path = join(directory, 'rollout-2026-03-10T15-00-00-019cd843-1180-7a3e-9d21-4c8b5e0f2a17.jsonl');
	const lines = readFileSync(join(cases, 'rollout-2026-03-10T15-00-00-019cd843-1180-7a3e-9d21-4c8b5e0f2a17.jsonl'), 'utf8')
		.replace('"type":"turn_context","payload":{"cwd"', '"type":"turn_context","payload":{"turn_id":"turn-6","cwd"')
		.replaceAll('019cd1a0-c3e0-7c55-a913-2e6f8b4d0c91', 'turn-7')
		.replaceAll('019cd843-adc0-7d02-b7e4-5a1c9f3e8d26', 'turn-8');
	writeFileSync(path, lines);
	const {summary} = readUnit(codexAdapter, looseUnit(path));
	assert.equal(summary.title, 'List the seed packets that expire this year');
	assert.equal(summary.human_turns, 3);
});

/**
 * A rollout cross_agent_session_resumer (casr) wrote into ~/.codex/sessions when it converted a
 * session from another agent: line times as Unix seconds (fractional), tool calls and results as
 * `tool_use` / `tool_result` blocks inside the messages' content, and (older casr builds) message
 * items without `type`.
 */
const convertedRollout = join(cases, 'rollout-2026-03-04T09-15-00-7d2e4f60-3a1b-4c5d-9e8f-1a2b3c4d5e6f.jsonl');

test('codex format: a line timed in Unix seconds (as casr writes converted sessions) keeps its time', () => {
	const {events, summary} = readUnit(codexAdapter, looseUnit(convertedRollout));
	const request = events.find(event => event.kind === 'user' && event.human);
	assert.equal(request?.timestamp, '2026-03-03T09:30:00.500Z');
	const last = events.filter(event => event.kind === 'assistant').at(-1);
	assert.equal(last?.timestamp, '2026-03-03T09:30:12.500Z');
	assert.equal(summary.title, 'Count the apple trees listed in trees.txt');
});

test('codex format: tool_use and tool_result blocks in a message\'s content (casr\'s converted sessions) are tool calls and results', () => {
	const {events, summary} = readUnit(codexAdapter, looseUnit(convertedRollout));
	const call = events.find(event => event.kind === 'tool_call' && event.tool?.call_id === 'toolu_orchard_read');
	assert.deepEqual(call?.tool, {name: 'Read', call_id: 'toolu_orchard_read', input: {file_path: '/home/dev/orchard/trees.txt'}});
	assert.deepEqual(resultOf(events, 'toolu_orchard_read'), {call_id: 'toolu_orchard_read', is_error: false, output: 'apple\npear\napple\nplum'});
	assert.equal(resultOf(events, 'toolu_orchard_old')?.is_error, true);
	assert.equal(summary.tool_calls, 2);
	assert.equal(summary.human_turns, 1, 'a tool result is no request');
	assert.deepEqual(events.filter(event => event.kind === 'assistant').map(event => event.text), ['I will read the list first.', 'Checking the archive too.', 'There are 2 apple trees in trees.txt.'], 'a message item without type (older casr) is still a message');
});

/**
 * Threads Codex starts in its paginated history mode (codex-rs/rollout/src/policy.rs since
 * openai/codex#30188, first in 0.147) persist each finished thread item as `event_msg`
 * `item_completed {thread_id, turn_id, item}` and no longer write the legacy events those items
 * replace (`user_message`, `agent_message`, `patch_apply_end`, `mcp_tool_call_end`,
 * `context_compacted`); the model's `response_item` copies are still written beside them.
 */
const paginatedRollout = join(cases, 'rollout-2026-09-14T08-00-00-019e4a10-7c00-7d00-8e00-0000000000b1.jsonl');
const itemOnlyRollout = join(cases, 'rollout-2026-09-15T17-30-00-019e4b20-1d00-7d00-8e00-0000000000b2.jsonl');

test('codex format: a paginated rollout counts each request, reply and call once, its thread items beside the response items', () => {
	const {events, summary} = readUnit(codexAdapter, looseUnit(paginatedRollout));
	assert.equal(summary.title, 'Lower-case the column names in seeds.csv');
	assert.equal(summary.human_turns, 1, 'the UserMessage item repeats the response item\'s prompt');
	assert.deepEqual(events.filter(event => event.kind === 'assistant').map(event => event.text), ['I will read the header line first.', 'seeds.csv is read-only, so the header still reads Name,Variety,Sown.'], 'each AgentMessage item repeats a response item\'s reply');
	assert.ok(!events.some(event => /Checking the header/.test(event.text ?? '')), 'reasoning is never shown');
	for (const callId of ['call_cell_01', 'call_patch_01', 'call_mcp_01', 'call_ls_01']) {
		assert.equal(events.filter(event => event.kind === 'tool_call' && event.tool?.call_id === callId).length, 1, `${callId} is called once`);
		assert.equal(events.filter(event => event.kind === 'tool_result' && event.result?.call_id === callId).length, 1, `${callId} resolves once`);
	}

	assert.equal(resultOf(events, 'call_mcp_01')?.output, 'Brandywine: heirloom tomato');
	assert.ok(!events.some(event => event.tool?.call_id === 'exec-user-shell-0001' || event.result?.call_id === 'exec-user-shell-0001'), 'a command the person ran is no call of the model\'s');
});

test('codex format: a FileChange item that failed (what patch_apply_end success:false was) is a failed edit', () => {
	const {events} = readUnit(codexAdapter, looseUnit(paginatedRollout));
	assert.equal(resultOf(events, 'call_patch_01')?.is_error, true);
});

test('codex format: a command a code-mode exec cell ran, recorded only as its CommandExecution item, is a call with its result', () => {
	const {events, summary} = readUnit(codexAdapter, looseUnit(paginatedRollout));
	const nested = 'exec-7f3a2c10-0000-4000-8000-00000000e001';
	const call = events.find(event => event.kind === 'tool_call' && event.tool?.call_id === nested);
	assert.ok(call, 'the nested command is a call');
	assert.deepEqual(call.tool?.input, {command: ['/bin/bash', '-lc', 'head -1 seeds.csv']});
	assert.deepEqual(resultOf(events, nested), {call_id: nested, is_error: false, exit_code: 0, output: 'Name,Variety,Sown\n'});
	assert.equal(summary.tool_calls, 5, 'the cell, the command it ran, the patch, the MCP call and the listing');
});

test('codex format: a rollout whose turns are only thread items (UserMessage, AgentMessage) is still read', () => {
	const {events, summary} = readUnit(codexAdapter, looseUnit(itemOnlyRollout));
	assert.equal(summary.title, 'Which tomato varieties are on the top shelf? [image: /home/dev/seedbank/shelf.png]', 'the text inputs joined, the image between them noted after them');
	assert.equal(summary.human_turns, 1);
	assert.deepEqual(events.filter(event => event.kind === 'assistant').map(event => event.text), ['Brandywine and Black Krim are on the top shelf.']);
	assert.ok(events.some(event => event.kind === 'system' && event.text === 'Context compacted'), 'a ContextCompaction item is the compaction notice');
});

test('codex format: the result a /review hands back to the thread (a user-role <user_action> message) is no request and no title', () => {
	// Review runs in its own conversation; on exit Codex records its outcome in the parent thread
	// as a user-role message wrapped in <user_action> (the findings, or a note that it was
	// interrupted), then the review's answer as an assistant message. Evidence: openai/codex
	// codex-rs/core/src/tasks/review.rs (exit_review_mode) and core/templates/review/*.
	const session = readUnit(codexAdapter, looseUnit(join(cases, 'rollout-2026-05-11T16-20-00-019e1c33-4b00-7c00-8d00-0000000000c3.jsonl')));
	const users = session.events.filter(event => event.kind === 'user');
	assert.deepEqual(users.map(event => [event.line, event.human ?? false]), [[3, false], [6, true], [9, false]]);
	assert.equal(session.summary.title, 'Fix the skipped last row');
	assert.equal(session.summary.human_turns, 1);
	assert.ok(session.events.some(event => event.kind === 'assistant' && event.text === 'The tide table parser skips the last row of each month.'), "the review's answer is still read");
});

/**
 * A subagent spawned with its parent's context in a paginated thread: Codex persists the parent's
 * model context into the child's rollout right after the child's `session_meta`, every line
 * numbered by `ordinal`, and records in `subagent_history_start_ordinal` the first ordinal that
 * is the child's own (codex-rs thread store, create_with_inherited_model_context; its history
 * projection skips every line numbered below it). No `forked_from_id` marks such a copy.
 */
const inheritedContextChild = join(cases, 'rollout-2026-10-20T09-30-00-01a158a5-71c0-7a00-8c00-0000000000d2.jsonl');

test('codex format: the parent context a paginated subagent inherits (ordinals below subagent_history_start_ordinal) is not the child\'s own', () => {
	const {events, loaded, summary} = readUnit(codexAdapter, looseUnit(inheritedContextChild));
	assert.equal(summary.id, '01a158a5-71c0-7a00-8c00-0000000000d2');
	assert.equal(summary.parent_id, '01a1589c-4a00-7a00-8c00-0000000000d1');
	assert.deepEqual([summary.assistant_messages, summary.tool_calls], [1, 1], 'only the child\'s own reply and call count');
	const inherited = events.filter(event => event.line >= 2 && event.line <= 6);
	assert.deepEqual(inherited.map(event => event.kind), ['system'], 'the inherited context is one notice');
	assert.match(inherited[0]?.text ?? '', /01a1589c-4a00-7a00-8c00-0000000000d1/);
	assert.ok(!events.some(event => event.tool?.call_id === 'call_parent_grep' || event.result?.call_id === 'call_parent_grep'), "the parent's failed call is not the child's failure");
	assert.ok(!events.some(event => event.kind === 'user' && /first frost/.test(event.text ?? '')), "the parent's request is not the child's");
	const searchable = loaded.rows.map(row => searchableText(row.events)).join('\n');
	assert.doesNotMatch(searchable, /first frost|frost calendar/, "the parent's lines are not searched as the child's");
	assert.match(searchable, /best_before/);
	assert.equal(resultOf(events, 'call_child_awk')?.is_error, false);
});

/**
 * Codex puts a command's status in a header above its output: `Chunk ID`, `Wall time`, `Process
 * exited with code N`, `Original token count`, then `Output:` (unified exec), or `Exit code: N`,
 * `Wall time`, `Output:` (shell_command). What follows `Output:` is the command's own text.
 */
const exitHeaders = join(cases, 'rollout-2026-10-22T11-00-00-01a1632e-2f60-7c00-8e00-0000000000a7.jsonl');

test('codex format: the exit status is read from the header above `Output:`, never from the output below it', () => {
	const {events} = readUnit(codexAdapter, looseUnit(exitHeaders));
	assert.deepEqual([resultOf(events, 'call_unified_ok')?.is_error, resultOf(events, 'call_unified_ok')?.exit_code], [false, 0], 'the output\'s "exit code: 3" is the command\'s text');
	assert.deepEqual([resultOf(events, 'call_shell_ok')?.is_error, resultOf(events, 'call_shell_ok')?.exit_code], [false, 0]);
	assert.deepEqual([resultOf(events, 'call_unified_bad')?.is_error, resultOf(events, 'call_unified_bad')?.exit_code], [true, 1]);
});

/**
 * Multi-agent threads deliver each message between agents into the recipient's history as a
 * message whose one text block is the JSON of the communication, `{author, recipient,
 * other_recipients, content, trigger_turn}`: an assistant `output_text` (commentary phase), or in
 * some builds a user `input_text` when it starts a turn (codex-rs protocol.rs,
 * InterAgentCommunication::to_response_input_item). Neither is a person's request nor the
 * model's reply; in a spawned thread, the one that starts its work is its parent's task.
 */
const agentsRoot = join(cases, 'rollout-2026-10-23T16-00-00-01a16862-b2c0-7d00-8f00-0000000000a1.jsonl');
const agentsChild = join(cases, 'rollout-2026-10-23T16-00-03-01a16863-0aa0-7d00-8f00-0000000000a2.jsonl');

test('codex format: a message between agents (JSON of author, recipient, content, trigger_turn) is no request and no reply', () => {
	const {events, summary} = readUnit(codexAdapter, looseUnit(agentsRoot));
	assert.equal(summary.title, 'Split the seed inventory between two helpers, one per tray');
	assert.deepEqual([summary.human_turns, summary.assistant_messages], [1, 1], 'only the person\'s request and the model\'s own reply');
	const notices = events.filter(event => event.kind === 'system').map(event => event.text);
	assert.deepEqual(notices, ['[/root/tray_a → /root] Tray A holds 12 packets, 3 of them past their date.', '[/root/tray_b → /root] Tray B is still being counted.']);
	assert.ok(!events.some(event => /"trigger_turn"/.test(event.text ?? '')), 'the JSON envelope is not shown as text');
});

test('codex format: the message that hands a spawned thread its work is its parent agent\'s task, titling the child', () => {
	const {events, summary} = readUnit(codexAdapter, looseUnit(agentsChild));
	assert.equal(summary.parent_id, '01a16862-b2c0-7d00-8f00-0000000000a1');
	const task = events.find(event => event.kind === 'user');
	assert.deepEqual([task?.text, task?.human, task?.origin], ['Count the packets on tray A', false, 'agent']);
	assert.equal(summary.title, 'Count the packets on tray A');
	assert.deepEqual([summary.human_turns, summary.assistant_messages], [0, 1]);
});

test('codex format: a top-level inter_agent_communication record is the message between agents it holds', t => {
	const path = join(tempDir(t), 'rollout-2026-10-23T16-00-03-01a16863-0aa0-7d00-8f00-0000000000a2.jsonl');
	const lines = readFileSync(agentsChild, 'utf8').split('\n');
	const task = {author: '/root', recipient: '/root/tray_a', other_recipients: [], content: 'Count the packets on tray A', trigger_turn: true};
	lines[2] = JSON.stringify({timestamp: '2026-10-23T14:00:03.300Z', type: 'inter_agent_communication', payload: task});
	writeFileSync(path, lines.join('\n'));
	const {events, summary} = readUnit(codexAdapter, looseUnit(path));
	assert.deepEqual(events.filter(event => event.kind === 'user').map(event => [event.text, event.origin]), [['Count the packets on tray A', 'agent']]);
	assert.equal(summary.title, 'Count the packets on tray A');
});

/**
 * Rollout items Codex persists that carry nothing for the event model (codex-rs RolloutItem:
 * TokenUsageRecord per model response, RetainedContext, SecurityRiskScore, RealtimeItem,
 * AgentResponseObservation): record kinds of the format, not lines to count as skipped.
 */
test('codex format: token usage, retained context, risk score, realtime and observation records are known kinds, not skipped lines', t => {
	const path = join(tempDir(t), 'rollout-2026-10-22T11-00-00-01a1632e-2f60-7c00-8e00-0000000000a7.jsonl');
	const kinds: Array<[string, Record<string, unknown>]> = [
		['token_usage_record', {thread_id: '01a1632e-2f60-7c00-8e00-0000000000a7', response_id: 'resp_trays_01', usage: {input_tokens: 1200, output_tokens: 80}}],
		['retained_context', {type: 'delivered_assistant_message', message: {turn_id: 'turn-1', text: 'Only tray C fails', complete: true}}],
		['security_risk_score', {score: 0}],
		['realtime_item', {type: 'audio_transcript', text: 'trays'}],
		['agent_response_observation', {response_id: 'resp_trays_01'}],
	];
	const extra = kinds.map(([type, payload]) => JSON.stringify({timestamp: '2026-10-22T11:00:12.500Z', type, payload}));
	writeFileSync(path, readFileSync(exitHeaders, 'utf8') + extra.join('\n') + '\n');
	const {loaded, events} = readUnit(codexAdapter, looseUnit(path));
	assert.equal(loaded.skipped, 0);
	assert.ok(!events.some(event => event.line > 12), 'they add no events');
});

test('codex format: the usage and risk records 0.149+ rollouts hold (token_usage_record, security_risk_score) are known lines that carry nothing', () => {
	// RolloutItem gained TokenUsageRecord (each response's token usage) and SecurityRiskScore
	// (scores Codex never shows in a thread); a line may also carry an `ordinal`.
	const session = readUnit(codexAdapter, looseUnit(join(cases, 'rollout-2026-09-20T11-00-00-019e6c30-4a00-7e00-8f00-0000000000c3.jsonl')));
	assert.equal(session.loaded.skipped, 0, 'none is counted as an unknown line');
	assert.deepEqual(session.events.filter(event => event.kind !== 'meta').map(event => [event.line, event.kind]), [[3, 'user'], [6, 'assistant']]);
});

/**
 * Codex compresses a rollout idle for a week (`rollout-….jsonl.zst`, zstd level 3) and deletes
 * the plain file; while it turns one into the other both may exist, and the plain one is the
 * rollout. Evidence: openai/codex codex-rs/rollout/src/compression.rs (COMPRESSED_SUFFIX,
 * should_skip_compressed_sibling, open_rollout_line_reader) and pull requests #24941, #25087;
 * other readers that stopped seeing week-old rollouts (vshulcz/deja-vu#3640,
 * PixelPaw-Labs/codex-trace#212). The fixtures were compressed with the zstd tool.
 */
const compressedSessions = join(cases, 'compressed', 'sessions');
const compressedId = '019a8f10-2b00-7c00-8d00-0000000000e1';
const bothId = '019a8f11-4c00-7c00-8d00-0000000000e2';

test('codex format: a rollout Codex compressed (.jsonl.zst) is discovered and read as the same rollout; beside its plain copy, the plain one is read', () => {
	const units = discoverCodex(compressedSessions);
	assert.deepEqual(units.map(unit => [unit.idHint, unit.path.endsWith('.zst')]).sort(), [[compressedId, true], [bothId, false]]);
	const session = readUnit(codexAdapter, looseUnit(units.find(unit => unit.idHint === compressedId)!.path, {idHint: compressedId}));
	assert.equal(session.summary.title, 'Find why the loom scheduler skips Sunday shifts.');
	assert.deepEqual([session.summary.human_turns, session.summary.tool_calls, session.loaded.skipped], [1, 1, 0]);
	assert.equal(resultOf(session.events, 'call_z1')?.is_error, true, 'the failed grep is a failure');
});

test('codex format: a compressed rollout is listed, searched and read through the CLI like any other', t => {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	cpSync(compressedSessions, join(env['HOME']!, '.codex', 'sessions'), {recursive: true});
	const listed = runCli(['sessions', '--all-projects', '--format', 'json'], {env});
	assert.equal(listed.code, 0, listed.stderr);
	const sessions = (JSON.parse(listed.stdout) as {sessions: Array<{id: string; title: string | null}>}).sessions;
	assert.deepEqual(sessions.map(session => session.id).sort(), [compressedId, bothId].sort());
	assert.equal(sessions.find(session => session.id === bothId)?.title, 'Rename the shuttle module to carriage.');
	const found = runCli(['sessions', '--all-projects', '--q', 'Sunday', '--format', 'json'], {env});
	assert.equal(found.code, 0, found.stderr);
	assert.deepEqual((JSON.parse(found.stdout) as {sessions: Array<{id: string}>}).sessions.map(session => session.id), [compressedId]);
	const read = runCli(['read', compressedId, '--format', 'json'], {env});
	assert.equal(read.code, 0, read.stderr);
	assert.match(read.stdout, /Sunday \(6\) is never scheduled/);
});

test('codex format: a tool search the server ran (execution "server") carries no call_id; its output answers the search before it, in order, and is paired with it', () => {
	// ResponseItem::ToolSearchCall and ToolSearchOutput hold call_id as an Option: a client-run
	// search names its call, a server-run one does not (Codex pairs outputs by call_id only when
	// execution is not "server"), so its output follows the call it answers with no id at all.
	const {events} = readUnit(codexAdapter, looseUnit(join(cases, 'rollout-2026-11-04T10-00-00-01a1b2c3-5d00-7e00-8f00-0000000000e4.jsonl')));
	const calls = events.filter(event => event.kind === 'tool_call').map(event => [event.line, event.tool?.name, event.tool?.call_id]);
	const results = events.filter(event => event.kind === 'tool_result').map(event => [event.line, event.result?.call_id, event.result?.output]);
	assert.deepEqual(calls, [
		[3, 'tool_search', 'tsc_0a1b2c3d4e5f'],
		[5, 'tool_search', 'tsc_1b2c3d4e5f6a'],
		[7, 'tool_search', 'search-client-1'],
	]);
	assert.deepEqual(results, [
		[4, 'tsc_0a1b2c3d4e5f', 'sheets_append_row\nsheets_read_range'],
		[6, 'tsc_1b2c3d4e5f6a', 'sensor_latest'],
		[8, 'search-client-1', 'calendar_add_note'],
	]);
});

/**
 * Codex keeps the names threads were given in `$CODEX_HOME/session_index.jsonl`, append-only, one
 * `{id, thread_name, updated_at}` line per naming, the latest line for an id winning (codex-rs
 * rollout/src/session_index.rs). The app server's renames go there (and to its state database)
 * without a record in the rollout (thread-store/src/local/apply_thread_metadata.rs), so a rollout's
 * own thread_name_updated may be an older name, or missing. A blank name names nothing
 * (find_thread_names_by_ids passes over it).
 */
const namedHome = join(cases, 'named');

test('codex format: the latest name session_index.jsonl gives a thread is its name, over an older one the rollout records; a blank one names nothing', () => {
	const rollout = (name: string) => join(namedHome, 'sessions', '2026', '11', '21', name);
	const renamed = readUnit(codexAdapter, looseUnit(rollout('rollout-2026-11-21T10-00-00-019a9100-1a00-7b00-8c00-0000000000f1.jsonl')));
	assert.equal(renamed.summary.human_turns, 0);
	assert.equal(renamed.summary.title, 'Apple orchard pruning plan');
	assert.equal(renamed.loaded.skipped, 0);
	const blank = readUnit(codexAdapter, looseUnit(rollout('rollout-2026-11-21T11-00-00-019a9100-2b00-7b00-8c00-0000000000f2.jsonl')));
	assert.equal(blank.summary.title, 'grafting schedule', 'a blank index name leaves the name the rollout records');
});

test('codex format: a blank thread_name_updated (whitespace only) names nothing; the name recorded before it stays', () => {
	// codex-rs trims a name and records none that is empty; a blank one in a file is hostile input, never a rename.
	const read = readUnit(codexAdapter, looseUnit(join(cases, 'rollout-2026-12-07T09-00-00-01a40400-3c00-7d00-8e00-0000000000cc.jsonl')));
	assert.equal(read.summary.title, 'hive inspection log');
	assert.equal(read.loaded.skipped, 0);
});

/**
 * A code-mode `exec` cell's output opens with the status Codex prepends as its first content item,
 * `<status>\nWall time N seconds\nOutput:\n`: `Script completed`, `Script failed` (the script threw;
 * a `Script error:` item follows), `Script terminated` (stopped through `wait` with terminate) or
 * `Script running with cell ID N` (yielded; `wait` goes on with it). The success flag beside it is
 * not written to the rollout, so the header is the only sign that the cell failed.
 */
const codeModeCells = join(cases, 'rollout-2026-11-28T09-00-00-01a1d0e2-4c00-7a00-8b00-0000000000f6.jsonl');

test('codex format: a code-mode cell whose status header says "Script failed" or "Script terminated" is a failed result; the cell\'s own output never decides', () => {
	const {events} = readUnit(codexAdapter, looseUnit(codeModeCells));
	const failed = (callId: string) => resultOf(events, callId)?.is_error;
	assert.equal(failed('call_cell_ok'), false, '"Script failed" in the command\'s own output is not the cell\'s status');
	assert.equal(failed('call_cell_threw'), true);
	assert.equal(failed('call_cell_bad_string'), true, 'an output written as one string');
	assert.equal(failed('call_wait_stop'), false, 'the wait that stopped the cell only delivered its outcome');
	const slow = events.filter(event => event.kind === 'tool_result' && event.result?.call_id === 'call_cell_slow').map(event => event.result?.is_error);
	assert.deepEqual(slow, [false, true], 'a yielded cell has not failed; stopped through wait, it did not complete');
	assert.match(resultOf(events, 'call_cell_threw')?.output ?? '', /SyntaxError: Unexpected token/);
});

/**
 * A subagent two forks down (root → spawned thread → its own spawned thread) copies its parent's
 * rollout, and that rollout held the copy of the root's: the copy opens with both ancestors'
 * session_meta, and a root from before UUIDv7 turn ids brings turns with UUIDv4 ids. Such a turn's
 * task_started states when it began (`started_at`, Unix seconds), before the fork: it is still
 * the copy, and only a turn begun at or after the fork ends it (junhoyeo/tokscale#895).
 */
test('codex format: a copied ancestor turn with a UUIDv4 id whose task_started began before the fork is still the copy', () => {
	const nested = join(cases, 'rollout-2026-11-30T10-00-00-01a22be5-a500-7c33-a43e-53f63a73b83c.jsonl');
	const {events, loaded, summary} = readUnit(codexAdapter, looseUnit(nested));
	assert.equal(summary.parent_id, '01a22be3-d040-7a11-8b21-c31d41e51f61');
	const copied = events.filter(event => event.line >= 2 && event.line <= 23);
	assert.deepEqual(copied.map(event => event.kind), ['system'], 'both ancestors\' copied turns are one notice');
	assert.equal(resultOf(events, 'call_copied_export'), undefined, "the root's failed export is not this thread's failure");
	assert.equal(summary.tool_calls, 1);
	const searchable = loaded.rows.map(row => searchableText(row.events)).join('\n');
	assert.doesNotMatch(searchable, /March ledger|totals\.xlsx|every invoice/, "the ancestors' lines are not searched as this thread's");
	assert.match(searchable, /April invoices/);
});

test('codex format: a turn with a UUIDv4 id begun at or after the fork, or undated, ends the copy', t => {
	const directory = tempDir(t);
	const name = 'rollout-2026-11-30T10-00-00-01a22be5-a500-7c33-a43e-53f63a73b83c.jsonl';
	const original = readFileSync(join(cases, name), 'utf8');
	const read = (lines: string) => {
		writeFileSync(join(directory, name), lines);
		return readUnit(codexAdapter, looseUnit(join(directory, name))).summary.tool_calls;
	};
	assert.equal(read(original.replaceAll('01a22be5-a8e8-7d44-b54f-64a74b84c94d', '9f50bd41-6e70-4192-8d3e-4f5a6b7c8d9e')), 1, 'its own turn, begun in the fork\'s second, is read');
	assert.equal(read(original.replace('"started_at":1780304700,', '')), 2, 'an undated copied turn ends the copy: nothing of the thread is hidden');
});

/**
 * A tool that returns an image: `view_image` answers with one `input_image` content item, an MCP
 * result holding an image is written as content items (`input_text` and `input_image`, each image
 * a `data:<media type>;base64,…` URL), and older builds wrote an MCP result as the JSON text of
 * its content blocks, an image block `{type: "image", data, mimeType}` among them
 * (openai/codex codex-rs/core/src/tools/handlers/view_image.rs; codex-rs/protocol/src/models.rs,
 * FunctionCallOutputPayload and convert_content_blocks_to_items).
 */
const imageResults = join(cases, 'rollout-2026-12-01T09-00-00-01a2d3e4-0b00-7c00-8d00-0000000000b7.jsonl');

test('codex format: an image a tool returned (view_image, an MCP screenshot) is noted by its media type, its base64 payload never copied into the output', () => {
	const {events, loaded} = readUnit(codexAdapter, looseUnit(imageResults));
	assert.equal(resultOf(events, 'call_view_chart')?.output, '[image: image/png]');
	assert.equal(resultOf(events, 'call_shot_orders')?.output, 'Captured the orders page at 1024x768\n[image: image/jpeg]');
	assert.equal(resultOf(events, 'call_snap_menu')?.output, 'Menu page rendered\n[image: image/webp]');
	const searchable = loaded.rows.map(row => searchableText(row.events)).join('\n');
	assert.doesNotMatch(searchable, /base64|iVBORw0K|\/9j\/4AAQ|UklGRk1l/, 'no image payload is searched');
});

/**
 * An image a person attaches to a prompt is written into the user message as three content items:
 * the label Codex opens it with (`<image name=[Image #1]>`, `<image>` for a web image), the
 * `input_image` and `</image>`; the prompt's text follows, and the `user_message` event holds only
 * that text, the image's path under `local_images` (openai/codex codex-rs/protocol/src/models.rs,
 * local_image_content_items_with_label_number). The tags are Codex's framing, not what was typed.
 */
const promptImages = join(cases, 'rollout-2026-12-02T09-00-00-01a2d8f0-0b00-7c00-8d00-0000000000c1.jsonl');

test("codex format: the <image name=[Image #1]> … </image> tags Codex wraps a prompt's image in are not the person's text, and the prompt is one request", () => {
	const {events, summary} = readUnit(codexAdapter, looseUnit(promptImages));
	assert.equal(summary.title, '[Image #1] why is the crust pale [image: image/png]');
	assert.equal(summary.human_turns, 2, 'the message item and its user_message event are one request; an image alone is one too, its text the note');
	assert.deepEqual(events.filter(event => event.kind === 'user').map(event => event.text), ['[Image #1] why is the crust pale\n[image: image/png]', '[image: image/png]']);
	assert.ok(!events.some(event => /<\/?image\b/.test(event.text ?? '')), 'no event holds the tags');
});

/**
 * An image Codex cannot attach to a prompt (unreadable, undecodable, of a type it does not take)
 * is written into the user message as a text item of Codex's own in its place: "Codex could not
 * read the local image at `<path>`: <error>" (audio: "… the local audio at …"), "Image located at
 * `<path>` is invalid: <error>" or "Codex cannot attach image at `<path>`: unsupported image
 * `<type>`." (audio: "Codex cannot attach audio at …"), beside the typed text; the user_message
 * event holds the typed text alone (openai/codex codex-rs/protocol/src/models.rs,
 * local_media_error_placeholder, invalid_image_error_placeholder,
 * unsupported_image_error_placeholder). Codex's words, not the person's.
 */
const unattachedImages = join(cases, 'rollout-2026-12-06T20-00-00-01a2fc30-4a00-7c00-8d00-0000000000f5.jsonl');

test('codex format: the note Codex writes in place of an image it could not attach (could not read, invalid, unsupported) is not the person\'s text, and the prompt is one request', () => {
	const {events, summary} = readUnit(codexAdapter, looseUnit(unattachedImages));
	assert.equal(summary.human_turns, 3, 'each prompt\'s message item and its user_message event are one request');
	const humans = events.filter(event => event.kind === 'user' && event.human).map(event => event.text ?? '');
	assert.deepEqual(humans.map(text => text.split('\n')[0]), ['compare bed 3 with bed 4', 'why is the shed tray going yellow', 'and the soil scan?']);
	assert.ok(!humans.some(text => /could not read the local|cannot attach image|is invalid:/.test(text)), 'no request holds Codex\'s note');
	assert.ok(summary.title?.startsWith('compare bed 3 with bed 4'));
	const notes = events.filter(event => event.kind === 'user' && !event.human).map(event => event.text ?? '');
	assert.equal(notes.length, 3, 'the notes are kept, as host text');
});

/**
 * An audio file attached to a prompt is framed as an image is: `<audio name=[Audio #1]
 * path="…">`, an `input_audio` item whose `audio_url` is a `data:` URL, then `</audio>`, the
 * typed text beside them and alone in the user_message event; a tool may answer with
 * `input_audio` content items too (openai/codex codex-rs/protocol/src/models.rs, ContentItem and
 * FunctionCallOutputContentItem InputAudio, local_audio_content_items).
 */
const promptAudio = join(cases, 'rollout-2026-12-06T21-00-00-01a2fc6b-2c00-7d00-8e00-0000000000f7.jsonl');

test('codex format: the <audio name=[Audio #1]> … </audio> tags around an attached audio file are not the person\'s text, the audio is noted by its media type, and no audio payload is copied', () => {
	const {events, loaded, summary} = readUnit(codexAdapter, looseUnit(promptAudio));
	assert.equal(summary.human_turns, 1, 'the message item and its user_message event are one request');
	assert.equal(summary.title, 'turn [Audio #1] into a watering checklist [audio: audio/mp4]');
	assert.ok(!events.some(event => /<\/?audio\b/.test(event.text ?? '')), 'no event holds the tags');
	assert.equal(resultOf(events, 'call_play_drip')?.output, 'Sample drip-timer, 2.1 seconds\n[audio: audio/wav]');
	const searchable = loaded.rows.map(row => searchableText(row.events)).join('\n');
	assert.doesNotMatch(searchable, /base64|AAAAIGZ0eXBN|UklGRiQA/, 'no audio payload is searched');
});

/**
 * A tool output's content items may hold an opaque `{type: "encrypted_content",
 * encrypted_content}` item, which only the model can read: the encrypted message another agent
 * left in the mailbox, a nested tool's model-only output relayed through a code-mode cell
 * (openai/codex codex-rs/protocol/src/models.rs, FunctionCallOutputContentItem::EncryptedContent).
 * Like reasoning's encrypted_content, it is never text to show or search.
 */
const encryptedOutputs = join(cases, 'rollout-2026-12-06T22-00-00-01a2fca6-0e00-7e00-8f00-0000000000f8.jsonl');

test('codex format: an encrypted_content item in a tool output is noted, its opaque payload never copied into the output', () => {
	const {events, loaded} = readUnit(codexAdapter, looseUnit(encryptedOutputs));
	assert.equal(resultOf(events, 'call_wait_soil')?.output, '{"message":{"from":"/root/soil"},"encrypted":true}\n[encrypted content]');
	assert.equal(resultOf(events, 'call_cell_notes')?.output, '[encrypted content]');
	const searchable = loaded.rows.map(row => searchableText(row.events)).join('\n');
	assert.doesNotMatch(searchable, /gAAAAAB|encrypted_content/, 'no opaque payload is searched');
});

test('codex format: the contextual fragments Codex itself writes as user-role messages (recommended plugins, goal, extension and internal context, external context, message-board notices, its legacy warnings) are no human request', () => {
	// codex-rs core/src/context/contextual_user_message.rs registers these as contextual user
	// fragments (role "user", recognised by their markers and hidden from the user's turns):
	// recommended_plugins_instructions.rs, goal_context.rs / legacy_goal_context.rs,
	// extension_context.rs, internal_model_context.rs (`<codex_internal_context source="…">`),
	// fragments.rs AdditionalContextFragment (`<external_<key>>`),
	// agent_message_board_notification.rs, and the legacy warnings kept "to filter messages from
	// old sessions". The startup plugin list is written before the first prompt, so it would be the
	// session's title.
	const {events, summary} = readUnit(codexAdapter, looseUnit(join(cases, 'rollout-2026-12-03T08-30-00-01a2e1c4-5b00-7c00-8d00-0000000000d4.jsonl')));
	assert.equal(summary.title, 'Why does the pruning schedule skip the pear trees?');
	assert.equal(summary.human_turns, 1);
	const humans = events.filter(event => event.kind === 'user' && event.human).map(event => event.text);
	assert.deepEqual(humans, ['Why does the pruning schedule skip the pear trees?']);
	assert.ok(events.some(event => event.kind === 'user' && !event.human && /Seed Catalogue/.test(event.text ?? '')), 'the injection is kept, as host text');
});

test('codex format: a voice conversation\'s transcript segments (realtime_item) are its conversation, the person\'s speech the request; the task handed to Codex (<realtime_delegation>) is the voice agent\'s, its end-of-session flush no request', () => {
	// codex-rs protocol realtime.rs: RealtimeItem {id, realtime_session_id, type, data}, a
	// `transcript_segment` holding {role, text}; Codex's TUI shows them among the thread's turns as
	// "Voice: …" lines (tui app_shell tests, resumed_speech_keeps_canonical_order_without_duplicate_turn_items).
	// core/src/context/realtime_delegation.rs: the handoff is a contextual user fragment, with
	// `<source>transcript_tail_flush</source>` when the voice session ended.
	const {events, summary, loaded} = readUnit(codexAdapter, looseUnit(join(cases, 'rollout-2026-12-05T18-00-00-01a2f0a1-9c00-7d00-8e00-0000000000e1.jsonl')));
	assert.equal(loaded.skipped, 0);
	assert.equal(summary.title, 'Can you check why the hive weight chart stops at Tuesday?');
	assert.equal(summary.human_turns, 1, 'the blank segment and the delegations are no requests');
	assert.deepEqual(events.filter(event => event.kind === 'assistant').map(event => event.text), [
		'Sure, I\'ll have a look at the chart data.',
		'The scale export for Wednesday onward is missing from data/weights.csv.',
		'The scale stopped exporting after Tuesday.',
	]);
	const delegated = events.filter(event => event.kind === 'user' && /hive weight|Thanks/.test(event.text ?? '') && !event.human);
	assert.deepEqual(delegated.map(event => [event.origin, event.text?.startsWith('<realtime_delegation>') ? 'envelope' : event.text]), [
		['agent', 'Find why the hive weight chart stops at Tuesday'],
		['host', 'envelope'],
	], 'the task once (its user_message copy is an echo), then the flush as host text');
	assert.equal(computeTail(events, false).unanswered, null, 'the spoken request was answered');
});

test('codex format: a command left running (`Process running with session ID N`) or a yielded code-mode cell (`Script running with cell ID N`) takes its outcome from the write_stdin / wait answer that says it finished; the poll itself is no failure', () => {
	// codex-rs core unified_exec handler (format_response: the `Process exited with code` or
	// `Process running with session ID` header line), write_stdin {session_id}; code mode's
	// `wait {cell_id}` on a yielded exec cell.
	const {events} = readUnit(codexAdapter, looseUnit(join(cases, 'rollout-2026-12-06T07-15-00-01a2f5c0-3e00-7a00-8b00-0000000000f2.jsonl')));
	const outcomes = (callId: string) => events.filter(event => event.kind === 'tool_result' && event.result?.call_id === callId).map(event => [event.line, event.result?.is_error, event.result?.exit_code]);
	assert.deepEqual(outcomes('call_build_01'), [[4, false, undefined], [8, true, 2]], 'still running, then the exit code the second poll reported');
	assert.deepEqual(outcomes('call_poll_02'), [[8, false, undefined]]);
	assert.deepEqual(outcomes('call_cell_01'), [[10, false, undefined], [12, true, undefined]], 'the cell failed in its wait');
	assert.deepEqual(outcomes('call_wait_01'), [[12, false, undefined]]);
	assert.deepEqual(outcomes('call_lint_01'), [[14, false, undefined], [16, false, 0]]);
	assert.deepEqual(outcomes('call_poll_04'), [[18, true, 1]], 'a poll of a session no call here started keeps its outcome');
	assert.match(events.find(event => event.line === 8 && event.result?.call_id === 'call_build_01')?.result?.output ?? '', /Cannot find name 'Frame'/);
});

test('codex format: a fork that references its parent\'s history (session_meta history_base, or an earlier build\'s rollout_reference record) copies nothing: no line is hidden as a copy, and a notice says where the rest is', t => {
	// codex-rs thread store legacy lineage (LegacyLineagePredecessor: RolloutReference, then
	// HistoryBase; "Native history_base replaces this record"), HistoryPosition {thread_id,
	// end_ordinal_exclusive, end_byte_offset}; RolloutItem::RolloutReference(RolloutReferenceItem
	// {rollout_path, thread_id, max_depth, nth_user_message, …}) in rollout tests.
	for (const name of ['rollout-2026-12-06T09-00-00-01a2f6e0-1a00-7b00-8c00-0000000000a3.jsonl', 'rollout-2026-10-28T14-00-00-01a2b0c1-7700-7a00-8b00-0000000000c4.jsonl']) {
		const {events, loaded, summary} = readUnit(codexAdapter, looseUnit(join(cases, name)));
		assert.equal(loaded.skipped, 0, name);
		const notices = events.filter(event => event.kind === 'system').map(event => event.text);
		assert.equal(notices.length, 1, name);
		assert.match(notices[0] ?? '', /^History inherited from the session this one was forked from \(01a2/);
		assert.equal(summary.human_turns, 1);
		assert.ok(summary.parent_id?.startsWith('01a2'), 'the fork names its parent');
	}

	// A thread moved on to a new rollout file references its own earlier one: a known record, not a malformed line.
	const moved = join(tempDir(t), 'rollout-2026-10-28T14-00-00-01a2b0c1-7700-7a00-8b00-0000000000c4.jsonl');
	writeFileSync(moved, readFileSync(join(cases, 'rollout-2026-10-28T14-00-00-01a2b0c1-7700-7a00-8b00-0000000000c4.jsonl'), 'utf8').replace(',"forked_from_id":"01a2a880-5500-7c00-8d00-0000000000d2"', ''));
	const {events, loaded} = readUnit(codexAdapter, looseUnit(moved));
	assert.equal(loaded.skipped, 0);
	assert.deepEqual(events.filter(event => event.kind === 'system').map(event => event.text), ['Earlier history of this thread is in another rollout of it']);

	// A forked thread later reverted: the revert's new rollout (`<thread id>_<rollout id>.jsonl`)
	// bases on the thread's own earlier rollout, not on the parent (codex-rs rollout/src/metadata.rs).
	const reverted = join(tempDir(t), 'rollout-2026-12-06T09-30-00-01a2f6e0-1a00-7b00-8c00-0000000000a3_01a2f6f0-5b00-7c00-8d00-0000000000a4.jsonl');
	writeFileSync(reverted, readFileSync(join(cases, 'rollout-2026-12-06T09-00-00-01a2f6e0-1a00-7b00-8c00-0000000000a3.jsonl'), 'utf8').replace('"history_base":{"thread_id":"01a2f4d0-2200-7c00-8d00-0000000000b9"', '"history_base":{"thread_id":"01a2f6e0-1a00-7b00-8c00-0000000000a3"'));
	assert.deepEqual(readUnit(codexAdapter, looseUnit(reverted)).events.filter(event => event.kind === 'system').map(event => event.text), ['Earlier history of this thread is in another rollout of it']);
});

test('codex format: a call to a namespaced MCP tool (namespace "mcp__<server>", name the tool) is named mcp__<server>__<tool>, never taken for Codex\'s own tool of the same name', () => {
	// openai/codex#17404 registers every MCP tool under a namespace; a FunctionCall carries it in
	// `namespace` (codex-rs protocol models.rs), a missing one meaning `functions` (tool_name.rs).
	const {events} = readUnit(codexAdapter, looseUnit(join(cases, 'rollout-2026-08-20T13-00-00-01a0b8c2-4d00-7e00-8f00-0000000000b5.jsonl')));
	assert.deepEqual(events.filter(event => event.kind === 'tool_call').map(event => event.tool?.name), ['mcp__codeindex__search_symbols', 'mcp__remote_box__exec_command', 'exec_command']);
	assert.equal(resultOf(events, 'call_ns_01')?.output, 'loom/tension.py:12 warp_tension');
});

test('codex format: threads Codex runs for itself (a guardian review, memory consolidation: source {"internal": …}, thread_source guardian_review / memory_consolidation) hold no human request', () => {
	// codex-rs protocol SessionSource::Internal(InternalSessionSource), ThreadSource {User, Subagent,
	// GuardianReview, MemoryConsolidation, Feature}; core's guardian delegate starts its thread with
	// session_source Internal(Guardian) and thread_source GuardianReview, and can_start_root_turn
	// refuses Subagent, GuardianReview and MemoryConsolidation threads.
	const guardian = readUnit(codexAdapter, looseUnit(join(cases, 'rollout-2026-12-04T15-10-00-01a2e9f1-6a00-7b00-8c00-0000000000c8.jsonl')));
	assert.equal(guardian.summary.human_turns, 0);
	assert.equal(guardian.summary.parent_id, '01a2e9c0-2200-7a00-8b00-0000000000c7');
	assert.ok(guardian.events.some(event => event.kind === 'user' && event.origin === 'agent' && /Assess the risk/.test(event.text ?? '')), 'the review request is the parent agent\'s');
	const memory = readUnit(codexAdapter, looseUnit(join(cases, 'rollout-2026-12-04T03-00-00-01a2e70b-1e00-7c00-8d00-0000000000c9.jsonl')));
	assert.equal(memory.summary.human_turns, 0);
	assert.equal(memory.summary.title, null, 'Codex\'s consolidation prompt is no title');
});

test('codex format: the desktop app\'s attachment list (# Files mentioned by the user: … ## My request: / ## My request for Codex:) wraps the typed request, which alone is the request and title', () => {
	// The request heading is Codex's USER_MESSAGE_BEGIN ("## My request for Codex:", codex-rs
	// protocol.rs); newer clients write "## My request:". Real rollouts of the desktop app hold the
	// envelope (see other readers unwrapping it, e.g. find_string "# Files mentioned by the user").
	const {events, summary} = readUnit(codexAdapter, looseUnit(join(cases, 'rollout-2026-11-09T16-40-00-01a1c5d2-8b00-7d00-8e00-0000000000d9.jsonl')));
	assert.equal(summary.title, 'Why is the celadon row missing from the price table?');
	assert.deepEqual(events.filter(event => event.kind === 'user' && event.human).map(event => event.text), ['Why is the celadon row missing from the price table?', 'Add celadon with a count of 12'], 'the event and item copies are one request');
});

test('codex format: an assistant message delivered only in part (metadata delivered_assistant_message "…:incomplete:<text>") is the part delivered, never Codex\'s placeholder', () => {
	// codex-rs history rollout_payload.rs: a RetainedContext DeliveredAssistantMessage is written as
	// an assistant message for older clients, its text replaced by a placeholder when incomplete,
	// the delivered part kept in the line's `metadata` marker.
	const {events} = readUnit(codexAdapter, looseUnit(join(cases, 'rollout-2026-12-02T17-20-00-01a2dd10-4f00-7a00-8b00-0000000000e6.jsonl')));
	assert.deepEqual(events.filter(event => event.kind === 'assistant').map(event => event.text), ['Labelled 14 sheets so far.', 'All 31 sheets are labelled; 1998 has the mo']);
});

test('codex format: a message between agents whose JSON opens with the message id (newer builds: {"id", "author", …}) is still no request and no reply', t => {
	// InterAgentCommunication gained an optional `id` as its first field; serde writes fields in
	// declaration order, so the text no longer opens with "author".
	const path = join(tempDir(t), 'rollout-2026-10-23T16-00-00-01a16862-b2c0-7d00-8f00-0000000000a1.jsonl');
	let message = 0;
	writeFileSync(path, readFileSync(agentsRoot, 'utf8').replaceAll('{\\"author\\":', () => `{\\"id\\":\\"msg-tray-${++message}\\",\\"author\\":`));
	assert.equal(message, 2);
	const {events, summary} = readUnit(codexAdapter, looseUnit(path));
	assert.equal(summary.title, 'Split the seed inventory between two helpers, one per tray');
	assert.deepEqual([summary.human_turns, summary.assistant_messages], [1, 1]);
	assert.deepEqual(events.filter(event => event.kind === 'system').map(event => event.text), ['[/root/tray_a → /root] Tray A holds 12 packets, 3 of them past their date.', '[/root/tray_b → /root] Tray B is still being counted.']);
});

test('codex format: a paginated subagent whose session_meta also names a history_base gives one notice for its inherited context, not two', t => {
	const path = join(tempDir(t), 'rollout-2026-10-20T09-30-00-01a158a5-71c0-7a00-8c00-0000000000d2.jsonl');
	writeFileSync(path, readFileSync(inheritedContextChild, 'utf8').replace('"history_base":null', '"history_base":{"thread_id":"01a1589c-4a00-7a00-8c00-0000000000d1","end_ordinal_exclusive":1,"end_byte_offset":640}'));
	const {events} = readUnit(codexAdapter, looseUnit(path));
	const notices = events.filter(event => event.kind === 'system');
	assert.equal(notices.length, 1, notices.map(event => event.text).join(' | '));
	assert.match(notices[0]?.text ?? '', /^Context inherited from the thread that spawned this one/);
});

/**
 * A prompt that sent images: the `user_message` event names them in `images` (URLs sent as
 * given) and `local_images` (paths of files Codex read), the `message` item holds each as an
 * `input_image` part (a local file as a `data:` URL) between Codex's own `<image>` tags
 * (openai/codex codex-rs/protocol/src/protocol.rs UserMessageEvent; models.rs
 * ContentItem::InputImage and the UserInput::LocalImage / UserInput::Image conversion).
 */
const sentImages = join(cases, 'rollout-2026-12-06T14-00-00-01a2f9b0-5c00-7d00-8e00-0000000000d7.jsonl');

test('codex format: the images a prompt sent are noted after its text, on either channel, one prompt still one request; images alone are a request', () => {
	const {events, summary} = readUnit(codexAdapter, looseUnit(sentImages));
	assert.equal(summary.human_turns, 3, 'each prompt once, though written as both an item and an event');
	assert.deepEqual(events.filter(event => event.kind === 'user').map(event => [event.line, event.text, event.human ?? null]), [
		[3, 'Why is the header misaligned on the kiosk screen?\n[image: image/png]', true],
		[7, '[image: https://assets.example.test/mockups/kiosk-v2.png]', true],
		[11, 'Now compare it with the printed menu\n[image: image/jpeg]', true],
	]);
	assert.equal(summary.title, 'Why is the header misaligned on the kiosk screen? [image: image/png]', 'titled by its text, the note after it, as Gemini CLI and Qwen Code prompts are');
	assert.doesNotMatch(JSON.stringify(events), /iVBORw0KGgo|\/9j\/4AAQ/, 'no payload copied');
});

test('codex format: the image older builds\' view_image injected into the thread as a user message of that image alone is the tool\'s, no request; an image the person sends alone later is one', () => {
	// codex-rs/core/src/tools/handlers/view_image.rs (older builds): the tool attached the picture
	// with `inject_input(vec![UserInput::LocalImage { path }])`, recorded as a user message before
	// the model's next reply.
	const {events, summary} = readUnit(codexAdapter, looseUnit(join(cases, 'rollout-2026-12-06T16-00-00-01a2fa10-2e00-7a00-8b00-0000000000e3.jsonl')));
	assert.equal(summary.human_turns, 2);
	assert.deepEqual(events.filter(event => event.kind === 'user').map(event => [event.line, event.text, event.human ?? null]), [
		[3, 'Does the harvest chart in docs/ match the table?', true],
		[10, '[image: image/png]', true],
	]);
});

test('codex format: a prompt with an image whose user_message event lists no images (older builds) still matches its item: one request, its image noted', () => {
	const {events, summary} = readUnit(codexAdapter, looseUnit(join(cases, 'rollout-2026-12-06T18-00-00-01a2fb20-3f00-7b00-8c00-0000000000e4.jsonl')));
	assert.equal(summary.human_turns, 1);
	assert.deepEqual(events.filter(event => event.kind === 'user').map(event => event.text), ['Label the apple varieties in this photo\n[image: image/png]']);
});

test('codex format: a rollout Codex archived (moved, flat, into archived_sessions/) is an archived session; one under sessions/ is not', () => {
	// codex-rs thread-store local/archive_thread.rs renames the rollout into
	// $CODEX_HOME/archived_sessions/<same file name>; local/unarchive_thread.rs moves it back under
	// sessions/YYYY/MM/DD/. The folder is the whole fact (the state db's archived_at mirrors it).
	const home = join(cases, 'archived');
	const units = codexAdapter.resolveRoot(home).flatMap(root => codexAdapter.discover(root));
	assert.deepEqual(
		units.map(unit => [unit.idHint, unit.archived === true]).sort(),
		[
			['019acc40-5e00-7d00-8e00-0000000000a2', true],
			['019ad100-3c00-7d00-8e00-0000000000a1', false],
		],
	);
	const archived = units.find(unit => unit.archived);
	assert.equal(readUnit(codexAdapter, looseUnit(archived!.path)).summary.title, 'Draft a rota for the weir inspections.', 'still read as any session');
});

test('codex format: the native resume of a session kept under another Codex home runs with CODEX_HOME set to it; one in the home plain `codex` reads needs none', t => {
	// `codex resume <id>` finds a rollout only under $CODEX_HOME/sessions (CODEX_HOME defaults to
	// ~/.codex). Evidence: openai/codex codex-rs/core/src/rollout/list.rs
	// (find_conversation_path_by_id_str: codex_home joined with SESSIONS_SUBDIR, searched by id).
	const id = '0195b7d4-2a00-7a00-8a00-0000000000a1';
	const file = `rollout-2026-10-02T14-00-00-${id}.jsonl`;
	const env = sandboxEnv(tempDir(t));
	const other = join(env['HOME']!, 'backups', 'codex home');
	mkdirSync(join(other, 'sessions', '2026', '10', '02'), {recursive: true});
	cpSync(join(cases, file), join(other, 'sessions', '2026', '10', '02', file));
	const native = (...args: string[]) => {
		const result = runCli(['resume', id, '--source', 'codex', ...args, '--format', 'json'], {env});
		assert.equal(result.code, 0, result.stderr);
		return result.json().native_resume_command;
	};

	assert.equal(native('--source-root', other), `CODEX_HOME='${other}' codex resume ${id}`);
	assert.equal(native('--source-root', join(other, 'sessions')), `CODEX_HOME='${other}' codex resume ${id}`, 'the store directory named: its home is the one above');
	mkdirSync(join(env['HOME']!, '.codex'), {recursive: true});
	cpSync(join(other, 'sessions'), join(env['HOME']!, '.codex', 'sessions'), {recursive: true});
	assert.equal(native(), `codex resume ${id}`);
	assert.equal(runCli(['resume', id, '--source', 'codex', '--source-root', other, '--format', 'json'], {env: {...env, CODEX_HOME: other}}).json().native_resume_command, `codex resume ${id}`, 'CODEX_HOME already names it');
});

test('codex format: the <oai-mem-citation> block Codex appends to a reply that drew on its memories is no reply text, on either channel', () => {
	const {events} = readUnit(codexAdapter, looseUnit(join(cases, 'rollout-2026-12-07T08-00-00-01a30100-6d00-7a00-8b00-0000000000f8.jsonl')));
	const replies = events.filter(event => event.kind === 'assistant').map(event => event.text);
	assert.deepEqual(replies, ['It lives in docs/inspections.md, one row per hive.', 'In data/varroa.csv, weekly.'], 'one reply each, the citation block gone');
	assert.ok(!events.some(event => /oai-mem-citation|citation_entries|MEMORY\.md/.test(event.text ?? '')), 'no event shows the citation markup');
});

test('codex format: a plan-mode reply is one reply and its <proposed_plan> one more, without the tags, though the event copy Codex shows has the plan cut out', () => {
	// Codex core strips the plan block from the agent_message it emits in plan mode (codex-rs
	// core stream_events_utils.rs, strip_hidden_assistant_markup) and keeps it in the response item.
	const {events} = readUnit(codexAdapter, looseUnit(join(cases, 'rollout-2026-12-07T10-00-00-01a30180-2a00-7b00-8c00-0000000000a9.jsonl')));
	const replies = events.filter(event => event.kind === 'assistant').map(event => event.text?.trimEnd());
	assert.deepEqual(replies, ['Here is the plan; it touches only the export module.', '# Timetable export\n\n1. Add a CSV writer for sailings.\n2. Wire it to the Export menu.']);
	assert.ok(!events.some(event => /proposed_plan/.test(event.text ?? '')), 'no event shows the plan tags');
});

test('codex format: a rollout aichat trim made (trim_metadata on its session_meta line, the parent\'s lines copied under a new id) is the parent\'s child; only the turns after the trim are its own', () => {
	// claude-code-tools' `aichat trim` copies a rollout line by line into a new
	// `rollout-<now>-<uuid4>.jsonl` (long outputs cut, session_meta id rewritten) and adds
	// `trim_metadata: {parent_file, trimmed_at, …}` to line 1. Resuming it appends new turns.
	const trimmed = join(cases, 'rollout-2026-11-12T10-00-00-5b7e1c3a-8d2f-4a6b-9c0e-2f4a6c8e0b13.jsonl');
	const {events, loaded, summary} = readUnit(codexAdapter, looseUnit(trimmed));
	assert.equal(summary.id, '5b7e1c3a-8d2f-4a6b-9c0e-2f4a6c8e0b13');
	assert.equal(summary.parent_id, '01a1c9d5-e280-7a11-b22c-33d44e55f660', 'the trimmed rollout names the one it was trimmed from');
	assert.equal(summary.title, 'Add a seven day moving average line', "the parent's first request is not this one's title");
	assert.deepEqual([summary.human_turns, summary.assistant_messages, summary.tool_calls], [1, 1, 0], 'only the turn after the trim counts');
	assert.equal(summary.started, '2026-11-12T10:00:00.000Z', 'it started at the trim, not when the parent did');
	assert.ok(!events.some(event => event.result?.call_id === 'call_trim_chart'), "the parent's failed call is not this one's failure");
	assert.deepEqual(events.filter(event => event.line >= 2 && event.line <= 8).map(event => event.kind), ['system'], 'the copy is one notice');
	assert.match(events.find(event => event.line === 2)?.text ?? '', /01a1c9d5-e280-7a11-b22c-33d44e55f660/);
	assert.doesNotMatch(loaded.rows.map(row => searchableText(row.events)).join('\n'), /hive weights|date parser/, "the parent's lines are not searched as this one's");
});

test('codex format: a rollout aichat ported from Claude Code (continue_metadata with ported_from beside line 1\'s session_meta) holds that conversation, read in that session; only the turns after the port are its own', () => {
	// claude-code-tools' Claude → Codex port writes the Claude session flattened into message items
	// (their times kept) after a session_meta of its own, with `continue_metadata:
	// {parent_session_id, parent_session_file, continued_at, ported_from: "claude"}` beside it.
	const ported = join(cases, 'rollout-2026-12-05T16-00-00-01a246ef-0800-7b00-a000-c00000000e2a.jsonl');
	const {events, loaded, summary} = readUnit(codexAdapter, looseUnit(ported));
	assert.equal(summary.id, '01a246ef-0800-7b00-a000-c00000000e2a');
	assert.equal(summary.parent_id, null, 'the Claude Code session is no Codex thread to list it under');
	assert.equal(summary.title, 'Fix the slice and rerun the preview tests', "the ported conversation's request is not this one's title");
	assert.deepEqual([summary.human_turns, summary.assistant_messages], [1, 1], 'only the turn after the port counts');
	assert.deepEqual(events.filter(event => event.line >= 2 && event.line <= 5).map(event => event.kind), ['system'], 'the ported conversation is one notice');
	assert.match(events.find(event => event.line === 2)?.text ?? '', /4c6e8a0b-2d4f-4a6b-8c0d-9e1f3a5b7c92/);
	assert.doesNotMatch(loaded.rows.map(row => searchableText(row.events)).join('\n'), /weave preview|odd threads/, "the ported lines are not searched as this one's");
});

test('codex format: the [SESSION LINEAGE] prompt aichat rollover starts a rollout with is the tool\'s, no request and no title', () => {
	// claude-code-tools' rollover starts a fresh Codex session with a prompt it composes (`[SESSION
	// LINEAGE]`, "This session continues from …", the earlier rollouts) and puts
	// `continue_metadata` beside line 1's session_meta.
	const rollout = join(cases, 'rollout-2026-12-06T11-00-00-01a24b02-bb80-7d00-e000-f00000000a4c.jsonl');
	const {events, summary} = readUnit(codexAdapter, looseUnit(rollout));
	assert.equal(summary.title, 'Label each hive by its name');
	assert.equal(summary.human_turns, 1, 'only the typed prompt');
	assert.ok(events.some(event => event.kind === 'user' && !event.human && /SESSION LINEAGE/.test(event.text ?? '')), 'the lineage prompt is kept, as host text');
});

test('codex format: a trimmed fork (trim_metadata beside a session_meta that names forked_from_id) is the trim\'s child: the fork\'s own copied turns are the parent\'s too', () => {
	const trimmed = join(cases, 'rollout-2026-11-12T10-30-00-7e9a1c3b-5d2f-4e6a-8b0c-6d8f0a2c4e57.jsonl');
	const {summary} = readUnit(codexAdapter, looseUnit(trimmed));
	assert.equal(summary.parent_id, '01a1c9d5-e280-7a11-b22c-33d44e55f660', 'the rollout it was trimmed from, not the one that was forked');
	assert.equal(summary.title, 'Add a seven day moving average line');
	assert.deepEqual([summary.human_turns, summary.assistant_messages, summary.tool_calls], [1, 1, 0]);
});

/**
 * Codex's code mode (0.144 on): the model calls one freeform `exec` tool whose input is a small
 * JavaScript program calling the native tools (`await tools.exec_command({cmd: "…"})`,
 * `tools.apply_patch({patch})` with the patch in a string constant or inline). A rollout that
 * keeps no item or end event for what the cell ran records it only in that program. Evidence:
 * xingkaixin/codesesh packages/core/src/agents/codex-exec-decode.ts and its codex.test.ts
 * ("code-mode exec decoding").
 */
test('codex format: the commands a code-mode exec cell runs and the files its patches touch are read from its program', () => {
	const {events} = readUnit(codexAdapter, looseUnit(join(cases, 'rollout-2026-12-07T11-30-00-01a30210-5e00-7a00-8b00-0000000000c7.jsonl')));
	const cells = events.filter(event => event.kind === 'tool_call');
	assert.deepEqual(cells.map(event => event.tool?.name), ['exec', 'exec'], 'each cell stays one call');
	assert.deepEqual(cells.map(event => commandOf(event)), ['npm test -- tides', 'git diff --stat'], 'a command built at run time (a template with a substitution) names nothing');
	assert.deepEqual(cells.map(event => filesTouched(event)), [['src/tides.ts'], ['notes/tides.md']], 'a patch in a constant, and one passed inline as a template');
});

test('codex format: a code-mode cell whose commands a paginated rollout records as items of their own lists them once in a brief, from the items', t => {
	const env = sandboxEnv(tempDir(t));
	const day = join(env['HOME']!, '.codex', 'sessions', '2026', '09', '14');
	mkdirSync(day, {recursive: true});
	cpSync(paginatedRollout, join(day, 'rollout-2026-09-14T08-00-00-019e4a10-7c00-7d00-8e00-0000000000b1.jsonl'));
	const result = runCli(['resume', '019e4a10-7c00-7d00-8e00-0000000000b1', '--format', 'json'], {env});
	assert.equal(result.code, 0, result.stderr);
	const commands = (result.json() as {commands: Array<{line: number}>}).commands;
	assert.deepEqual(commands.map(command => command.line), [12, 20], 'the command item (line 12), not the cell that ran it (line 11) as well');
});

test('codex format: a command run through the person\'s shell by its absolute path (["/bin/bash", "-lc", script], as a CommandExecution item holds it) is the script', () => {
	// codex-rs runs a command through the user's shell (its absolute path) with -lc, or -c
	// without a login shell; the script is the command a person would recognise.
	const {events} = readUnit(codexAdapter, looseUnit(paginatedRollout));
	const nested = events.find(event => event.kind === 'tool_call' && event.tool?.call_id === 'exec-7f3a2c10-0000-4000-8000-00000000e001');
	assert.ok(nested);
	assert.equal(commandOf(nested), 'head -1 seeds.csv');
	assert.equal(commandOf({...nested, tool: {...nested.tool!, input: {command: ['/usr/bin/zsh', '-c', 'wc -l seeds.csv']}}}), 'wc -l seeds.csv');
});

test('codex format: a rollout saved pretty-printed (each record over many lines, a record\'s last array item a bare string on its own line, the next record glued to a closing brace) reads as the same session', () => {
	// A rollout a person formatted before sharing it: iampkuhz/feipi-session-browser keeps such a
	// real rollout (docs/session-samples/codex/019ede24-…/rollout-2026-06-19T12-29-48-….jsonl,
	// 4-space indent, a session_meta of hundreds of lines) and its reader
	// (src/session_browser/sources/codex.py _parse_session_events) joins them by brace depth.
	const {loaded, events, summary} = readUnit(codexAdapter, looseUnit(join(cases, 'rollout-2026-12-07T13-00-00-01a30250-7b00-7c00-8d00-0000000000b4.jsonl')));
	assert.equal(loaded.skipped, 0, loaded.warnings.join('; '));
	assert.equal(summary.id, '01a30250-7b00-7c00-8d00-0000000000b4');
	assert.equal(summary.project, '/home/oswin/weirworks');
	assert.equal(summary.title, 'Tally the lock-keeper rota for the lower weir.');
	assert.equal(summary.human_turns, 1);
	assert.equal(events.find(event => event.kind === 'meta' && event.session?.id)?.line, 1, 'a record is read at its first line');
	assert.deepEqual(resultOf(events, 'call_rota_count')?.exit_code, 0);
	assert.ok(events.some(event => event.kind === 'assistant' && event.text === 'The lower weir rota lists 14 shifts.'));
});

test('codex format: a rename made after the rollout was first scanned (a line session_index.jsonl gains, with or without a thread_name_updated in the rollout) is the name a scan continued from the cached state gives, as a read of the whole file does', t => {
	// /rename appends the new name to session_index.jsonl and records thread_name_updated in the
	// rollout (codex-rs rollout/src/session_index.rs). The catalog reads a grown rollout on from
	// where it stopped, with the state it kept: the index name it looked up then is old.
	const parts = join(cases, 'renamed-while-read');
	const home = tempDir(t);
	const directory = join(home, 'sessions', '2026', '11', '24');
	mkdirSync(directory, {recursive: true});
	const rollout = join(directory, 'rollout-2026-11-24T07-30-00-019a9200-4d00-7b00-8c00-0000000000f4.jsonl');
	cpSync(join(parts, 'rollout-first.jsonl'), rollout);
	cpSync(join(parts, 'index-first.jsonl'), join(home, 'session_index.jsonl'));
	const scan = (previous?: ScanResult) => {
		const texts: TextSink = {restart() {}, add() {}};
		const marks: LineMark[] = [{line: 1, offset: 0}, ...(previous?.offsets ?? [])];
		return scanUnit(codexAdapter, join(home, 'sessions'), looseUnit(rollout), previous?.row, offset => marks.filter(mark => mark.offset <= offset).at(-1)!, texts);
	};

	const first = scan();
	assert.equal(first.row.summary.title, 'Hive scale drift');
	appendFileSync(join(home, 'session_index.jsonl'), readFileSync(join(parts, 'index-later.jsonl')));
	appendFileSync(rollout, readFileSync(join(parts, 'rollout-later.jsonl')));
	const grown = scan(first);
	const whole = scan();
	assert.equal(whole.row.summary.title, 'Hive scale drift: load cell swapped');
	assert.equal(grown.row.summary.title, 'Hive scale drift: load cell swapped', 'the continued scan states the name the index gives now');
	const same = (a: ScanResult, b: ScanResult) => {
		const {line_state: _a, ...left} = a.row.summary;
		const {line_state: _b, ...right} = b.row.summary;
		assert.deepEqual(left, right);
	};

	same(grown, whole);

	// The app's renames go to the index alone (thread-store/src/local/apply_thread_metadata.rs).
	appendFileSync(join(home, 'session_index.jsonl'), readFileSync(join(parts, 'index-last.jsonl')));
	appendFileSync(rollout, readFileSync(join(parts, 'rollout-last.jsonl')));
	const resumed = scan(grown);
	assert.equal(resumed.row.summary.title, 'Hive scale drift: fixed', 'a scan continued after a rename the rollout does not record');
	same(resumed, scan());
});

test('codex format: a goal the person set (/goal: a thread_goal_updated with no turnId whose objective is new) is a request, its objective the text; the goal\'s later updates (usage, pause) are not', () => {
	// codex-rs protocol ThreadGoalUpdatedEvent {threadId, turnId?, goal: {objective, status, …}}
	// (camelCase), persisted by rollout policy.rs; turnId is absent when the goal was changed from
	// outside a turn (the person's /goal), present when the running turn changed it (usage
	// accounting, the model's own goal tools). Codex writes no user_message for /goal: the turns it
	// then runs open with its own <codex_internal_context source="goal"> prompt. Reference:
	// bbsteel/session-insight internal/reader/codex/codex_goal_test.go reads the objective as the prompt.
	const {events, summary, loaded} = readUnit(codexAdapter, looseUnit(join(cases, 'rollout-2026-12-07T15-00-00-01a302c0-4d00-7b00-8c00-0000000000b9.jsonl')));
	const humans = events.filter(event => event.kind === 'user' && event.human).map(event => event.text);
	assert.deepEqual(humans, [
		'Move the invoice export to the streaming CSV writer and keep the suite green',
		'Does the header row still come first?',
		'Also stream the credit-note export',
	]);
	assert.equal(summary.title, 'Move the invoice export to the streaming CSV writer and keep the suite green');
	assert.equal(summary.human_turns, 3);
	assert.equal(loaded.skipped, 0);
});

/**
 * Newer Codex builds tag each content item of a message with its kind
 * (`internal_chat_message_metadata_passthrough.content_item_kinds`, one per item): `user.text`
 * for what the person typed, `generic.additional_context`, `agents_md.instructions`, … for what
 * the harness put beside it, whatever its text opens with.
 */
const taggedKinds = join(cases, 'rollout-2026-12-07T12-30-00-01a30238-4c00-7d00-8e00-0000000000c2.jsonl');

test('codex format: a user message\'s content items that content_item_kinds tags as the harness\'s are not the person\'s request', () => {
	const {events, summary} = readUnit(codexAdapter, looseUnit(taggedKinds));
	const humans = events.filter(event => event.kind === 'user' && event.human);
	assert.deepEqual(humans.map(event => event.text), ['Summarise the honey yield per hive this season']);
	assert.equal(summary.human_turns, 1);
	assert.equal(summary.title, 'Summarise the honey yield per hive this season');
	assert.ok(events.some(event => event.kind === 'user' && event.human === false && /hive 4 sensor/.test(event.text ?? '')), 'the tagged context is kept as an event');
});

/**
 * A thread that takes over another's context writes the user messages it inherited into its own
 * rollout, each with `metadata: {inherited_user_message: true}` beside the payload (codex-rs
 * CodexHarnessMetadata): the other thread's prompts, not a request made in this one.
 */
const inheritedPrompt = join(cases, 'rollout-2026-12-07T12-00-00-01a30220-1b00-7c00-8d00-0000000000b8.jsonl');

test('codex format: a user message marked inherited_user_message is not a request made in this session', () => {
	const {events, summary} = readUnit(codexAdapter, looseUnit(inheritedPrompt));
	const inherited = events.find(event => event.kind === 'user' && /pear trees/.test(event.text ?? ''));
	assert.ok(inherited, 'the inherited prompt is kept as an event');
	assert.equal(inherited.human, false);
	assert.equal(summary.human_turns, 1);
	assert.equal(summary.title, 'List which apple rows still need netting');
	assert.equal(summary.first_human_line, 6);
});

/**
 * Older builds that spawned a subagent with its parent's history copied the parent's rollout into
 * the child's (its session_meta first) with the parent's own times kept, naming no forked_from_id
 * or history ordinal: the lines dated before the child began are the parent's.
 */
const spawnCopyKeptTimes = join(cases, 'rollout-2026-12-07T14-00-00-01a302a0-5e00-7a00-8b00-0000000000d3.jsonl');

test('codex format: a subagent rollout holding its parent\'s history under the parent\'s own times reads only its own turns', () => {
	const {events, summary} = readUnit(codexAdapter, looseUnit(spawnCopyKeptTimes));
	assert.ok(!events.some(event => /winter pruning|ask a helper/.test(event.text ?? '')), 'the copied parent turn is not the child\'s');
	assert.ok(events.some(event => event.kind === 'system' && /Context inherited from the thread that spawned this one \(01a30100-6d00-7a00-8b00-0000000000aa\)/.test(event.text ?? '')));
	assert.equal(summary.title, 'Survey rows 1 to 4 for canker');
	assert.equal(summary.started, '2026-12-07T14:00:00.000Z');
	assert.equal(summary.parent_id, '01a30100-6d00-7a00-8b00-0000000000aa');
	assert.equal(summary.assistant_messages, 1);
});

test('codex format: an MCP tool a code-mode exec cell called, recorded only as its mcp_tool_call_end (or McpToolCall item), is a call named from its invocation, with its result; an MCP call the model made is not counted twice', () => {
	// The end event carries the invocation (server, tool, arguments) beside the result: for a call a
	// cell made, no response item names it. Sinity/polylogue reads the call from it
	// (polylogue/sources/parsers/codex.py, _codex_mcp_tool_call_messages).
	const {events, summary} = readUnit(codexAdapter, looseUnit(join(cases, 'rollout-2026-12-07T14-00-00-01a30290-4c00-7d00-8e00-0000000000b3.jsonl')));
	const calls = events.filter(event => event.kind === 'tool_call').map(event => [event.line, event.tool?.name, event.tool?.call_id]);
	assert.deepEqual(calls, [
		[3, 'exec', 'call_cell_01'],
		[4, 'mcp__inventory__expiring', 'call_cell_01_mcp_1'],
		[6, 'mcp__inventory__label', 'call_label_01'],
		[9, 'exec', 'call_cell_02'],
		[10, 'mcp__inventory__reserve', 'call_cell_02_mcp_1'],
	]);
	assert.deepEqual(events.find(event => event.kind === 'tool_call' && event.tool?.call_id === 'call_cell_01_mcp_1')?.tool?.input, {before: '2027-03-01'});
	assert.deepEqual([resultOf(events, 'call_cell_01_mcp_1')?.is_error, resultOf(events, 'call_cell_01_mcp_1')?.output], [false, 'lot 14 (kale), lot 22 (chard)']);
	assert.equal(resultOf(events, 'call_cell_02_mcp_1')?.is_error, true);
	assert.equal(summary.tool_calls, 5);
});

/**
 * Codex reads a prompt's request as what follows its USER_MESSAGE_BEGIN heading ("## My request
 * for Codex:"), wherever the heading stands and whatever precedes it, the request on the
 * heading's own line or the next: codex-rs state extract.rs `strip_user_message_prefix`
 * (`text.find(USER_MESSAGE_BEGIN)`, the rest trimmed) names the thread by it, and
 * tuo-lei/vibe-replay packages/provider-codex/src/codex/constants.ts (`stripUserMessagePrefix`,
 * its test/parser.test.ts "## My request for Codex: run the tests") reads the same.
 */
test('codex format: the request after "## My request for Codex:" is the request and title, on the heading\'s line or after text no known envelope opens', () => {
	const {events, summary} = readUnit(codexAdapter, looseUnit(join(cases, 'rollout-2026-12-07T16-00-00-01a30300-2b00-7c00-8d00-0000000000ca.jsonl')));
	assert.deepEqual(events.filter(event => event.kind === 'user' && event.human).map(event => event.text), ['why does the low-tide alert fire twice?', 'make the watcher skip alerts the job already sent']);
	assert.equal(summary.title, 'why does the low-tide alert fire twice?');
	assert.equal(summary.human_turns, 2);
});

/**
 * A user message whose one text block holds the `<environment_context>` block and then the typed
 * prompt: tuo-lei/vibe-replay packages/provider-codex/src/codex/constants.ts strips leading
 * context blocks and keeps the rest as the prompt, and its test/parser.test.ts ("discovers
 * response-item user messages when event messages are absent") reads such a message's prompt.
 */
test('codex format: typed text after an <environment_context> block in the same text block is a request; the context stays the host\'s', () => {
	const {events, summary} = readUnit(codexAdapter, looseUnit(join(cases, 'rollout-2026-12-07T17-00-00-01a30310-2b00-7c00-8d00-0000000000cb.jsonl')));
	assert.deepEqual(events.filter(event => event.kind === 'user').map(event => [event.human, event.text]), [
		[false, '<environment_context>\n  <cwd>/Users/ines/tidepool</cwd>\n  <shell>zsh</shell>\n</environment_context>'],
		[true, 'Only the response item holds this prompt.'],
	]);
	assert.equal(summary.title, 'Only the response item holds this prompt.');
	assert.equal(summary.human_turns, 1);
});

/**
 * A converted session's tool_result block whose content is an image (a screenshot) is noted by
 * its media type, the payload never copied, as the Claude and Cursor readers note one (the same
 * Anthropic-style block; tuo-lei/vibe-replay reads such blocks as a result's images).
 */
test('codex format: an image in a converted session\'s tool_result block is noted by its media type, its base64 never copied', () => {
	const {events} = readUnit(codexAdapter, looseUnit(join(cases, 'rollout-2026-03-05T11-00-00-7e3f5a71-4b2c-4d6e-8f9a-2b3c4d5e6f70.jsonl')));
	assert.equal(resultOf(events, 'toolu_gallery_shot')?.output, '[image: image/png]');
	assert.doesNotMatch(JSON.stringify(events), /GALLERYGRID/);
});

test('codex format: a line of the flat shape, `{type: "message", payload: {role, content}}`, is the message its payload holds', () => {
	// The message's type on the envelope instead of response_item (Atituiset/agent-session-format
	// src/parsers/codex-family.ts, "older flat shape", and tests/codex-family.test.ts).
	const session = readUnit(codexAdapter, looseUnit(join(cases, 'rollout-2025-06-03T14-00-00-4c1d9e27-8a3b-4f60-b5d2-7e0a1c9f3b84.jsonl')));
	assert.equal(session.loaded.skipped, 0);
	assert.deepEqual(
		session.events.filter(event => event.kind === 'user' || event.kind === 'assistant').map(event => [event.line, event.kind, event.text, event.human ?? null]),
		[
			[1, 'user', 'Rename the export script to publish.sh', true],
			[2, 'assistant', 'Renamed it and updated the two references in the Makefile.', null],
		],
	);
	assert.equal(session.summary.title, 'Rename the export script to publish.sh');
});

/**
 * The Codex desktop app writes the state of its in-app browser (`<in-app-browser-context
 * source="ambient-ui-state">`: the page's address, title, …) before the typed prompt, in the same
 * text block or in its own: scottzx/session-reader src/util/text.ts (`stripPromptEnvelope`)
 * strips the block and keeps the rest as the request, and other readers of the app's rollouts
 * treat it as the client's context, never the person's words.
 */
test('codex format: the desktop app\'s <in-app-browser-context> before a prompt is the host\'s; the typed text after it is the request and title', () => {
	const {events, summary} = readUnit(codexAdapter, looseUnit(join(cases, 'rollout-2026-12-07T18-00-00-01a30320-3c00-7d00-8e00-0000000000cc.jsonl')));
	const users = events.filter(event => event.kind === 'user');
	assert.deepEqual(users.filter(event => event.human).map(event => event.text), ['why does the berth map flicker on resize?', 'keep the legend pinned while it redraws']);
	assert.ok(users.filter(event => !event.human).every(event => event.text?.startsWith('<in-app-browser-context')));
	assert.equal(users.filter(event => !event.human).length, 2);
	assert.equal(summary.title, 'why does the berth map flicker on resize?');
	assert.equal(summary.human_turns, 2);
});

/**
 * The Codex desktop app sends a person's answers to the questions a `request_user_input_async`
 * call queued as a user message: `<send_user_message_question_reply>`, a JSON list of
 * `{questionItemId, question, answer}`, then the closing tag. The person's words are the answers:
 * scottzx/session-reader src/util/text.ts (`stripPromptEnvelope`) reads a reply as its answers,
 * one a line. A body that is not such a list stays as written.
 */
test('codex format: a <send_user_message_question_reply> is a request whose text is the person\'s answers, one a line', () => {
	const {events, summary} = readUnit(codexAdapter, looseUnit(join(cases, 'rollout-2026-12-07T19-00-00-01a30330-4d00-7e00-8f00-0000000000cd.jsonl')));
	assert.deepEqual(events.filter(event => event.kind === 'user' && event.human).map(event => event.text), [
		'tidy the gravel import script',
		'gravel-2025.csv\nskip rows without a weight',
		'<send_user_message_question_reply>\n{"answer":"not a list"}\n</send_user_message_question_reply>',
	]);
	assert.equal(summary.title, 'tidy the gravel import script');
	assert.equal(summary.human_turns, 3);
});

/**
 * Some builds write a `function_call_output`'s `output` as an object rather than text: the
 * payload's own fields, `{content, success}` (a codex-rs FunctionCallOutputPayload serialised as
 * a struct, with `is_user_feedback` beside them), or `{text, exit_code}`. Its text is the output
 * and `success: false` or a non-zero `exit_code` a failure, as the same fields written as JSON
 * text already are (evidence: Conalh/agent-gov-core src/parsers/codex.ts reads `.text`/`.content`
 * and `exit_code` from an object output, test/fixtures-parsers-codex.jsonl).
 */
test('codex format: a function_call_output whose output is an object {content, success} or {text, exit_code} gives its text and outcome', () => {
	const session = readUnit(codexAdapter, looseUnit(join(cases, 'rollout-2025-08-12T09-40-00-2d6b8e14-7c3a-4f91-a05e-9b1c3d5e7f20.jsonl')));
	assert.equal(session.loaded.skipped, 0);
	assert.deepEqual(
		session.events.filter(event => event.kind === 'tool_result').map(event => [event.result?.call_id, event.result?.is_error, event.result?.exit_code, event.result?.output]),
		[
			['call_seed', true, undefined, 'seed: duplicate key value violates unique constraint "quarries_pkey"'],
			['call_reset', false, undefined, 'database reset'],
			['call_count', true, 1, 'wc: seeds/*.csv: No such file or directory'],
		],
	);
});

test('codex format: a rollout a client copied, whole or up to a prompt, under a new name beside its source (its session_meta still the source\'s) holds the source\'s turns, read in that session; only the turns resumed in it are its own', () => {
	// slopus/happy's duplicate (packages/happy-cli/src/codex/utils/codexSessionFork.ts) writes
	// `rollout-<now as UTC ISO, ':' and '.' as '-'>-<random uuid>.jsonl` in the source's folder,
	// the source's lines up to a chosen prompt copied unchanged (session_meta id included), and
	// resumes it by path: the resumed turns follow, dated after the copy.
	const dir = join(cases, 'client-copy');
	const source = '019ce0a2-6b40-7c31-9d52-4e8f0a1b2c3d';
	const {events, loaded, summary} = readUnit(codexAdapter, looseUnit(join(dir, 'rollout-2026-03-12T10-30-00-3c5e7a9b-1d2f-4a6b-8c0d-2e4f6a8b0c1d.jsonl')));
	assert.equal(summary.id, '3c5e7a9b-1d2f-4a6b-8c0d-2e4f6a8b0c1d');
	assert.equal(summary.parent_id, source, 'the copy is a branch of its source');
	assert.equal(summary.title, 'Offer XLSX beside the CSV export', "the source's request is not the copy's title");
	assert.deepEqual([summary.human_turns, summary.assistant_messages], [1, 0], 'only the resumed turn counts');
	assert.equal(summary.started, '2026-03-12T10:30:00.000Z', 'it started when it was copied');
	assert.ok(!events.some(event => event.session?.id === source), "the source's id is not stated as the copy's");
	assert.deepEqual(events.filter(event => event.line >= 2 && event.line <= 6).map(event => event.kind), ['system'], 'the copy is one notice');
	assert.doesNotMatch(loaded.rows.map(row => searchableText(row.events)).join('\n'), /Export CSV button/, "the source's lines are not searched as the copy's");

	const original = readUnit(codexAdapter, looseUnit(join(dir, `rollout-2026-03-11T09-00-00-${source}.jsonl`))).summary;
	assert.deepEqual([original.id, original.parent_id, original.human_turns, original.title], [source, null, 2, 'Add CSV export to the ledger page'], 'the source reads as before');
});

test('codex format: the context slopus/happy writes around a prompt it sends (its system-prompt blocks, origin token, attached-image note; unmarked in older releases: the runtime settings, the app\'s options instructions before the message, the title ask after it) is the host\'s; the request is the typed text between', () => {
	// happy-cli codex/codexPrompt.ts builds a turn's text as its app's instructions, the runtime
	// settings and the ask to title the chat, each between `<!-- happy:system-prompt:start -->` and
	// `<!-- happy:system-prompt:end -->`, around the message; happy's own readers drop them to show it.
	// Releases before the markers sent `message + "\n\n" + <title ask>` after the app's options text.
	const {events, summary} = readUnit(codexAdapter, looseUnit(join(cases, 'rollout-2026-04-01T08-00-00-019d4a10-5e00-7a21-8b32-6c7d8e9f0a1b.jsonl')));
	assert.equal(summary.title, 'Paginate the invoice list, twenty rows a page');
	assert.equal(summary.human_turns, 4);
	assert.deepEqual(events.filter(event => event.kind === 'user' && event.human === true).map(event => event.text), [
		'Paginate the invoice list, twenty rows a page',
		'Match the spacing in this mock',
		'Keep the page size in the URL',
		'Show the totals in the table footer',
	]);
	const context = events.filter(event => event.kind === 'user' && event.human === false && /happy|# Options/i.test(event.text ?? ''));
	assert.ok(context.length >= 4, 'the context is kept, as the host\'s');
	assert.ok(context.every(event => !/Paginate|Match the spacing|Keep the page size|Show the totals/.test(event.text ?? '')), 'no request is read as context');
});

/**
 * A command the person ran with `!` (codex-rs tasks/user_shell.rs) ends with an
 * `exec_command_end` whose `source` is `user_shell`, under a fresh id no call names; rollouts
 * written in extended persistence keep it (rollout policy.rs, ExecCommandEnd). What the model saw
 * of it is the `<user_shell_command>` message beside it: it is no tool the agent called.
 */
test('codex format: the exec_command_end of a command the person ran with `!` (source user_shell) is no tool result and no failure left for the agent', () => {
	const {events, summary} = readUnit(codexAdapter, looseUnit(join(cases, 'rollout-2026-12-07T20-00-00-01a30340-5e00-7a00-8b00-0000000000ce.jsonl')));
	assert.equal(resultOf(events, '5d0f3a2e-8c41-4b7e-9a06-2f1e7c9b4d83'), undefined, 'the person\'s own command is no tool result');
	assert.deepEqual([resultOf(events, 'call_totals_run')?.is_error, resultOf(events, 'call_totals_run')?.exit_code], [false, 0], 'the agent\'s command keeps its result');
	assert.equal(computeTail(events, false).failure, null, 'no failure is left unresolved');
	assert.equal(summary.title, 'Check that the harvest totals script still runs');
});

/**
 * Codex answers a call to a tool it has no handler for, and a call a PreToolUse hook blocked, with
 * a message of its own as the whole output (codex-rs core tools/registry.rs, dispatch_any:
 * `unsupported call: <tool>`, `unsupported custom tool call: <tool>`, `Command blocked by
 * PreToolUse hook: <reason>. Command: <command>`); the failure flag stays out of the rollout.
 */
test('codex format: a call to a tool Codex has no handler for, or one a PreToolUse hook blocked, is a failed result; the same words in a command\'s output are not', () => {
	const {events} = readUnit(codexAdapter, looseUnit(join(cases, 'rollout-2026-12-07T21-00-00-01a30350-6f00-7b00-8c00-0000000000cf.jsonl')));
	assert.equal(resultOf(events, 'call_unknown_fn')?.is_error, true, 'unsupported call');
	assert.equal(resultOf(events, 'call_unknown_custom')?.is_error, true, 'unsupported custom tool call');
	assert.equal(resultOf(events, 'call_hook_blocked')?.is_error, true, 'blocked by a PreToolUse hook');
	assert.deepEqual([resultOf(events, 'call_grep_notes')?.is_error, resultOf(events, 'call_grep_notes')?.exit_code], [false, 0], 'a command that printed the words');
});

/**
 * When a command could not run to an exit code, Codex answers with a message of its own as the
 * whole output, no exit code and no header (the 2025 `shell` tool, codex-rs core codex.rs
 * handle_container_exec_with_params / handle_sandbox_error: `failed in sandbox <type> with
 * execution error: …`, `execution error: …`, `exec command rejected: <reason>`, `command timed
 * out after N milliseconds`, `retry failed: …`; newer builds still write `execution error: …`,
 * core tools/events.rs ToolEmitter::finish). Its success flag stays out of the rollout.
 */
test('codex format: a command Codex could not run (sandbox denial, spawn error, policy rejection, timeout: its own message as the whole output) is a failed result', () => {
	const {events} = readUnit(codexAdapter, looseUnit(join(cases, 'rollout-2025-09-22T15-30-00-0199727a-4c00-7d00-8e00-0000000000d5.jsonl')));
	assert.equal(resultOf(events, 'call_sandbox_denied')?.is_error, true, 'failed in sandbox');
	assert.equal(resultOf(events, 'call_spawn_failed')?.is_error, true, 'execution error');
	assert.equal(resultOf(events, 'call_policy_rejected')?.is_error, true, 'exec command rejected');
	assert.equal(resultOf(events, 'call_timed_out')?.is_error, true, 'command timed out');
	assert.deepEqual([resultOf(events, 'call_grep_log')?.is_error, resultOf(events, 'call_grep_log')?.exit_code], [false, 0], 'a command whose output holds the words');
});

/**
 * A tool the client provides (a dynamic tool, codex-rs core tools/handlers/dynamic.rs) answers
 * through a `dynamic_tool_call_response` event `{call_id, content_items, success, error}`, which
 * rollouts persist (in limited or in extended mode, by version: rollout policy.rs), or in
 * paginated history a `DynamicToolCall` item. The `function_call_output` Codex writes beside it
 * holds only the content items, never the success flag: the event or item is the only sign.
 */
test('codex format: a dynamic tool the client reported failed (dynamic_tool_call_response success false, or a failed DynamicToolCall item) is a failed result', () => {
	const {events} = readUnit(codexAdapter, looseUnit(join(cases, 'rollout-2026-12-07T22-00-00-01a30360-7a00-7c00-8d00-0000000000d0.jsonl')));
	assert.deepEqual([resultOf(events, 'call_gauge_east')?.is_error, resultOf(events, 'call_gauge_east')?.output], [true, 'gauge east: sensor offline since 14:10']);
	assert.equal(resultOf(events, 'call_gauge_west')?.is_error, false, 'a call that succeeded');
	assert.equal(resultOf(events, 'call_gauge_north')?.is_error, true, 'a call cancelled before any answer');
	assert.equal(resultOf(events, 'call_gauge_south')?.is_error, true, 'a failed DynamicToolCall item');
	assert.equal(events.filter(event => event.kind === 'tool_result' && event.result?.call_id === 'call_gauge_west').length, 1, 'a call resolves once');
});

/**
 * An `error` event whose `codex_error_info` says it leaves the turn as it was (a steer refused
 * while a compaction runs, `active_turn_not_steerable`; a rollback that failed,
 * `thread_rollback_failed`) is a notice: Codex's own history builder marks no turn failed for it
 * (app-server-protocol thread_history.rs, handle_error; protocol ErrorEvent::affects_turn_status).
 */
test('codex format: an error that leaves the turn as it was (codex_error_info active_turn_not_steerable, thread_rollback_failed) is a notice, not an interrupted turn', () => {
	const {events} = readUnit(codexAdapter, looseUnit(join(cases, 'rollout-2026-12-07T23-00-00-01a30370-8b00-7d00-8e00-0000000000d1.jsonl')));
	const notices = events.filter(event => event.kind === 'system' && /steer a compact|roll back/.test(event.text ?? ''));
	assert.equal(notices.length, 2, 'both are still shown');
	assert.ok(notices.every(notice => notice.error === undefined), 'neither is an error');
	assert.equal(computeTail(events, false).interruption, null);
});

/**
 * A multi-agent tool Codex could not carry out answers with Codex's own message as the whole
 * output (codex-rs core tools/handlers collab: `collab spawn failed: <why>`, `collab tool
 * failed: <why>`, `agent with id <id> not found`, `agent with id <id> is closed`, `collab manager
 * unavailable`); the failure flag stays out of the rollout.
 */
test('codex format: a multi-agent call Codex could not carry out (collab spawn failed, agent not found or closed) is a failed result', () => {
	const {events} = readUnit(codexAdapter, looseUnit(join(cases, 'rollout-2026-12-07T23-30-00-01a3037d-2c00-7e00-8f00-0000000000d2.jsonl')));
	assert.equal(resultOf(events, 'call_spawn_long')?.is_error, true, 'collab spawn failed');
	assert.equal(resultOf(events, 'call_send_gone')?.is_error, true, 'agent not found');
	assert.equal(resultOf(events, 'call_wait_closed')?.is_error, true, 'agent closed');
	assert.equal(resultOf(events, 'call_grep_hedges')?.is_error, false, 'a command that printed like words');
});

/**
 * A question Codex could not put to the person answers with Codex's own message as the whole
 * output (codex-rs core tools/handlers request_user_input.rs: `request_user_input was cancelled
 * before receiving a response`, `request_user_input is unavailable in <mode> mode`); the failure
 * flag stays out of the rollout. An answered question is the person's answers, no failure.
 */
test('codex format: a request_user_input that was cancelled or is unavailable in the mode is a failed result; an answered one is not', () => {
	const {events} = readUnit(codexAdapter, looseUnit(join(cases, 'rollout-2026-12-08T08-00-00-01a30600-1d00-7f00-8a00-0000000000d3.jsonl')));
	assert.equal(resultOf(events, 'call_ask_rootstock')?.is_error, true, 'cancelled');
	assert.equal(resultOf(events, 'call_ask_mode')?.is_error, true, 'unavailable in the mode');
	assert.equal(resultOf(events, 'call_ask_answered')?.is_error, false, 'answered');
});

/**
 * A view_image Codex could not carry out answers with its own message as the whole output
 * (codex-rs core tools/handlers/view_image.rs: `unable to locate image at \``, `image path \`…\`
 * is not a file`, `unable to read image at \``, `unable to process image at \``, `view_image is
 * not allowed …`, `view_image is unavailable …`); the failure flag stays out of the rollout.
 */
test('codex format: a view_image Codex could not carry out (missing file, a directory, an unreadable image, a model without image input) is a failed result', () => {
	const {events} = readUnit(codexAdapter, looseUnit(join(cases, 'rollout-2026-12-08T09-00-00-01a30640-2e00-7a00-8b00-0000000000d4.jsonl')));
	for (const callId of ['call_view_missing', 'call_view_dir', 'call_view_bad', 'call_view_text_model']) {
		assert.equal(resultOf(events, callId)?.is_error, true, callId);
	}
});

test('codex format: a patch the approval policy rejected (`patch rejected: <reason>`, the whole output) is a failed result', () => {
	// codex-rs core apply_patch.rs: SafetyCheck::Reject answers `patch rejected: {reason}`.
	const {events} = readUnit(codexAdapter, looseUnit(join(cases, 'rollout-2025-09-22T15-30-00-0199727a-4c00-7d00-8e00-0000000000d5.jsonl')));
	assert.equal(resultOf(events, 'call_patch_policy')?.is_error, true);
});

/**
 * Unified exec answers a command it could not start, input it could not deliver, and an
 * escalation the approval policy forbids with Codex's own message as the whole output
 * (codex-rs core tools/handlers/unified_exec.rs: `exec_command failed: …`, `write_stdin failed:
 * …`, `failed to parse write_stdin arguments: …`, `approval policy is <policy>; reject command
 * — …`); the failure flag stays out of the rollout.
 */
test('codex format: a unified exec call Codex could not carry out (exec_command failed, write_stdin failed, an escalation the policy forbids) is a failed result', () => {
	const {events} = readUnit(codexAdapter, looseUnit(join(cases, 'rollout-2026-12-08T10-00-00-01a30680-3f00-7b00-8c00-0000000000d5.jsonl')));
	for (const callId of ['call_exec_spawn', 'call_stdin_gone', 'call_exec_escalate']) {
		assert.equal(resultOf(events, callId)?.is_error, true, callId);
	}
});

test('codex format: a thread_goal_updated whose turnId is no string reads as the schema reads it (no turn), not as a turn\'s update', t => {
	// codexEventSchema types turnId and turn_id as text (lenient: another type is absent); the
	// hand reader (records.ts) passed them through raw, so an object there made the person's /goal
	// read as a turn's update and dropped the request.
	const id = '01a30410-2b00-7c00-8d00-0000000000e5';
	const path = join(tempDir(t), `rollout-2026-12-07T16-00-00-${id}.jsonl`);
	const lines = [
		{timestamp: '2026-12-07T16:00:00.000Z', type: 'session_meta', payload: {id, timestamp: '2026-12-07T16:00:00.000Z', cwd: '/home/oriel/kiln', originator: 'codex_cli_rs', cli_version: '0.150.0', source: 'cli'}},
		{timestamp: '2026-12-07T16:00:10.000Z', type: 'event_msg', payload: {type: 'thread_goal_updated', threadId: id, turnId: {pending: true}, goal: {threadId: id, objective: 'Log the kiln temperature every minute', status: 'active'}}},
		{timestamp: '2026-12-07T16:00:20.000Z', type: 'event_msg', payload: {type: 'thread_goal_updated', threadId: id, turnId: 7, turn_id: '', goal: {threadId: id, objective: 'Chart the firing curve', status: 'active'}}},
	];
	writeFileSync(path, lines.map(line => JSON.stringify(line)).join('\n') + '\n');
	const {events, loaded} = readUnit(codexAdapter, looseUnit(path));
	assert.deepEqual(events.filter(event => event.kind === 'user' && event.human).map(event => event.text), ['Log the kiln temperature every minute', 'Chart the firing curve']);
	assert.equal(loaded.skipped, 0);
});

/**
 * Since codex-rs unified its compaction paths (openai/codex#27016) a `compacted` record keeps an
 * empty `message`: the summary is the last user message of its `replacement_history`. A remote
 * compaction's history holds only an opaque `compaction` item, so it has no summary to read.
 * Builds that keep `replacement_history_entries` hold it as an `inline` entry beside references.
 */
const emptyCompactionMessage = join(cases, 'rollout-2026-12-08T11-00-00-01a30700-4a00-7c00-8d00-0000000000e5.jsonl');

test('codex format: a compaction with an empty message reads its summary from replacement_history', () => {
	const {events, summary} = readUnit(codexAdapter, looseUnit(emptyCompactionMessage));
	const summaries = events.filter(event => event.kind === 'summary');
	assert.equal(summaries.length, 3);
	assert.match(summaries[0]?.text ?? '', /rows five and six still need their grafting dates/);
	assert.equal(summaries[1]?.text, 'Conversation compacted');
	assert.match(summaries[2]?.text ?? '', /grafting dates are on the legend/, 'an inline entry of replacement_history_entries');
	assert.equal(summary.human_turns, 1, 'the retained prompt in the history is no new request');
	assert.equal(summary.title, 'Draw the pear rows on the orchard map');
});

/**
 * A `/review` turn ends with `turn_aborted` of reason `review_ended`: the review is over, which
 * Codex's own TUI does not report as an interruption (codex-rs tui chatwidget, on_interrupted_turn).
 */
const reviewEnded = join(cases, 'rollout-2026-12-08T13-00-00-01a30780-5b00-7d00-8e00-0000000000e6.jsonl');

test('codex format: a turn aborted because its review ended is no interruption', () => {
	const {events} = readUnit(codexAdapter, looseUnit(reviewEnded));
	const aborted = events.find(event => event.kind === 'system' && /review_ended/.test(event.text ?? ''));
	assert.ok(aborted, 'the abort is kept as a notice');
	assert.equal(aborted.interrupted, undefined);
	assert.equal(computeTail(events, false).interruption, null);
});
