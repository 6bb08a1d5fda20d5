import type * as z from 'zod/mini';
import type {DiscoveryMemo} from '../types.js';

/**
 * Facts about a unit that only matter when it is read (its sidecar paths, hints from a summary
 * file), remembered under its fingerprint. The catalog reads a unit again only when its
 * fingerprint changes, and then takes these facts from this discovery, so working them out
 * again for an unchanged unit on every call would be wasted; with the same stamp they cannot
 * be staler than what the catalog already holds.
 */
export function rememberedFacts<T>(memo: DiscoveryMemo | undefined, key: string, stamp: string, schema: z.ZodMiniType<T>, compute: () => T): T {
	const remembered = schema.safeParse(memo?.get(key, stamp));
	if (remembered.success) {
		return remembered.data;
	}

	const facts = compute();
	memo?.set(key, stamp, facts);
	return facts;
}
