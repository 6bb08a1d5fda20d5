import type {DiscoveryMemo} from '../types.js';

/**
 * Facts about the units of one store root that only matter when a unit is read (its sidecar
 * paths, hints from a summary file), remembered under each unit's fingerprint. The catalog reads
 * a unit again only when its fingerprint changes, and then takes these facts from that
 * discovery, so working them out again for unchanged units on every call would be wasted; with
 * the same stamp they cannot be staler than what the catalog already holds.
 *
 * The whole root is one memo entry (one read per call, one write when anything changed), and
 * units that were not asked about this time are forgotten when it is saved.
 */
export function factsBook<T>(memo: DiscoveryMemo | undefined, root: string, isFacts: (value: unknown) => value is T) {
	const bookKey = `facts:${root}`;
	const stored = memo?.get(bookKey, bookVersion);
	// Each entry is checked when it is asked for, not the whole book up front, and by a plain
	// guard, not a schema: a warm call asks for every unit, and at 15,000 sessions a zod parse of
	// each entry cost more than stating its files.
	const known = (typeof stored === 'object' && stored !== null && !Array.isArray(stored) ? stored : {}) as Record<string, unknown>;
	const kept: Record<string, {stamp: string; facts: T}> = {};
	let changed = known !== stored;
	return {
		/** The facts remembered for `key` under `stamp`, else worked out by `compute` now. */
		facts(key: string, stamp: string, compute: () => T): T {
			const remembered = rememberedFacts(known[key], stamp, isFacts);
			const entry = remembered ?? {stamp, facts: compute()};
			changed ||= remembered === undefined;
			kept[key] = entry;
			return entry.facts;
		},
		/** Writes the book back when a unit's facts were worked out or a unit disappeared. */
		save(): void {
			if (memo && (changed || Object.keys(known).length !== Object.keys(kept).length)) {
				memo.set(bookKey, bookVersion, kept);
			}
		},
	};
}

/** A stored entry when it is for this stamp and its facts have the expected shape. */
function rememberedFacts<T>(entry: unknown, stamp: string, isFacts: (value: unknown) => value is T): {stamp: string; facts: T} | undefined {
	if (typeof entry !== 'object' || entry === null || (entry as {stamp?: unknown}).stamp !== stamp) {
		return undefined;
	}

	const {facts} = entry as {facts?: unknown};
	return isFacts(facts) ? {stamp, facts} : undefined;
}

/** Guards for the facts books' shapes (plain JSON values a book stored). */
export const isOptionalString = (value: unknown): value is string | undefined => value === undefined || typeof value === 'string';

const bookVersion = '1';

export type FactsBook<T> = ReturnType<typeof factsBook<T>>;
