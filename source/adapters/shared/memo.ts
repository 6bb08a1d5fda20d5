import * as z from 'zod/mini';
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
export function factsBook<T>(memo: DiscoveryMemo | undefined, root: string, facts: z.ZodMiniType<T>) {
	const entrySchema = z.record(z.string(), z.object({stamp: z.string(), facts}));
	const bookKey = `facts:${root}`;
	const stored = entrySchema.safeParse(memo?.get(bookKey, bookVersion));
	const known: Record<string, {stamp: string; facts: T}> = stored.success ? stored.data : {};
	const kept: Record<string, {stamp: string; facts: T}> = {};
	let changed = !stored.success;
	return {
		/** The facts remembered for `key` under `stamp`, else worked out by `compute` now. */
		facts(key: string, stamp: string, compute: () => T): T {
			const entry = known[key]?.stamp === stamp ? known[key] : {stamp, facts: compute()};
			changed ||= entry !== known[key];
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

const bookVersion = '1';

export type FactsBook<T> = ReturnType<typeof factsBook<T>>;
