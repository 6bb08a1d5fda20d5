import assert from 'node:assert/strict';
import test from 'node:test';
import fc from 'fast-check';
import {parseJsonLine, tornLineTail} from '../../source/adapters/shared/json-line.js';

/**
 * A writer that dies mid-record and writes the record again leaves the torn prefix and the whole
 * record on one line (github/copilot-cli#4098). Whatever the record and wherever the prefix was
 * cut, the whole record is what the line gives back.
 */
const record = fc.dictionary(fc.string({maxLength: 12}), fc.jsonValue({maxDepth: 1}), {minKeys: 1, maxKeys: 4});

test('a torn record followed by a whole one on its line gives back the whole one, wherever the cut', () => {
	fc.assert(
		fc.property(record, record, fc.double({min: 0, max: 1, noNaN: true}), (torn, whole, at) => {
			const tornText = JSON.stringify(torn);
			const cut = 1 + Math.floor(at * (tornText.length - 2));
			const line = tornText.slice(0, cut) + JSON.stringify(whole);
			fc.pre(parseJsonLine(line) === 'not_json');
			assert.deepEqual(tornLineTail(line), JSON.parse(JSON.stringify(whole)));
		}),
		{numRuns: 500},
	);
});

test('a line that is torn with nothing whole after it gives nothing back', () => {
	assert.equal(tornLineTail('{"type":"assistant.message","data":{"content":"never fin'), undefined);
	assert.equal(tornLineTail('{"type":"a","data":{"x":1},"more":{"y":'), undefined);
	assert.equal(tornLineTail('not json at all {"'), undefined);
});
