import assert from 'node:assert/strict';
import {createHash} from 'node:crypto';
import {join} from 'node:path';
import test from 'node:test';
import {geminiAdapter} from '../../source/adapters/gemini/index.js';
import {projectOfChat} from '../../source/adapters/shared/chat-project.js';
import {SessionCorruptError, wholeUnit} from '../../source/adapters/types.js';
import {fixtureStores, looseUnit, readStore, readUnit, sharedFixtures} from '../helpers/adapters.js';

const store = join(fixtureStores, 'gemini');
const tmp = join(store, 'tmp');
const legacyHashDirectory = createHash('sha256').update('/work/legacy-api').digest('hex');
const byId = () => new Map(readStore(geminiAdapter, store).map(session => [session.summary.id, session]));

const main = '3f2a9c1e-5b7d-4e21-9a8f-0c6d2e4b7a15';
const subagent = '7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f';
const checkpointed = '5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b';
const legacy = '8a9b0c1d-2e3f-4a5b-9c6d-7e8f9a0b1c2d';
const migrated = '1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e';
const warmUp = '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b';
const scratch = '2d3e4f5a-6b7c-4d8e-9f0a-1b2c3d4e5f6a';
/** In an old hash directory that projects.json does not list, and in a slug directory without its marker. */
const unregisteredHash = '4c5d6e7f-8a9b-4c0d-9e1f-2a3b4c5d6e7f';
const unmarkedSlug = '6e7f8a9b-0c1d-4e2f-8a3b-4c5d6e7f8a9b';
const unregisteredHashDirectory = createHash('sha256').update('/work/api-gateway').digest('hex');

test('gemini: roots honour GEMINI_CLI_HOME and --source-root accepts ~/.gemini or its tmp', () => {
	assert.deepEqual(geminiAdapter.defaultRoots({env: {}, home: '/home/ada', platform: 'linux'}), ['/home/ada/.gemini/tmp']);
	assert.deepEqual(geminiAdapter.defaultRoots({env: {GEMINI_CLI_HOME: '/profiles/work'}, home: '/home/ada', platform: 'darwin'}), ['/profiles/work/.gemini/tmp']);
	assert.deepEqual(geminiAdapter.defaultRoots({env: {}, home: undefined, platform: 'linux'}), []);
	assert.deepEqual(geminiAdapter.resolveRoot(store), [tmp]);
	assert.deepEqual(geminiAdapter.resolveRoot(tmp), [tmp]);
	assert.equal(geminiAdapter.nativeResumeCommand(main), `gemini --resume ${main}`);
});

test('gemini: discovery lists main chats, subagents and a resumed legacy pair once, and no other files', () => {
	const units = geminiAdapter.discover(tmp).map(wholeUnit);
	const names = units.map(unit => unit.path.slice(tmp.length + 1)).sort();
	assert.deepEqual(names, [
		`${unregisteredHashDirectory}/chats/session-2026-11-16T11-00-4c5d6e7f.json`,
		`${legacyHashDirectory}/chats/session-2026-11-10T08-15-9e8d7c6b.json`,
		'gateway-tools/chats/session-2026-11-17T08-30-6e7f8a9b.jsonl',
		'scratch-pad/chats/session-2026-11-20T07-45-2d3e4f5a.jsonl',
		`webapp/chats/${main}/${subagent}.jsonl`,
		'webapp/chats/session-2026-11-12T16-05-8a9b0c1d.json',
		'webapp/chats/session-2026-11-15T10-30-1b2c3d4e.jsonl',
		'webapp/chats/session-2026-11-18T09-00-3f2a9c1e.jsonl',
		'webapp/chats/session-2026-11-19T11-20-5e6f7a8b.jsonl',
	]);
	assert.ok(units.every(unit => unit.idHint === undefined), 'the file name holds only an 8-character prefix of the id');
	assert.equal(units.find(unit => unit.path.includes(subagent))?.parentIdHint, main);
	const pair = units.find(unit => unit.path.endsWith('1b2c3d4e.jsonl'))!;
	assert.deepEqual(pair.paths, [pair.path, pair.path.slice(0, -1)], 'the superseded legacy .json belongs to the resumed session');
	assert.equal(units.find(unit => unit.path.endsWith('8a9b0c1d.json'))?.variant, 'json');
	assert.equal(units.find(unit => unit.path.includes(legacyHashDirectory))?.projectHint, '/work/legacy-api', 'hash directory through projects.json');
	assert.equal(units.find(unit => unit.path.includes('scratch-pad'))?.projectHint, undefined, 'an unregistered directory states no project');
	assert.deepEqual(
		geminiAdapter.discover(join(tmp, 'webapp')).map(unit => unit.path),
		units.filter(unit => unit.path.includes('/webapp/')).map(unit => unit.path),
		'a single project directory works as a root',
	);
});

