import assert from 'node:assert/strict';
import {readdirSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {claudeAdapter} from '../../source/adapters/claude/index.js';
import {fixtureStores, looseUnit, readStore, readUnit, sharedFixtures} from '../helpers/adapters.js';
import {wholeUnit} from '../../source/adapters/types.js';

const store = join(fixtureStores, 'claude');
const ids = {
	nulls: '66666666-6666-4666-8666-666666666666',
	commands: '77777777-7777-4777-8777-777777777777',
	authors: '88888888-8888-4888-8888-888888888888',
	branches: '12121212-1212-4121-8121-121212121212',
};
const byId = () => new Map(readStore(claudeAdapter, store).map(session => [session.summary.id, session]));

test('claude: discovery finds main sessions and subagents in all layouts, and no non-transcripts', () => {
	assert.deepEqual(claudeAdapter.resolveRoot(store), [join(store, 'projects')]);
	const units = claudeAdapter.discover(join(store, 'projects')).map(wholeUnit);
	assert.deepEqual(units.map(unit => unit.idHint).sort(), [
		'11111111-1111-4111-8111-111111111111',
		'12121212-1212-4121-8121-121212121212',
		'22222222-2222-4222-8222-222222222222',
		'33333333-3333-4333-8333-333333333333',
		'44444444-4444-4444-8444-444444444444',
		'55555555-5555-4555-8555-555555555555',
		'66666666-6666-4666-8666-666666666666',
		'77777777-7777-4777-8777-777777777777',
		'88888888-8888-4888-8888-888888888888',
		'agent-aaaa1111',
		'agent-bbbb2222',
		'exported session',
	]);
	const exported = units.find(unit => unit.idHint === 'exported session')!;
	assert.match(exported.note ?? '', /not named by a session UUID/, 'a transcript not named by a UUID is listed, with a note saying so');
	assert.ok(units.filter(unit => unit !== exported).every(unit => unit.note === undefined));
	const nested = units.find(unit => unit.idHint === 'agent-bbbb2222')!;
	assert.equal(nested.parentIdHint, '22222222-2222-4222-8222-222222222222');
	assert.equal(nested.paths.length, 2, 'the .meta.json sidecar belongs to the unit, and is not itself a unit');
});

test('claude: ids, parents, projects and titles', () => {
	const sessions = byId();
	const main = sessions.get('11111111-1111-4111-8111-111111111111')!;
	assert.equal(main.summary.project, '/work/app');
	assert.equal(main.summary.title, '/review', 'the command the person typed is the title; its expansion (isMeta) and the caveat are not');
	assert.equal(main.summary.human_turns, 3, 'the /review command and two prompts; the expansion, compaction summary, sidechain and interrupt marker are not human turns');
	assert.equal(main.summary.assistant_messages, 4, 'split records sharing message.id count once; sidechains not at all');
	assert.equal(main.summary.started, '2026-11-20T09:00:00.000Z');
	assert.equal(main.summary.modified, '2026-11-20T09:03:07.000Z');
	assert.equal(sessions.get('agent-aaaa1111')!.summary.parent_id, '11111111-1111-4111-8111-111111111111', '2.0.x agent file: parent from its records');
	assert.equal(sessions.get('agent-bbbb2222')!.summary.parent_id, '22222222-2222-4222-8222-222222222222', '2.1.x: parent from the directory');
	assert.equal(sessions.get('33333333-3333-4333-8333-333333333333')!.summary.conversational, false, 'a summary-only file is not a session');
	const other = sessions.get('44444444-4444-4444-8444-444444444444')!;
	assert.equal(other.summary.project, '/work/other');
	assert.equal(other.loaded.skipped, 2, 'one torn line and one unknown record type, skipped and counted');
	assert.match(other.loaded.warnings.join('\n'), /line 2: skipped, not valid JSON/);
	assert.doesNotMatch(other.loaded.warnings.join('\n'), /trunc/, 'warnings never echo content');
	assert.equal(other.events.find(event => event.kind === 'assistant')?.error, 'API Error: 529 overloaded');
});

test('claude: tool calls, results, failures and interruptions', () => {
	const main = byId().get('11111111-1111-4111-8111-111111111111')!;
	const calls = main.events.filter(event => event.kind === 'tool_call');
	assert.deepEqual(calls.map(event => [event.tool?.name, event.tool?.call_id]), [
		['Read', 'toolu_1'],
		['Edit', 'toolu_2'],
		['Bash', 'toolu_3'],
		['Write', 'toolu_4'],
	]);
	const results = main.events.filter(event => event.kind === 'tool_result');
	assert.deepEqual(results.map(event => [event.result?.call_id, event.result?.is_error, event.result?.exit_code]), [
		['toolu_1', false, undefined],
		['toolu_2', true, undefined],
		['toolu_3', true, 1],
		['toolu_4', true, undefined],
	]);
	const interrupt = main.events.find(event => event.interrupted);
	assert.equal(interrupt?.line, 22);
	assert.equal(interrupt?.kind, 'system');
	assert.ok(main.events.some(event => event.kind === 'summary' && event.text?.startsWith('This session is being continued')));
	assert.ok(main.events.filter(event => event.sidechain).length === 2);
	assert.equal(main.events.filter(event => event.message_id === 'msg_A' && event.kind !== 'meta').length, 2);
	// The thinking block's record shows nothing; its place in the tree names the response it is part of.
	assert.deepEqual(main.events.filter(event => event.message_id === 'msg_A' && event.kind === 'meta').map(event => event.line), [7]);
});

test('claude: a rewind leaves both branches in the file, each with its parent link', () => {
	const rewind = byId().get('55555555-5555-4555-8555-555555555555')!;
	const users = rewind.events.filter(event => event.kind === 'user');
	assert.deepEqual(users.map(event => [event.uuid, event.parent]), [
		['r1', null],
		['r3', 'r2'],
		['r5', 'r2'],
	]);
});

test('claude: conformance over the shared third-party fixtures', t => {
	const directory = sharedFixtures(t, 'claude');
	if (!directory) {
		return;
	}

	const files = readdirSync(directory, {recursive: true, encoding: 'utf8'}).filter(name => name.endsWith('.jsonl'));
	assert.ok(files.length >= 4);
	for (const file of files) {
		const session = readUnit(claudeAdapter, looseUnit(join(directory, file)));
		assert.ok(session.loaded.rows.length > 0, `${file} has rows`);
		for (const event of session.events.filter(event => event.kind === 'user' && event.human)) {
			assert.doesNotMatch(event.text ?? '', /^(<command-|<local-command|Caveat: The messages below|This session is being continued)/, `${file}:${event.line} injected text is not human`);
		}
	}

	const parent = readUnit(claudeAdapter, looseUnit(join(directory, 'subagent/0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f.jsonl'), {idHint: '0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f'}));
	assert.equal(parent.summary.id, '0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f');
	assert.ok(parent.summary.title, 'the parent session has a human request');
	const child = claudeAdapter.discover(join(directory, '..')).length; // Not a real store layout: finds nothing, and never throws.
	assert.equal(typeof child, 'number');
});

test('claude: explicit nulls (a re-serialised transcript) are absent fields, and a field of the wrong type names itself when skipped', () => {
	const session = byId().get(ids.nulls)!;
	assert.equal(session.summary.conversational, true, 'the session does not vanish');
	assert.equal(session.summary.title, 'Add retries with exponential backoff to the fetch wrapper');
	assert.deepEqual([session.summary.human_turns, session.summary.assistant_messages, session.summary.tool_calls], [1, 2, 1]);
	assert.deepEqual(session.events.filter(event => event.kind === 'tool_result').map(event => [event.result?.call_id, event.result?.is_error]), [['toolu_n1', false]]);
	assert.equal(session.loaded.skipped, 1);
	assert.deepEqual(session.loaded.warnings, ['line 5: skipped, invalid field isMeta'], 'the reason names the field that failed, never its content');
	const unreadable = claudeAdapter.normalizeLine({type: 'user', isMeta: 'yes'}, 1, {}, session.unit);
	assert.deepEqual(unreadable, {unreadable: 'invalid field isMeta'});
	assert.equal(claudeAdapter.normalizeLine({type: 'brand-new-record-kind'}, 1, {}, session.unit), null, 'an unknown type is still an unknown type');
});

test('claude: a typed slash command with its arguments is the request; its expansion and local commands are not', () => {
	const session = byId().get(ids.commands)!;
	assert.equal(session.summary.title, '/review src/fetch.ts for retry storms');
	assert.equal(session.summary.first_human_line, 4);
	assert.equal(session.summary.human_turns, 1, 'the local /model and /cost never reached the agent; the expansion is host text');
	const said = session.events.filter(event => event.kind === 'user' || event.kind === 'system').map(event => [event.line, event.kind, event.text?.slice(0, 24), event.human, event.origin]);
	assert.deepEqual(said, [
		[1, 'user', 'Caveat: The messages bel', false, 'host'],
		[2, 'system', '/model', undefined, undefined],
		[3, 'system', '<local-command-stdout>Se', undefined, undefined],
		[4, 'user', '/review src/fetch.ts for', true, undefined],
		[5, 'user', 'You are an expert code r', false, 'host'],
		[7, 'system', '/cost', undefined, undefined],
		[8, 'system', '<local-command-stdout>To', undefined, undefined],
	]);
});

test('claude: subagent task prompts, notifications and other agents\' messages are not human turns, and say who wrote them', () => {
	const session = byId().get(ids.authors)!;
	assert.equal(session.summary.human_turns, 1);
	const users = session.events.filter(event => event.kind === 'user').map(event => [event.line, event.human, event.origin ?? null, event.sidechain ?? false]);
	assert.deepEqual(users, [
		[1, true, null, false],
		[3, false, 'agent', true],
		[7, false, 'host', false],
		[8, false, 'agent', false],
	]);
});

test('claude: a rewind or an edited prompt abandons its branch; the live chain runs through compaction and records that show nothing', () => {
	const session = byId().get(ids.branches)!;
	assert.equal(session.summary.human_turns, 3, 'the two rewound prompts do not count');
	assert.equal(session.summary.title, 'Add a --dry-run flag to the deploy script');
	assert.deepEqual(session.summary.abandoned, [[4, 6], [12, 13]]);
	assert.ok(session.events.some(event => event.kind === 'meta' && event.uuid === 'b3' && event.parent === 'b2'), 'the turn_duration record keeps its place in the tree');
	assert.equal(session.events.find(event => event.uuid === 'b10' && event.kind === 'system')?.parent, 'b9', 'a compact boundary continues its logical parent');

	const rewind = byId().get('55555555-5555-4555-8555-555555555555')!;
	assert.equal(rewind.summary.human_turns, 2, 'the prompt the user rewound is not a turn');
	assert.deepEqual(rewind.summary.abandoned, [[3, 4]]);
});

test('a hook_success attachment whose hookEvent is an object is no context and the line is read, not dropped by a thrown error', () => {
	// hookMessage looked the event up as String(hookEvent): an object whose own toString is no
	// function ({"toString": 1}) threw, and the line was skipped as an unknown record.
	const unit = looseUnit(join(fixtureStores, 'claude', 'projects', '-work-app', '11111111-1111-4111-8111-111111111111.jsonl'));
	const record = (hookEvent: unknown) => ({type: 'attachment', uuid: 'h1', parentUuid: null, sessionId: '11111111-1111-4111-8111-111111111111', timestamp: '2026-11-01T10:00:00.000Z', attachment: {type: 'hook_success', hookName: 'SessionStart:startup', hookEvent, content: 'Branch: main'}});
	for (const hookEvent of [JSON.parse('{"toString": 1}') as unknown, ['SessionStart'], 7, null]) {
		const events = claudeAdapter.normalizeLine(record(hookEvent), 1, {}, unit);
		assert.ok(Array.isArray(events));
		assert.deepEqual(events.filter(event => event.kind !== 'meta'), [], JSON.stringify(hookEvent));
	}

	const events = claudeAdapter.normalizeLine(record('SessionStart'), 1, {}, unit);
	assert.ok(Array.isArray(events));
	assert.deepEqual(events.filter(event => event.kind !== 'meta').map(event => event.text), ['SessionStart:startup hook success: Branch: main']);
});
