import {visible} from '../output/text.js';

/**
 * Colours and symbols in one place. Ink (through chalk) drops colour under NO_COLOR, FORCE_COLOR=0
 * or a pipe; meaning never rests on colour alone, so every status also has a word or a symbol.
 */
export const theme = {
	accent: 'cyan',
	muted: 'gray',
	selected: 'cyan',
	warning: 'yellow',
	error: 'red',
	ok: 'green',
	confidence: {high: 'red', medium: 'yellow', low: 'gray'} as Record<string, string>,
	status: {active: 'green', blocked: 'red', completed: 'gray', superseded: 'gray'} as Record<string, string>,
	pointer: '›',
};

/** A compact age of at most four characters, so age columns stay aligned: 5m, 3h, 2d, 364d, 3y. */
export function ageOf(iso: string | null, now: Date): string {
	if (!iso) {
		return '?';
	}

	const minutes = Math.max(0, Math.round((now.getTime() - Date.parse(iso)) / 60_000));
	if (minutes < 60) {
		return `${minutes}m`;
	}

	const hours = Math.round(minutes / 60);
	if (hours < 48) {
		return `${hours}h`;
	}

	const days = Math.round(hours / 24);
	return days < 365 ? `${days}d` : `${Math.min(999, Math.floor(days / 365))}y`;
}

/**
 * A line of ` · `-separated parts cut to `width` between parts, never inside one: the parts that
 * fit, then `…` when some did not.
 */
export function fitParts(text: string, width: number): string {
	const parts = text.split(' · ');
	let shown = '';
	for (const [index, part] of parts.entries()) {
		const next = shown === '' ? part : `${shown} · ${part}`;
		const more = index < parts.length - 1 ? ' · …'.length : 0;
		if (next.length + more > width) {
			return shown === '' ? fit(part, width) : `${shown} · …`;
		}

		shown = next;
	}

	return shown;
}

/**
 * One line, cut to `width` characters with an ellipsis. Every screen's text goes through here
 * (or `editable`), so a control character from a transcript is shown, never sent (`visible`).
 */
export function fit(text: string, width: number): string {
	const single = visible(text).replaceAll(/\s+/g, ' ').trim();
	if (width <= 1) {
		return single.slice(0, Math.max(0, width));
	}

	return single.length <= width ? single : single.slice(0, width - 1) + '…';
}

/**
 * The text of a field being edited: kept exactly as typed (spaces included, so the caret sits
 * where the next letter goes), on one line, and when too long the end is shown, since that is
 * where typing happens.
 */
export function editable(text: string, width: number): string {
	const single = visible(text.replaceAll(/[\r\n\t]/g, ' '));
	if (single.length <= width) {
		return single;
	}

	return width <= 1 ? single.slice(-Math.max(0, width)) : '…' + single.slice(single.length - width + 1);
}
