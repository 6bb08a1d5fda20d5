/**
 * `--preview-chars <n|all>` on the context view: the default is today's 120-character previews,
 * `all` puts each whole text in `preview` for every source, a number splits head and tail, bad
 * values and other views are refused; --prune with whole texts replaces an output by the note
 * (innen §8); a page of whole texts ends early once it holds about a million characters.
 */
import assert from 'node:assert/strict';
import {join} from 'node:path';
import test from 'node:test';
import {adapters} from '../source/adapters/index.js';
import {listSessions} from '../source/engine/catalog/sessions.js';
import {readConversation, previewPageBudget, type ReadInput} from '../source/engine/conversation/read.js';
import type {Preview} from '../source/engine/conversation/preview.js';
import type {Deps} from '../source/engine/deps.js';
import {runCli, sandboxEnv} from './helpers/cli.js';
import {buildFixtureHome} from './fixtures/home.js';
import {tempDir} from './helpers/temp.js';
import {claudeSessionPath, claudeToolLines, codexSessionPath, codexToolLines, sourceFile, toolHeavySteps, writeLines, type ToolStep} from './fixtures/tool-sessions.js';

type Record = {line: number; kind: string; call_id?: string | null; input?: Preview; output?: Preview; summary?: Preview; pruned?: true; prune_reason?: string};
type Page = {records: Record[]; next_offset: number | null; warnings: string[]; prune?: {pruned_count: number; saved_chars_estimate: number}};

const previewsOf = (record: Record) => [record.input, record.output, record.summary].filter((preview): preview is Preview => preview !== undefined);

function fixtureDeps(t: Parameters<typeof tempDir>[0]): Deps {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	buildFixtureHome(env);
	return {env, cwd: base, now: () => new Date('2026-11-27T00:00:00Z'), platform: process.platform};
}

/** Every page of a session in the context view, with the preview length given. */
async function contextPages(input: Omit<ReadInput, 'view'>, deps: Deps): Promise<Page[]> {
	const pages: Page[] = [];
	let offset: number | null = 0;
	while (offset !== null) {
		// eslint-disable-next-line no-await-in-loop
		const page = await readConversation({...input, view: 'context', offset, limit: 100}, deps) as unknown as Page;
		pages.push(page);
		offset = page.next_offset;
	}

	return pages;
}

test('--preview-chars all gives every source\'s whole texts; the default and 120 are today\'s previews', {timeout: 120_000}, async t => {
	const deps = fixtureDeps(t);
	const sessions = (await listSessions({allProjects: true, includeSubagents: true, limit: 1000, offset: 0}, deps)).sessions;
	const sources = new Set<string>();
	const cut = new Set<string>();
	for (const session of sessions) {
		let plain: Page[];
		try {
			plain = await contextPages({id: session.id, source: [session.source]}, deps);
		} catch (error) {
			// A fixture damaged on purpose has no pages; the readers' own tests cover it.
			assert.equal((error as {code?: string}).code, 'session_corrupt', String(error));
			continue;
		}

		const label = `${session.source} ${session.id}`;
		assert.deepStrictEqual(await contextPages({id: session.id, source: [session.source], previewChars: '120'}, deps), plain, `${label}: 120 is the default`);
		const whole = await contextPages({id: session.id, source: [session.source], previewChars: 'all'}, deps);
		const plainRecords = plain.flatMap(page => page.records);
		const wholeRecords = whole.flatMap(page => page.records);
		assert.equal(wholeRecords.length, plainRecords.length, `${label}: the same records`);
		for (const [index, record] of wholeRecords.entries()) {
			const before = plainRecords[index]!;
			assert.deepStrictEqual({...record, input: undefined, output: undefined, summary: undefined}, {...before, input: undefined, output: undefined, summary: undefined}, `${label}:${record.line}: only previews differ`);
			for (const [which, preview] of previewsOf(record).entries()) {
				const short = previewsOf(before)[which]!;
				assert.equal(preview.preview_tail, '', `${label}:${record.line}`);
				assert.equal(preview.preview_truncated, false, `${label}:${record.line}`);
				assert.equal(preview.chars, short.chars, `${label}:${record.line}: the text's length is the one the default counted`);
				assert.equal([...preview.preview].length, preview.chars, `${label}:${record.line}: the whole text`);
				if (short.preview_truncated) {
					assert.ok(preview.preview.startsWith(short.preview) && preview.preview.endsWith(short.preview_tail), `${label}:${record.line}: the head and tail the default showed`);
					cut.add(session.source);
				}
			}
		}

		sources.add(session.source);
	}

	assert.deepEqual([...sources].sort(), Object.keys(adapters).sort(), 'every source has context pages');
	assert.ok(cut.size >= 5, `sources with a text longer than a default preview: ${[...cut].join(', ')}`);
});

