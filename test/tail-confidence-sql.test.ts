import assert from 'node:assert/strict';
import test from 'node:test';
import fc from 'fast-check';
import {confidenceOf, reasonsFor, tailConfidenceSql} from '../source/engine/continuity/reasons.js';
import type {TailState} from '../source/engine/continuity/tail.js';
import {openDatabase} from '../source/lib/sqlite.js';

const line = fc.nat({max: 10_000});
const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, {nil: null});
const tailArbitrary: fc.Arbitrary<TailState> = fc.record({
	bounded: fc.boolean(),
	last_line: line,
	last_activity: maybe(fc.constant('2026-11-20T09:00:00.000Z')),
	last_human: maybe(fc.record({line, text: fc.string(), timestamp: maybe(fc.constant('2026-11-20T09:00:00.000Z'))})),
	last_assistant: maybe(fc.record({line, timestamp: maybe(fc.constant('2026-11-20T09:00:00.000Z'))})),
	unanswered: maybe(fc.record({line})),
	pending: fc.array(fc.record({line, name: fc.string(), call_id: maybe(fc.string())}), {maxLength: 7}),
	failure: maybe(fc.record({line, name: maybe(fc.string()), exit_code: maybe(fc.integer({min: -1, max: 255})), preview: fc.string()})),
	interruption: maybe(fc.record({line, detail: fc.string()})),
	ends_with_reply: fc.boolean(),
});

test('tailConfidenceSql gives every stored tail the confidence reasonsFor and confidenceOf give it (no checkpoint, not written right now)', () => {
	const db = openDatabase(':memory:');
	const confidence = db.prepare(`SELECT ${tailConfidenceSql('tail')} FROM (SELECT ? AS tail)`).pluck();
	const seen = new Set<string>();
	fc.assert(
		fc.property(tailArbitrary, tail => {
			const expected = confidenceOf(reasonsFor(tail, undefined, false));
			seen.add(expected);
			assert.equal(confidence.get(JSON.stringify(tail)), expected);
		}),
		{seed: 19, numRuns: 2000},
	);
	db.close();
	assert.deepEqual([...seen].sort(), ['high', 'low', 'medium'], 'the runs reach every confidence');
});
