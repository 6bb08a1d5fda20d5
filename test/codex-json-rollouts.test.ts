// The TypeScript Codex CLI (spring 2025) saved each session as one JSON document,
// `~/.codex/sessions/rollout-<date>-<uuid>.json`, rewritten whole on every save. Through the
// built CLI: listed, searchable and readable, read again whole when rewritten, compacted and
// retired by a retention sweep, and a JSON file that is no such document breaks nothing.
import assert from 'node:assert/strict';
import {existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test, {type TestContext} from 'node:test';
import {fileURLToPath} from 'node:url';
import {runCli, sandboxEnv} from './helpers/cli.js';
import {makeKb} from './helpers/kb.js';
import {longAgo} from './helpers/retention.js';
import {tempDir} from './helpers/temp.js';

const fixture = fileURLToPath(new URL('fixtures/format-cases/codex/rollout-2025-04-22-3b7e9d1c-5a2f-4c8e-9f61-0d4a7b2e8c15.json', import.meta.url));
const ID = '3b7e9d1c-5a2f-4c8e-9f61-0d4a7b2e8c15';

type Entry = {id: string; source: string; title: string | null; started: string | null; records: number; skipped: number; error: string | null; matches?: Array<{line: number; snippet: string}>};

function setup(t: TestContext) {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	const sessions = join(env['HOME']!, '.codex', 'sessions');
	mkdirSync(sessions, {recursive: true});
	const file = join(sessions, 'rollout-2025-04-22-3b7e9d1c-5a2f-4c8e-9f61-0d4a7b2e8c15.json');
	writeFileSync(file, readFileSync(fixture));
	const run = (args: string[]) => {
		const result = runCli([...args, '--format', 'json'], {env});
		assert.equal(result.code, 0, `${args.join(' ')}: ${result.stderr}`);
		return result.json();
	};

	return {sessions, file, run};
}

test('codex JSON rollout: listed, searchable (with a snippet) and readable through the CLI', t => {
	const {run} = setup(t);
	const listed = run(['sessions', '--all-projects', '--source', 'codex']);
	const entry = (listed.sessions as Entry[]).find(session => session.id === ID);
	assert.ok(entry, `the session is listed: ${JSON.stringify(listed.sessions.map((session: Entry) => session.id))}`);
	assert.equal(entry.title, 'Rename the helper parseBedLayout to readBedLayout in the greenhouse planner');
	assert.equal(entry.started, '2025-04-22T08:41:17.503Z');
	assert.deepEqual([entry.records, entry.skipped, entry.error], [12, 0, null], 'the session header and the 11 items');

	const found = run(['sessions', '--all-projects', '--q', 'raised']);
	const hit = (found.sessions as Entry[]).find(session => session.id === ID);
	assert.ok(hit, 'the search finds the session');
	assert.ok(hit.matches?.some(match => match.line === 11 && /raised-bed fixture/.test(match.snippet)), JSON.stringify(hit.matches));

	const read = run(['read', ID]);
	assert.deepEqual(
		read.records.map((record: {line: number; role: string}) => [record.line, record.role]),
		[
			[1, 'user'],
			[7, 'assistant'],
			[8, 'user'],
			[11, 'assistant'],
		],
	);
	const page = run(['read', ID, '--view', 'context', '--offset', '8', '--limit', '2']);
	const result = page.records.find((record: {kind: string}) => record.kind === 'tool_result');
	assert.deepEqual([result?.call_id, result?.is_error], ['call_Vb3Lq8Zn2Tw6Ks1Xm4Pd7Rf', true]);
});

test('codex JSON rollout: a rewritten document is read again whole, not continued as lines', t => {
	const {file, run} = setup(t);
	assert.equal(run(['read', ID]).records.length, 4);
	const document = JSON.parse(readFileSync(file, 'utf8'));
	document.session.timestamp = '2025-04-22T08:52:03.118Z';
	document.items.push(
		{role: 'user', content: [{type: 'input_text', text: 'Add the fourth bed to the fixture'}], type: 'message'},
		{id: 'msg_6807598a11c08191d2e3f4a5b6c7d8e9', type: 'message', status: 'completed', role: 'assistant', content: [{type: 'output_text', text: 'Added the cucumber bed; all tests pass.', annotations: []}]},
	);
	// Saved whole, as the CLI did: the new bytes are not an append to the old ones.
	writeFileSync(file, JSON.stringify(document, null, 2));
	const listed = run(['sessions', '--all-projects', '--source', 'codex']);
	const entry = (listed.sessions as Entry[]).find(session => session.id === ID);
	assert.deepEqual([entry?.records, entry?.skipped, entry?.error], [14, 0, null], 'the header and 13 items, not the old rows again');
	assert.equal(entry?.started, '2025-04-22T08:52:03.118Z', 'the time of the latest save');
	const read = run(['read', ID]);
	assert.deepEqual(
		read.records.map((record: {line: number}) => record.line),
		[1, 7, 8, 11, 12, 13],
	);
	assert.equal(read.records.at(-1).content, 'Added the cucumber bed; all tests pass.');
	assert.equal(run(['sessions', '--all-projects', '--q', 'cucumber']).sessions[0]?.id, ID);
});

test('codex JSON rollout: a JSON file that is no rollout document is not a session, and a torn one is listed as unreadable', t => {
	const {sessions, run} = setup(t);
	writeFileSync(join(sessions, 'rollout-2025-04-23-7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f.json'), '{"history": [{"text": "not a rollout"}]}');
	writeFileSync(join(sessions, 'rollout-2025-04-24-0a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d.json'), '{\n  "session": {\n    "timestamp": "2025-04-24T10:00:00.000Z",\n');
	const listed = run(['sessions', '--all-projects', '--source', 'codex']);
	const ids = (listed.sessions as Entry[]).map(session => session.id);
	assert.ok(ids.includes(ID));
	assert.ok(!ids.includes('7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f'), 'a document of another shape is not a session');
	const torn = (listed.sessions as Entry[]).find(session => session.id === '0a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d');
	assert.match(torn?.error ?? '', /not valid JSON/);
	assert.equal(run(['read', ID]).records.length, 4, 'the good session still reads');
});

test('codex JSON rollout: a retention sweep compacts its text and retires the file', t => {
	const kb = makeKb(t);
	const sessions = join(kb.env['HOME']!, '.codex', 'sessions');
	mkdirSync(sessions, {recursive: true});
	const file = join(sessions, 'rollout-2025-04-22-3b7e9d1c-5a2f-4c8e-9f61-0d4a7b2e8c15.json');
	writeFileSync(file, readFileSync(fixture));
	utimesSync(file, longAgo, longAgo);
	const dry = kb.ok(['retention', 'sweep']);
	const executed = kb.run(['retention', 'sweep', '--execute', '--plan', dry.plan_sha256, '--details', '--format', 'json']);
	assert.equal(executed.code, 0, executed.stderr);
	const [item] = executed.json().items;
	assert.equal(executed.json().compacted, 1);
	assert.equal(existsSync(file), false);
	const rows = readFileSync(item.compact_path, 'utf8').trimEnd().split('\n').map(line => JSON.parse(line));
	assert.deepEqual(rows.map(row => [row.line, row.role]), [
		[1, 'user'],
		[7, 'assistant'],
		[8, 'user'],
		[11, 'assistant'],
	]);
	assert.equal(kb.run(['read', ID, '--format', 'json']).error().code, 'session_retired');
});
