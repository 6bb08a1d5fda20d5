/** `YYYY-MM-DDTHH:MM:SSZ`: whole seconds, UTC, exactly 20 characters. */
export function canonicalUtc(date: Date): string {
	return date.toISOString().slice(0, 19) + 'Z';
}

const monthDays = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The number the ASCII digits at text[start, start + length) spell, or -1 when one is not a digit. */
function digitsAt(text: string, start: number, length: number): number {
	let result = 0;
	for (let index = start; index < start + length; index++) {
		const digit = text.charCodeAt(index) - 48;
		if (digit < 0 || digit > 9) {
			return -1;
		}

		result = result * 10 + digit;
	}

	return result;
}

/**
 * A real moment in canonical form (`YYYY-MM-DDTHH:MM:SSZ`): the shape and the calendar checked
 * on the characters (leap years as the Gregorian calendar has them), since every journal line's
 * time passes through here and a pattern match, or building a Date, costs more than parsing it.
 */
export function isCanonicalUtc(value: unknown): value is string {
	if (typeof value !== 'string' || value.length !== 20 || value.charCodeAt(19) !== 90) {
		return false;
	}

	return isRealMoment(value);
}

/**
 * A real moment in the form toISOString writes (`YYYY-MM-DDTHH:MM:SS.mmmZ`, years 0000–9999):
 * parsing it and writing it again gives it back unchanged. Most stores write this form, and a
 * cold catalog scan meets it on every event.
 */
export function isUtcIsoString(value: string): boolean {
	return value.length === 24 && value.charCodeAt(19) === 46 && digitsAt(value, 20, 3) >= 0 && value.charCodeAt(23) === 90 && isRealMoment(value);
}

/** `YYYY-MM-DDTHH:MM:SS` at the start of `value`, a moment the calendar has. */
function isRealMoment(value: string): boolean {
	// - - T : :
	if (value.charCodeAt(4) !== 45 || value.charCodeAt(7) !== 45 || value.charCodeAt(10) !== 84 || value.charCodeAt(13) !== 58 || value.charCodeAt(16) !== 58) {
		return false;
	}

	const year = digitsAt(value, 0, 4);
	const month = digitsAt(value, 5, 2);
	const day = digitsAt(value, 8, 2);
	const hour = digitsAt(value, 11, 2);
	const minute = digitsAt(value, 14, 2);
	const second = digitsAt(value, 17, 2);
	const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
	return year >= 0 && month >= 1 && month <= 12 && day >= 1 && day <= monthDays[month - 1]! + (month === 2 && leap ? 1 : 0) && hour >= 0 && hour <= 23 && minute >= 0 && minute <= 59 && second >= 0 && second <= 59;
}

/** The UTC calendar date, used to name quarantine files. */
export function utcDate(date: Date): string {
	return date.toISOString().slice(0, 10);
}