function toolSessions(t: Parameters<typeof tempDir>[0], steps: readonly ToolStep[]) {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	const claudeId = 'c1c1c1c1-0000-4000-8000-000000000001';
	const codexId = '0195a1c2-c1c1-7c00-8c00-000000000001';
	writeLines(claudeSessionPath(join(env['HOME']!, '.claude', 'projects'), claudeId, '/work/app'), claudeToolLines(claudeId, '/work/app', steps));
	writeLines(codexSessionPath(join(env['HOME']!, '.codex', 'sessions'), codexId), codexToolLines(codexId, '/work/app', steps));
	const run = (args: string[]) => runCli([...args, '--format', 'json'], {env});
	return {run, ids: [['claude', claudeId], ['codex', codexId]] as const};
}

test('--preview-chars: a number splits head and tail; bad values and views without previews are refused', t => {
	const {run, ids} = toolSessions(t, toolHeavySteps('/work/app'));
	const [source, id] = ids[0];
	const page = (extra: string[]) => run(['read', id, '--source', source, '--view', 'context', '--limit', '100', ...extra]);
	const ten = page(['--preview-chars', '10']).json() as Page;
	const long = ten.records.flatMap(previewsOf).filter(preview => preview.chars > 10);
	assert.ok(long.length > 5);
	for (const preview of long) {
		assert.equal(preview.preview_truncated, true);
		assert.ok(preview.preview.length <= 5 && preview.preview.length >= 4 && preview.preview_tail.length === 5, JSON.stringify(preview));
	}

	const none = page(['--preview-chars', '0']).json() as Page;
	assert.ok(none.records.flatMap(previewsOf).every(preview => preview.preview === '' && preview.preview_tail === '' && preview.preview_truncated === (preview.chars > 0)), 'only the counts');
	assert.deepStrictEqual(page(['--preview-chars', '120']).json(), page([]).json());

	for (const bad of ['-1', 'abc', '1.5', '', 'ALL', '1e3', '99999999999999999999']) {
		const error = page([`--preview-chars=${bad}`]).error();
		assert.ok(['invalid_flag_value'].includes(error.code), `${bad}: ${error.code}`);
	}

	for (const args of [['--view', 'events'], ['--view', 'dialogue'], ['--view', 'index'], [], ['--lines', '3']]) {
		assert.equal(run(['read', id, '--source', source, ...args, '--preview-chars', 'all']).error().code, 'conflicting_flags', args.join(' '));
	}

	assert.equal(run(['resume', id, '--source', source, '--preview-chars', 'all']).error().code, 'conflicting_flags', 'the brief has no previews');
	assert.equal(run(['resume', id, '--source', source, '--view', 'events', '--preview-chars', 'all']).error().code, 'conflicting_flags');
	assert.equal(run(['resume', id, '--source', source, '--view', 'context', '--preview-chars', '-3']).error().code, 'invalid_flag_value');
	assert.equal(run(['read', id, '--source', source, '--lines', '3', '--attachment', '/message', '--expect-sha256', 'a'.repeat(64), '--preview-chars', 'all']).error().code, 'conflicting_flags');
	const resumed = run(['resume', id, '--source', source, '--view', 'context', '--no-compact', '--limit', '100', '--preview-chars', 'all']).json() as Page;
	assert.ok(resumed.records.flatMap(previewsOf).every(preview => !preview.preview_truncated), 'resume pages take it too');
});

