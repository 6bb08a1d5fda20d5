/**
 * Properties (fast-check, seeded): the exact counter, with the rank table the build wrote, gives
 * js-tiktoken's o200k_base count (`encode(text, [], [])`, on the pieces tokens.ts cuts long runs
 * into) on random Unicode, ASCII and code-like text, on long runs, and on every fixture file;
 * and the ASCII pre-tokeniser splits ASCII text exactly as the whole pattern does.
 * `ENGI_PROPERTY_SEED=<seed>` explores other cases.
 */
import assert from 'node:assert/strict';
import {existsSync, readdirSync, readFileSync, statSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import test from 'node:test';
import fc from 'fast-check';
import ranks from 'js-tiktoken/ranks/o200k_base';
import {asciiPattern, exactTokenCounter} from '../source/engine/tokens.js';
import {sharedStores} from './helpers/adapters.js';
import {referenceTokens} from './helpers/evidence.js';

const seed = Number(process.env['ENGI_PROPERTY_SEED'] ?? 20_261_201);
const parameters = (numRuns: number) => ({seed, numRuns, includeErrorInReport: true});

const fragment = fc.constantFrom(
	'const', ' value', ' = ', 'await ', 'fetch(', ');', '\n', '\n\n', '\t', '    ', '{', '}', '[', ']', '"', "'", '`', '${id}', ':', ',', '.', '=>', '===', '!=', '//', ' /* note */',
	'0', '42', '1234567', '3.14', '0x1f', 'camelCase', 'snake_case', 'SCREAMING', 'PascalCase', "'s", "'LL", "don't", '\r\n', '  \n', ' \t\n', '/work/app/src/retry.ts', 'https://example.com/a?b=1',
	'<|endoftext|>', 'é', '中文', '🙂', '👩‍👩‍👧', '\u00a0', '\u2028', '\u0301', 'ǅ', 'ʰ', '٣', 'Ⅻ', '\uFEFF', 'ſ', 'K',
);
const codeLike = fc.array(fragment, {maxLength: 80}).map(parts => parts.join(''));
const unicodeText = fc.oneof(fc.string({unit: 'binary', maxLength: 120}), fc.string({unit: 'grapheme', maxLength: 60}));
const asciiText = fc.oneof(fc.string({unit: 'binary-ascii', maxLength: 200}), fc.array(fc.constantFrom('a', 'Z', '0', ' ', '\n', '\r', '\t', "'", 's', 'S', 'll', '/', '.', '-', '_', '"', '{', '\v', '\f'), {maxLength: 120}).map(parts => parts.join('')));
/** Runs far past the 128-character cut: one character repeated, or random characters without whitespace. */
const longRun = fc.oneof(
	fc.tuple(fc.constantFrom('x', 'A', '0', '=', '中', '🙂', 'é', 'aB', '-_'), fc.integer({min: 100, max: 1500})).map(([unit, times]) => unit.repeat(times)),
	fc.string({unit: fc.constantFrom(...'abcXYZ019+/=-_.:é中', '🙂'), minLength: 120, maxLength: 900}),
);
const withLongRuns = fc.array(fc.oneof(longRun, codeLike, unicodeText), {minLength: 1, maxLength: 4}).map(parts => parts.join(''));

test('the exact counter gives js-tiktoken\'s o200k count on random Unicode, ASCII, code-like text and long runs', async () => {
	const count = await exactTokenCounter();
	for (const [name, text, runs] of [['unicode', unicodeText, 400], ['ascii', asciiText, 400], ['code', codeLike, 300], ['long runs', withLongRuns, 80]] as const) {
		fc.assert(
			fc.property(text, value => {
				assert.equal(count(value), referenceTokens(value), `${name}: ${JSON.stringify(value.slice(0, 80))}`);
			}),
			parameters(runs),
		);
	}
});

const filesUnder = (directory: string): string[] =>
	readdirSync(directory).flatMap(name => {
		const path = join(directory, name);
		return statSync(path).isDirectory() ? filesUnder(path) : [path];
	});

async function countsEveryFile(directory: string) {
	const count = await exactTokenCounter();
	const files = filesUnder(directory);
	assert.ok(files.length > 50, `${directory} holds the fixtures`);
	for (const file of files) {
		const text = readFileSync(file, 'utf8');
		assert.equal(count(text), referenceTokens(text), file);
	}
}

test('the exact counter gives js-tiktoken\'s count on every file of the project\'s fixtures', async () => {
	await countsEveryFile(fileURLToPath(new URL('fixtures', import.meta.url)));
});

test('the exact counter gives js-tiktoken\'s count on every file of the shared third-party fixtures', async t => {
	if (!existsSync(sharedStores)) {
		t.skip('../shared/fixtures/stores is not present (a fresh clone has no ../shared); skipped');
		return;
	}

	await countsEveryFile(sharedStores);
});

test('the ASCII pre-tokeniser splits ASCII text into the pieces the whole pattern gives', () => {
	const ascii = asciiPattern(ranks.pat_str);
	assert.ok(ascii, 'o200k\'s pattern has an ASCII form');
	const whole = new RegExp(ranks.pat_str, 'gu');
	fc.assert(
		fc.property(asciiText, text => {
			assert.deepEqual(text.match(ascii) ?? [], text.match(whole) ?? [], JSON.stringify(text));
		}),
		parameters(1000),
	);
	assert.equal(asciiPattern(String.raw`\p{Greek}+|\s+`), undefined, 'a class it does not know leaves the whole pattern in use');
});
