import assert from 'node:assert/strict';
import {readdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {codexAdapter} from '../../source/adapters/codex/index.js';
import type {SessionEvent} from '../../source/adapters/events.js';
import {fixtureStores, looseUnit, readStore, readUnit, sharedFixtures} from '../helpers/adapters.js';
import {tempDir} from '../helpers/temp.js';
import {wholeUnit} from '../../source/adapters/types.js';

const store = join(fixtureStores, 'codex');
const ids = {
	main: '0195a1c2-0a00-7a00-8a00-00000000000a',
	subagent: '0195a1c2-0b00-7b00-8b00-00000000000b',
	fork: '0195a1c2-0c00-7c00-8c00-00000000000c',
	bare: '0195a1c2-0d00-7d00-8d00-00000000000d',
	archived: '0195a1c2-0e00-7e00-8e00-00000000000e',
	vscode: '0195a1c2-0f00-7f00-8f00-00000000000f',
	eventsOnly: '0195a1c2-1100-7100-8100-000000000011',
	bothChannels: '0195a1c2-1200-7200-8200-000000000012',
};
/** Archived rollouts with neither session_meta nor a uuid in their names: named by their files. */
const unnamed = 'rollout-2026-11-15T07-00-00';
const unnamedItems = 'rollout-2026-11-14T16-45-00';
const byId = () => new Map(readStore(codexAdapter, store).map(session => [session.summary.id, session]));
const session = (id: string) => {
	const found = byId().get(id);
	assert.ok(found, `session ${id} is read`);
	return found;
};

const results = (events: SessionEvent[]) => events.filter(event => event.kind === 'tool_result').map(event => [event.result?.call_id, event.result?.is_error, event.result?.exit_code]);

test('codex: default roots honour CODEX_HOME and the home directory', () => {
	assert.deepEqual(codexAdapter.defaultRoots({env: {}, home: '/home/ada', platform: 'linux'}), ['/home/ada/.codex/sessions', '/home/ada/.codex/archived_sessions']);
	assert.deepEqual(codexAdapter.defaultRoots({env: {CODEX_HOME: '/data/codex'}, home: '/home/ada', platform: 'darwin'}), ['/data/codex/sessions', '/data/codex/archived_sessions']);
	assert.deepEqual(codexAdapter.defaultRoots({env: {}, home: undefined, platform: 'linux'}), []);
	assert.equal(codexAdapter.nativeResumeCommand(ids.main), `codex resume ${ids.main}`);
	assert.equal(codexAdapter.nativeResumeCommand('x; rm -rf /'), null, 'an id that is not a plain token is never put into a command');
});

test('codex: the home resolves to both store directories; discovery finds dated, flat and archived rollouts only', () => {
	assert.deepEqual(codexAdapter.resolveRoot(store), [join(store, 'sessions'), join(store, 'archived_sessions')]);
	assert.deepEqual(codexAdapter.resolveRoot(join(store, 'sessions')), [join(store, 'sessions')]);
	const units = codexAdapter.resolveRoot(store).flatMap(root => codexAdapter.discover(root).map(wholeUnit));
	assert.deepEqual(units.map(unit => unit.idHint).filter(Boolean).sort(), Object.values(ids).sort(), 'notes.txt and history.jsonl are not rollouts');
	assert.equal(units.length, Object.values(ids).length + 2, 'rollouts without a uuid in their names are found too');
	assert.ok(units.every(unit => unit.key === unit.path && unit.fingerprint !== '' && unit.size > 0));
	assert.ok(units.some(unit => unit.path.endsWith(`sessions/rollout-2026-11-19T09-00-00-${ids.bare}.jsonl`)), 'very early flat layout');
});

test('codex: ids, parents, projects and titles', () => {
	const sessions = byId();
	const main = sessions.get(ids.main)!;
	assert.equal(main.summary.project, '/work/api');
	assert.equal(main.summary.title, 'Fix the flaky retry test in the HTTP client', 'developer, AGENTS.md and environment injections are not the title');
	assert.equal(main.summary.human_turns, 3, 'the <turn_aborted> notice is not a turn, and event_msg copies are not counted twice');
	assert.equal(main.summary.assistant_messages, 1, 'agent_message duplicates the response item and is not counted');
	assert.equal(main.summary.tool_calls, 9);
	assert.equal(main.summary.started, '2026-11-20T09:00:00.000Z');
	assert.equal(main.summary.modified, '2026-11-20T09:03:01.000Z');

	const subagent = sessions.get(ids.subagent)!;
	assert.equal(subagent.summary.parent_id, ids.main, 'parent from source.subagent.thread_spawn');
	assert.equal(subagent.summary.human_turns, 0, 'a spawned thread is not human-started: its prompt came from the parent agent');
	assert.equal(subagent.summary.title, 'Find every caller of retryWithBackoff and report their timeouts.', "a subagent's title is the task its parent gave it");
	assert.ok(subagent.events.filter(event => event.kind === 'user').every(event => !event.human && event.origin === 'agent'));

	const fork = sessions.get(ids.fork)!;
	assert.equal(fork.summary.id, ids.fork, "the parent's repeated session_meta does not redefine the session");
	assert.equal(fork.summary.parent_id, ids.main, 'parent from forked_from_id');
	assert.equal(fork.events.filter(event => event.kind === 'meta' && event.session?.id).length, 1);

	const bare = sessions.get(ids.bare)!;
	assert.equal(bare.summary.project, '/work/cli', 'bare era: cwd from the <environment_context> injection');
	assert.equal(bare.summary.title, 'Add a --version flag to the CLI');
	assert.equal(bare.summary.started, '2026-11-19T08:00:00.000Z');

	const archived = sessions.get(ids.archived)!;
	assert.equal(archived.summary.project, '/work/docs');
	assert.equal(archived.summary.conversational, false, 'a file holding only session_meta is a session with no turns');

	const vscode = sessions.get(ids.vscode)!;
	assert.equal(vscode.summary.project, 'C:\\Users\\dev\\acme-web');
	assert.equal(vscode.summary.title, 'Explain why the build output folder is empty', 'the typed request, without the IDE context around it');
});

test('codex: session facts are stated once, and model changes are news', () => {
	const main = session(ids.main);
	const metas = main.events.filter(event => event.kind === 'meta').map(event => [event.line, event.session]);
	assert.deepEqual(metas, [
		[1, {id: ids.main, started: '2026-11-20T09:00:00.000Z', cwd: '/work/api'}],
		[2, {model: 'gpt-5.3-codex'}],
		[31, {title: 'Flaky retry test'}],
		[33, {model: 'gpt-5.4'}],
	]);
});

test('codex: tool calls and every exit-code form', () => {
	const main = session(ids.main);
	const calls = main.events.filter(event => event.kind === 'tool_call');
	assert.deepEqual(calls.map(event => [event.tool?.name, event.tool?.call_id]), [
		['shell', 'call_shell_1'],
		['shell_command', 'call_exec_2'],
		['apply_patch', 'call_patch_3'],
		['mcp__github__get_issue', 'call_mcp_4'],
		['exec_command', 'call_exec_5'],
		['local_shell', 'call_local_6'],
		['web_search', 'ws_07'],
		['shell_command', 'call_lint_9'],
		['shell_command', 'call_pending_10'],
	]);
	assert.deepEqual(calls[0]?.tool?.input, {command: ['bash', '-lc', 'npm test -- retry'], workdir: '/work/api'}, 'JSON-string arguments are parsed');
	assert.equal(typeof calls[2]?.tool?.input, 'string', 'custom tool input stays raw');
	assert.match(String(calls[2]?.tool?.input), /^\*\*\* Begin Patch/);
	assert.deepEqual(results(main.events), [
		['call_shell_1', true, 1], // {"output","metadata":{"exit_code":1}}
		['call_exec_2', false, 0], // exec_command_end; its function_call_output is the same outcome, not repeated
		['call_patch_3', true, undefined], // patch_apply_end success:false
		['call_mcp_4', true, undefined], // MCP isError
		['call_exec_5', true, 2], // "Process exited with code 2"
		['call_local_6', false, 0],
		['ws_07', false, undefined],
	]);
	assert.equal(main.events.filter(event => event.result?.call_id === 'call_exec_2').length, 1, 'one result per call when both records exist');
	assert.ok(!main.events.some(event => event.result?.call_id === 'call_pending_10'), 'the trailing call has no result');
	assert.ok(!main.events.some(event => event.result?.call_id === 'call_lint_9'), 'the interrupted call has no result');
});

test('codex: interruption, request error, compaction, and no reasoning', () => {
	const main = session(ids.main);
	const interrupted = main.events.filter(event => event.interrupted);
	assert.deepEqual(
		interrupted.map(event => [event.line, event.kind, event.text]),
		[[37, 'system', 'Turn aborted (interrupted)']],
	);
	const errors = main.events.filter(event => event.error);
	assert.equal(errors.length, 1);
	assert.equal(errors[0]?.line, 39);
	assert.match(errors[0]?.error ?? '', /^stream disconnected before completion/);
	const summaries = main.events.filter(event => event.kind === 'summary');
	assert.equal(summaries.length, 1, 'the compacted record is the summary; context_compacted is its notice');
	assert.equal(summaries[0]?.line, 40);
	assert.ok(main.events.some(event => event.line === 41 && event.kind === 'system' && event.text === 'Context compacted'));
	assert.ok(!main.events.some(event => /Checking the retry test first|gAAAA/.test(event.text ?? '')), 'reasoning and encrypted content are never shown');
	const turnAbortedNotice = main.events.find(event => event.line === 38);
	assert.deepEqual([turnAbortedNotice?.kind, turnAbortedNotice?.human], ['user', false]);
});

test('codex: torn lines and unknown record kinds are skipped, and warnings never echo content', () => {
	const main = session(ids.main);
	assert.equal(main.loaded.skipped, 2, 'one torn line and one unknown top-level kind');
	assert.match(main.loaded.warnings.join('\n'), /line 44: skipped, not valid JSON/);
	assert.doesNotMatch(main.loaded.warnings.join('\n'), /Running the lin/);
	assert.ok(!main.loaded.rows.some(row => row.line === 43), 'the unknown kind yields no row');
	assert.ok(main.loaded.rows.some(row => row.line === 42 && row.events.length === 0), 'an unknown event_msg type is known bookkeeping, not a skip');

	const bare = session(ids.bare);
	assert.equal(bare.loaded.skipped, 2, 'an unknown bare item type and the incomplete last line');
	assert.match(bare.loaded.warnings.join('\n'), /line 13: skipped, incomplete last line/);
	assert.deepEqual(results(bare.events), [['call_d1', true, 2]]);
	assert.ok(bare.loaded.rows.filter(row => (row.raw as {record_type?: string}).record_type === 'state').every(row => row.events.length === 0));
});

test('codex: a rollout read in two scans gives the same events as one', async () => {
	const {scanJsonl} = await import('../../source/adapters/rows.js');
	const unit = codexAdapter.discover(join(store, 'sessions')).map(wholeUnit).find(found => found.idHint === ids.main)!;
	const whole: SessionEvent[] = [];
	scanJsonl(codexAdapter, unit, row => {
		whole.push(...row.events);
	});
	const state = {};
	const parts: SessionEvent[] = [];
	const first = scanJsonl(codexAdapter, unit, row => {
		parts.push(...row.events);
		return row.line < 20;
	}, {state});
	scanJsonl(codexAdapter, unit, row => {
		parts.push(...row.events);
	}, {state: JSON.parse(JSON.stringify(state)) as Record<string, unknown>, fromOffset: first.endOffset, fromLine: first.nextLine});
	assert.deepEqual(parts, whole, 'the normaliser state is plain JSON and survives a round trip');
});

test('codex: the line state carried between scans stays bounded however many tool calls a rollout holds', async t => {
	const {scanJsonl} = await import('../../source/adapters/rows.js');
	const calls = 5000;
	const at = (second: number) => new Date(Date.parse('2026-11-20T09:00:00Z') + second * 1000).toISOString();
	const records: unknown[] = [{timestamp: at(0), type: 'session_meta', payload: {id: '0195a1c2-9900-7900-8900-000000000099', timestamp: at(0), cwd: '/work/api'}}];
	for (let call = 0; call < calls; call++) {
		const callId = `call_many_${call}`;
		records.push(
			{timestamp: at(call), type: 'response_item', payload: {type: 'function_call', name: 'shell', arguments: '{"command": ["ls"]}', call_id: callId}},
			{timestamp: at(call), type: 'response_item', payload: {type: 'function_call_output', call_id: callId, output: 'Exit code: 0\nOutput:\nok\n'}},
			// The same outcome again as the structured end event: not a second result.
			{timestamp: at(call), type: 'event_msg', payload: {type: 'exec_command_end', call_id: callId, exit_code: 0, aggregated_output: 'ok\n', status: 'completed'}},
		);
	}

	const path = join(tempDir(t), 'rollout-2026-11-20T09-00-00-0195a1c2-9900-7900-8900-000000000099.jsonl');
	writeFileSync(path, records.map(record => JSON.stringify(record)).join('\n') + '\n');
	const state: Record<string, unknown> = {};
	const events: SessionEvent[] = [];
	scanJsonl(codexAdapter, looseUnit(path), row => {
		events.push(...row.events);
	}, {state});
	assert.equal(events.filter(event => event.kind === 'tool_result').length, calls, 'each call resolves once: its echo is still recognised');
	assert.ok(JSON.stringify(state).length < 16 * 1024, `the state holds ${JSON.stringify(state).length} characters`);
});

test('codex: conformance over the shared third-party fixtures', t => {
	const directory = sharedFixtures(t, 'codex');
	if (!directory) {
		return;
	}

	const files = readdirSync(directory).filter(name => name.endsWith('.jsonl'));
	assert.ok(files.length >= 7);
	for (const file of files) {
		const read = readUnit(codexAdapter, looseUnit(join(directory, file)));
		assert.ok(read.loaded.rows.length > 0, `${file} has rows`);
		for (const event of read.events.filter(event => event.kind === 'user' && event.human)) {
			assert.doesNotMatch(event.text ?? '', /^\s*(<environment_context>|<user_instructions>|# AGENTS\.md|<permissions instructions>)/i, `${file}:${event.line} injected text is not human`);
		}
	}

	const small = readUnit(codexAdapter, looseUnit(join(directory, 'stage0-small.jsonl')));
	assert.equal(small.summary.id, '019fc8be-3658-7ca3-9e29-000000000000', 'the first of seven session_meta lines defines the session');
	assert.equal(small.summary.project, '/tmp/repo');
	assert.equal(small.summary.parent_id, null, 'later (ancestor) metas with parents do not make this a child');
	assert.equal(small.summary.title, 'List the files');
	assert.equal(small.loaded.skipped, 0, 'drift event types are known bookkeeping, not skips');
	assert.ok(small.events.some(event => event.interrupted && event.line === 20));

	const large = readUnit(codexAdapter, looseUnit(join(directory, 'stage0-large.jsonl')));
	assert.equal(large.summary.id, '019b2ea4-aaaa-bbbb-cccc-58208e1f0000');
	assert.equal(large.summary.title, 'Start');
	assert.equal(large.events.filter(event => event.kind === 'user' && event.human).length, 6, 'the <environment_context> message is not a turn');

	for (const [file, id] of [
		['codex_050_legacy.jsonl', 'test-legacy-session'],
		['codex_053_rate_limit.jsonl', 'test-ratelimit-session'],
	] as const) {
		const legacy = readUnit(codexAdapter, looseUnit(join(directory, file)));
		assert.equal(legacy.summary.id, id);
		assert.equal(legacy.summary.project, '/tmp/test');
		assert.equal(legacy.summary.conversational, false, `${file}: usage records only`);
	}

	const rateLimited = readUnit(codexAdapter, looseUnit(join(directory, 'codex_053_rate_limit.jsonl')));
	assert.equal(rateLimited.events.find(event => event.error)?.error, 'Rate limit exceeded');
});

test('codex: prompts and replies written only as event_msg are read (VS Code, archived rollouts)', () => {
	const vscode = session(ids.eventsOnly);
	assert.equal(vscode.summary.conversational, true, 'an archived session whose only prompt is a user_message is a session');
	assert.equal(vscode.summary.title, 'Make the nav bar sticky on scroll', 'the typed request, without the IDE context');
	assert.equal(vscode.summary.human_turns, 1);
	assert.equal(vscode.summary.assistant_messages, 1);
	assert.deepEqual(vscode.events.filter(event => event.kind === 'user' || event.kind === 'assistant').map(event => [event.kind, event.line]), [['user', 3], ['assistant', 6]]);
	const unnamedSession = session(unnamed);
	assert.equal(unnamedSession.summary.title, 'Which pages still import the old Header component?');
	assert.equal(unnamedSession.summary.project, '/work/site', 'the project from turn_context');
	assert.equal(session(unnamedItems).summary.title, 'Rename the Header component to SiteHeader', 'no session_meta: the id is the file stem, never the path');
});

test('codex: a prompt or reply on both channels, in either order, counts once; a prompt repeated in a later turn counts again', () => {
	const both = session(ids.bothChannels);
	assert.equal(both.summary.title, 'Bump the minimum Node version to 20');
	assert.equal(both.summary.human_turns, 3, 'three prompts, each written twice');
	assert.equal(both.summary.assistant_messages, 3, 'three replies, each written twice');
	const said = both.events.filter(event => (event.kind === 'user' && event.human) || event.kind === 'assistant').map(event => [event.kind, event.line, event.text]);
	assert.deepEqual(said, [
		['user', 4, 'Bump the minimum Node version to 20'],
		['assistant', 6, 'Set engines.node to >=20 in package.json and updated the CI matrix.'],
		['user', 9, 'continue'],
		['assistant', 11, 'Also dropped the Node 18 polyfill.'],
		['user', 13, 'continue'],
		['assistant', 15, 'Nothing else depends on Node 18.'],
	]);
});

test('a content item whose type is an object, not a string, is passed over and the rest of the message read, not the line dropped', () => {
	// textOf tested an item's type with String(type): an object with an own toString that is no
	// function ({"toString": 1}, as JSON.parse gives it) threw, and the line was skipped as unknown.
	const unit = looseUnit(join(fixtureStores, 'codex', 'sessions', '2026', '11', '21', 'rollout-2026-11-21T15-00-00-0195a1c2-0c00-7c00-8c00-00000000000c.jsonl'));
	const line = '{"timestamp": "2026-11-21T14:00:01.000Z", "type": "response_item", "payload": {"type": "message", "role": "user", "content": [{"type": {"toString": 1}, "text": "<image name=[Image #1]>", "image_url": {"toString": 1}}, {"type": ["input_text"], "text": "typed as an array"}, {"type": "input_text", "text": "Rename the flag"}]}}';
	const events = codexAdapter.normalizeLine(JSON.parse(line), 1, {}, unit);
	assert.ok(Array.isArray(events));
	assert.deepEqual(events.filter(event => event.kind === 'user').map(event => event.text), ['Rename the flag']);
});
