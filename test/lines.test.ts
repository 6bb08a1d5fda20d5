// forEachLine shares one read buffer between calls (lib/lines.ts): a call nested in a visitor,
// files read one after another, a line that grows the buffer and a chunk smaller than a line
// must each still see exactly the bytes of their own file.
import assert from 'node:assert/strict';
import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {decodeLine, forEachLine} from '../source/lib/lines.js';
import {tempDir} from './helpers/temp.js';

function lines(path: string, chunkSize?: number): string[] {
	const seen: string[] = [];
	forEachLine(path, raw => {
		seen.push(decodeLine(raw));
	}, chunkSize === undefined ? {} : {chunkSize});
	return seen;
}

test('lines read through the shared buffer are each file\'s own, nested or in turn', t => {
	const dir = tempDir(t);
	const big = join(dir, 'big.jsonl');
	const small = join(dir, 'small.jsonl');
	const long = 'x'.repeat(200 * 1024);
	writeFileSync(big, ['{"a":1}', long, '{"b":2}', ''].join('\n'));
	writeFileSync(small, 'one\ntwo\nthree');
	assert.deepEqual(lines(big), ['{"a":1}', long, '{"b":2}']); // Leaves its buffer for the next call.
	const outer: string[] = [];
	const inner: string[][] = [];
	forEachLine(big, raw => {
		outer.push(decodeLine(raw));
		inner.push(lines(small)); // Nested: must not write into the buffer the outer call reads from.
	});
	assert.deepEqual(outer, ['{"a":1}', long, '{"b":2}']);
	assert.deepEqual(inner, [['one', 'two', 'three'], ['one', 'two', 'three'], ['one', 'two', 'three']]);
	for (let round = 0; round < 3; round++) {
		assert.deepEqual(lines(small), ['one', 'two', 'three']);
		assert.deepEqual(lines(big), ['{"a":1}', long, '{"b":2}']);
		assert.deepEqual(lines(big, 16), ['{"a":1}', long, '{"b":2}']);
		assert.deepEqual(lines(small, 2), ['one', 'two', 'three']);
	}
});
