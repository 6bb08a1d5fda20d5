import assert from 'node:assert/strict';
import {copyFileSync, mkdirSync, statSync, utimesSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {runCli, sandboxEnv} from './helpers/cli.js';
import {tempDir} from './helpers/temp.js';

/**
 * A prompt typed while Claude Code worked and still queued when the file ends is the person's
 * latest request (claude/queue.ts): `unfinished` and the brief show it, and so must `engi read`,
 * on the page that holds the transcript's end and on no other.
 */
const id = '5c1e9a3f-7b2d-4e8a-9f06-1d3c5b7a9e2f';
const queued = 'then add a test with a newline inside a field';

function home(t: Parameters<typeof tempDir>[0]) {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	const project = join(base, 'home', '.claude', 'projects', '-work-ledger');
	mkdirSync(project, {recursive: true});
	copyFileSync(join('test', 'fixtures', 'format-cases', 'claude', 'queued-at-end.jsonl'), join(project, `${id}.jsonl`));
	const read = (args: string[]) => {
		const result = runCli(['read', id, ...args, '--format', 'json'], {env});
		assert.equal(result.code, 0, result.stderr);
		return result.json() as {records: Array<Record<string, unknown>>; next_offset: number | null; status: string};
	};

	return read;
}

const texts = (records: ReadonlyArray<Record<string, unknown>>) => JSON.stringify(records).split(queued).length - 1;

test('engi read shows a prompt still queued at the end of a Claude transcript, once, on the last page', t => {
	const read = home(t);
	for (const view of ['events', 'dialogue', 'context']) {
		const whole = read(['--view', view]);
		assert.equal(texts(whole.records), 1, `${view}: the queued prompt is read once`);
		assert.equal(whole.next_offset, null);
	}

	const first = read(['--view', 'context', '--limit', '2']);
	assert.equal(texts(first.records), 0, 'not on a page that ends before the file does');
	let offset = first.next_offset;
	let seen = 0;
	while (offset !== null) {
		const page = read(['--view', 'context', '--limit', '2', '--offset', String(offset)]);
		seen += texts(page.records);
		offset = page.next_offset;
	}

	assert.equal(seen, 1, 'paged through, the queued prompt is read once, at the end');
	assert.equal(read(['--offset', '5']).status, 'past_end', 'a page past the last line is past the end');
});

/**
 * The same, with the enqueue record thousands of lines and more than the brief's 4 MiB window
 * before the end: a page near the end, and the brief, start their walk at a catalog mark long
 * after it, so the queue is judged from the whole file's state the catalog keeps.
 */
function longTranscript(path: string): number {
	const session = '7d2e4f60-1a3b-4c5d-8e9f-0a1b2c3d4e5f';
	const base = {isSidechain: false, userType: 'external', cwd: '/work/ledger', sessionId: session, version: '2.1.92', gitBranch: 'main'};
	const lines: unknown[] = [
		{...base, parentUuid: null, type: 'user', uuid: 'u1', timestamp: '2026-10-12T14:00:00.000Z', message: {role: 'user', content: 'Sweep the ledger for rounding errors'}},
		{type: 'queue-operation', operation: 'enqueue', timestamp: '2026-10-12T14:00:02.000Z', sessionId: session, content: queued},
	];
	const filler = 'checked another batch of ledger rows; the totals agree to the cent. '.repeat(30);
	for (let index = 0; index < 2500; index++) {
		lines.push({...base, parentUuid: `a${index - 1}`, type: 'assistant', uuid: `a${index}`, timestamp: '2026-10-12T14:01:00.000Z', message: {id: `msg_a${index}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [{type: 'text', text: `${index}: ${filler}`}], stop_reason: null}});
	}

	lines.push({...base, parentUuid: 'a2499', type: 'assistant', uuid: 'done', timestamp: '2026-10-12T14:30:00.000Z', message: {id: 'msg_done', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [{type: 'text', text: 'No rounding errors left in the ledger.'}], stop_reason: 'end_turn'}});
	writeFileSync(path, lines.map(line => JSON.stringify(line)).join('\n') + '\n');
	return lines.length;
}

test('engi read and the brief show a prompt queued thousands of lines, and more than the brief window, before the end', t => {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	const project = join(base, 'home', '.claude', 'projects', '-work-ledger');
	mkdirSync(project, {recursive: true});
	const path = join(project, '7d2e4f60-1a3b-4c5d-8e9f-0a1b2c3d4e5f.jsonl');
	const last = longTranscript(path);
	assert.ok(statSync(path).size > 4.5 * 1024 * 1024, 'longer than the brief window');
	// Written long ago: a transcript written this minute is active, and its open request not yet a reason.
	const longAgo = new Date('2026-10-12T14:30:00.000Z');
	utimesSync(path, longAgo, longAgo);
	const json = (args: string[]) => {
		const result = runCli([...args, '--format', 'json'], {env});
		assert.equal(result.code, 0, result.stderr);
		return result.json() as Record<string, any>;
	};

	const page = json(['read', '7d2e4f60-1a3b-4c5d-8e9f-0a1b2c3d4e5f', '--view', 'dialogue', '--offset', String(last - 3)]);
	assert.equal(texts(page.records), 1, 'the last page shows the queued prompt');
	const brief = json(['resume', '7d2e4f60-1a3b-4c5d-8e9f-0a1b2c3d4e5f']);
	assert.equal(brief['latest_user']?.text, queued, 'the brief names the queued prompt as the latest request');
	const [candidate] = json(['unfinished', '--all-projects', '--since', '2020-01-01'])['candidates'];
	assert.deepEqual(candidate.reasons[0], {code: 'trailing_user_request_unanswered', detail: queued, line: 2}, 'unfinished names it too');
});
