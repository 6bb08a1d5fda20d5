import assert from 'node:assert/strict';
import {cpSync, mkdirSync, readdirSync, utimesSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {cursorAdapter} from '../../source/adapters/cursor/index.js';
import {cursorSlug, localWorkspace} from '../../source/adapters/cursor/projects.js';
import {md5Hex} from '../../source/lib/hash.js';
import {fixtureStores, looseUnit, readStore, readUnit, sharedFixtures} from '../helpers/adapters.js';
import {tempDir} from '../helpers/temp.js';
import {wholeUnit} from '../../source/adapters/types.js';

const store = join(fixtureStores, 'cursor');
const projects = join(store, 'projects');
const older = '5a1c0e2b-0a11-4c6e-9d21-7f3e00000a01';
const newer = '5a1c0e2b-0b22-4c6e-9d21-7f3e00000b02';
const child = '5a1c0e2b-0c33-4c6e-9d21-7f3e00000c03';
const unprompted = '5a1c0e2b-0d44-4c6e-9d21-7f3e00000d04';
/** In `projects/Users-ada-dev-shop-web/`, with a chat store under `chats/<md5 of the workspace>/`. */
const shopWeb = '5a1c0e2b-0e55-4c6e-9d21-7f3e00000e05';
const byId = () => new Map(readStore(cursorAdapter, store).map(session => [session.summary.id, session]));

test('cursor: default roots, --source-root forms and no resume command', () => {
	assert.deepEqual(cursorAdapter.defaultRoots({env: {}, home: '/home/dev', platform: 'linux'}), ['/home/dev/.cursor/projects']);
	assert.deepEqual(cursorAdapter.defaultRoots({env: {}, home: undefined, platform: 'darwin'}), []);
	assert.deepEqual(cursorAdapter.resolveRoot(store), [projects]);
	assert.deepEqual(cursorAdapter.resolveRoot(projects), [projects]);
	assert.equal(cursorAdapter.nativeResumeCommand(newer), null);
});

test('cursor: discovery finds flat, nested and subagent transcripts, and a .txt beside its .jsonl is that session', () => {
	const units = cursorAdapter.discover(projects).map(wholeUnit);
	assert.deepEqual(units.map(unit => unit.idHint).sort(), [older, newer, child, unprompted, shopWeb]);
	assert.ok(units.every(unit => unit.path.endsWith('.jsonl')), 'the JSONL of an id is read, not an older .txt of the same id');
	assert.equal(units.find(unit => unit.idHint === child)?.parentIdHint, newer, 'parent from the subagents/ directory');
	assert.equal(units.find(unit => unit.idHint === newer)?.parentIdHint, undefined);
	assert.ok(units.every(unit => unit.projectHint === undefined), 'no directory on this machine spells the slugs: the project is not guessed');
	assert.deepEqual(units.find(unit => unit.idHint === shopWeb)?.facts, {title: 'Cart rounding fix', started: '2026-11-24T09:20:00.000Z', model: 'claude-4.5-sonnet'}, "the chat's store.db metadata, its lastUsedModel the model");
	assert.deepEqual(
		cursorAdapter
			.discover(join(projects, 'work-shop')).map(wholeUnit)
			.map(unit => unit.idHint)
			.sort(),
		[older, newer, child],
		'one project directory given as the root',
	);
});

test('cursor: ids, parents, titles and counts', () => {
	const sessions = byId();
	const first = sessions.get(older)!;
	assert.equal(first.summary.title, 'Show me which files changed since yesterday.', '<user_query> is unwrapped');
	assert.equal(first.summary.project, null);
	assert.equal(first.summary.human_turns, 2);
	assert.equal(first.summary.assistant_messages, 3, 'a [REDACTED] reasoning marker alone is no message');
	assert.equal(first.summary.tool_calls, 2);
	assert.equal(first.loaded.skipped, 0);

	const second = sessions.get(newer)!;
	assert.equal(second.summary.title, 'The orders API returns 500 when the cart is empty. Fix it.', 'the <user_info> preamble around the query is not the title');
	assert.equal(second.summary.human_turns, 3, 'context blocks and reminders are not human turns');
	assert.deepEqual(
		second.events.filter(event => event.line >= 14).map(event => [event.line, event.human]),
		[
			[14, false],
			[15, false],
		],
		'once a file wraps requests in <user_query>, unwrapped user text is host context',
	);
	assert.equal(second.summary.tool_calls, 4);
	assert.equal(second.loaded.skipped, 2, 'one torn line and one unknown record type');
	assert.match(second.loaded.warnings.join('\n'), /line 6: skipped, not valid JSON/);
	assert.doesNotMatch(second.loaded.warnings.join('\n'), /handler|divides/, 'warnings never echo content');

	assert.equal(sessions.get(child)!.summary.parent_id, newer);
	assert.equal(sessions.get(child)!.summary.title, 'List every caller of computeTotals.', "a subagent's title is the task its parent gave it");
	assert.equal(sessions.get(child)!.summary.human_turns, 0, 'the task came from the parent agent, not a person');
	assert.ok(sessions.get(child)!.events.filter(event => event.kind === 'user').every(event => !event.human && event.origin === 'agent'));

	const background = sessions.get(unprompted)!;
	assert.equal(background.summary.title, null, 'only injected context: no human request');
	assert.equal(background.summary.human_turns, 0);
	assert.equal(background.summary.conversational, true);
});

test('cursor: tool calls, results, exit codes, interruptions and failed turns', () => {
	const sessions = byId();
	const second = sessions.get(newer)!;
	assert.deepEqual(
		second.events.filter(event => event.kind === 'tool_call').map(event => [event.line, event.tool?.name, event.tool?.call_id, event.tool?.input]),
		[
			[2, 'Shell', 'toolu_c1', {command: 'curl -s localhost:3000/api/orders'}],
			[4, 'Shell', 'toolu_c2', {command: 'npm test -- orders'}],
			[8, 'Edit', 'toolu_c3', {path: 'src/api/orders.ts'}],
			[12, 'Task', null, {description: 'Find call sites', prompt: 'List every caller of computeTotals.'}],
		],
		'string inputs are parsed; calls without an id keep a null call_id',
	);
	assert.deepEqual(
		second.events.filter(event => event.kind === 'tool_result').map(event => [event.line, event.result?.call_id, event.result?.is_error, event.result?.exit_code]),
		[
			[3, 'toolu_c1', true, 7],
			[5, 'toolu_c2', true, undefined],
		],
	);
	assert.deepEqual(
		second.events.filter(event => event.line === 1).map(event => [event.kind, event.human, event.text]),
		[
			['user', false, '<user_info>\nOS Version: linux 6.8\nShell: zsh\n</user_info>'],
			['user', true, 'The orders API returns 500 when the cart is empty. Fix it.'],
		],
	);
	const interrupted = second.events.filter(event => event.interrupted);
	assert.deepEqual(
		interrupted.map(event => [event.line, event.kind, event.text]),
		[[10, 'system', 'Turn ended: aborted']],
	);
	assert.deepEqual(second.loaded.rows.find(row => row.line === 13)?.events, [], 'a successful turn end is known and carries nothing');
	assert.ok(!second.events.some(event => event.text?.includes('Private reasoning')), 'thinking is never shown');
	assert.ok(![...sessions.values()].some(session => session.events.some(event => event.pending)), 'calls without results (IDE exports) are not pending');
	assert.equal(sessions.get(older)!.events.filter(event => event.text?.includes('[REDACTED]')).length, 0, 'the reasoning marker is no reply text');

	const failed = sessions.get(unprompted)!.events.find(event => event.error);
	assert.deepEqual([failed?.line, failed?.kind, failed?.error], [3, 'system', 'Turn ended: error: Connection to the model provider was lost']);
	assert.equal(failed?.interrupted, undefined);
});

test('cursor: conformance over the shared third-party fixtures', t => {
	const directory = sharedFixtures(t, 'cursor');
	if (!directory) {
		return;
	}

	const files = readdirSync(directory).filter(name => name.endsWith('.jsonl'));
	assert.ok(files.length >= 6);
	for (const file of files) {
		const id = file.slice(0, -'.jsonl'.length);
		const session = readUnit(cursorAdapter, looseUnit(join(directory, file), {idHint: id}));
		assert.ok(session.loaded.rows.length > 0, `${file} has rows`);
		assert.equal(session.summary.id, id, `${file}: id is the file stem`);
		assert.equal(session.summary.project, null, `${file}: transcripts state no project`);
		assert.ok(session.summary.title, `${file}: a human request`);
		assert.ok(!session.events.some(event => event.pending), `${file}: nothing is pending`);
		for (const event of session.events.filter(event => event.kind === 'user' && event.human)) {
			assert.doesNotMatch(event.text ?? '', /<\/?user_query>|^<user_info>/, `${file}:${event.line} wrappers and context are not human text`);
		}
	}

	const real = readUnit(cursorAdapter, looseUnit(join(directory, 'test-session.jsonl')));
	assert.equal(real.summary.title, 'run ls command');
	assert.equal(real.summary.human_turns, 2);
	assert.equal(real.events.filter(event => event.kind === 'tool_call').length, 2);
	assert.equal(real.events.filter(event => event.kind === 'tool_result').length, 0, 'the IDE export has no results');

	const withResults = readUnit(cursorAdapter, looseUnit(join(directory, 'stage0-large.jsonl')));
	assert.deepEqual(
		withResults.events.filter(event => event.kind === 'tool_result').map(event => [event.result?.call_id, event.result?.output]),
		[
			['t1', 'file1.txt\nfile2.txt'],
			['t2', 'hello world'],
		],
	);
	assert.equal(withResults.summary.human_turns, 3, 'tool results are not human turns');

	const drifted = readUnit(cursorAdapter, looseUnit(join(directory, 'stage0-schema_drift.jsonl')));
	assert.deepEqual(
		drifted.events.filter(event => event.kind === 'tool_call' || event.kind === 'tool_result').map(event => event.kind),
		['tool_call', 'tool_result'],
		'drifted tool_call / tool-result block names',
	);

	const small = readUnit(cursorAdapter, looseUnit(join(directory, 'stage0-small.jsonl')));
	assert.equal(small.loaded.skipped, 0, 'turn_ended is a known record');
	assert.ok(!small.events.some(event => event.kind === 'system'));

	const subagent = readUnit(cursorAdapter, looseUnit(join(directory, 'stage0-subagent__subagents__child.jsonl'), {idHint: 'child', parentIdHint: 'parent'}));
	assert.equal(subagent.summary.parent_id, 'parent');
	assert.equal(subagent.summary.title, 'List files');
});

test('cursor: the project is the path the transcript names that spells its project slug; times come from the chat store', () => {
	const session = byId().get(shopWeb)!;
	assert.equal(session.summary.project, '/Users/ada/dev/shop-web', 'the workspace statement, verified against the slug (which alone could also be /Users/ada/dev/shop/web)');
	assert.equal(session.summary.started, '2026-11-24T09:20:00.000Z', 'createdAt from store.db');
	assert.equal(session.summary.title, 'Cart totals are off by a cent for three items at 0.10. Fix the rounding.');
	assert.ok(session.summary.modified! >= session.summary.started!);
	assert.equal(byId().get(older)!.summary.project, null, 'relative paths only: nothing names the workspace');
	assert.equal(cursorSlug('/Users/jane.doe/my-api'), 'Users-jane-doe-my-api');
	assert.equal(cursorSlug('C:\\Users\\jane\\my-api'), 'c-Users-jane-my-api');
});

test('cursor: a slug is resolved to a directory on this machine only when exactly one spells it (or the chat store\'s MD5 picks one)', t => {
	const base = tempDir(t);
	const dashed = join(base, 'ws', 'my-app');
	const nested = join(base, 'ws', 'my', 'app');
	mkdirSync(dashed, {recursive: true});
	assert.equal(localWorkspace(cursorSlug(dashed)), dashed);
	mkdirSync(nested, {recursive: true});
	assert.equal(localWorkspace(cursorSlug(dashed)), undefined, 'two spellings and no hash: no claim');
	assert.equal(localWorkspace(cursorSlug(dashed), md5Hex(nested)), nested, 'the chat store names the workspace by its MD5');
	assert.equal(localWorkspace(cursorSlug(join(base, 'gone'))), undefined);
});

test('cursor: a session is never modified before it started', t => {
	const copy = join(tempDir(t), 'cursor');
	cpSync(store, copy, {recursive: true});
	const transcript = join(copy, 'projects', 'Users-ada-dev-shop-web', 'agent-transcripts', shopWeb, `${shopWeb}.jsonl`);
	const before = new Date('2026-11-20T00:00:00Z');
	utimesSync(transcript, before, before);
	const session = readStore(cursorAdapter, copy).find(read => read.summary.id === shopWeb)!;
	assert.equal(session.summary.started, '2026-11-24T09:20:00.000Z');
	assert.equal(session.summary.modified, '2026-11-24T09:20:00.000Z', 'the transcript has no times and its mtime is older than the chat: modified is its start');
});
