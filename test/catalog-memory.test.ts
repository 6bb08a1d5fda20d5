import assert from 'node:assert/strict';
import {closeSync, mkdirSync, openSync, writeFileSync, writeSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {runCli, sandboxEnv} from './helpers/cli.js';
import {tempDir} from './helpers/temp.js';

const sessionId = '5e551011-0000-4000-8000-00000000b16e';

type Sessions = {sessions: Array<{id: string; title: string | null; human_turns: number; records: number}>};

function claudeRecord(uuid: string, parent: string | null, role: 'user' | 'assistant', text: string, at: number): string {
	const common = {parentUuid: parent, isSidechain: false, userType: 'external', cwd: '/src/big', sessionId, version: '2.1.80', uuid, timestamp: new Date(Date.parse('2026-11-01T00:00:00Z') + at * 1000).toISOString()};
	return JSON.stringify(
		role === 'user'
			? {...common, type: 'user', message: {role: 'user', content: text}}
			: {...common, type: 'assistant', message: {id: `msg_${uuid}`, role: 'assistant', content: [{type: 'text', text}]}},
	);
}

function transcriptPath(home: string): string {
	const directory = join(home, '.claude', 'projects', '-src-big');
	mkdirSync(directory, {recursive: true});
	return join(directory, `${sessionId}.jsonl`);
}

test('a cold scan of a transcript with 200,000 records fits a 64 MB heap: its tree and documents are not held to the end', t => {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	const fd = openSync(transcriptPath(env['HOME']!), 'w');
	const records = 200_000;
	try {
		let parent: string | null = null;
		let chunk: string[] = [];
		for (let index = 0; index < records; index++) {
			const uuid = `0000beef-${String(index).padStart(4, '0')}-4000-8000-${String(index).padStart(12, '0')}`;
			const role = index % 2 === 0 ? 'user' : 'assistant';
			chunk.push(claudeRecord(uuid, parent, role, `${role === 'user' ? 'please check' : 'checked'} module ${index} of the parser and its cache`, index));
			parent = uuid;
			if (chunk.length === 5000) {
				writeSync(fd, chunk.join('\n') + '\n');
				chunk = [];
			}
		}

		writeSync(fd, chunk.join('\n') + '\n');
	} finally {
		closeSync(fd);
	}

	// The old scan kept every tree node (~330 bytes each in maps and sets) and every document of
	// the session until it ended, about 130 MB here: it died of heap exhaustion under this limit.
	const result = runCli(['sessions', '--all-projects', '--format', 'json'], {env, nodeArgs: ['--max-old-space-size=64']});
	assert.equal(result.code, 0, result.stderr.slice(0, 400));
	const [session] = result.json<Sessions>().sessions;
	assert.equal(session?.records, records);
	assert.equal(session?.human_turns, records / 2);
	assert.equal(session?.title, 'please check module 0 of the parser and its cache');
	const found = runCli(['sessions', '--all-projects', '--q', 'module', '--format', 'json'], {env}).json<Sessions>();
	assert.deepEqual(
		found.sessions.map(row => row.id),
		[sessionId],
	);
});

test('the title is the first live request even when more than the first 32 requests were abandoned (it is read again from its line)', t => {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	// One opening message, then 40 edited prompts under it, each answered: the last one is live,
	// the 39 before it (and their answers) are abandoned branches.
	const lines = [claudeRecord('root', null, 'assistant', 'How can I help?', 0)];
	for (let branch = 0; branch < 40; branch++) {
		lines.push(claudeRecord(`u${branch}`, 'root', 'user', `attempt number ${branch} at the migration`, 1 + branch * 2));
		lines.push(claudeRecord(`a${branch}`, `u${branch}`, 'assistant', `answer ${branch}`, 2 + branch * 2));
	}

	writeFileSync(transcriptPath(env['HOME']!), lines.join('\n') + '\n');
	const [session] = runCli(['sessions', '--all-projects', '--format', 'json'], {env}).json<Sessions>().sessions;
	assert.equal(session?.title, 'attempt number 39 at the migration');
	assert.equal(session?.human_turns, 1);
});
