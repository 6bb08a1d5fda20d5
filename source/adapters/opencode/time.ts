/** OpenCode stores times as epoch milliseconds; an ISO string, or undefined when not a usable time. */
export function isoTime(value: number | null | undefined): string | undefined {
	if (typeof value !== 'number' || !Number.isFinite(value)) {
		return undefined;
	}

	const date = new Date(value);
	// Out-of-range values make an invalid Date, whose toISOString() would throw.
	return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
