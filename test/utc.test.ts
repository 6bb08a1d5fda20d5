import assert from 'node:assert/strict';
import test from 'node:test';
import {canonicalUtc, isCanonicalUtc, isUtcIsoString} from '../source/lib/time.js';

test('isCanonicalUtc accepts exactly the times that survive a Date round trip, leap days included', () => {
	const pad = (value: number, width = 2) => String(value).padStart(width, '0');
	const byDate = (value: string) => !Number.isNaN(new Date(value).getTime()) && canonicalUtc(new Date(value)) === value;
	for (const year of [0, 4, 100, 400, 1900, 1969, 1970, 2000, 2024, 2025, 2100, 9999]) {
		for (let month = 0; month <= 13; month++) {
			for (let day = 0; day <= 32; day++) {
				for (const [hour, minute, second] of [[0, 0, 0], [23, 59, 59], [24, 0, 0], [12, 60, 0], [12, 0, 60]] as const) {
					const value = `${pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}:${pad(second)}Z`;
					assert.equal(isCanonicalUtc(value), byDate(value), value);
				}
			}
		}
	}

	for (const value of ['2026-0a-01T00:00:00Z', '2026-01-01T0x:00:00Z', '2026-01-01T00:00:0-Z', '202 -01-01T00:00:00Z', '2026/01/01T00:00:00Z', '2026-01-01t00:00:00Z', '2026-01-01T00-00:00Z', '2026-01-01T00:00:00z', '٢٠٢٦-01-01T00:00:00Z', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00+00:00', '2026-01-01 00:00:00Z', ' 2026-01-01T00:00:00Z', 20_260_101, null]) {
		assert.equal(isCanonicalUtc(value), false, String(value));
	}
});

test('isUtcIsoString accepts exactly the times toISOString writes back unchanged, leap days included', () => {
	const pad = (value: number, width = 2) => String(value).padStart(width, '0');
	const byDate = (value: string) => !Number.isNaN(new Date(value).getTime()) && new Date(value).toISOString() === value;
	for (const year of [0, 4, 100, 400, 1900, 1969, 1970, 2000, 2024, 2025, 2100, 9999]) {
		for (let month = 0; month <= 13; month++) {
			for (let day = 0; day <= 32; day++) {
				for (const [hour, minute, second, milli] of [[0, 0, 0, 0], [23, 59, 59, 999], [24, 0, 0, 0], [12, 60, 0, 5], [12, 0, 60, 0]] as const) {
					const value = `${pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}:${pad(second)}.${pad(milli, 3)}Z`;
					assert.equal(isUtcIsoString(value), byDate(value), value);
				}
			}
		}
	}

	for (const value of ['2026-01-01T00:00:00Z', '2026-01-01T00:00:00.00Z', '2026-01-01T00:00:00.0000Z', '2026-01-01T00:00:00,000Z', '2026-01-01T00:00:00.0a0Z', '2026-01-01T00:00:00.000z', '2026-01-01T00:00:00.000+00:00', '2026-01-01 00:00:00.000Z', '+02026-01-01T00:00:00.000Z']) {
		assert.equal(isUtcIsoString(value), false, value);
	}
});
