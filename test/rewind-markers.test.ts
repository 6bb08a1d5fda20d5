import assert from 'node:assert/strict';
import {cpSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {runCli, sandboxEnv} from './helpers/cli.js';
import {fixtureMtime, settle} from './fixtures/home.js';
import {tempDir} from './helpers/temp.js';

/** Sessions with a rewind marker, read in place (test/fixtures/rewinds/README.md). */
const rewinds = new URL('fixtures/rewinds/', import.meta.url).pathname;

type ContextRecord = {line: number; kind: string; text?: string; human?: boolean; abandoned?: boolean; pending?: boolean};

/** Runs engi on a copy of a store, its files dated in the past (a file written just now is not judged). */
function reader(t: Parameters<typeof tempDir>[0], source: string, store: string) {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	const root = join(base, source);
	cpSync(store, root, {recursive: true});
	settle(root, fixtureMtime);
	return (args: string[]) => {
		const result = runCli([...args, '--source', source, '--source-root', root, '--format', 'json'], {env});
		assert.equal(result.code, 0, result.stderr);
		return result.json();
	};
}

test('grok: what a rewind_marker discards is an abandoned branch: not counted, labelled in read, not open work', t => {
	const run = reader(t, 'grok', join(rewinds, 'grok'));
	const id = '019a7c10-1100-7000-8000-000000000011';
	const session = run(['sessions', '--all-projects']).sessions.find((one: {id: string}) => one.id === id);
	assert.equal(session.human_turns, 2, 'the first prompt and the one typed after the rewind');
	const context: ContextRecord[] = run(['read', id, '--view', 'context', '--limit', '100']).records;
	assert.deepEqual(context.filter(record => record.abandoned).map(record => [record.line, record.kind]), [
		[3, 'user'],
		[4, 'assistant'],
		[5, 'tool_call'],
	], 'prompt 1 and everything after it, up to the marker');
	assert.deepEqual(context.filter(record => record.kind === 'user' && record.human && !record.abandoned).map(record => record.text), ['Add pagination to the orders API', 'Document the page parameters instead']);
	const dialogue = run(['read', id, '--limit', '100']).records;
	assert.equal(dialogue.find((record: {line: number}) => record.line === 3)?.abandoned, true);

	// Right after the rewind, the discarded prompt and its running call are the file's last records.
	const justRewound = '019a7c10-1200-7000-8000-000000000012';
	assert.equal(run(['sessions', '--all-projects']).sessions.find((one: {id: string}) => one.id === justRewound).human_turns, 1);
	const candidates: Array<{id: string; reasons: Array<{code: string}>}> = run(['unfinished', '--all-projects', '--since', '3650d']).candidates;
	assert.deepEqual(candidates.find(one => one.id === justRewound)?.reasons.map(reason => reason.code) ?? [], [], 'the live conversation ends answered: the discarded call is not pending work');
});

test('gemini: the messages a $rewindTo deleted are an abandoned branch: not counted, labelled in read', t => {
	const run = reader(t, 'gemini', new URL('fixtures/stores/gemini', import.meta.url).pathname);
	const id = '3f2a9c1e-5b7d-4e21-9a8f-0c6d2e4b7a15';
	assert.equal(run(['sessions', '--all-projects']).sessions.find((one: {id: string}) => one.id === id).human_turns, 3);
	const context: ContextRecord[] = run(['read', id, '--view', 'context', '--limit', '100']).records;
	assert.deepEqual(context.filter(record => record.abandoned).map(record => [record.line, record.kind, record.text]), [
		[8, 'user', 'Hand-roll the validation without a library'],
		[9, 'assistant', 'Writing a hand-rolled validator.'],
	]);
	assert.match(context.find(record => record.line === 10)?.text ?? '', /abandoned branch/);
});
