/**
 * How many tool call ids a normaliser's line state remembers. The two records of one call (its
 * request and its start, or its output and its end event) come within a few lines of each
 * other, parallel calls a few dozen at most; the state is carried in the catalog between scans,
 * so it must not grow with a session's number of calls.
 */
export const rememberedCallIds = 256;

/**
 * Sets `id` in a record of recently seen ids, forgetting the oldest one past `limit`. Plain
 * JSON, so it survives the catalog; objects iterate string keys in insertion order (ids that
 * look like integers come first, so they are forgotten first: harmless).
 */
export function rememberId<T>(record: Record<string, T>, id: string, value: T, limit = rememberedCallIds): void {
	const known = Object.hasOwn(record, id);
	record[id] = value;
	if (known) {
		return;
	}

	let excess = Object.keys(record).length - limit;
	for (const oldest in record) {
		if (excess <= 0) {
			break;
		}

		delete record[oldest];
		excess--;
	}
}
