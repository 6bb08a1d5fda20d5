/**
 * engi middleware prepare|expand: the items chosen are the ones a brute-force search over every
 * subset would choose; the packet is byte-stable; the limits, unknown fields, an over-budget
 * required set and a changed request are refused with their codes and exits.
 */
import assert from 'node:assert/strict';
import {createHash} from 'node:crypto';
import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import fc from 'fast-check';
import type {MiddlewareItem, MiddlewareRequest} from '../source/engine/middleware/request.js';
import {offerOrder, packetOf, selectItems} from '../source/engine/middleware/select.js';
import {exactTokenCounter} from '../source/engine/tokens.js';
import {runCli, sandboxEnv} from './helpers/cli.js';
import {tempDir} from './helpers/temp.js';

const phrases = ['the retry helper backs off twice', 'src/http.ts line 40', '重试两次', '{"timeout": 5000}', 'npm test -- retry', 'a'.repeat(60), 'TODO: handle 429'];

/**
 * The oracle: among all sets of optional items whose packet (with every required item) fits the
 * budget, the one that keeps the first item in offer order if any can, then the second, and so on.
 */
function bruteForce(request: MiddlewareRequest, count: (text: string) => number): Set<MiddlewareItem> | undefined {
	const required = request.items.filter(item => item.required);
	const offered = offerOrder(request.items);
	let best: boolean[] | undefined;
	for (let mask = 0; mask < 2 ** offered.length; mask++) {
		const taken = offered.map((_, index) => (mask & (1 << index)) !== 0);
		const chosen = new Set([...required, ...offered.filter((_, index) => taken[index])]);
		if (count(JSON.stringify(packetOf(request, chosen))) > request.budget_tokens) {
			continue;
		}

		// Better: at the first item where the two differ, this one keeps it.
		const differs = best ? taken.findIndex((value, index) => value !== best![index]) : -1;
		if (!best || (differs !== -1 && taken[differs])) {
			best = taken;
		}
	}

	return best && new Set([...required, ...offered.filter((_, index) => best![index])]);
}

const middlewareItem = fc.record({
	content: fc.oneof(fc.array(fc.constantFrom(...phrases), {minLength: 1, maxLength: 5}).map(parts => parts.join(' ')), fc.record({note: fc.constantFrom(...phrases), n: fc.integer({min: 0, max: 99})})),
	required: fc.integer({min: 0, max: 3}).map(roll => roll === 0),
	priority: fc.option(fc.integer({min: -1, max: 2}), {nil: undefined}),
}, {requiredKeys: ['content', 'required']});

/** Small requests (at most 7 items, so the oracle's 2^7 subsets stay cheap) with a budget anywhere up to what all of it costs. */
const smallRequest = fc.tuple(fc.array(middlewareItem, {minLength: 1, maxLength: 7}), fc.noBias(fc.integer({min: 0, max: 105})).map(percent => percent / 100));

test('middleware chooses exactly what a brute-force search over every subset chooses', async () => {
	const count = await exactTokenCounter();
	let compared = 0;
	let refused = 0;
	fc.assert(fc.property(smallRequest, ([drafts, share]) => {
		const items: MiddlewareItem[] = drafts.map(({priority, ...rest}, index) => ({id: `item-${index}`, ...rest, ...(priority === undefined ? {} : {priority})}));
		const request: MiddlewareRequest = {stable_prefix: {system: 'You review code.'}, task: 'review', items, budget_tokens: 0};
		request.budget_tokens = Math.floor(share * count(JSON.stringify(packetOf(request, new Set(items)))));
		const oracle = bruteForce(request, count);
		let chosen;
		try {
			chosen = selectItems(request, count).chosen;
		} catch (error) {
			assert.equal((error as {code?: string}).code, 'required_context_exceeds_budget');
			assert.equal(oracle, undefined, 'refused only when no packet with the required items fits');
			refused++;
			return;
		}

		assert.ok(oracle, 'a selection exists');
		assert.deepEqual([...chosen].map(item => item.id).sort(), [...oracle].map(item => item.id).sort(), `budget ${request.budget_tokens}`);
		compared++;
	}), {seed: 42, numRuns: 250, includeErrorInReport: true});
	assert.ok(compared > 150 && refused > 5, `${compared} compared, ${refused} refused`);
});

function scene(t: Parameters<typeof tempDir>[0]) {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	const write = (name: string, value: unknown) => {
		const file = join(base, name);
		writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
		return file;
	};

	const run = (args: string[], input?: string) => runCli(args, {env, input});
	return {write, run};
}

const request = {
	stable_prefix: {system: 'You are a careful reviewer.', rules: ['cite lines']},
	task: {goal: 'review the retry change'},
	items: [
		{id: 'first', content: 'optional background about the HTTP client, long enough to cost some tokens in the packet', required: false, priority: 1},
		{id: 'must', content: {diff: '--- a/src/retry.ts\n+++ b/src/retry.ts\n-  backoff: 100\n+  backoff: 250\n'}, required: true},
		{id: 'later', content: 'the failing test name', required: false, priority: 5},
	],
	budget_tokens: 10_000,
};

