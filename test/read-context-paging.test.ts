/**
 * Paging keeps each record on one page, in every view. A page's walk started at the catalog's
 * nearest line mark (one every 1,000 lines) with the normaliser's state empty, so a record a
 * store writes twice showed again on the next page when a mark fell between the two copies: a
 * result (Codex's extended persistence: `exec_command_end`, then `function_call_output` for the
 * same call) in the context view, and a prompt or reply (Codex writes each on two channels, a
 * `response_item` message and an `event_msg`) in the dialogue, index and context views. The
 * events view shows native lines, one record each, and never repeated one.
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

/** Every page of a view from `offset` to the end, `limit` rows each. */
function allPages(env: Record<string, string>, view: string, offset: number, limit: number): Page[] {
	const pages: Page[] = [];
	for (let at: number | null = offset; at !== null; ) {
		const result = runCli(['read', id, '--view', view, '--offset', String(at), '--limit', String(limit), '--format', 'json'], {env});
		assert.equal(result.code, 0, result.stderr);
		const page = result.json() as Page;
		pages.push(page);
		assert.ok(page.next_offset === null || page.next_offset > at, 'pages move on');
		at = page.next_offset;
	}

	return pages;
}

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

test('the events view shows each native line on one page only, a line mark between a call\'s exec_command_end and its function_call_output or not', {timeout: 120_000}, t => {
	const env = sandboxEnv(tempDir(t));
	const steps: ToolStep[] = [{user: 'run the checks'}, {assistant: 'Running them.'}, {assistant: 'One at a time.'}, ...Array.from({length: 340}, (_, index) => ({shell: `check ${index}`, output: `check ${index}: ok`}))];
	const path = writeLines(codexSessionPath(join(env['HOME']!, '.codex', 'sessions'), id), codexToolLines(id, '/work/app', steps));
	const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
	assert.equal(JSON.parse(lines[999]!).payload.type, 'exec_command_end');
	assert.equal(JSON.parse(lines[1000]!).payload.type, 'function_call_output');
	type EventsPage = {records: Array<{line: number; event: unknown}>; next_offset: number | null};
	const lineShape = (records: EventsPage['records']) => records.map(record => [record.line, JSON.stringify(record.event)]);
	const whole = lineShape((allPages(env, 'events', 990, 100) as unknown as EventsPage[])[0]!.records);
	assert.deepEqual(whole.map(([line]) => line), Array.from({length: lines.length - 990}, (_, index) => 991 + index), 'one walk: every line from the offset, once');
	assert.deepEqual(whole.map(([, event]) => JSON.parse(event as string)), lines.slice(990).map(line => JSON.parse(line)), 'each record is its native line');
	for (const limit of [1, 2, 3, 4, 7]) {
		const pages = allPages(env, 'events', 990, limit) as unknown as EventsPage[];
		assert.deepEqual(pages.flatMap(page => lineShape(page.records)), whole, `pages of ${limit} hold what one page does, each line once`);
		// The pages that meet at the mark (line 1001): the one ending at or before 1000, the next starting after it.
		const last = pages.findIndex(page => page.records.at(-1)!.line >= 1000);
		assert.ok(pages[last + 1] === undefined || pages[last + 1]!.records[0]!.line === pages[last]!.records.at(-1)!.line + 1);
	}
});

test('a Codex prompt whose two copies (event_msg, then response_item) a line mark separates shows on one page only, in the dialogue, index and context views', {timeout: 180_000}, t => {
	const env = sandboxEnv(tempDir(t));
	// Two replies, 331 calls of three lines, then the prompt's event_msg on line 1000 and its response_item on line 1001, where the first mark lies.
	const steps: ToolStep[] = [{assistant: 'Looking at the checks.'}, {assistant: 'Running them one by one.'}, ...Array.from({length: 331}, (_, index) => ({shell: `check ${index}`, output: `check ${index}: ok`})), {user: 'please continue with the flaky one'}, {assistant: 'Continuing with the flaky check.'}, {shell: 'check flaky', output: 'check flaky: ok'}];
	const path = writeLines(codexSessionPath(join(env['HOME']!, '.codex', 'sessions'), id), codexToolLines(id, '/work/app', steps));
	const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean).map(line => JSON.parse(line) as {type: string; payload: {type: string}});
	assert.deepEqual([lines[999]!.payload.type, lines[1000]!.payload.type], ['user_message', 'message']);
	type AnyPage = {records: Array<Record<string, unknown> & {line: number}>; next_offset: number | null};
	const shape = (records: AnyPage['records']) => records.map(record => JSON.stringify(record));
	for (const view of ['dialogue', 'index', 'context']) {
		const whole = shape((allPages(env, view, 990, 100) as unknown as AnyPage[])[0]!.records);
		assert.equal(whole.filter(record => record.includes('please continue with the flaky one')).length, 1, `${view}: one walk shows the prompt once`);
		for (const limit of [1, 2, 3]) {
			const paged = (allPages(env, view, 990, limit) as unknown as AnyPage[]).flatMap(page => shape(page.records));
			assert.deepEqual(paged, whole, `${view}: pages of ${limit} hold what one page does, each record once`);
		}
	}
});
