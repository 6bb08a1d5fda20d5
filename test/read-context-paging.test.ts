/**
 * Paging the context view keeps each record on one page. A page's walk starts at the catalog's
 * nearest line mark (one every 1,000 lines) with the normaliser's state empty, so a result a store
 * records twice (Codex's extended persistence: `exec_command_end`, then `function_call_output`
 * for the same call) showed again on the next page when a mark fell between the two.
 */
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {runCli, sandboxEnv} from './helpers/cli.js';
import {tempDir} from './helpers/temp.js';
import {codexSessionPath, codexToolLines, writeLines, type ToolStep} from './fixtures/tool-sessions.js';

type Page = {records: Array<{line: number; kind: string; call_id?: string | null; call_line?: number | null}>; next_offset: number | null};

const id = '0195a1c2-0e00-7e00-8e00-00000000000e';

test('a Codex call whose exec_command_end and function_call_output a line mark separates shows its output on one page only, whatever the page size', {timeout: 120_000}, t => {
	const env = sandboxEnv(tempDir(t));
	// Three exec lines a call after four of meta, prompt and replies: call 330 ends on line 1000 and its output is line 1001, where the catalog's first mark lies.
	const steps: ToolStep[] = [{user: 'run the checks'}, {assistant: 'Running them.'}, {assistant: 'One at a time.'}, ...Array.from({length: 340}, (_, index) => ({shell: `check ${index}`, output: `check ${index}: ok`}))];
	const path = writeLines(codexSessionPath(join(env['HOME']!, '.codex', 'sessions'), id), codexToolLines(id, '/work/app', steps));
	const lines = readFileSync(path, 'utf8').split('\n').map(line => (line === '' ? undefined : (JSON.parse(line) as {payload: {type: string; call_id?: string}})));
	assert.equal(lines[999]!.payload.type, 'exec_command_end');
	assert.deepEqual([lines[1000]!.payload.type, lines[1000]!.payload.call_id], ['function_call_output', lines[999]!.payload.call_id]);
	const page = (offset: number, limit: number): Page => {
		const result = runCli(['read', id, '--view', 'context', '--offset', String(offset), '--limit', String(limit), '--format', 'json'], {env});
		assert.equal(result.code, 0, result.stderr);
		return result.json() as Page;
	};

	const shape = (records: Page['records']) => records.map(record => [record.line, record.kind, record.call_id ?? null, record.call_line ?? null]);
	const whole = shape(page(990, 100).records);
	assert.deepEqual(whole.filter(([, kind, call]) => kind === 'tool_result' && call === lines[999]!.payload.call_id), [[1000, 'tool_result', lines[999]!.payload.call_id, 999]], 'one walk shows the output once');
	// The page that ends on line 1000 and the one after it.
	const first = page(997, 2);
	assert.equal(first.next_offset, 1000);
	assert.deepEqual(shape(page(1000, 3).records).filter(([line]) => line === 1001), [], 'the next page does not show it again');
	for (const limit of [2, 3, 4]) {
		const paged: unknown[] = [];
		for (let offset: number | null = 990; offset !== null; ) {
			const next = page(offset, limit);
			paged.push(...shape(next.records));
			offset = next.next_offset;
		}

		assert.deepEqual(paged, whole, `pages of ${limit} hold what one page does, each record once`);
	}
});
