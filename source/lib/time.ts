/** `YYYY-MM-DDTHH:MM:SSZ`: whole seconds, UTC, exactly 20 characters. */
export function canonicalUtc(date: Date): string {
	return date.toISOString().slice(0, 19) + 'Z';
}

const canonicalUtcPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

export function isCanonicalUtc(value: unknown): value is string {
	if (typeof value !== 'string' || !canonicalUtcPattern.test(value)) {
		return false;
	}

	const parsed = new Date(value);
	return !Number.isNaN(parsed.getTime()) && canonicalUtc(parsed) === value;
}

/** The UTC calendar date, used to name quarantine files. */
export function utcDate(date: Date): string {
	return date.toISOString().slice(0, 10);
}