test('gemini: ids, parents, projects, titles and counts', () => {
	const sessions = byId();
	assert.deepEqual([...sessions.keys()].sort(), [main, subagent, checkpointed, legacy, migrated, warmUp, scratch, unregisteredHash, unmarkedSlug].sort());
	const chat = sessions.get(main)!.summary;
	assert.equal(chat.project, '/work/webapp', 'from the .project_root marker');
	assert.equal(chat.title, 'Add input validation to the signup form');
	assert.equal(chat.human_turns, 3, 'the rewound request and the /compress command are not human turns');
	assert.equal(chat.assistant_messages, 6, 'a rewritten message counts once; a tool-only message counts; so does the rewound answer');
	assert.equal(chat.tool_calls, 5);
	assert.equal(chat.started, '2026-11-18T09:00:00.000Z');
	assert.equal(chat.modified, '2026-11-18T09:05:06.000Z');
	const child = sessions.get(subagent)!.summary;
	assert.equal(child.parent_id, main);
	assert.equal(child.human_turns, 0, "a subagent's task prompt comes from the parent agent, not a person");
	assert.equal(child.project, '/work/webapp');
	assert.equal(sessions.get(legacy)!.summary.title, 'Explain @src/router.ts', 'displayContent, not the expanded @file content');
	assert.equal(sessions.get(migrated)!.summary.human_turns, 2);
	const warm = sessions.get(warmUp)!;
	assert.equal(warm.summary.project, '/work/legacy-api');
	assert.equal(warm.summary.human_turns, 0, 'the injected session context is not a request');
	assert.equal(warm.summary.title, 'Warm-up session with no request', "the tool's summary is the fallback title");
	assert.equal(warm.loaded.skipped, 1, 'the drifted `model` message is skipped and counted');
	assert.equal(sessions.get(scratch)!.summary.project, '/work/scratch-pad', 'from the chat’s own directories');
	assert.equal(sessions.get(unregisteredHash)!.summary.project, '/work/api-gateway', 'the parent of a tool path whose sha256 is the chat’s projectHash');
	assert.equal(sessions.get(unmarkedSlug)!.summary.project, '/work/gateway-tools', 'a slug directory without its marker: the same hash check');
});

test('gemini: same-id rewrites, $rewindTo and $set.messages leave the final conversation', () => {
	const chat = byId().get(main)!;
	const rows = chat.loaded.rows;
	assert.deepEqual(rows.map(row => row.line), [1, 2, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 18, 19, 20, 21], 'rows in line order; a rewritten message keeps the line it was first written at');
	assert.deepEqual(chat.events.filter(event => event.line === 8 || event.line === 9).map(event => event.kind), ['user', 'assistant'], 'the rewound request and its answer are still read');
	assert.deepEqual(chat.summary.abandoned, [[8, 9]], 'as the abandoned branch the rewind left');
	assert.equal(chat.events.find(event => event.line === 10)?.rewound_from, 8, 'the rewind itself stays visible and names what it discarded');
	assert.deepEqual(chat.events[0], {line: 1, kind: 'meta', session: {id: main, started: '2026-11-18T09:00:00.000Z', modified: '2026-11-18T09:02:09.000Z'}});
	assert.deepEqual(chat.events.find(event => event.session?.title), {line: 14, kind: 'meta', session: {title: 'Signup form validation with zod'}});
	assert.equal(chat.events.find(event => event.session?.model)?.session?.model, 'gemini-3-pro-preview');
	assert.ok(!JSON.stringify(chat.events).includes('I need the current handler first'), 'thoughts are never shown');

	const synced = byId().get(checkpointed)!;
	const users = synced.events.filter(event => event.kind === 'user');
	assert.deepEqual(users.map(event => [event.uuid, event.line, event.human]), [
		['ctx-1', 4, false],
		['c-u1', 4, true],
		['c-u2', 5, true],
	]);
	assert.equal(synced.summary.title, 'Summarise the release notes for 4.2');
});

test('gemini: tool calls, results, exit codes, cancellations, errors and pending calls', () => {
	const chat = byId().get(main)!;
	const calls = chat.events.filter(event => event.kind === 'tool_call');
	assert.deepEqual(calls.map(event => [event.line, event.tool?.name, event.tool?.call_id, event.pending]), [
		[4, 'read_file', 'read_file-1763456410000-1', undefined],
		[6, 'run_shell_command', 'run_shell_command-1763456421000-2', undefined],
		[7, 'write_file', 'write_file-1763456431000-3', undefined],
		[12, 'replace', 'replace-1763456527000-5', undefined],
		[21, 'run_shell_command', 'run_shell_command-1763456706000-6', true],
	]);
	assert.deepEqual(calls[3]?.tool?.input, {file_path: '/work/webapp/src/signup.ts', old_string: 'return api', new_string: 'schema.parse(form);\n  return api'}, 'JSON-string arguments are parsed');
	const results = chat.events.filter(event => event.kind === 'tool_result');
	assert.deepEqual(results.map(event => [event.result?.call_id, event.result?.is_error, event.result?.exit_code, event.interrupted]), [
		['read_file-1763456410000-1', false, undefined, undefined],
		['run_shell_command-1763456421000-2', true, 1, undefined],
		['write_file-1763456431000-3', true, undefined, undefined],
		['replace-1763456527000-5', true, undefined, true],
	]);
	assert.match(results[2]?.result?.output ?? '', /EACCES/);
	assert.deepEqual(
		chat.events.filter(event => event.interrupted && event.kind === 'system').map(event => [event.line, event.text]),
		[[13, 'Request cancelled.']],
	);
	assert.deepEqual(
		chat.events.filter(event => event.error).map(event => [event.line, event.kind, event.error]),
		[[18, 'system', '[API Error: 429 Resource exhausted. Please retry later.]']],
	);
	const lint = byId().get(legacy)!.events.find(event => event.kind === 'tool_result');
	assert.deepEqual([lint?.line, lint?.result?.exit_code, lint?.result?.is_error], [4, 0, false]);
});

