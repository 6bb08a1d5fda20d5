/** `YYYY-MM-DDTHH:MM:SSZ`: whole seconds, UTC, exactly 20 characters. */
export function canonicalUtc(date: Date): string {
	return date.toISOString().slice(0, 19) + 'Z';
}

const canonicalUtcPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const monthDays = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * A real moment in canonical form: the calendar checked by arithmetic on the digits (leap years
 * as the Gregorian calendar has them), since every journal line's time passes through here and
 * building a Date for each costs more than parsing the line.
 */
export function isCanonicalUtc(value: unknown): value is string {
	if (typeof value !== 'string' || !canonicalUtcPattern.test(value)) {
		return false;
	}

	const number = (start: number, length: number) => {
		let result = 0;
		for (let index = start; index < start + length; index++) {
			result = result * 10 + value.charCodeAt(index) - 48;
		}

		return result;
	};

	const year = number(0, 4);
	const month = number(5, 2);
	const day = number(8, 2);
	const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
	return month >= 1 && month <= 12 && day >= 1 && day <= monthDays[month - 1]! + (month === 2 && leap ? 1 : 0) && number(11, 2) <= 23 && number(14, 2) <= 59 && number(17, 2) <= 59;
}

/** The UTC calendar date, used to name quarantine files. */
export function utcDate(date: Date): string {
	return date.toISOString().slice(0, 10);
}
