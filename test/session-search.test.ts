import assert from 'node:assert/strict';
import {appendFileSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {runCli, sandboxEnv} from './helpers/cli.js';
import {buildFixtureHome} from './fixtures/home.js';
import {writeClaudeSession} from './helpers/stores.js';
import {tempDir} from './helpers/temp.js';

function setup(t: Parameters<typeof tempDir>[0]) {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	buildFixtureHome(env);
	const projects = join(env['HOME']!, '.claude', 'projects');
	const secretSession = writeClaudeSession(projects, 'ffffffff-0000-4000-8000-00000000000a', '/work/keys', [
		{user: 'rotate the deploy credentials; the old one was ghp_' + 'Q'.repeat(36) + ' in ci.yml', assistant: 'Rotated the deploy credentials and removed the token from ci.yml.', at: '2026-11-25T09:00:00.000Z'},
	]);
	writeClaudeSession(projects, 'ffffffff-0000-4000-8000-00000000000b', '/work/zh', [{user: '把日志解析器改成逐行流式读取', assistant: '已经改成流式读取了。', at: '2026-11-25T10:00:00.000Z'}]);
	const run = (args: string[]) => runCli([...args, '--format', 'json'], {env});
	return {env, run, secretSession};
}

test('sessions --q: finds sessions by what was said, across sources, with lines, snippets and an expand command', t => {
	const {run} = setup(t);
	const result = run(['sessions', '--all-projects', '--q', 'flaky retry test']);
	assert.equal(result.code, 0, result.stderr);
	const found = result.json();
	assert.equal(found.q, 'flaky retry test');
	const codex = found.sessions.find((session: {id: string}) => session.id === '0195a1c2-0a00-7a00-8a00-00000000000a');
	assert.ok(codex, JSON.stringify(found.sessions.map((session: {id: string}) => session.id)));
	assert.ok(codex.matches.length > 0);
	assert.match(codex.matches[0].snippet, /flaky/i);
	assert.match(codex.expand, /^engi read 0195a1c2-0a00-7a00-8a00-00000000000a --source codex --lines \d+/);
	const expanded = run(codex.expand.split(' ').slice(1));
	assert.equal(expanded.code, 0, expanded.stderr);
	assert.ok(expanded.json().records.length > 0);
	for (const source of ['claude', 'opencode', 'gemini']) {
		const any = run(['sessions', '--all-projects', '--source', source, '--q', 'the']).json();
		assert.ok(any.total > 0, `${source} transcripts are indexed`);
	}

	assert.equal(run(['sessions', '--all-projects', '--q', 'zzzzqqqq nothing']).json().total, 0);
	assert.equal(run(['sessions', '--all-projects', '--q', 'deploy', '--source', 'codex']).json().sessions.every((session: {source: string}) => session.source === 'codex'), true);
});

test('sessions --q: Chinese queries, masked secrets, and incremental indexing of grown files', t => {
	const {run, secretSession} = setup(t);
	const zh = run(['sessions', '--all-projects', '--q', '流式读取']).json();
	assert.deepEqual(zh.sessions.map((session: {id: string}) => session.id), ['ffffffff-0000-4000-8000-00000000000b']);
	assert.equal(run(['sessions', '--all-projects', '--q', '解析器改']).json().total, 1, 'any verbatim substring, even across word boundaries');
	const secret = run(['sessions', '--all-projects', '--q', 'deploy credentials']).json();
	const snippet = secret.sessions[0].matches.map((match: {snippet: string}) => match.snippet).join(' ');
	assert.match(snippet, /\[redacted:github_token\]/);
	assert.doesNotMatch(JSON.stringify(secret), /QQQQQQQQQQ/);
	assert.equal(run(['sessions', '--all-projects', '--q', 'ghp_' + 'Q'.repeat(36)]).json().total, 0, 'the secret itself is not in the index');
	const before = run(['sessions', '--all-projects']).json().catalog;
	assert.equal(before.scanned, 0);
	appendFileSync(secretSession, JSON.stringify({parentUuid: null, type: 'user', cwd: '/work/keys', sessionId: 'ffffffff-0000-4000-8000-00000000000a', uuid: 'late', timestamp: '2026-11-26T09:00:00.000Z', message: {role: 'user', content: 'also audit the xylophone bucket'}}) + '\n');
	const grown = run(['sessions', '--all-projects', '--q', 'xylophone']).json();
	assert.deepEqual([grown.catalog.scanned, grown.total], [1, 1]);
	assert.equal(grown.sessions[0].matches[0].line, 3);
	assert.equal(readFileSync(secretSession, 'utf8').split('\n').length, 4);
});

test('sessions --q: each session on the page lists its own matching lines, the first hundred of them, in order', t => {
	const {env, run} = setup(t);
	const projects = join(env['HOME']!, '.claude', 'projects');
	const at = (minute: number) => `2026-11-27T09:${String(minute).padStart(2, '0')}:00.000Z`;
	writeClaudeSession(projects, 'eeeeeeee-0000-4000-8000-000000000001', '/work/garden', Array.from({length: 120}, (_, index) => ({user: `water the marigold bed ${index}`, at: at(0)})));
	writeClaudeSession(projects, 'eeeeeeee-0000-4000-8000-000000000002', '/work/garden', [{user: 'weed the path', at: at(1)}, {user: 'one marigold wilted', at: at(1)}, {user: 'rake the leaves', at: at(1)}]);
	writeClaudeSession(projects, 'eeeeeeee-0000-4000-8000-000000000003', '/work/garden', [{user: 'marigold seeds', at: at(2)}, {user: 'more marigold seeds', at: at(2)}]);
	const found = run(['sessions', '--all-projects', '--q', 'marigold']).json();
	const lines = Object.fromEntries(found.sessions.map((session: {id: string; expand: string; matched_lines: number}) => [session.id.slice(-1), [session.matched_lines, session.expand.split('--lines ')[1]]]));
	assert.deepEqual(lines, {
		1: [120, Array.from({length: 100}, (_, index) => index + 1).join(',')],
		2: [1, '2'],
		3: [2, '1,2'],
	});
});