test('gemini: torn and unknown lines are skipped and counted, and warnings never echo content', () => {
	const chat = byId().get(main)!;
	assert.equal(chat.loaded.skipped, 3, 'a torn line, an unknown record and an incomplete last line');
	assert.deepEqual(chat.loaded.warnings, ['line 16: skipped, not valid JSON', 'line 22: skipped, incomplete last line (still being written?)']);
	assert.doesNotMatch(chat.loaded.warnings.join('\n'), /secret/);
});

test('gemini: a legacy document that is not JSON is corrupt; one of another shape is skipped', () => {
	const otherShape = looseUnit(join(store, 'projects.json'), {variant: 'json'});
	assert.equal(readUnit(geminiAdapter, otherShape).loaded.skipped, 1, 'valid JSON without a messages list');
	const notJson = looseUnit(join(tmp, 'webapp', 'shell_history'), {variant: 'json'});
	assert.throws(() => readUnit(geminiAdapter, notJson), (error: unknown) => error instanceof SessionCorruptError && error.line === null && !error.message.includes('npm'));
});

test('gemini: conformance over the shared third-party fixtures', t => {
	const directory = sharedFixtures(t, 'gemini');
	if (!directory) {
		return;
	}

	const read = (name: string) => readUnit(geminiAdapter, looseUnit(join(directory, name)));
	for (const name of ['small.json', 'large.json', 'schema_drift.json', 'jsonl_v040.jsonl']) {
		const session = read(name);
		for (const event of session.events.filter(event => event.kind === 'user' && event.human)) {
			assert.doesNotMatch(event.text ?? '', /^(<session_context>|This is the Gemini CLI|<state_snapshot>)/, `${name}:${event.line} injected text is not human`);
		}
	}

	const small = read('small.json');
	assert.deepEqual([small.summary.id, small.summary.title, small.summary.assistant_messages], ['session-2026-01-16T18-34-3739ef95', 'Hello', 1]);
	assert.ok(!JSON.stringify(small.events).includes('reasoning placeholder'), 'thoughts are not shown');

	const large = read('large.json');
	assert.equal(large.summary.id, 'session-2025-12-16T23-47-b4f17607');
	assert.equal(large.loaded.skipped, 2, 'the two non-native `model` records');
	assert.deepEqual(
		large.events.filter(event => event.kind === 'tool_result').map(event => [event.result?.call_id, event.result?.exit_code, event.result?.is_error]),
		[
			['run_shell_command-1', 0, false],
			['run_shell_command-2', 1, true],
		],
		'status stays success: the exit code in the output text decides',
	);
	assert.ok(large.events.some(event => event.interrupted && event.text === 'Request cancelled.'));
	assert.equal(large.summary.human_turns, 2);

	const drift = read('schema_drift.json');
	assert.equal(drift.loaded.rows.length, 0, 'a non-native shape degrades to nothing');

	const jsonl = read('jsonl_v040.jsonl');
	assert.deepEqual([jsonl.summary.id, jsonl.summary.title, jsonl.summary.tool_calls], ['gemini_stage0_jsonl', 'Say hello and list files.', 1]);
	assert.equal(jsonl.events.find(event => event.kind === 'tool_result')?.result?.call_id, 'run_shell_command_stage0');
});

test('gemini: a chat names its project by its setup context or by a path with its projectHash, never by a guess', () => {
	const context = {type: 'user', content: [{text: "This is the Gemini CLI. We are setting up the context for our chat.\nMy operating system is: linux\nI'm currently working in the directory: /work/site\nHere is the folder structure…"}]};
	const tool = {type: 'gemini', toolCalls: [{name: 'read_file', args: {absolute_path: '/work/site/src/app.ts'}}]};
	assert.equal(projectOfChat([context], undefined), '/work/site', 'the setup context states the working directory');
	assert.equal(projectOfChat([tool], undefined), undefined, 'a tool path alone, with no hash to check it, is no project');
	assert.equal(projectOfChat([tool], createHash('sha256').update('/work/site').digest('hex')), '/work/site');
	assert.equal(projectOfChat([context, tool], createHash('sha256').update('/elsewhere').digest('hex')), undefined, 'no candidate has the hash');
});
