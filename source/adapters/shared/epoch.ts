/** Below this a number is Unix seconds, above it milliseconds: 1e11 s is past the year 5000, 1e11 ms is 1973. */
const secondsBefore = 1e11;

/**
 * A Unix time in seconds (whole or fractional) or milliseconds, as an ISO string; undefined for
 * anything no session could have been written at (before 2001, or past the year 5000 in
 * milliseconds), so a counter or a placeholder never passes for a time.
 */
export function epochIso(value: unknown): string | undefined {
	if (typeof value !== 'number' || !Number.isFinite(value) || value < 1e9 || value >= 1e14) {
		return undefined;
	}

	return new Date(Math.round(value < secondsBefore ? value * 1000 : value)).toISOString();
}
