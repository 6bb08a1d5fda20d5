import assert from 'node:assert/strict';
import {mkdirSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {runCli, sandboxEnv} from './helpers/cli.js';
import {writeClaudeSession} from './helpers/stores.js';
import {tempDir} from './helpers/temp.js';

type Listed = {total: number; next_offset: number | null; sessions: Array<{id: string; path: string}>};

/**
 * The listing's pages are counted and cut by SQLite: a session stored twice (here the same
 * Claude session id under two project directories) is one session, listed by its newest copy
 * in scope, and the pages together are the whole listing in order.
 */
test('sessions: a session stored twice is counted and listed once, by its newest copy in scope, on every page', t => {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	const projects = join(env['HOME']!, '.claude', 'projects');
	const [a, b] = ['a', 'b'].map(name => join(base, 'src', name));
	mkdirSync(a!, {recursive: true});
	mkdirSync(b!, {recursive: true});
	const twice = '11111111-1111-4111-8111-111111111111';
	const older = writeClaudeSession(projects, twice, a!, [{user: 'Fix the parser', assistant: 'Done.', at: '2026-11-20T10:00:00.000Z'}]);
	const newer = writeClaudeSession(projects, twice, b!, [{user: 'Fix the parser', assistant: 'Done.', at: '2026-11-22T10:00:00.000Z'}]);
	const ids = ['22222222-2222-4222-8222-222222222222', '33333333-3333-4333-8333-333333333333', '44444444-4444-4444-8444-444444444444'];
	ids.forEach((id, index) => writeClaudeSession(projects, id, index === 0 ? a! : b!, [{user: `Task ${index}`, at: `2026-11-2${index + 1}T12:00:00.000Z`}]));
	const list = (args: string[]): Listed => {
		const result = runCli(['sessions', '--source', 'claude', ...args, '--format', 'json'], {env});
		assert.equal(result.code, 0, result.stderr);
		return result.json();
	};

	const all = list(['--all-projects']);
	assert.equal(all.total, 4, 'four sessions, one of them stored twice');
	assert.deepEqual(all.sessions.map(session => session.id), [ids[2], ids[1], twice, ids[0]]);
	assert.equal(all.sessions.find(session => session.id === twice)!.path, newer, 'the newest copy');
	const paged: string[] = [];
	for (let offset: number | null = 0; offset !== null; ) {
		const page = list(['--all-projects', '--limit', '1', '--offset', String(offset)]);
		assert.equal(page.total, 4);
		paged.push(...page.sessions.map(session => session.id));
		offset = page.next_offset;
	}

	assert.deepEqual(paged, all.sessions.map(session => session.id), 'the pages, one after another, are the listing');
	const inA = list(['--project', a!]);
	assert.deepEqual(inA.sessions.map(session => [session.id, session.path]), [[ids[0], join(projects, a!.replaceAll(/[^A-Za-z0-9]/g, '-'), `${ids[0]}.jsonl`)], [twice, older]], 'in project a, its own copy: the newer one is out of scope');
	assert.equal(inA.total, 2);
});
