import assert from 'node:assert/strict';
import test from 'node:test';
import {fileURLToPath} from 'node:url';
import {decodeLine, forEachLine, type ForEachLineOptions} from '../source/lib/lines.js';

/**
 * A compressed file's lines are the plain file's: same numbers, same offsets (positions in the
 * decompressed text), the same reading from and to an offset, long lines reported the same way.
 * The `.zst` fixtures were made from lines.txt with the zstd tool: one frame, two frames
 * concatenated, and a damaged copy.
 */
const fixture = (name: string) => fileURLToPath(new URL(`fixtures/zstd/${name}`, import.meta.url));
const plain = fixture('lines.txt');

type Seen = {number: number; offset: number; length: number; terminated: boolean; oversized: boolean; text: string};

function linesOf(path: string, options: ForEachLineOptions = {}, stopAfter = Number.POSITIVE_INFINITY): {lines: Seen[]; end: {offset: number; nextLine: number}} {
	const lines: Seen[] = [];
	const end = forEachLine(
		path,
		raw => {
			lines.push({number: raw.number, offset: raw.offset, length: raw.length, terminated: raw.terminated, oversized: raw.oversized, text: raw.oversized ? '' : decodeLine(raw)});
			return lines.length < stopAfter;
		},
		options,
	);
	return {lines, end};
}

test('a compressed file gives the lines, numbers and offsets of the plain one, in one frame or several', () => {
	const expected = linesOf(plain);
	assert.ok(expected.lines.length > 1000);
	assert.deepEqual(linesOf(fixture('lines.txt.zst')), expected);
	assert.deepEqual(linesOf(fixture('multi.txt.zst')), expected);
});

test('reading a compressed file from a line\'s offset, up to another, or stopping early matches the plain file', () => {
	const all = linesOf(plain).lines;
	const from = all[500]!;
	const to = all[1200]!;
	const options = {fromOffset: from.offset, fromLine: from.number, toOffset: to.offset};
	assert.deepEqual(linesOf(fixture('lines.txt.zst'), options), linesOf(plain, options));
	assert.deepEqual(linesOf(fixture('lines.txt.zst'), {}, 10), linesOf(plain, {}, 10));
});

test('a line longer than the limit is reported oversized, with no content, and reading goes on after it', () => {
	const options = {maxLineBytes: 32 * 1024};
	const compressed = linesOf(fixture('lines.txt.zst'), options);
	assert.deepEqual(compressed.lines.filter(line => line.oversized).map(line => line.number), [701]);
	// The plain reader holds what fits its buffer (here the whole file), so compare the other lines.
	const others = (lines: Seen[]) => lines.filter(line => line.number !== 701).map(line => [line.number, line.offset, line.text]);
	assert.deepEqual(others(compressed.lines), others(linesOf(plain).lines));
	assert.deepEqual(compressed.end, linesOf(plain).end);
});

test('a damaged compressed file is a typed error naming the file, not a crash', () => {
	assert.throws(() => linesOf(fixture('corrupt.txt.zst')), (error: Error & {code?: string}) => error.code === 'ZSTD_UNREADABLE' && error.message.includes('corrupt.txt.zst'));
});

test('a compressed line of many megabytes is joined once, not copied again at every piece', () => {
	// A Codex compacted record can be tens of megabytes on one line. Joining the unfinished line
	// with each decompressed piece took 17.6 s for this 24 MiB line; joined once, 0.3 s.
	const started = performance.now();
	const lengths: number[] = [];
	forEachLine(fixture('long-line.txt.zst'), raw => {
		lengths.push(raw.length);
	});
	assert.deepEqual(lengths, [10, 24 * 1024 * 1024, 9]);
	assert.ok(performance.now() - started < 4000, `read in ${Math.round(performance.now() - started)} ms`);
});
