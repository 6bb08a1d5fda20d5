// utcIso (engine/catalog/summarize.ts) reads every event's timestamp of a cold scan, remembering
// the last it read: in any sequence, each answer must be the one a fresh reading gives.
import assert from 'node:assert/strict';
import test from 'node:test';
import fc from 'fast-check';
import {utcIso} from '../source/engine/catalog/summarize.js';

function readFresh(value: string | undefined | null): string | null {
	if (!value) {
		return null;
	}

	const time = Date.parse(value);
	return Number.isNaN(time) ? null : new Date(time).toISOString();
}

test('utcIso answers each timestamp of a sequence as a fresh reading does, repeats and spellings mixed', () => {
	const spellings = fc.oneof(
		fc.date({min: new Date('1999-01-01T00:00:00Z'), max: new Date('2040-12-31T23:59:59Z'), noInvalidDate: true}).map(date => date.toISOString()),
		fc.date({min: new Date('1999-01-01T00:00:00Z'), max: new Date('2040-12-31T23:59:59Z'), noInvalidDate: true}).map(date => date.toISOString().replace('.000Z', 'Z').replace('Z', '+02:00')),
		fc.constantFrom('2026-02-30T10:00:00.000Z', '2026-12-31T24:00:00.000Z', 'yesterday', '', '2026-03-01', '2026-01-31T23:59:59.999Z'),
	);
	fc.assert(
		fc.property(fc.array(spellings, {maxLength: 30}), fc.array(fc.nat(), {maxLength: 30}), (values, repeats) => {
			const sequence = values.flatMap((value, index) => Array.from({length: 1 + ((repeats[index] ?? 0) % 3)}, () => value));
			for (const value of sequence) {
				assert.equal(utcIso(value), readFresh(value), value);
			}
		}),
		{seed: 20_261_207, numRuns: 400},
	);
	assert.equal(utcIso(undefined), null);
	assert.equal(utcIso(null), null);
});
