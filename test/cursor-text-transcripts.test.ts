// Older Cursor builds wrote agent transcripts as plain text, `agent-transcripts/<id>.txt`
// (`user:` / `assistant:` turns, `[Tool call]` and `[Tool result]` blocks). Through the built
// CLI: listed, searchable and readable end to end; a `.txt` beside the `.jsonl` of the same id
// is that one session, read from the JSONL; a `.txt` with no turns is no session.
import assert from 'node:assert/strict';
import {appendFileSync, cpSync, mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test, {type TestContext} from 'node:test';
import {fileURLToPath} from 'node:url';
import {runCli, sandboxEnv} from './helpers/cli.js';
import {tempDir} from './helpers/temp.js';

const fixture = fileURLToPath(new URL('fixtures/format-cases/cursor/projects/home-dev-seedbank', import.meta.url));
const TEXT = 'a3c5e7f9-1b2d-4f6a-8c0e-2d4f6a8b0c11';
const SHORT = 'b4d6f8a0-2c3e-4a7b-9d1f-3e5a7b9c1d22';
const BOTH = 'c5e7f9a1-6b2d-4e8f-a0c4-7d9e1f3b5a02';

type Entry = {id: string; title: string | null; records: number; skipped: number; error: string | null; matches?: Array<{line: number; snippet: string}>};

function setup(t: TestContext) {
	const env = sandboxEnv(tempDir(t));
	const project = join(env['HOME']!, '.cursor', 'projects', 'home-dev-seedbank');
	cpSync(fixture, project, {recursive: true});
	const run = (args: string[]) => {
		const result = runCli([...args, '--format', 'json'], {env});
		assert.equal(result.code, 0, `${args.join(' ')}: ${result.stderr}`);
		return result.json();
	};

	return Object.assign(run, {transcripts: join(project, 'agent-transcripts')});
}

test('cursor .txt transcripts: listed, searchable and readable through the CLI', t => {
	const run = setup(t);
	const listed = run(['sessions', '--all-projects', '--source', 'cursor']).sessions as Entry[];
	assert.deepEqual(listed.map(session => session.id).sort(), [TEXT, SHORT, BOTH].sort(), 'a .txt with no turns is no session; one session per id');
	const text = listed.find(session => session.id === TEXT)!;
	assert.equal(text.title, 'Why does the seed inventory report count every packet twice?');
	assert.deepEqual([text.records, text.skipped, text.error], [16, 0, null]);
	assert.equal(listed.find(session => session.id === SHORT)?.title, 'Rename the germination test helper to checkSprouting');
	assert.equal(listed.find(session => session.id === BOTH)?.title, 'Sort the shelf labels alphabetically', 'the JSONL is read, not the .txt');

	const found = run(['sessions', '--all-projects', '--q', 'variety']).sessions as Entry[];
	const hit = found.find(session => session.id === TEXT);
	assert.ok(hit, 'the search finds the session');
	assert.ok(hit.matches?.some(match => match.line === 35 && /variety loop/.test(match.snippet)), JSON.stringify(hit.matches));
	assert.equal((run(['sessions', '--all-projects', '--q', 'kohlrabi']).sessions as Entry[]).length, 0, 'the .txt beside a JSONL is not read');

	const read = run(['read', TEXT]);
	assert.deepEqual(
		read.records.map((record: {line: number; role: string; human?: boolean}) => [record.line, record.role, record.human]),
		[
			[1, 'user', false], // The <user_info> the host wrote around the request.
			[1, 'user', true],
			[13, 'assistant', undefined],
			[21, 'assistant', undefined],
			[35, 'assistant', undefined],
			[37, 'user', true],
			[52, 'assistant', undefined],
		],
	);
	const context = run(['read', TEXT, '--view', 'context']);
	const calls = context.records.filter((record: {kind: string}) => record.kind === 'tool_call');
	assert.deepEqual(calls.map((record: {line: number}) => record.line), [14, 22, 26, 43]);
	assert.ok(!JSON.stringify(context).includes('report builder is the place'), 'thinking is never shown');
});

test('cursor .txt transcripts: a grown .txt is read again whole, and a JSONL written later for its id takes its place', t => {
	const run = setup(t);
	assert.equal(run(['read', SHORT]).records.length, 2);
	appendFileSync(join(run.transcripts, `${SHORT}.txt`), '\nuser:\n<user_query>\nNow update the seed catalogue page\n</user_query>\n');
	const grown = run(['read', SHORT]);
	assert.deepEqual(grown.records.map((record: {line: number; content: string}) => [record.line, record.content]).at(-1), [16, 'Now update the seed catalogue page']);
	assert.ok((run(['sessions', '--all-projects', '--q', 'catalogue']).sessions as Entry[]).some(session => session.id === SHORT));

	mkdirSync(join(run.transcripts, SHORT));
	writeFileSync(join(run.transcripts, SHORT, `${SHORT}.jsonl`), `${JSON.stringify({role: 'user', message: {content: [{type: 'text', text: '<user_query>\nRename the germination helper\n</user_query>'}]}})}\n`);
	const listed = (run(['sessions', '--all-projects', '--source', 'cursor']).sessions as Entry[]).filter(session => session.id === SHORT);
	assert.deepEqual(listed.map(session => session.title), ['Rename the germination helper'], 'one session, read from the JSONL');
});
