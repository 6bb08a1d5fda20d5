/**
 * The exact counter remembers the count of each pre-tokenised piece: its counts must be the
 * counts of encoding the text whole (after the long-run cuts it always made), first time and again.
 */
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import test from 'node:test';
import {Tiktoken} from 'js-tiktoken/lite';
import ranks from 'js-tiktoken/ranks/o200k_base';
import {cutLongRuns, exactTokenCounter} from '../source/engine/tokens.js';

test('counting cached pieces gives the count of the whole text', async () => {
	const encoder = new Tiktoken(ranks);
	const whole = (text: string) => cutLongRuns(text).reduce((sum, piece) => sum + encoder.encode(piece).length, 0);
	const count = await exactTokenCounter();
	let state = 2_026;
	const next = (limit: number) => {
		state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
		return state % limit;
	};

	const alphabet = ['a', 'b', ' ', ' ', '  ', '\n', '\t', '{', '}', '"', ':', ',', '1', '23', 'é', '中文', '🙂', 'x'.repeat(200), '\'s', '\r\n', '/', '.', ' \n', 'A', 'Zz', '-', '_', '\u00a0'];
	for (let round = 0; round < 1500; round++) {
		const text = Array.from({length: next(500)}, () => alphabet[next(alphabet.length)]).join('');
		assert.equal(count(text), whole(text), JSON.stringify(text));
	}

	const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
	for (const text of [readme, JSON.stringify({a: readme, b: [readme.slice(99), readme]})]) {
		assert.equal(count(text), whole(text));
		assert.equal(count(text), whole(text), 'and again, from the cache');
	}
});
