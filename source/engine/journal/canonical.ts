import {sha256Hex} from '../../lib/hash.js';

/**
 * Compact JSON with object keys sorted at every depth; arrays keep their order and non-ASCII text
 * is written raw (JSON.stringify never escapes it). Identical values always give identical bytes,
 * which is what makes event ids and node hashes content addresses.
 */
export function canonicalJson(value: unknown): string {
	return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
	if (Array.isArray(value)) {
		return value.map(item => sortKeys(item));
	}

	if (value !== null && typeof value === 'object') {
		const sorted: Record<string, unknown> = {};
		for (const key of Object.keys(value).sort()) {
			const item = (value as Record<string, unknown>)[key];
			if (item !== undefined) {
				sorted[key] = sortKeys(item);
			}
		}

		return sorted;
	}

	return value;
}

/**
 * The bytes an event id is computed from: `{"v":"engi/v1","op":…,"payload":…}` with the
 * payload's own top-level `observed_utc` removed, because it is the one volatile field.
 */
export function canonicalEventText(op: string, payload: Record<string, unknown>): string {
	const {observed_utc: _observed, ...stable} = payload;
	return `{"v":"engi/v1","op":${JSON.stringify(op)},"payload":${canonicalJson(stable)}}`;
}

export function eventId(op: string, payload: Record<string, unknown>): string {
	return sha256Hex(canonicalEventText(op, payload));
}
