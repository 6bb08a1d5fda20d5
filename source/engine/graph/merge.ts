/**
 * One `node.upsert` applied to a node's merged payload: each top-level key replaces the old
 * value, and `observed_utc` keeps the latest of the stored value, the payload's and the event's.
 */
export function mergeUpsert(
	current: Record<string, unknown> | undefined,
	payload: Record<string, unknown>,
	eventObserved: string,
): Record<string, unknown> {
	const merged: Record<string, unknown> = current ? {...current} : {};
	// Plain loops: replay runs this for every upsert of a journal, and arrays made per call add up.
	for (const key in payload) {
		// reassert_of only makes a repeated event distinct; it is not a property of the node.
		if (Object.hasOwn(payload, key) && key !== 'observed_utc' && key !== 'reassert_of') {
			merged[key] = payload[key];
		}
	}

	let latest = '';
	for (const value of [merged['observed_utc'], eventObserved, payload['observed_utc']]) {
		if (typeof value === 'string' && value > latest) {
			latest = value;
		}
	}

	merged['observed_utc'] = latest;
	return merged;
}

export function nodeKindOf(payload: Record<string, unknown>): string | undefined {
	const kind = payload['kind'] ?? payload['type'];
	return typeof kind === 'string' ? kind : undefined;
}
