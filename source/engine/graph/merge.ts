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
	for (const [key, value] of Object.entries(payload)) {
		// reassert_of only makes a repeated event distinct; it is not a property of the node.
		if (key !== 'observed_utc' && key !== 'reassert_of') {
			merged[key] = value;
		}
	}

	const candidates = [merged['observed_utc'], eventObserved, payload['observed_utc']];
	merged['observed_utc'] = candidates.reduce<string>((latest, value) => (typeof value === 'string' && value > latest ? value : latest), '');
	return merged;
}

export function nodeKindOf(payload: Record<string, unknown>): string | undefined {
	const kind = payload['kind'] ?? payload['type'];
	return typeof kind === 'string' ? kind : undefined;
}
