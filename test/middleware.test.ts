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
import type {MiddlewareItem, MiddlewareRequest} from '../source/engine/middleware/request.js';
import {offerOrder, packetOf, selectItems} from '../source/engine/middleware/select.js';
import {exactTokenCounter} from '../source/engine/tokens.js';
import {runCli, sandboxEnv} from './helpers/cli.js';
import {tempDir} from './helpers/temp.js';

/** A small seeded generator (mulberry32), as in codec-roundtrip.test.ts; the lead may switch to fast-check. */
function seeded(seed: number) {
	let state = seed >>> 0;
	return (limit: number) => {
		state = (state + 0x6d_2b_79_f5) >>> 0;
		let value = state;
		value = Math.imul(value ^ (value >>> 15), value | 1);
		value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
		return Math.floor((((value ^ (value >>> 14)) >>> 0) / 4_294_967_296) * limit);
	};
}

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

test('middleware chooses exactly what a brute-force search over every subset chooses', async () => {
	const count = await exactTokenCounter();
	const random = seeded(42);
	let compared = 0;
	let refused = 0;
	for (let round = 0; round < 250; round++) {
		const items: MiddlewareItem[] = Array.from({length: 1 + random(7)}, (_, index) => ({
			id: `item-${index}`,
			content: random(3) === 0 ? {note: phrases[random(phrases.length)], n: random(100)} : Array.from({length: 1 + random(5)}, () => phrases[random(phrases.length)]).join(' '),
			required: random(4) === 0,
			...(random(3) === 0 ? {} : {priority: random(4) - 1}),
		}));
		const request: MiddlewareRequest = {stable_prefix: {system: 'You review code.'}, task: 'review', items, budget_tokens: 0};
		const everything = count(JSON.stringify(packetOf(request, new Set(items))));
		request.budget_tokens = random(everything + 10);
		const oracle = bruteForce(request, count);
		let chosen;
		try {
			chosen = selectItems(request, count).chosen;
		} catch (error) {
			assert.equal((error as {code?: string}).code, 'required_context_exceeds_budget');
			assert.equal(oracle, undefined, 'refused only when no packet with the required items fits');
			refused++;
			continue;
		}

		assert.ok(oracle, 'a selection exists');
		assert.deepEqual([...chosen].map(item => item.id).sort(), [...oracle].map(item => item.id).sort(), `round ${round}: budget ${request.budget_tokens}`);
		compared++;
	}

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
