import assert from 'node:assert/strict';
import {join} from 'node:path';
import test from 'node:test';
import {fileURLToPath} from 'node:url';
import {codexAdapter} from '../../source/adapters/codex/index.js';
import {looseUnit, readUnit} from '../helpers/adapters.js';

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