test('--prune with whole texts: a pruned output is the note, its size in omitted_chars; everything else is the whole page', t => {
	const {run, ids} = toolSessions(t, toolHeavySteps('/work/app'));
	for (const [source, id] of ids) {
		const args = ['read', id, '--source', source, '--view', 'context', '--limit', '100', '--preview-chars', 'all'];
		const whole = run(args).json() as Page;
		const pruned = run([...args, '--prune']).json() as Page;
		assert.equal(pruned.records.length, whole.records.length);
		let notes = 0;
		for (const [index, record] of pruned.records.entries()) {
			const before = whole.records[index]!;
			if (!record.pruned) {
				assert.deepStrictEqual(record, before, `${source}:${record.line}`);
				continue;
			}

			notes++;
			const {pruned: _mark, prune_reason: reason, output, ...rest} = record;
			const {output: original, ...kept} = before;
			assert.deepStrictEqual(rest, kept, `${source}:${record.line}: only the output changes`);
			assert.match(reason!, /superseded by write|redundant; re-read|returned 0 matches|repeated/);
			assert.deepStrictEqual(output, {preview: '[omitted]', preview_tail: '', preview_truncated: false, chars: 9, omitted_chars: original!.chars}, `${source}:${record.line}`);
			assert.ok(original!.chars > 100, 'only an output longer than its note and reason goes');
		}

		assert.equal(notes, pruned.prune!.pruned_count, source);
		assert.ok(notes >= 3, `${source}: ${notes} notes`);
		assert.ok(pruned.prune!.saved_chars_estimate > 3000, `${source}: saved ${pruned.prune!.saved_chars_estimate}, the whole outputs, not previews`);
		const prunedDefault = run(['read', id, '--source', source, '--view', 'context', '--limit', '100', '--prune']).json() as Page;
		assert.ok(pruned.prune!.saved_chars_estimate > 10 * prunedDefault.prune!.saved_chars_estimate, `${source}: whole texts make pruning pay`);
	}
});

test('a page of whole texts ends early past the budget, its first row always taken; the default page does not', t => {
	const big = sourceFile('/work/app/src/big.ts', 12_000, 3);
	assert.ok(big.length > previewPageBudget / 3);
	const steps: ToolStep[] = [{user: 'Read the big files.'}, ...[1, 2, 3, 4, 5].map(index => ({read: `/work/app/src/big${index}.ts`, content: big}) as ToolStep), {assistant: 'Read them all.'}];
	const {run, ids} = toolSessions(t, steps);
	for (const [source, id] of ids) {
		const plain = run(['read', id, '--source', source, '--view', 'context', '--limit', '100']).json() as Page;
		assert.equal(plain.next_offset, null, 'the default previews are small');
		let offset: number | null = 0;
		let pages = 0;
		const outputs = new Map<string, number>();
		while (offset !== null) {
			const page = run(['read', id, '--source', source, '--view', 'context', '--limit', '100', '--preview-chars', 'all', '--offset', String(offset)]).json() as Page;
			const chars = page.records.flatMap(previewsOf).reduce((sum, preview) => sum + preview.preview.length, 0);
			const last = page.records.flatMap(previewsOf).at(-1)?.preview.length ?? 0;
			assert.ok(chars - last < previewPageBudget, `${source} @${offset}: the page stops once past the budget (${chars})`);
			assert.equal(page.warnings.some(warning => warning.includes('previews passed 1,000,000 characters')), page.next_offset !== null, `${source} @${offset}: an early end says so`);
			for (const record of page.records.filter(record => record.kind === 'tool_result')) {
				outputs.set(record.call_id!, Math.min(outputs.get(record.call_id!) ?? Number.POSITIVE_INFINITY, record.output!.preview.length));
			}

			pages++;
			offset = page.next_offset;
		}

		assert.ok(pages >= 2, `${source}: ${pages} pages`);
		// Codex's extended persistence shows an output again (exec_command_end, then function_call_output) when a page starts between them.
		assert.equal(outputs.size, 5, `${source}: every read's output, across the pages`);
		assert.ok([...outputs.values()].every(length => length >= big.length), `${source}: each whole`);
	}
});
