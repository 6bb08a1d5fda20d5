/**
 * resume prints compact + deltas by default (JSON), and the brief's budget and token count are
 * of the document as printed, packet and guide included.
 */
import assert from 'node:assert/strict';
import {join} from 'node:path';
import test from 'node:test';
import {decodePacket} from '../source/engine/conversation/codec/decode.js';
import {exactTokenCounter} from '../source/engine/tokens.js';
import {runCli, sandboxEnv} from './helpers/cli.js';
import {tempDir} from './helpers/temp.js';
import {codexSessionPath, codexToolLines, toolHeavySteps, writeLines} from './fixtures/tool-sessions.js';

const id = '0195a1c2-e0e0-7e00-8e00-000000000001';

function scene(t: Parameters<typeof tempDir>[0]) {
	const env = sandboxEnv(tempDir(t));
	writeLines(codexSessionPath(join(env['HOME']!, '.codex', 'sessions'), id), codexToolLines(id, '/work/app', toolHeavySteps('/work/app', 3)));
	return (args: string[], format = 'json') => runCli(['resume', id, '--source', 'codex', ...args, '--format', format], {env});
}

/** The brief inside a packet, or the brief itself. */
const briefOf = (document: Record<string, unknown>) => {
	const {schema: _schema, ...rest} = document;
	return decodePacket(rest) as {tokens: number; tokens_exact: boolean; budget: number; view: string};
};

test('the brief\'s budget and token count are of the printed document, packet and all', async t => {
	const run = scene(t);
	const count = await exactTokenCounter();
	let packets = 0;
	for (const budget of [1200, 2000, 4000]) {
		const result = run(['--exact-tokens', '--budget', String(budget)]);
		assert.equal(result.code, 0, result.stderr);
		const document = result.json();
		const brief = briefOf(document);
		const printed = count(result.stdout.trimEnd());
		assert.equal(brief.tokens, printed, `budget ${budget}: tokens is the exact count of what is printed`);
		assert.ok(printed <= budget, `budget ${budget}: ${printed} tokens printed`);
		if (document.encoding !== undefined) {
			packets++;
			assert.equal(document.layers.includes('rows'), false, 'a brief has no records to lay out in rows');
		}

		const plain = run(['--exact-tokens', '--budget', String(budget), '--no-compact']);
		assert.equal(plain.json().encoding, undefined);
		assert.ok(result.stdout.length <= plain.stdout.length, 'compact is never larger');
	}

	assert.ok(packets > 0, 'a large brief is encoded');
	const estimated = run(['--budget', '4000']);
	assert.ok(briefOf(estimated.json()).tokens >= count(estimated.stdout.trimEnd()), 'the estimate is an upper bound of the printed document');
});

test('resume pages are compact and deltas by default, plain with --no-compact and in human text', t => {
	const run = scene(t);
	const page = run(['--view', 'events', '--limit', '100']).json();
	assert.deepEqual(page.layers, ['edges', 'strings', 'rows']);
	const noDeltas = run(['--view', 'events', '--limit', '100', '--no-deltas']).json();
	assert.deepEqual(noDeltas.layers, ['strings', 'rows']);
	const plain = run(['--view', 'events', '--limit', '100', '--no-compact']).json();
	assert.equal(plain.encoding, undefined);
	const {schema, ...packet} = page;
	assert.deepStrictEqual({schema, ...(decodePacket(packet) as object)}, plain, 'the packet decodes to the plain page');
	const human = run(['--view', 'context', '--limit', '5'], 'human');
	assert.equal(human.code, 0, human.stderr);
	assert.doesNotMatch(human.stdout, /engi packet|"encoding"/, 'people read the page, not the packet');
	assert.equal(run(['--no-compact', '--deltas']).error().code, 'conflicting_flags');
});
