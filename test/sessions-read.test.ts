import assert from 'node:assert/strict';
import {appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {createHash} from 'node:crypto';
import {join} from 'node:path';
import test from 'node:test';
import {runCli, sandboxEnv} from './helpers/cli.js';
import {copyStore, writeClaudeSession} from './helpers/stores.js';
import {tempDir} from './helpers/temp.js';

const MAIN = '11111111-1111-4111-8111-111111111111';

function setup(t: Parameters<typeof tempDir>[0]) {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	const store = copyStore('claude', join(base, 'home', '.claude'));
	const run = (args: string[], cwd?: string) => runCli([...args, '--format', 'json'], {env, cwd});
	return {base, env, store, run};
}

function treeDigest(directory: string): string {
	const hash = createHash('sha256');
	for (const name of readdirSync(directory, {recursive: true, encoding: 'utf8'}).sort()) {
		const path = join(directory, name);
		hash.update(name);
		if (statSync(path).isFile()) {
			hash.update(readFileSync(path));
		}
	}

	return hash.digest('hex');
}

test('sessions: default roots under HOME, newest first, subagents folded, paging', t => {
	const {run} = setup(t);
	const all = run(['sessions', '--all-projects', '--source', 'claude']);
	assert.equal(all.code, 0, all.stderr);
	const listed = all.json();
	assert.deepEqual(
		listed.sessions.map((session: {id: string}) => session.id),
		[
			'44444444-4444-4444-8444-444444444444',
			'22222222-2222-4222-8222-222222222222',
			'55555555-5555-4555-8555-555555555555',
			MAIN,
			'66666666-6666-4666-8666-666666666666',
			'77777777-7777-4777-8777-777777777777',
			'88888888-8888-4888-8888-888888888888',
			'12121212-1212-4121-8121-121212121212',
			'exported-session',
		],
		'newest first; summary-only file and subagents not listed; a file not named by a UUID is listed under its name',
	);
	assert.match(listed.warnings.join('\n'), /claude: transcript files not named by a session UUID, listed under their file names: 1 \(.*exported session\.jsonl\)/);
	const byId = Object.fromEntries(listed.sessions.map((session: {id: string}) => [session.id, session]));
	assert.equal(byId[MAIN].subagents, 1);
	assert.equal(byId['22222222-2222-4222-8222-222222222222'].subagents, 1);
	assert.equal(byId['44444444-4444-4444-8444-444444444444'].skipped, 2);
	const withSubagents = run(['sessions', '--all-projects', '--subagents']).json();
	assert.equal(withSubagents.total, 11);
	assert.equal(withSubagents.sessions.find((session: {id: string}) => session.id === 'agent-bbbb2222').parent_id, '22222222-2222-4222-8222-222222222222');
	const page = run(['sessions', '--all-projects', '--limit', '3']).json();
	assert.deepEqual([page.sessions.length, page.next_offset, page.total], [3, 3, 9]);
	const rest = run(['sessions', '--all-projects', '--limit', '3', '--offset', '6']).json();
	assert.deepEqual([rest.sessions.length, rest.next_offset], [3, null]);
	assert.deepEqual(run(['sessions', '--all-projects', '--since', '2026-11-22']).json().sessions.map((session: {id: string}) => session.id), ['44444444-4444-4444-8444-444444444444', '22222222-2222-4222-8222-222222222222']);
	assert.equal(run(['sessions', '--project', '/work/other']).json().total, 1);
	assert.equal(run(['sessions', '--since', 'last tuesday']).error().code, 'invalid_flag_value');
	assert.equal(run(['sessions', '--project', '/x', '--all-projects']).error().code, 'conflicting_flags');
	assert.equal(run(['sessions', '--source', 'claude-code']).error().code, 'invalid_flag_value');
	assert.equal(run(['sessions', '--source-root', '/tmp']).error().code, 'source_root_needs_source');
});

test('sessions: the default scope is the working directory\'s git project', t => {
	const {base, env} = setup(t);
	const project = join(base, 'src', 'app');
	mkdirSync(join(project, '.git'), {recursive: true});
	mkdirSync(join(project, 'lib'), {recursive: true});
	const projects = join(base, 'home', '.claude', 'projects');
	writeClaudeSession(projects, 'aaaaaaaa-0000-4000-8000-000000000001', project, [{user: 'fix the build', assistant: 'done', at: '2026-11-25T10:00:00.000Z'}]);
	writeClaudeSession(projects, 'aaaaaaaa-0000-4000-8000-000000000002', join(project, 'lib'), [{user: 'tidy lib', at: '2026-11-25T11:00:00.000Z'}]);
	writeClaudeSession(projects, 'aaaaaaaa-0000-4000-8000-000000000003', join(base, 'src', 'application'), [{user: 'not this one', at: '2026-11-25T12:00:00.000Z'}]);
	const result = runCli(['sessions', '--format', 'json'], {env, cwd: join(project, 'lib')});
	const listed = result.json();
	assert.equal(listed.scope.project, project);
	assert.deepEqual(listed.sessions.map((session: {id: string}) => session.id), ['aaaaaaaa-0000-4000-8000-000000000002', 'aaaaaaaa-0000-4000-8000-000000000001']);
});

test('catalog: unchanged files cost a stat, grown files are re-read incrementally, deleting the cache loses nothing', t => {
	const {base, run, store} = setup(t);
	const first = run(['sessions', '--all-projects']).json();
	assert.equal(first.catalog.scanned, 12);
	const second = run(['sessions', '--all-projects']).json();
	assert.deepEqual([second.catalog.scanned, second.catalog.unchanged], [0, 12]);
	const file = join(store, 'projects', '-work-app', `${MAIN}.jsonl`);
	appendFileSync(file, JSON.stringify({parentUuid: 'u11', type: 'user', cwd: '/work/app', sessionId: MAIN, uuid: 'u12', timestamp: '2026-11-26T08:00:00.000Z', message: {role: 'user', content: 'Resume the CRLF work'}}) + '\n');
	const third = run(['sessions', '--all-projects']).json();
	assert.deepEqual([third.catalog.scanned, third.catalog.unchanged], [1, 11]);
	const grown = third.sessions[0];
	assert.equal(grown.id, MAIN);
	assert.equal(grown.modified, '2026-11-26T08:00:00.000Z');
	assert.equal(grown.human_turns, 4, 'the new human request was counted once, on top of the earlier three');
	rmSync(join(base, 'cache'), {recursive: true, force: true});
	const rebuilt = run(['sessions', '--all-projects']).json();
	assert.equal(rebuilt.catalog.scanned, 12);
	assert.deepEqual(rebuilt.sessions, third.sessions);
	rmSync(file);
	const removed = run(['sessions', '--all-projects']).json();
	assert.equal(removed.catalog.removed, 1);
	assert.equal(removed.total, 8);
});

test('read: views, paging, past-the-end, and --lines', t => {
	const {run} = setup(t);
	const dialogue = run(['read', MAIN, '--limit', '3']).json();
	assert.equal(dialogue.schema, 'engi.read.v1');
	assert.equal(dialogue.view, 'dialogue');
	assert.deepEqual(dialogue.records.map((record: {line: number}) => record.line), [3, 4, 5]);
	assert.equal(dialogue.next_offset, 5);
	const next = run(['read', MAIN, '--limit', '3', '--offset', '5']).json();
	assert.deepEqual(next.records.map((record: {line: number; role: string; sidechain?: boolean}) => [record.line, record.role, record.sidechain ?? false]), [
		[6, 'user', false],
		[8, 'assistant', false],
		[17, 'user', true],
	]);
	assert.equal(next.records[0].human, true);
	const events = run(['read', MAIN, '--view', 'events', '--limit', '2']).json();
	assert.deepEqual(events.records.map((record: {line: number; event: {type: string}}) => [record.line, record.event.type]), [
		[1, 'summary'],
		[2, 'file-history-snapshot'],
	]);
	const context = run(['read', MAIN, '--view', 'context', '--offset', '11', '--limit', '2']).json();
	const result = context.records.find((record: {kind: string}) => record.kind === 'tool_result');
	assert.deepEqual([result.call_id, result.call_line, result.is_error], ['toolu_2', 11, true], 'paired with a call on the previous page');
	const index = run(['read', MAIN, '--view', 'index', '--offset', '20']).json();
	assert.deepEqual(index.records.map((record: {kind: string}) => record.kind), ['tool_result', 'system']);
	assert.equal(index.next_offset, null);
	const past = run(['read', MAIN, '--offset', '400']).json();
	assert.deepEqual([past.status, past.records.length, past.next_offset, past.last_line], ['past_end', 0, null, 22]);
	const lines = run(['read', MAIN, '--lines', '9,1,9']).json();
	assert.deepEqual(lines.lines, [1, 9]);
	assert.deepEqual(lines.records.map((record: {line: number}) => record.line), [1, 9]);
	assert.equal(lines.records[1].event.uuid, 'a3');
});

test('read: each failure has its own code, and errors never echo content', t => {
	const {base, run, store} = setup(t);
	const code = (args: string[]) => {
		const result = run(args);
		assert.equal(result.code, 1, `${args.join(' ')}: ${result.stdout}`);
		return result.error();
	};

	assert.equal(code(['read', '../etc/passwd']).code, 'invalid_session_id');
	assert.equal(code(['read', '1111']).code, 'invalid_session_id');
	assert.equal(code(['read', MAIN.slice(0, 30)]).code, 'invalid_session_id', 'no prefix matching');
	assert.equal(code(['read', '99999999-9999-4999-8999-999999999999']).code, 'session_not_found');
	assert.equal(code(['read', MAIN, '--limit', '0']).code, 'invalid_flag_value');
	assert.equal(code(['read', MAIN, '--limit', '101']).code, 'invalid_flag_value');
	assert.equal(code(['read', MAIN, '--lines', '0']).code, 'invalid_flag_value');
	assert.equal(code(['read', MAIN, '--lines', '1,,2']).code, 'invalid_flag_value');
	assert.equal(code(['read', MAIN, '--lines', Array.from({length: 101}, (_, index) => index + 1).join(',')]).code, 'invalid_flag_value');
	assert.equal(code(['read', MAIN, '--lines', '1', '--offset', '2']).code, 'conflicting_flags');
	assert.equal(code(['read', MAIN, '--lines', '1', '--view', 'dialogue']).code, 'conflicting_flags');
	assert.equal(code(['read', MAIN, '--lines', '23']).code, 'line_out_of_range');
	assert.equal(code(['read', MAIN, '--source-root', store]).code, 'source_root_needs_source');
	const unreadable = code(['read', '44444444-4444-4444-8444-444444444444', '--lines', '1,2']);
	assert.equal(unreadable.code, 'line_unreadable');
	assert.match(unreadable.message, /44444444-4444-4444-8444-444444444444\.jsonl:2 \(not valid JSON\)/);
	assert.doesNotMatch(unreadable.message, /trunc/);
	// The same session id in two places is ambiguous, with candidates to choose from.
	const copy = join(store, 'projects', '-work-copy');
	mkdirSync(copy);
	writeFileSync(join(copy, `${MAIN}.jsonl`), readFileSync(join(store, 'projects', '-work-app', `${MAIN}.jsonl`)));
	const ambiguous = code(['read', MAIN]);
	assert.equal(ambiguous.code, 'session_ambiguous');
	assert.equal((ambiguous['candidates'] as unknown[]).length, 2);
	void base;
});

test('reading never writes: stores byte-identical, no .engi anywhere, only the cache changes', t => {
	const {base, env, store} = setup(t);
	const work = join(base, 'work');
	mkdirSync(work);
	const before = treeDigest(store);
	for (const args of [['sessions', '--all-projects'], ['read', MAIN, '--view', 'context'], ['read', MAIN, '--lines', '1,2,3'], ['read', MAIN, '--view', 'events']]) {
		assert.equal(runCli([...args, '--format', 'json'], {env, cwd: work}).code, 0);
	}

	assert.equal(treeDigest(store), before);
	assert.deepEqual(readdirSync(work), []);
	assert.equal(existsSync(join(base, 'config')), false);
	assert.ok(existsSync(join(base, 'cache', 'engi', 'catalog.sqlite')));
});

test('read: a page near the end of a long transcript starts from a catalogued offset', t => {
	const {base, env} = setup(t);
	const projects = join(base, 'home', '.claude', 'projects');
	const id = 'bbbbbbbb-0000-4000-8000-000000000001';
	const turns = Array.from({length: 6000}, (_, index) => ({user: `request ${index} ${'x'.repeat(200)}`, assistant: `reply ${index}`, at: new Date(Date.UTC(2026, 10, 1) + index * 1000).toISOString()}));
	writeClaudeSession(projects, id, '/work/long', turns);
	const last = runCli(['read', id, '--offset', '11990', '--limit', '5', '--format', 'json'], {env}).json();
	assert.deepEqual(last.records.map((record: {line: number; content: string}) => [record.line, record.content.slice(0, 12)]), [
		[11991, 'request 5995'],
		[11992, 'reply 5995'],
		[11993, 'request 5996'],
		[11994, 'reply 5996'],
		[11995, 'request 5997'],
	]);
	assert.equal(last.next_offset, 11995);
	assert.equal(last.last_line, 12000);
});

test('read: the dialogue labels text no person typed and records on abandoned branches; a skipped line names its field', t => {
	const {run} = setup(t);
	const authors = run(['read', '88888888-8888-4888-8888-888888888888']).json();
	assert.deepEqual(
		authors.records.filter((record: {role: string}) => record.role === 'user').map((record: {line: number; human: boolean; origin?: string}) => [record.line, record.human, record.origin ?? null]),
		[
			[1, true, null],
			[3, false, 'agent'],
			[7, false, 'host'],
			[8, false, 'agent'],
		],
		'a subagent task prompt, a task notification and another agent\'s message',
	);
	const branches = run(['read', '12121212-1212-4121-8121-121212121212', '--view', 'context']).json();
	const abandoned = branches.records.filter((record: {abandoned?: boolean}) => record.abandoned).map((record: {line: number}) => record.line);
	assert.deepEqual(abandoned, [4, 5, 12, 13]);
	const skipped = run(['read', '66666666-6666-4666-8666-666666666666', '--lines', '5']);
	assert.equal(skipped.error().code, 'line_unreadable');
	assert.match(skipped.error().message, /66666666-6666-4666-8666-666666666666\.jsonl:5 \(invalid field isMeta\)/);
	assert.doesNotMatch(skipped.error().message, /mangled/);
});

test('catalog: a file that grows with a rewind to an earlier prompt is counted again from the start', t => {
	const {run, store} = setup(t);
	const id = '12121212-1212-4121-8121-121212121212';
	const file = join(store, 'projects', '-work-tools', `${id}.jsonl`);
	const before = run(['sessions', '--all-projects']).json().sessions.find((session: {id: string}) => session.id === id);
	assert.equal(before.human_turns, 3);
	const record = (uuid: string, parent: string, type: string, content: unknown, at: string) =>
		JSON.stringify({parentUuid: parent, isSidechain: false, type, cwd: '/work/tools', sessionId: id, uuid, timestamp: at, message: type === 'user' ? {role: 'user', content} : {id: `msg_${uuid}`, role: 'assistant', content: [{type: 'text', text: content}]}}) + '\n';
	// Growing along the live chain: counted on top of what the catalog had.
	appendFileSync(file, record('b17', 'b16', 'user', 'Bump the version', '2026-11-11T09:06:00.000Z') + record('b18', 'b17', 'assistant', 'Bumped to 1.4.1.', '2026-11-11T09:06:05.000Z'));
	const grown = run(['sessions', '--all-projects']).json();
	assert.deepEqual([grown.catalog.scanned, grown.sessions.find((session: {id: string}) => session.id === id).human_turns], [1, 4]);
	// A rewind to the very first answer: everything after it is abandoned, which only a whole read can tell.
	appendFileSync(file, record('b19', 'b2', 'user', 'Start over: make --dry-run the default', '2026-11-11T09:07:00.000Z') + record('b20', 'b19', 'assistant', 'Made --dry-run the default.', '2026-11-11T09:07:05.000Z'));
	const rewound = run(['sessions', '--all-projects']).json().sessions.find((session: {id: string}) => session.id === id);
	assert.equal(rewound.human_turns, 2, 'only the first prompt and the new one are live');
	const context = run(['read', id, '--view', 'context', '--limit', '100']).json();
	assert.deepEqual(
		context.records.filter((record: {kind: string; abandoned?: boolean}) => record.kind === 'user' && !record.abandoned).map((record: {line: number}) => record.line),
		[1, 19],
	);
});
