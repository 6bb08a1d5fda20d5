import assert from 'node:assert/strict';
import {mkdirSync, readdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {workspaceName} from '../../source/adapters/copilot/discover.js';
import {copilotAdapter} from '../../source/adapters/copilot/index.js';
import type {SessionEvent} from '../../source/adapters/events.js';
import {fixtureStores, looseUnit, readStore, readUnit, sharedFixtures} from '../helpers/adapters.js';
import {tempDir} from '../helpers/temp.js';
import {wholeUnit} from '../../source/adapters/types.js';

const store = join(fixtureStores, 'copilot');
const ids = {
	main: '7d2b9c40-1a2b-4c3d-8e4f-5a6b7c8d9e01',
	autopilot: '7d2b9c40-1a2b-4c3d-8e4f-5a6b7c8d9e02',
	legacy: '7d2b9c40-1a2b-4c3d-8e4f-5a6b7c8d9e03',
	sidecarOnly: '7d2b9c40-1a2b-4c3d-8e4f-5a6b7c8d9e04',
};
const byId = () => new Map(readStore(copilotAdapter, store).map(session => [session.summary.id, session]));
const session = (id: string) => {
	const found = byId().get(id);
	assert.ok(found, `session ${id} is read`);
	return found;
};

test('copilot: default roots honour COPILOT_HOME and the home directory; resume command', () => {
	assert.deepEqual(copilotAdapter.defaultRoots({env: {}, home: '/home/ada', platform: 'linux'}), ['/home/ada/.copilot/session-state', '/home/ada/.local/state/.copilot/session-state']);
	assert.deepEqual(copilotAdapter.defaultRoots({env: {COPILOT_HOME: '/data/copilot'}, home: '/home/ada', platform: 'darwin'}), ['/data/copilot/session-state', '/home/ada/.local/state/.copilot/session-state']);
	assert.deepEqual(copilotAdapter.defaultRoots({env: {}, home: undefined, platform: 'linux'}), []);
	assert.equal(copilotAdapter.nativeResumeCommand(ids.main), `copilot --resume ${ids.main}`);
	assert.equal(copilotAdapter.nativeResumeCommand('$(reboot)'), null);
});

test('copilot: discovery finds directory and legacy flat sessions, with the workspace.yaml sidecar', () => {
	const root = join(store, 'session-state');
	assert.deepEqual(copilotAdapter.resolveRoot(store), [root]);
	assert.deepEqual(copilotAdapter.resolveRoot(root), [root]);
	const units = copilotAdapter.discover(root).map(wholeUnit);
	assert.deepEqual(units.map(unit => unit.idHint), [ids.main, ids.autopilot, ids.legacy], 'a directory with only workspace.yaml is no session; history-session-state is outside the root');
	const main = units[0]!;
	assert.deepEqual(main.paths, [join(root, ids.main, 'events.jsonl'), join(root, ids.main, 'workspace.yaml')]);
	assert.equal(main.projectHint, '/work/shop');
	assert.equal(units[1]!.projectHint, '/work/infra', 'a quoted cwd scalar is unquoted');
	assert.equal(units[2]!.variant, 'legacy-flat');
	assert.equal(units[2]!.projectHint, undefined);
});

test('copilot: ids, projects, titles and counts', () => {
	const sessions = byId();
	const main = sessions.get(ids.main)!;
	assert.equal(main.summary.project, '/work/shop');
	assert.equal(main.summary.title, 'Add input validation to the checkout form');
	assert.equal(main.summary.human_turns, 2, 'notifications and skill-injected messages are not human turns');
	assert.equal(main.summary.assistant_messages, 5, 'msg-1…msg-5: the two chunks of msg-3 count once, the subagent message not at all');
	assert.equal(main.summary.tool_calls, 6, 'a call named in toolRequests and tool.execution_start counts once');
	assert.equal(main.summary.started, '2026-11-23T10:00:00.000Z');
	assert.equal(main.summary.modified, '2026-11-23T10:09:00.000Z');
	assert.deepEqual(
		main.events.filter(event => event.kind === 'meta').map(event => event.session),
		[{title: 'Checkout form validation'}, {id: ids.main, started: '2026-11-23T10:00:00.000Z', cwd: '/work/shop', model: 'claude-sonnet-4.5'}, {model: 'gpt-5.2'}],
		'the name in workspace.yaml is stated; the first request stays the title',
	);

	const autopilot = sessions.get(ids.autopilot)!;
	assert.equal(autopilot.summary.project, '/work/infra');
	assert.equal(autopilot.summary.human_turns, 0, 'an autopilot continuation is not a person typing');
	assert.equal(autopilot.summary.title, null);
	assert.equal(autopilot.summary.conversational, true);

	const legacy = sessions.get(ids.legacy)!;
	assert.equal(legacy.summary.project, '/work/notes');
	assert.equal(legacy.summary.title, 'Rename the notes folder to journal');
});

test('copilot: tool calls, results, failures and exit codes', () => {
	const main = session(ids.main);
	const calls = main.events.filter(event => event.kind === 'tool_call');
	assert.deepEqual(calls.map(event => [event.tool?.name, event.tool?.call_id, event.line, event.sidechain ?? false]), [
		['view', 'toolu_01', 7, false],
		['bash', 'toolu_02', 7, false],
		['edit', 'toolu_03', 12, false],
		['task', 'toolu_04', 22, false],
		['grep', 'toolu_s1', 25, true],
		['bash', 'toolu_05', 30, false],
	]);
	assert.deepEqual(calls[1]?.tool?.input, {command: 'npm test -- checkout', description: 'Run checkout tests'}, 'JSON-string arguments are parsed');
	const results = main.events.filter(event => event.kind === 'tool_result');
	assert.deepEqual(results.map(event => [event.result?.call_id, event.result?.is_error, event.result?.exit_code]), [
		['toolu_01', false, undefined],
		['toolu_02', true, 1],
		['toolu_03', true, undefined],
		['toolu_s1', false, undefined],
		['toolu_04', false, undefined],
	]);
	assert.match(results[1]?.result?.output ?? '', /<exited with exit code 1>\nCommand failed$/, 'the error message joins the result text');
	assert.equal(results[2]?.result?.output, 'No match found for old_str in /work/shop/src/checkout.tsx', 'a failure with no result text shows the error message');
	assert.ok(!results.some(event => event.result?.call_id === 'toolu_05'), 'the call running when the user aborted has no result');

	const legacy = session(ids.legacy);
	assert.deepEqual(legacy.events.filter(event => event.kind === 'tool_result').map(event => [event.result?.call_id, event.result?.is_error, event.result?.exit_code]), [['call_n1', false, 0]]);
	const pending = session(ids.autopilot);
	assert.deepEqual(pending.events.filter(event => event.kind === 'tool_call').map(event => event.tool?.call_id), ['call_p2_1']);
	assert.equal(pending.events.filter(event => event.kind === 'tool_result').length, 0);
});

test('copilot: subagent output, abort, errors, compaction and shutdown', () => {
	const main = session(ids.main);
	assert.deepEqual(
		main.events.filter(event => event.sidechain).map(event => [event.line, event.kind]),
		[
			[25, 'assistant'],
			[25, 'tool_call'],
			[27, 'tool_result'],
		],
	);
	assert.deepEqual(
		main.events.filter(event => event.interrupted).map(event => [event.line, event.kind, event.text]),
		[[32, 'system', 'Aborted (user initiated)']],
	);
	assert.deepEqual(
		main.events.filter(event => event.error).map(event => [event.line, event.error]),
		[[33, 'Request failed with status 503: Service Unavailable']],
	);
	const summary = main.events.find(event => event.kind === 'summary');
	assert.equal(summary?.line, 19);
	assert.match(summary?.text ?? '', /first edit to src\/checkout.tsx failed/);
	assert.deepEqual(
		main.events.filter(event => event.kind === 'system' && /^Subagent|^Session shut down/.test(event.text ?? '')).map(event => event.text),
		['Subagent Explore Agent started', 'Subagent Explore Agent completed', 'Session shut down (routine)'],
	);
	const injected = main.events.filter(event => event.kind === 'user' && !event.human).map(event => event.line);
	assert.deepEqual(injected, [34, 35], 'system.notification and a skill-sourced message');
	assert.ok(!main.events.some(event => /reasoning|ZW5jcnlwdGVk|opaque/i.test(event.text ?? '')), 'reasoning and encrypted content are never shown');
	assert.ok(main.events.every(event => event.parent === undefined), 'parentId is a chronological chain, not a reply tree');
	assert.equal(main.events.find(event => event.line === 5)?.uuid, 'c0a1b2c3-0000-4000-8000-000000000005');

	const crashed = session(ids.autopilot);
	assert.deepEqual(crashed.events.filter(event => event.error).map(event => event.text), ['Session shut down (error)']);
});

test('copilot: torn lines and unknown event types are skipped, and warnings never echo content', () => {
	const main = session(ids.main);
	assert.equal(main.loaded.skipped, 1, 'the unknown namespace telemetry.* is counted');
	const legacy = session(ids.legacy);
	assert.equal(legacy.loaded.skipped, 2, 'one torn line and one unknown type');
	assert.match(legacy.loaded.warnings.join('\n'), /line 5: skipped, not valid JSON/);
	assert.doesNotMatch(legacy.loaded.warnings.join('\n'), /Done\. The fol/);
	const known = session(ids.main).loaded.rows.filter(row => ['session.info', 'assistant.turn_start', 'session.compaction_start'].includes((row.raw as {type: string}).type));
	assert.ok(known.length === 4 && known.every(row => row.events.length === 0), 'known bookkeeping types give no events and are not skips');
});

test('copilot: the line state carried between scans stays bounded however many tool calls a log holds', async t => {
	const {scanJsonl} = await import('../../source/adapters/rows.js');
	const calls = 5000;
	const at = (second: number) => new Date(Date.parse('2026-11-23T10:00:00Z') + second * 1000).toISOString();
	const records: unknown[] = [{type: 'session.start', data: {sessionId: '7d2b9c40-1a2b-4c3d-8e4f-5a6b7c8d9e99', context: {cwd: '/work/shop'}}, id: 'e0', timestamp: at(0), parentId: null}];
	for (let call = 0; call < calls; call++) {
		const toolCallId = `toolu_many_${call}`;
		records.push(
			{type: 'assistant.message', data: {content: '', toolRequests: [{toolCallId, name: 'bash', arguments: {command: 'ls'}}]}, id: `a${call}`, timestamp: at(call), parentId: null},
			// The same call announced again when it starts: not a second call.
			{type: 'tool.execution_start', data: {toolCallId, toolName: 'bash', arguments: {command: 'ls'}}, id: `s${call}`, timestamp: at(call), parentId: `a${call}`},
			{type: 'tool.execution_complete', data: {toolCallId, success: true, result: {content: 'ok\n<exited with exit code 0>'}}, id: `c${call}`, timestamp: at(call), parentId: `s${call}`},
		);
	}

	const directory = join(tempDir(t), '7d2b9c40-1a2b-4c3d-8e4f-5a6b7c8d9e99');
	mkdirSync(directory);
	const path = join(directory, 'events.jsonl');
	writeFileSync(path, records.map(record => JSON.stringify(record)).join('\n') + '\n');
	const state: Record<string, unknown> = {};
	const events: SessionEvent[] = [];
	scanJsonl(copilotAdapter, looseUnit(path), row => {
		events.push(...row.events);
	}, {state});
	assert.equal(events.filter(event => event.kind === 'tool_call').length, calls, 'each call counts once: its second mention is still recognised');
	assert.equal(events.filter(event => event.kind === 'tool_result').length, calls);
	assert.ok(JSON.stringify(state).length < 16 * 1024, `the state holds ${JSON.stringify(state).length} characters`);
});

test('copilot: conformance over the shared third-party fixtures', t => {
	const directory = sharedFixtures(t, 'copilot');
	if (!directory) {
		return;
	}

	const files = readdirSync(directory, {recursive: true, encoding: 'utf8'}).filter(name => name.endsWith('.jsonl'));
	assert.ok(files.length >= 4);
	for (const file of files) {
		const read = readUnit(copilotAdapter, looseUnit(join(directory, file)));
		assert.ok(read.loaded.rows.length > 0, `${file} has rows`);
		assert.equal(read.loaded.skipped, 0, `${file}: every event type is known`);
		for (const event of read.events.filter(event => event.kind === 'user' && event.human)) {
			assert.doesNotMatch(event.text ?? '', /^\s*<(system_notification|system-reminder)/, `${file}:${event.line} injected text is not human`);
		}
	}

	const root = join(directory, 'session-state');
	const [unit] = copilotAdapter.discover(root).map(wholeUnit);
	assert.ok(unit, 'the sample is laid out like a store');
	const sample = readUnit(copilotAdapter, unit);
	assert.equal(sample.summary.id, 'aaaabbbb-1111-2222-3333-ccccddddeeee');
	assert.equal(sample.summary.project, '/tmp/project');
	assert.equal(sample.summary.title, 'List the files');
	assert.deepEqual(sample.events.filter(event => event.kind === 'tool_result').map(event => [event.result?.call_id, event.result?.is_error]), [['call_1', false]]);

	const small = readUnit(copilotAdapter, looseUnit(join(directory, 'stage0-small.jsonl'), {idHint: 'copilot_stage0_small'}));
	assert.equal(small.summary.project, '/tmp/repo');
	assert.ok(small.events.some(event => event.interrupted), 'abort is an interruption');
	assert.ok(small.events.some(event => event.error === 'Example model error'));
	assert.ok(small.events.some(event => event.sidechain && event.kind === 'assistant'), 'parentToolCallId marks subagent output');

	const drift = readUnit(copilotAdapter, looseUnit(join(directory, 'stage0-schema_drift.jsonl')));
	assert.equal(drift.summary.id, 'copilot_stage0_drift');
	assert.equal(drift.events.filter(event => event.kind === 'tool_call').length, 1, 'execution_start before the request it belongs to still gives one call');
	assert.deepEqual(drift.events.filter(event => event.result?.is_error).map(event => event.result?.exit_code), [1]);
});

test('a workspace.yaml line of thousands of blanks with a character after them is read in linear time, its value as before', t => {
	// `^name:[ \t]*(.+?)[ \t]*$` tried the run of blanks from each of its positions: 8 KB of them
	// (the head read) cost about 100 ms a file, and discovery reads every session's cwd this way.
	const path = join(tempDir(t), 'workspace.yaml');
	for (const [text, name] of [
		[`name: a${' '.repeat(8000)}b\n`, `a${' '.repeat(8000)}b`],
		[`name: a${' \t'.repeat(4000)}\n`, 'a'],
		[`name: 'it''s'   \r\nsummary: other`, "it's"],
		['name:\nname:   \nsummary: the summary\n', 'the summary'],
		['name:\nsummary: the summary\n', 'the summary'],
		['name:    \t\n', undefined],
	] as const) {
		writeFileSync(path, text);
		const started = performance.now();
		assert.equal(workspaceName(path), name);
		assert.ok(performance.now() - started < 25, `${Math.round(performance.now() - started)} ms`);
	}
});
