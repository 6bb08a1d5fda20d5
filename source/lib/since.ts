import {EngiError} from './errors.js';

/**
 * Parses a `--since` value into an absolute UTC instant: `3d`, `48h`, `90m`, `2w`, `today`,
 * `yesterday`, `YYYY-MM-DD` (local midnight, as a person means it) or an RFC3339 time.
 */
export function parseSince(value: string, now: Date): Date {
	const text = value.trim().toLowerCase();
	const relative = /^(\d+)\s*(m|h|d|w)$/.exec(text);
	if (relative) {
		const amount = Number(relative[1]);
		const unit = {m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000}[relative[2] as 'm' | 'h' | 'd' | 'w'];
		return new Date(now.getTime() - amount * unit);
	}

	if (text === 'today' || text === 'yesterday') {
		const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate());
		return text === 'today' ? midnight : new Date(midnight.getFullYear(), midnight.getMonth(), midnight.getDate() - 1);
	}

	const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
	if (date) {
		const parsed = new Date(Number(date[1]), Number(date[2]) - 1, Number(date[3]));
		if (parsed.getMonth() === Number(date[2]) - 1) {
			return parsed;
		}
	}

	if (/^\d{4}-\d{2}-\d{2}t\d{2}:\d{2}(:\d{2}(\.\d+)?)?(z|[+-]\d{2}:\d{2})$/.test(text)) {
		const parsed = new Date(value.trim());
		if (!Number.isNaN(parsed.getTime())) {
			return parsed;
		}
	}

	throw new EngiError('invalid_flag_value', `--since: cannot read "${value}"`, {
		hint: 'use 3d, 48h, 2w, today, yesterday, YYYY-MM-DD or an RFC3339 time',
	});
}

/** The start of the last working day before today (Monday looks back to Friday). */
export function lastWorkingDay(now: Date): Date {
	const day = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1);
	while (day.getDay() === 0 || day.getDay() === 6) {
		day.setDate(day.getDate() - 1);
	}

	return day;
}
