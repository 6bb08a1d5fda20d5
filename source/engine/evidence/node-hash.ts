import {canonicalJson} from '../journal/canonical.js';
import {sha256Hex} from '../../lib/hash.js';

/**
 * The pin of a materialised node: SHA-256 of its compact JSON with keys sorted at every depth,
 * `id` and the merged `observed_utc` included. `engi query --view evidence` prints it, an
 * evidence contract pins it, and any change to the node (a later upsert) changes it.
 */
export function nodeSha256(node: Record<string, unknown>): string {
	return sha256Hex(canonicalJson(node));
}
