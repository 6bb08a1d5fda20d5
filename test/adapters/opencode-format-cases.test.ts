import assert from 'node:assert/strict';
import {join} from 'node:path';
import test from 'node:test';
import {fileURLToPath} from 'node:url';
import {opencodeAdapter} from '../../source/adapters/opencode/index.js';
import {readStore, type ReadSession} from '../helpers/adapters.js';

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

test('opencode format: a subtask the user cancelled ends its task call as interrupted', () => {
	// session/prompt.ts handleSubtask: interrupting a running subtask stores `status:"error", error:"Cancelled"`.
	const session = sessionsOf('subtask-cancelled').get('ses_3b2e1d0c9ffeKp4Rt7Wx1Za3Cd');
	assert.ok(session, 'the session is read');
	const result = session.events.find(event => event.kind === 'tool_result');
	assert.equal(result?.result?.call_id, '01JNR2M8Q4V6X9Z1B3D5F7H9K2');
	assert.equal(result?.result?.is_error, true);
	assert.equal(result?.interrupted, true, 'a user cancel is an interruption, not a tool failure');
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
