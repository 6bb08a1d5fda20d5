// Hostile structure: JSON nested thousands of levels deep parses fine in V8 but overflows the
// stack of every recursive walk after it (JSON.stringify, key sorting). Such lines are refused
// at parse time: the journal reports and quarantines them (`too_deep`), transcripts skip and
// count them, and nothing crashes with "Maximum call stack size exceeded".
import assert from 'node:assert/strict';
import {appendFileSync, readdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {prepareEvents} from '../../source/engine/journal/append.js';
import {EngiError} from '../../source/lib/errors.js';
import {JsonTooDeepError, maxJsonDepth, parseBoundedJson} from '../../source/lib/json-depth.js';
import {parseJsonLine} from '../../source/adapters/shared/json-line.js';
import {runCli, sandboxEnv} from '../helpers/cli.js';
import {makeKb} from '../helpers/kb.js';
import {copyStore, writeClaudeSession} from '../helpers/stores.js';
import {tempDir} from '../helpers/temp.js';

const depth = 5000;
const deepJson = (leaf: string) => '{"a":'.repeat(depth) + leaf + '}'.repeat(depth);

test('a 5,000-deep journal payload is reported by readers and quarantined by writers as too_deep', t => {
	const kb = makeKb(t);
	kb.ok(['graph', 'node', '--id', 'a', '--kind', 'Task', '--label', 'before']);
	const deep = `{"id":"x","observed_utc":"2026-01-01T00:00:00Z","op":"node.upsert","payload":{"id":"deep","kind":"Task","nested":${deepJson('1')}}}`;
	appendFileSync(kb.journal, deep + '\n');

	const status = kb.ok(['status']);
	assert.deepEqual([status.nodes, status.corrupt_lines], [1, 1]);
	assert.equal(kb.ok(['query', '--q', 'before']).total, 1);
	const node = kb.ok(['graph', 'node', '--id', 'b', '--kind', 'Task', '--label', 'after']);
	assert.deepEqual(node.quarantined, [{line: 2, reason: 'too_deep'}]);
	const [file] = readdirSync(join(kb.root, '.engi', 'quarantine'));
	assert.equal(readFileSync(join(kb.root, '.engi', 'quarantine', file!), 'utf8'), deep + '\n', 'moved verbatim');
	const rebuilt = kb.ok(['index', 'rebuild']);
	assert.deepEqual([rebuilt.events, rebuilt.nodes, rebuilt.quarantined], [2, 2, []]);
});

test('index rebuild quarantines a deep line with its reason', t => {
	const kb = makeKb(t);
	kb.ok(['graph', 'node', '--id', 'a', '--kind', 'Task', '--label', 'A']);
	appendFileSync(kb.journal, `{"id":"x","observed_utc":"2026-01-01T00:00:00Z","op":"node.upsert","payload":{"id":"deep","list":${'['.repeat(depth)}${']'.repeat(depth)}}}\n`);
	const rebuilt = kb.ok(['index', 'rebuild']);
	assert.deepEqual(rebuilt.quarantined, [{line: 2, reason: 'too_deep'}]);
	assert.equal(rebuilt.nodes, 1);
});

test('the bound is exact: 256 levels parse, 257 do not, also inside glued records and string-heavy lines', () => {
	const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
	assert.deepEqual(parseBoundedJson(nested(maxJsonDepth)), JSON.parse(nested(maxJsonDepth)));
	assert.throws(() => parseBoundedJson(nested(maxJsonDepth + 1)), JsonTooDeepError);
	assert.equal(parseJsonLine(`{"a":1}{"b":${nested(maxJsonDepth + 1)}}`), 'too_deep');
	assert.deepEqual(parseJsonLine(`{"text":"${'[{'.repeat(400)}"}`), [{text: '[{'.repeat(400)}], 'brackets inside strings are text');
});

test('an event whose payload nests past the bound is refused before anything is written', () => {
	let payload: Record<string, unknown> = {leaf: true};
	for (let level = 0; level < 300; level++) {
		payload = {inner: payload};
	}

	assert.throws(() => prepareEvents([{op: 'node.upsert', payload: {id: 'n', kind: 'Task', deep: payload}}], new Date()), (error: unknown) => error instanceof EngiError && error.code === 'too_deep');
	assert.equal(prepareEvents([{op: 'node.upsert', payload: {id: 'n', kind: 'Task', shallow: {a: {b: [1]}}}}], new Date()).length, 1);
});

test('a deep transcript line is skipped and counted; the rest of the session reads', t => {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	const id = 'dddddddd-0000-4000-8000-000000000001';
	const path = writeClaudeSession(join(base, 'home', '.claude', 'projects'), id, '/work/deep', [
		{user: 'first request', assistant: 'first reply', at: '2026-11-25T10:00:00.000Z'},
	]);
	appendFileSync(path, JSON.stringify({type: 'user', sessionId: id, uuid: 'deep-1', timestamp: '2026-11-25T10:01:00.000Z', cwd: '/work/deep', message: {role: 'user', content: 'X'}}).replace('"X"', deepJson('"deep"')) + '\n');
	appendFileSync(path, JSON.stringify({type: 'user', sessionId: id, uuid: 'last-1', parentUuid: 'dddd-a0', timestamp: '2026-11-25T10:02:00.000Z', cwd: '/work/deep', message: {role: 'user', content: 'last request'}}) + '\n');

	const sessions = runCli(['sessions', '--all-projects', '--format', 'json'], {env});
	assert.equal(sessions.code, 0, sessions.stderr);
	assert.deepEqual(sessions.json().sessions.map((session: {id: string}) => session.id), [id]);
	const read = runCli(['read', id, '--format', 'json'], {env});
	assert.equal(read.code, 0, read.stderr);
	const document = read.json();
	assert.ok(document.records.some((record: {content: string}) => record.content.includes('last request')), 'lines after the deep one are read');
	assert.match(document.warnings.join('\n'), /line 3: skipped.*nested too deeply/);
	for (const command of [['unfinished', '--all-projects'], ['resume', id]]) {
		const result = runCli([...command, '--format', 'json'], {env});
		assert.equal(result.code, 0, `${command.join(' ')}: ${result.stderr}`);
	}
});

test('a deep whole-document transcript (Gemini legacy JSON) is a corrupt session, not a crash', t => {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	const store = copyStore('gemini', join(base, 'home', '.gemini'));
	const legacy = join(store, 'tmp', 'webapp', 'chats', 'session-2026-11-12T16-05-8a9b0c1d.json');
	const original = readFileSync(legacy, 'utf8');
	writeFileSync(legacy, original.replace(/^\{/, `{"deep":${deepJson('0')},`));

	const sessions = runCli(['sessions', '--all-projects', '--source', 'gemini', '--format', 'json'], {env});
	assert.equal(sessions.code, 0, sessions.stderr);
	const listed = sessions.json().sessions;
	assert.ok(listed.length > 1, 'the other sessions are still listed');
	const corrupt = listed.find((session: {path: string}) => session.path === legacy);
	assert.match(corrupt?.error ?? '', /session-2026-11-12T16-05-8a9b0c1d\.json: JSON nested deeper than 256 levels/);
});
