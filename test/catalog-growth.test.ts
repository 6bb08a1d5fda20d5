import assert from 'node:assert/strict';
import {appendFileSync, copyFileSync, mkdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {runCli, sandboxEnv} from './helpers/cli.js';
import {tempDir} from './helpers/temp.js';

/** Transcripts that grow between two scans: `<name>.1.jsonl`, then `<name>.2.jsonl` appended (test/fixtures/growing/README.md). */
const growing = new URL('fixtures/growing/', import.meta.url).pathname;

function setup(t: Parameters<typeof tempDir>[0]) {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	const run = (args: string[]) => {
		const result = runCli([...args, '--format', 'json'], {env});
		assert.equal(result.code, 0, result.stderr);
		return result.json();
	};

	return {home: env['HOME']!, run};
}

/** Places part 1 of a growing fixture at `file`; the returned function appends part 2. */
function place(name: string, file: string): () => void {
	mkdirSync(join(file, '..'), {recursive: true});
	copyFileSync(join(growing, `${name}.1.jsonl`), file);
	return () => appendFileSync(file, readFileSync(join(growing, `${name}.2.jsonl`)));
}

test('codex: a prompt whose two copies fall on either side of an incremental scan counts once', t => {
	const {home, run} = setup(t);
	const id = '0195a1c2-1e00-7e00-8e00-0000000000e1';
	const grow = place('codex-echo-split', join(home, '.codex', 'sessions', '2026', '11', '24', `rollout-2026-11-24T10-00-00-${id}.jsonl`));
	const first = run(['sessions', '--all-projects', '--source', 'codex']).sessions.find((session: {id: string}) => session.id === id);
	assert.equal(first.human_turns, 2, 'the first prompt (both copies) and the first copy of the second');
	grow();
	const grown = run(['sessions', '--all-projects', '--source', 'codex']);
	assert.equal(grown.catalog.scanned, 1, 'the grown file is scanned from where the last scan stopped');
	const session = grown.sessions.find((one: {id: string}) => one.id === id);
	assert.equal(session.human_turns, 2, 'the second copy of the prompt, read in the next scan, is its echo');
	const dialogue = run(['read', id, '--source', 'codex', '--limit', '100']).records.filter((record: {role: string; human?: boolean}) => record.role === 'user' && record.human);
	assert.deepEqual(dialogue.map((record: {content: string}) => record.content), ['Add a --json flag to the report command', 'Now document it in the README']);
});

type ContextRecord = {line: number; kind: string; text?: string; human?: boolean; abandoned?: boolean};

test('codex: the turns a thread_rolled_back discards are an abandoned branch, in one read and after an incremental scan', t => {
	const {home, run} = setup(t);
	const id = '0195a1c2-1e00-7e00-8e00-0000000000e2';
	const grow = place('codex-rollback', join(home, '.codex', 'sessions', '2026', '11', '25', `rollout-2026-11-25T14-00-00-${id}.jsonl`));
	const listed = () => run(['sessions', '--all-projects', '--source', 'codex']).sessions.find((session: {id: string}) => session.id === id);
	assert.equal(listed().human_turns, 2);
	grow();
	const rolled = listed();
	assert.equal(rolled.human_turns, 2, 'the rolled-back prompt no longer counts; the new one does');
	assert.equal(rolled.title, 'Add a retry to the uploader');
	const context: ContextRecord[] = run(['read', id, '--source', 'codex', '--view', 'context', '--limit', '100']).records;
	assert.deepEqual(context.filter(record => record.abandoned).map(record => [record.line, record.kind]), [
		[10, 'user'],
		[12, 'tool_call'],
		[13, 'tool_result'],
		[14, 'assistant'],
	], 'the second turn, from its turn_started to its turn_complete');
	assert.deepEqual(context.filter(record => record.kind === 'user' && record.human && !record.abandoned).map(record => record.text), ['Add a retry to the uploader', 'Cap the retries at five']);
	assert.match(context.find(record => record.line === 17)?.text ?? '', /Rolled back the last turn/);

	// The same file read in one scan says the same.
	const {home: fresh, run: again} = setup(t);
	place('codex-rollback', join(fresh, '.codex', 'sessions', '2026', '11', '25', `rollout-2026-11-25T14-00-00-${id}.jsonl`))();
	const whole = again(['sessions', '--all-projects', '--source', 'codex']).sessions.find((session: {id: string}) => session.id === id);
	assert.deepEqual([whole.human_turns, whole.title], [rolled.human_turns, rolled.title]);
	assert.deepEqual(again(['read', id, '--source', 'codex', '--view', 'context', '--limit', '100']).records, context);
});
