import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import test from 'node:test';
import {seededRandom} from '../bench/lib/random.js';
import {entryLine, renderPacket, type Packet} from '../source/engine/evidence/packet.js';
import {exactTokenCounter} from '../source/engine/tokens.js';
import {referenceTokens} from './helpers/evidence.js';

// Pieces that meet every rule of o200k's pre-tokeniser: letters by case, digits by threes,
// contractions, punctuation runs, newlines, other whitespace, surrogate pairs, joiners.
const alphabet = ['a', 'Z', 'é', '臺', '方鸿渐', ' ', '  ', '\n', '\t', '\r\n', '0', '123', '4567', "'s", "'LL", '"', '\\', '/', '{', '}', ',', ':', '.', '-', '_', '🙂', '👩‍👩‍👧', '\u2028', '<|endoftext|>', 'https://', 'ab12'.repeat(50)];
// A run of one letter past the 128-character cut: slow for js-tiktoken's encoder, so used sparingly.
const longRun = 'x'.repeat(140);

function randomText(random: ReturnType<typeof seededRandom>, parts: number, pieces: readonly string[] = alphabet): string {
	return Array.from({length: parts}, () => random.pick(pieces)).join('');
}

test('the exact counter gives js-tiktoken\'s o200k count on prose, code, CJK, emoji, long runs and special-token text', async () => {
	const count = await exactTokenCounter();
	const random = seededRandom(16);
	const samples = [
		readFileSync(new URL('../README.md', import.meta.url), 'utf8'),
		readFileSync(new URL('../source/engine/evidence/solver.ts', import.meta.url), 'utf8'),
		'方鸿渐的教授去留学。他在上海的一家银行找到了工作，但是生活并不如意。'.repeat(5),
		'<|endoftext|> and <|endofprompt|> are ordinary text here',
		...Array.from({length: 400}, () => randomText(random, random.int(1, 60))),
		...Array.from({length: 20}, () => randomText(random, random.int(1, 10), [...alphabet, longRun])),
	];
	for (const text of samples) {
		assert.equal(count(text), referenceTokens(text), `counts differ on ${JSON.stringify(text.slice(0, 60))}`);
	}
});

test('special-token strings are counted as ordinary text, not refused', async () => {
	const count = await exactTokenCounter();
	assert.ok(count('before <|endoftext|> after') > 3);
});

/** A packet whose entries hold random text, so their lines meet every kind of boundary. */
function randomPacket(random: ReturnType<typeof seededRandom>): Packet {
	const text = () => randomText(random, random.int(0, 25));
	const citations = () => Array.from({length: random.int(1, 3)}, () => ({line: random.int(1, 99_999), event: 'f'.repeat(random.int(1, 64)), at: '2026-01-02T03:04:05Z'}));
	return {
		question: text(),
		as_of: '2026-06-01T00:00:00Z',
		scope_receipt: text(),
		journal_sha256: 'ab'.repeat(32),
		facts: Array.from({length: random.int(1, 4)}, () => ({fact: text(), roots: [text(), text()], ...(random.next() < 0.5 ? {description: text()} : {})})),
		evidence: Array.from({length: random.int(1, 5)}, () => ({id: text(), node: {id: text(), label: text(), [text()]: text(), n: random.int(0, 1e6)}, node_sha256: 'c'.repeat(64), journal_citations: citations()})),
		dependency_paths: Array.from({length: random.int(0, 3)}, () => ({from: text(), to: text(), type: 'DEPENDS_ON', observed_utc: '2026-01-02T03:04:05Z', valid_from: '2026-01-02T03:04:05Z', valid_until: random.next() < 0.5 ? null : '2027-01-01T00:00:00Z', provenance: text(), journal_citations: citations()})),
		claim_boundary: text(),
	};
}

test('a rendered packet parses back to the packet, and its count is the sum of its lines\' counts', async () => {
	const count = await exactTokenCounter();
	const random = seededRandom(61);
	for (let round = 0; round < 200; round++) {
		const packet = randomPacket(random);
		const text = renderPacket(packet);
		assert.deepEqual(JSON.parse(text), packet);
		const lines = text.slice(0, -1).split('\n');
		for (const entry of [...packet.facts, ...packet.evidence, ...packet.dependency_paths]) {
			assert.ok(lines.includes(entryLine(entry)), 'every entry has a line of its own');
		}

		const whole = referenceTokens(text);
		assert.equal(count(text), whole);
		assert.equal(lines.reduce((sum, line) => sum + count(`${line}\n`), 0), whole, `not additive: ${JSON.stringify(text.slice(0, 200))}`);
	}
});
