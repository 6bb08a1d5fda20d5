import assert from 'node:assert/strict';
import {mkdtempSync, readdirSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import test from 'node:test';
import {SessionCorruptError, wholeUnit} from '../../source/adapters/types.js';
import {adapters} from '../../source/adapters/index.js';
import type {DocumentAdapter} from '../../source/adapters/types.js';
import {jsonErrorOffset} from '../../source/adapters/vscode/json-error.js';
import {fixtureStores, looseUnit, readStore, readUnit, sharedFixtures} from '../helpers/adapters.js';

const vscodeAdapter = adapters.vscode as DocumentAdapter;

const store = join(fixtureStores, 'vscode');
const code = join(store, 'Code');
const insiders = join(store, 'Code - Insiders');
const cafe = join(insiders, 'User', 'workspaceStorage', 'a1b2c3d4e5f60718293a4b5c6d7e8f90', 'chatSessions');
const logId = '4f8e2a10-6b1c-4d2e-9f3a-5c7b8d9e0a11';
const snapshotId = '9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d';
const corruptId = 'd4e5f6a7-b8c9-4d0e-8f1a-2b3c4d5e6f70';
const byId = () => new Map(readStore(vscodeAdapter, code).map(session => [session.summary.id, session]));
const toolRows = (id: string) =>
	byId()
		.get(id)!
		.events.filter(event => event.kind === 'tool_call' || event.kind === 'tool_result')
		.map(event => (event.kind === 'tool_call' ? ['call', event.tool?.name, event.tool?.call_id, event.pending ?? false, event.sidechain ?? false] : ['result', event.result?.call_id, event.result?.is_error, event.result?.exit_code, event.sidechain ?? false]));

test('vscode: default roots per platform, with VS Code environment overrides', () => {
	assert.deepEqual(vscodeAdapter.defaultRoots({home: '/home/dev', env: {}, platform: 'linux'}), [
		'/home/dev/.config/Code/User',
		'/home/dev/.config/Code - Insiders/User',
		'/home/dev/.config/VSCodium/User',
		'/home/dev/.config/VSCodium - Insiders/User',
		'/home/dev/.config/Cursor/User',
		'/home/dev/.config/Windsurf/User',
		'/home/dev/.config/Positron/User',
		'/home/dev/.config/Antigravity/User',
		'/home/dev/.vscode-server/data/User',
		'/home/dev/.vscode-server-insiders/data/User',
		'/home/dev/.vscode-remote/data/User',
	]);
	assert.equal(vscodeAdapter.defaultRoots({home: '/Users/dev', env: {}, platform: 'darwin'})[0], '/Users/dev/Library/Application Support/Code/User');
	assert.equal(vscodeAdapter.defaultRoots({home: '/home/dev', env: {XDG_CONFIG_HOME: '/cfg'}, platform: 'linux'})[0], '/cfg/Code/User');
	assert.deepEqual(vscodeAdapter.defaultRoots({home: undefined, env: {VSCODE_PORTABLE: '/opt/vscode/data'}, platform: 'linux'}), ['/opt/vscode/data/user-data/User']);
	assert.deepEqual(vscodeAdapter.defaultRoots({home: undefined, env: {}, platform: 'darwin'}), []);
	assert.equal(vscodeAdapter.nativeResumeCommand(logId), null);
});

test('vscode: --source-root accepts the app directory, the User directory or workspaceStorage', () => {
	assert.deepEqual(vscodeAdapter.resolveRoot(code), [join(code, 'User')]);
	assert.deepEqual(vscodeAdapter.resolveRoot(join(code, 'User')), [join(code, 'User')]);
	assert.deepEqual(vscodeAdapter.resolveRoot(join(code, 'User', 'workspaceStorage')), [join(code, 'User')]);
});

test('vscode: discovery lists workspace and empty-window sessions, with the workspace folder as project', () => {
	const units = vscodeAdapter.discover(join(code, 'User')).map(wholeUnit);
	assert.deepEqual(
		units.map(unit => [unit.idHint, unit.variant, unit.projectHint]),
		[
			[logId, 'log', '/home/dev/work/webapp'],
			[snapshotId, 'snapshot', '/home/dev/work/webapp'],
			['b7c8d9e0-1f2a-4b3c-9d4e-5f6a7b8c9d0e', 'log', undefined],
			['c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f', 'snapshot', undefined],
		],
		'state.vscdb, chatEditingSessions and storage.json are not sessions',
	);
	assert.ok(units.every(unit => unit.paths.length === 1 && unit.key === unit.path && unit.fingerprint.includes(':')));

	const other = vscodeAdapter.discover(join(insiders, 'User')).map(wholeUnit);
	assert.deepEqual(
		other.map(unit => [unit.idHint, unit.variant, unit.projectHint]),
		[
			[corruptId, 'snapshot', '/home/dev/My Projects/café-app'],
			['e5f6a7b8-c9d0-4e1f-9a2b-3c4d5e6f7081', 'log', '/home/dev/My Projects/café-app'],
			['f6a7b8c9-d0e1-4f2a-8b3c-4d5e6f708192', 'snapshot', undefined],
		],
		'a percent-encoded folder URI is decoded; a multi-root workspace names no project',
	);
	const both = other[1]!;
	assert.deepEqual(both.paths, [join(cafe, 'e5f6a7b8-c9d0-4e1f-9a2b-3c4d5e6f7081.jsonl'), join(cafe, 'e5f6a7b8-c9d0-4e1f-9a2b-3c4d5e6f7081.json')], 'the log is read, the older snapshot kept with it');
	assert.equal(both.fingerprint.split('+').length, 2);
});

test('vscode: the mutation log replays kinds 0-3, truncation and deletion, skipping bad lines', () => {
	const session = byId().get(logId)!;
	const {id, parent_id, project, started, modified, title, human_turns, assistant_messages, tool_calls, conversational} = session.summary;
	assert.deepEqual(
		{id, parent_id, project, started, modified, title, human_turns, assistant_messages, tool_calls, conversational},
		{
			id: logId,
			parent_id: null,
			project: '/home/dev/work/webapp',
			started: '2026-11-12T09:00:00.000Z',
			modified: '2026-11-12T09:07:00.000Z',
			title: 'Why does fetchWithRetry in src/net/fetch.ts never back off between attempts?',
			human_turns: 4,
			assistant_messages: 3,
			tool_calls: 3,
			conversational: true,
		},
	);
	assert.deepEqual(session.loaded.rows.map(row => row.line), [1, 2, 3, 4], 'one row per request, numbered from 1');
	assert.equal(session.loaded.skipped, 3, 'a malformed line, an unknown entry kind and a torn last line');
	assert.deepEqual(session.loaded.warnings, ['line 7: skipped, not valid JSON', 'line 16: skipped, unknown mutation kind 9', 'line 23: skipped, incomplete last line (still being written?)']);
	const meta = session.events.find(event => event.kind === 'meta');
	assert.deepEqual(meta?.session, {id: logId, cwd: '/home/dev/work/webapp', title: 'Retry backoff in fetchWithRetry', started: '2026-11-12T09:00:00.000Z', modified: '2026-11-12T09:00:00.000Z', model: 'copilot/claude-sonnet-4.5'});
	const replies = session.events.filter(event => event.kind === 'assistant').map(event => event.text);
	assert.deepEqual(replies, [
		'Let me read the retry loop first.',
		'`delay` is computed on every attempt, but `sleep(delay)` is called without `await`, so all retries fire at once. fetch.ts needs `await sleep(delay)` on line 42.',
		'Adding the missing `await`, then running the tests.',
		'Looking at the response handling.',
	]);
	assert.ok(!JSON.stringify(session.events).includes('Draft: maybe'), 'the push with i=3 truncated the draft away');
	assert.ok(!JSON.stringify(session.events).includes('sleep promise is probably'), 'thinking is never shown');
	const second = session.loaded.rows[1]!.raw as Record<string, unknown>;
	assert.equal('followups' in second, false, 'kind 3 deleted the property');
	assert.equal(second['isCanceled'], true, 'kind 1 set the property');
	const last = session.events.filter(event => event.line === 4);
	assert.deepEqual(last.map(event => event.kind), ['user'], 'the trailing request is left unanswered for the engine');
});

test('vscode: tool calls, results, exit codes, cancellation and request errors', () => {
	assert.deepEqual(toolRows(logId), [
		['call', 'copilot_readFile', 'toolu_01', false, false],
		['result', 'toolu_01', false, undefined, false],
		['call', 'copilot_replaceString', 'toolu_02', false, false],
		['result', 'toolu_02', false, undefined, false],
		['call', 'run_in_terminal', 'toolu_03', false, false],
		['result', 'toolu_03', true, 1, false],
	]);
	const log = byId().get(logId)!;
	const read = log.events.find(event => event.tool?.call_id === 'toolu_01');
	assert.deepEqual(read?.tool?.input, {filePath: '/home/dev/work/webapp/src/net/fetch.ts', startLine: 1, endLine: 60}, 'arguments from toolCallRounds, paired by id');
	assert.match(log.events.find(event => event.result?.call_id === 'toolu_01')?.result?.output ?? '', /^export async function fetchWithRetry/);
	assert.deepEqual(log.events.find(event => event.tool?.call_id === 'toolu_03')?.tool?.input, {command: 'npm test -- net/fetch', language: 'sh'});
	const cancel = log.events.find(event => event.interrupted);
	assert.deepEqual([cancel?.line, cancel?.kind, cancel?.timestamp], [2, 'system', '2026-11-12T09:02:30.000Z']);
	const failure = log.events.find(event => event.error);
	assert.deepEqual([failure?.line, failure?.kind, failure?.error], [3, 'system', 'Sorry, your request failed. Please try again. Reason: Server error: 503']);

	assert.deepEqual(toolRows(snapshotId), [
		['call', 'run_in_terminal', 'call_a1', false, false],
		['result', 'call_a1', false, 0, false],
		['call', 'copilot_createFile', 'call_a2', false, false],
		['result', 'call_a2', true, undefined, false],
		['call', 'mcp_github_search_issues', 'call_a3', false, false],
		['result', 'call_a3', true, undefined, false],
		['call', 'runSubagent', 'call_a4', false, false],
		['result', 'call_a4', false, undefined, false],
		['call', 'copilot_findTextInFiles', 'call_a5', false, true],
		['result', 'call_a5', false, undefined, true],
		['call', 'run_in_terminal', 'call_b1', true, false],
	]);
	const snapshot = byId().get(snapshotId)!;
	assert.deepEqual(snapshot.events.find(event => event.tool?.call_id === 'call_a1')?.tool?.input, {command: 'bash -n ./scripts/deploy.sh', language: 'sh'}, 'the tool-edited command is what ran');
	assert.equal(snapshot.events.find(event => event.result?.call_id === 'call_a2')?.result?.output, '', 'a declined tool did nothing');
	assert.deepEqual(snapshot.events.find(event => event.tool?.call_id === 'call_a3')?.tool?.input, {query: 'deploy dry-run', repo: 'example/webapp'});
	assert.equal(snapshot.events.find(event => event.result?.call_id === 'call_a3')?.result?.output, 'MCP error -32603: GitHub API rate limit exceeded');
	assert.equal(snapshot.events.find(event => event.result?.call_id === 'call_a5')?.result?.output, '/home/dev/work/webapp/.github/workflows/ci.yml');
	assert.deepEqual(
		snapshot.events.filter(event => event.error).map(event => [event.line, event.error]),
		[[3, 'You have exceeded your premium request allowance.']],
	);
	assert.deepEqual(
		snapshot.events.filter(event => event.interrupted).map(event => [event.kind, event.result?.call_id]),
		[['tool_result', 'call_a2']],
		'the declined call is where the person stopped; no request was cancelled',
	);
	assert.deepEqual(
		snapshot.events.filter(event => event.kind === 'meta').map(event => [event.line, event.session?.model]),
		[
			[1, 'copilot/gpt-5'],
			[4, 'copilot/gpt-4.1'],
		],
		'the model is stated when first named and when it changes',
	);
	assert.equal(snapshot.summary.assistant_messages, 2, 'text and tools of one response count once');
	assert.equal(snapshot.summary.tool_calls, 6);
});

test('vscode: empty, old-shape, compacted and corrupt sessions', () => {
	const sessions = byId();
	const empty = sessions.get('b7c8d9e0-1f2a-4b3c-9d4e-5f6a7b8c9d0e')!;
	assert.deepEqual([empty.loaded.rows.length, empty.summary.conversational, empty.summary.title], [0, false, null], 'a chat opened and never used is not a session');
	const old = sessions.get('c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f')!;
	assert.deepEqual([old.summary.project, old.summary.title, old.summary.human_turns], [null, 'What does the `satisfies` operator do in TypeScript?', 1]);
	assert.equal(old.events.find(event => event.kind === 'assistant')?.text, 'It checks that an expression matches a type without widening the inferred type. See satisfiesExample for an example.');

	const units = vscodeAdapter.discover(join(insiders, 'User')).map(wholeUnit);
	const compacted = readUnit(vscodeAdapter, units[1]!);
	assert.deepEqual([compacted.summary.title, compacted.summary.human_turns, compacted.summary.project], ['Translate the README intro into German', 2, '/home/dev/My Projects/café-app']);
	assert.deepEqual(compacted.loaded.rows.map(row => row.line), [1, 3], 'the malformed request is skipped and the rest keep their positions');
	assert.deepEqual([compacted.loaded.skipped, compacted.loaded.warnings], [1, ['request 2: skipped, not a chat request']]);
	assert.equal(compacted.events.find(event => event.session?.title)?.session?.title, 'README translation');

	assert.throws(
		() => readUnit(vscodeAdapter, units[0]!),
		(error: unknown) => error instanceof SessionCorruptError && error.line === 9 && error.message.endsWith(`${corruptId}.json:9: not valid JSON`) && !error.message.includes('ghp_'),
	);
});

test('vscode: a log with no initial state is corrupt; JSON errors are located without echoing content', t => {
	const directory = mkdtempSync(join(tmpdir(), 'engi-vscode-'));
	t.after(() => rmSync(directory, {recursive: true, force: true}));
	const path = join(directory, 'no-initial.jsonl');
	writeFileSync(path, '{"kind":1,"k":["customTitle"],"v":"x"}\n');
	assert.throws(() => vscodeAdapter.loadSession(looseUnit(path)), (error: unknown) => error instanceof SessionCorruptError && error.line === null);
	const emptyLog = join(directory, 'empty.jsonl');
	writeFileSync(emptyLog, '');
	assert.equal(vscodeAdapter.loadSession(looseUnit(emptyLog)).rows.length, 0);

	assert.equal(jsonErrorOffset('{"a": [1, 2, {"b": null}], "c": "\\u00e9"}'), -1);
	assert.equal(jsonErrorOffset('{"a":1,}'), 7);
	assert.equal(jsonErrorOffset('{"a": x}'), 6);
	assert.equal(jsonErrorOffset('{"a":'), 5);
	assert.equal(jsonErrorOffset('{"a":1} {'), 8);
	assert.equal(jsonErrorOffset('"bad \\q escape"'), 6);
});

test('vscode: conformance over the shared third-party samples', t => {
	const directory = sharedFixtures(t, 'vscode');
	if (!directory) {
		return;
	}

	const files = readdirSync(directory).filter(name => /^session-0.*\.json$/.test(name));
	assert.ok(files.length >= 2);
	for (const file of files) {
		const id = file.slice(0, -'.json'.length);
		const session = readUnit(vscodeAdapter, looseUnit(join(directory, file), {idHint: id, variant: 'snapshot'}));
		assert.equal(session.summary.id, id, `${file}: the file stem is the id when the header is missing`);
		assert.equal(session.summary.project, null);
		assert.ok(session.loaded.rows.length > 0 && session.loaded.skipped === 0, `${file} has requests`);
		assert.equal(session.summary.human_turns, session.loaded.rows.length, `${file}: every request is a typed human request`);
		assert.equal(session.summary.assistant_messages, session.loaded.rows.length, `${file}: every request has a reply`);
		assert.ok(session.summary.title && !session.summary.title.startsWith('<'), `${file} has a human title`);
		for (const event of session.events.filter(event => event.kind === 'user' && event.human)) {
			assert.doesNotMatch(event.text ?? '', /^(<environment_context>|<command-|<system-reminder>)/);
		}
	}
});
