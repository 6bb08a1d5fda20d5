import assert from 'node:assert/strict';
import {copyFileSync, mkdirSync} from 'node:fs';
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