test('prepare prints the receipt with exact counts; --packet-only prints only the packet, the same bytes every time', t => {
	const {write, run} = scene(t);
	const file = write('request.json', request);
	const prepared = run(['middleware', 'prepare', '--file', file, '--format', 'json']);
	assert.equal(prepared.code, 0, prepared.stderr);
	const receipt = prepared.json();
	assert.deepEqual(receipt.selected_ids, ['first', 'must', 'later'], 'the packet keeps input order');
	assert.equal(receipt.reference_tokenizer, 'o200k_base');
	assert.equal(receipt.source_sha256, createHash('sha256').update(JSON.stringify(request)).digest('hex'));
	const packetOnly = run(['middleware', 'prepare', '--file', file, '--packet-only']);
	assert.equal(packetOnly.stdout, `${JSON.stringify({stable_prefix: request.stable_prefix, task: request.task, items: request.items.map(item => ({id: item.id, content: item.content}))})}\n`);
	assert.equal(run(['middleware', 'prepare', '--file', '-', '--packet-only', '--format', 'json'], JSON.stringify(request)).stdout, packetOnly.stdout, 'the same bytes from stdin and in any format');
	assert.deepEqual(Object.keys(JSON.parse(packetOnly.stdout)), ['stable_prefix', 'task', 'items']);
	assert.ok(packetOnly.stdout.startsWith(`{"stable_prefix":${JSON.stringify(request.stable_prefix)},`), 'the stable prefix comes first, byte for byte');

	// A tight budget keeps the required item, then the higher priority, and passes over what does not fit.
	const tight = {...request, budget_tokens: receipt.packet_tokens - 3};
	const narrowed = run(['middleware', 'prepare', '--file', write('tight.json', tight), '--format', 'json']).json();
	assert.deepEqual([narrowed.selected_ids, narrowed.omitted_ids], [['must', 'later'], ['first']]);
	assert.ok(narrowed.packet_tokens <= tight.budget_tokens);
});

test('prepare refuses over-budget required items with exit 2 and prints nothing; expand is bound to the request\'s bytes', t => {
	const {write, run} = scene(t);
	const file = write('request.json', request);
	const over = run(['middleware', 'prepare', '--file', write('over.json', {...request, budget_tokens: 5}), '--packet-only', '--format', 'json']);
	assert.deepEqual([over.code, over.stdout, over.error().code, over.error()['reason']], [2, '', 'required_context_exceeds_budget', 'required_context_exceeds_budget']);
	const hash = createHash('sha256').update(JSON.stringify(request)).digest('hex');
	const expanded = run(['middleware', 'expand', '--file', file, '--expect-source-sha256', hash, '--ids', 'later,must', '--format', 'json']);
	assert.equal(expanded.code, 0, expanded.stderr);
	assert.deepEqual(expanded.json().items, [{id: 'must', content: request.items[1]!.content}, {id: 'later', content: 'the failing test name'}], 'input order');
	const changed = write('changed.json', {...request, task: 'something else'});
	const mismatch = run(['middleware', 'expand', '--file', changed, '--expect-source-sha256', hash, '--ids', 'must', '--format', 'json']);
	assert.deepEqual([mismatch.code, mismatch.stdout, mismatch.error().code], [2, '', 'source_hash_mismatch']);
	assert.equal(run(['middleware', 'expand', '--file', file, '--expect-source-sha256', hash, '--ids', 'nope', '--format', 'json']).error().code, 'unknown_item');
});

test('requests with unknown fields, too many items, too many bytes or duplicate ids are refused', t => {
	const {write, run} = scene(t);
	const item = (index: number) => ({id: `i${index}`, content: index, required: false});
	const cases: Array<[string, unknown, string]> = [
		['an unknown top-level field', {...request, extra: 1}, 'invalid_request'],
		['an unknown item field', {...request, items: [{...request.items[0], priorty: 3}]}, 'invalid_request'],
		['a missing field', {stable_prefix: 'p', items: [], budget_tokens: 10}, 'invalid_request'],
		['a negative budget', {...request, budget_tokens: -1}, 'invalid_request'],
		['257 items', {...request, items: Array.from({length: 257}, (_, index) => item(index))}, 'invalid_request'],
		['a repeated id', {...request, items: [item(1), item(1)]}, 'invalid_request'],
		['more than 16 MiB', `{"stable_prefix":"${'x'.repeat(16 * 1024 * 1024)}","task":1,"items":[],"budget_tokens":1}`, 'input_too_large'],
		['not JSON', '{"stable_prefix":', 'invalid_json'],
	];
	for (const [what, body, code] of cases) {
		const result = run(['middleware', 'prepare', '--file', write('bad.json', body), '--format', 'json']);
		assert.deepEqual([result.code, result.stdout, result.error().code], [1, '', code], what);
	}

	assert.equal(run(['middleware', 'prepare', '--file', write('ok.json', {...request, items: Array.from({length: 256}, (_, index) => item(index))}), '--format', 'json']).code, 0, '256 items are allowed');
	assert.equal(run(['middleware', 'prepare', '--format', 'json']).error().code, 'missing_flag');
});
