import assert from 'node:assert/strict';
import {readdirSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {qwenAdapter} from '../../source/adapters/qwen/index.js';
import {fixtureStores, looseUnit, readStore, readUnit, sharedFixtures} from '../helpers/adapters.js';
import {wholeUnit} from '../../source/adapters/types.js';

const store = join(fixtureStores, 'qwen');
const projects = join(store, 'projects');
const byId = () => new Map(readStore(qwenAdapter, store).map(session => [session.summary.id, session]));

const main = '6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const fork = '0c1d2e3f-4a5b-4c6d-9e7f-8a9b0c1d2e3f';
const cron = '7f8e9d0c-1b2a-4c3d-8e4f-5a6b7c8d9e0f';
const compact = '4b5c6d7e8f9a4b0c8d1e2f3a4b5c6d7e';

test('qwen: roots honour QWEN_HOME and --source-root accepts ~/.qwen or its projects', () => {
	assert.deepEqual(qwenAdapter.defaultRoots({env: {}, home: '/home/ada', platform: 'linux'}), ['/home/ada/.qwen/projects', '/home/ada/.qwen/tmp']);
	assert.deepEqual(qwenAdapter.defaultRoots({env: {QWEN_HOME: '/srv/qwen'}, home: '/home/ada', platform: 'darwin'}), ['/srv/qwen/projects', '/home/ada/.qwen/projects', '/home/ada/.qwen/tmp']);
	assert.deepEqual(qwenAdapter.defaultRoots({env: {QWEN_HOME: '/srv/qwen'}, home: undefined, platform: 'linux'}), ['/srv/qwen/projects']);
	assert.deepEqual(qwenAdapter.resolveRoot(store), [projects]);
	assert.deepEqual(qwenAdapter.resolveRoot(projects), [projects]);
	assert.equal(qwenAdapter.nativeResumeCommand(main), `qwen --resume ${main}`);
});

test('qwen: discovery lists chats by file stem (with or without dashes) and nothing else', () => {
	const units = qwenAdapter.discover(projects).map(wholeUnit);
	assert.deepEqual(units.map(unit => unit.idHint).sort(), [fork, compact, main, cron].sort());
	assert.ok(units.every(unit => unit.parentIdHint === undefined && unit.projectHint === undefined), 'the sanitized directory name states no project');
	assert.deepEqual(
		qwenAdapter.discover(join(projects, '-work-notes')).map(unit => unit.idHint),
		[compact],
		'a single project directory works as a root',
	);
});

test('qwen: ids, parents, projects, titles and counts', () => {
	const sessions = byId();
	const chat = sessions.get(main)!.summary;
	assert.equal(chat.project, '/work/shop-api');
	assert.equal(chat.title, 'Fix the failing checkout tests', 'displayText, without the hook context');
	assert.equal(chat.human_turns, 3, 'notifications, sidechains, injected text and the rewound request are not human turns; a mid-turn message is');
	assert.equal(chat.assistant_messages, 5, 'the re-emitted record counts once; sidechain replies not at all');
	assert.equal(chat.tool_calls, 5);
	assert.equal(chat.started, '2026-11-21T10:00:00.000Z');
	assert.equal(chat.modified, '2026-11-21T10:02:00.000Z');
	assert.equal(sessions.get(fork)!.summary.parent_id, main, 'a /branch fork names its source session');
	const child = sessions.get(cron)!.summary;
	assert.equal(child.parent_id, main, 'parent_session record');
	assert.equal(child.human_turns, 0, 'a cron prompt is not typed by a person');
	assert.equal(child.title, null);
	assert.equal(child.conversational, true);
	assert.deepEqual([sessions.get(compact)!.summary.project, sessions.get(compact)!.summary.title], ['/work/notes', 'Outline the meeting notes template']);
});

test('qwen: a re-emitted uuid is one message (its thought-only first fragment shows nothing); rewound branches stay with their links', () => {
	const chat = byId().get(main)!;
	assert.deepEqual(chat.loaded.rows.map(row => row.line), [1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 24, 24, 25]);
	const q07 = chat.events.filter(event => event.uuid === 'q07');
	assert.deepEqual(q07.map(event => event.kind), ['assistant', 'tool_call']);
	assert.equal(q07[0]?.text, 'The total ignores item quantity. Patching it.');
	assert.ok(!JSON.stringify(chat.events).includes('multiplies nothing'), 'thought parts are never shown');
	const users = chat.events.filter(event => event.kind === 'user' && !event.sidechain);
	assert.deepEqual(users.map(event => [event.uuid, event.parent, event.human]), [
		['q01', null, true],
		['q11', 'q10', false],
		['q12', 'q11', true],
		['q16', 'q11', true],
		['q22', 'q21', true],
	]);
	const rewind = chat.events.find(event => event.uuid === 'q15');
	assert.equal(rewind?.kind, 'system');
	assert.deepEqual(chat.summary.abandoned, [[13, 18]], 'the rewind to q11 abandoned q12 and all below it (the subagent lines between are no tree of this chat)');
	assert.ok(chat.events.some(event => event.kind === 'meta' && event.uuid === 'q18' && event.parent === 'q17'), 'a record that shows nothing keeps its place in the tree');
	assert.deepEqual(
		chat.events.filter(event => event.sidechain).map(event => [event.uuid, event.kind, event.human]),
		[
			['s01', 'user', false],
			['s02', 'assistant', undefined],
		],
	);
	assert.deepEqual(chat.events.find(event => event.kind === 'summary')?.line, 11);
	assert.match(chat.events.find(event => event.kind === 'summary')?.text ?? '', /^<state_snapshot>/);
	assert.deepEqual(chat.events[0], {line: 1, kind: 'meta', timestamp: '2026-11-21T10:00:00.000Z', session: {cwd: '/work/shop-api', id: main}});
	assert.equal(chat.events.find(event => event.session?.title)?.session?.title, 'Fix checkout totals');
	assert.equal(chat.events.find(event => event.session?.model)?.session?.model, 'qwen3-coder-plus');
});

test('qwen: tool calls, results, exit codes, cancellations and errors', () => {
	const chat = byId().get(main)!;
	const calls = chat.events.filter(event => event.kind === 'tool_call');
	assert.deepEqual(calls.map(event => [event.line, event.tool?.name, event.tool?.call_id]), [
		[2, 'read_file', 'call_read_1'],
		[4, 'run_shell_command', 'call_shell_2'],
		[8, 'replace', 'call_edit_3'],
		[14, 'task', 'call_task_4'],
		[20, 'write_file', 'call_write_5'],
	]);
	assert.deepEqual(calls[4]?.tool?.input, {file_path: '/work/shop-api/src/checkout.ts', content: 'export const fixed = true;\n'}, 'JSON-string arguments are parsed');
	const results = chat.events.filter(event => event.kind === 'tool_result');
	assert.deepEqual(results.map(event => [event.line, event.result?.call_id, event.result?.is_error, event.result?.exit_code, event.interrupted]), [
		[3, 'call_read_1', false, undefined, undefined],
		[5, 'call_shell_2', true, 1, undefined],
		[9, 'call_edit_3', true, undefined, true],
		[17, 'call_task_4', false, undefined, undefined],
	]);
	assert.ok(!results.some(event => event.result?.call_id === 'call_write_5'), 'the last call never got a result');
	assert.deepEqual(
		chat.events.filter(event => event.error).map(event => [event.line, event.kind, event.error]),
		[[6, 'system', 'Request failed with status 429: rate limited']],
	);
	assert.deepEqual(
		chat.events.filter(event => event.interrupted && event.kind === 'system').map(event => [event.line, event.text]),
		[[25, 'Turn cancelled']],
	);
	assert.deepEqual(
		chat.events.filter(event => event.kind === 'system' && !event.error && !event.interrupted).map(event => [event.line, event.text]),
		[
			[10, '/compress'],
			[18, 'Conversation rewound; later records are on an abandoned branch'],
			[24, '@src/cart.ts is quantity validated?'],
		],
	);
});

test('qwen: torn, glued and unknown lines', () => {
	const chat = byId().get(main)!;
	assert.equal(chat.loaded.skipped, 3, 'a torn line, an unknown record type and an incomplete last line');
	assert.deepEqual(chat.loaded.warnings, ['line 22: skipped, not valid JSON', 'line 26: skipped, incomplete last line (still being written?)']);
	assert.doesNotMatch(chat.loaded.warnings.join('\n'), /secret/, 'warnings never echo content');
	assert.deepEqual(
		chat.events.filter(event => event.line === 24 && event.kind !== 'meta').map(event => event.uuid),
		['q21', 'q22'],
		'two glued records on one line are both read',
	);
});

test('qwen: conformance over the shared third-party fixtures', t => {
	const directory = sharedFixtures(t, 'qwen');
	if (!directory) {
		return;
	}

	const read = (name: string) => readUnit(qwenAdapter, looseUnit(join(directory, name), {idHint: name.replace(/\.jsonl$/, '')}));
	const files = readdirSync(directory).filter(name => name.endsWith('.jsonl'));
	assert.ok(files.length >= 6);
	for (const file of files) {
		const session = read(file);
		assert.ok(session.loaded.rows.length > 0, `${file} has rows`);
		for (const event of session.events.filter(event => event.kind === 'user' && event.human)) {
			assert.doesNotMatch(event.text ?? '', /<qwen:user-prompt-submit-context>|^This is the Qwen Code/, `${file}:${event.line} injected text is not human`);
		}
	}

	const first = read('019f0000-0000-7000-8000-000000000001.jsonl');
	assert.equal(first.summary.id, '019f0000-0000-7000-8000-000000000001');
	assert.equal(first.summary.project, '/tmp/as-qwen-fixture/project');
	assert.equal(first.summary.title, 'Inspect the synthetic fixture.');
	assert.equal(first.summary.human_turns, 1, 'the notification is not a request');
	assert.deepEqual(
		first.events.filter(event => event.kind === 'tool_result').map(event => [event.result?.call_id, event.result?.is_error, event.result?.output]),
		[['synthetic-call-1', false, 'Synthetic file contents.']],
	);
	assert.ok(!JSON.stringify(first.events).includes('I should read the synthetic file'), 'thoughts are not shown');

	assert.equal(read('019f0000-0000-7000-8000-000000000002.jsonl').summary.id, '019f0000-0000-7000-8000-000000000002', 'the file stem, not the wrong id inside');
	assert.equal(read('019f0000000070008000000000000003.jsonl').summary.id, '019f0000000070008000000000000003');

	const branching = read('019f0000-0000-7000-8000-000000000004.jsonl');
	const active = branching.events.filter(event => event.uuid === '019f0000-0000-7000-8000-000000000046' && event.kind !== 'meta');
	assert.deepEqual(active.map(event => event.kind), ['assistant', 'tool_call'], 'the re-emitted record joins its thought-only first fragment');
	assert.equal(branching.summary.title, 'Begin the active-chain fixture.');
	assert.equal(branching.summary.project, '/tmp/as-qwen-fixture/old-project');
	assert.ok(branching.events.some(event => event.kind === 'system' && event.uuid === '019f0000-0000-7000-8000-000000000044'), 'the rewind record is kept');

	const glued = read('019f0000-0000-7000-8000-000000000005.jsonl');
	assert.deepEqual(glued.loaded.rows.map(row => row.line), [1, 1]);
	assert.equal(glued.loaded.skipped, 0);
	assert.equal(glued.summary.title, 'Inspect {"glued": "objects"} safely.');

	const telemetry = read('system_telemetry.jsonl');
	assert.equal(telemetry.summary.human_turns, 0);
	assert.ok(telemetry.events.every(event => event.timestamp === undefined), 'placeholder timestamps are not times');
});
