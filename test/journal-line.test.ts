import assert from 'node:assert/strict';
import test from 'node:test';
import {seededRandom} from '../bench/lib/random.js';
import {journalEnvelope, journalLineSchema, journalOps, payloadChecks, payloadSchemas} from '../source/engine/journal/schema.js';

// Values every field is tried with: each kind of JSON value, and the edge cases of each rule.
const pool: unknown[] = [undefined, null, true, 0, 1.5, -1, Number.NaN, Number.POSITIVE_INFINITY, '', ' ', '\t\n', 'x', ' y ', '2026-01-01T00:00:00Z', '2026-02-30T00:00:00Z', '2026-01-01T00:00:00+01:00', '2024-02-29T23:59:59Z', [], ['a'], {}, {a: 1}];
const fields = ['id', 'kind', 'label', 'provenance', 'from', 'type', 'to', 'weight', 'valid_from', 'valid_until', 'status'];

function randomObject(random: ReturnType<typeof seededRandom>, keys: readonly string[]): Record<string, unknown> {
	const value: Record<string, unknown> = {};
	for (const key of keys) {
		const picked = random.pick(pool);
		if (picked !== undefined || random.next() < 0.5) {
			value[key] = picked;
		}
	}

	return value;
}

test('the journal line predicates answer exactly as the zod schemas do', () => {
	const random = seededRandom(3);
	for (let round = 0; round < 20_000; round++) {
		const payload = randomObject(random, fields);
		for (const op of journalOps) {
			assert.equal(payloadChecks[op](payload), payloadSchemas[op].safeParse(payload).success, `${op} ${JSON.stringify(payload)}`);
		}

		const envelope = {...randomObject(random, ['id', 'observed_utc', 'op']), ...(random.next() < 0.8 ? {payload: random.next() < 0.8 ? payload : random.pick(pool)} : {}), ...(random.next() < 0.1 ? {extra: 1} : {})};
		const parsed = journalLineSchema.safeParse(envelope);
		const checked = journalEnvelope(envelope);
		assert.equal(checked !== undefined, parsed.success, JSON.stringify(envelope));
		if (parsed.success) {
			assert.deepEqual(checked, parsed.data, 'unknown envelope keys are dropped, as zod drops them');
		}
	}
});
