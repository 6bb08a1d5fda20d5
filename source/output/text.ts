/** Plain-text building blocks for the human face: no colour, tabs between columns. */

/**
 * Text as a terminal shows it, never as it would act on the terminal. Transcripts hold whatever
 * a tool printed, escape sequences included (`ESC]0;title BEL` retitles the window, `ESC[2J`
 * clears it), and human output has no escapes of its own: every control character but the
 * newline and the tab is shown instead of sent, C0 ones by their Unicode control pictures
 * (ESC as ␛), DEL as ␡, C1 ones and the bidirectional overrides (which reorder what is shown)
 * as \u escapes. A CRLF line ending is a newline.
 */
export function visible(text: string): string {
	return text.replaceAll('\r\n', '\n').replaceAll(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g, character => {
		const code = character.codePointAt(0)!;
		if (code < 0x20) {
			return String.fromCodePoint(0x24_00 + code);
		}

		return code === 0x7f ? '\u2421' : `\\u${code.toString(16).padStart(4, '0')}`;
	});
}

/**
 * A fence no line of the text can close: longer than its longest run of backticks (CommonMark
 * closes a fence only with one at least as long), so quoted text cannot break out of it.
 */
export function fenceFor(text: string): string {
	const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map(match => match[0].length));
	return '`'.repeat(Math.max(3, longest + 1));
}

export function tsv(rows: ReadonlyArray<ReadonlyArray<unknown>>): string {
	return rows.map(row => row.map(cell => cleanCell(cell)).join('\t')).join('\n');
}

/** A cell never contains tabs or newlines, so every row stays one line that `cut` can split. */
export function cleanCell(value: unknown): string {
	if (value === null || value === undefined) {
		return '';
	}

	const text = typeof value === 'string' ? value : Array.isArray(value) ? value.map(item => cleanCell(item)).join(',') : typeof value === 'object' ? JSON.stringify(value) : String(value);
	return text.replaceAll(/[\t\r\n]+/g, ' ');
}

export function lines(...parts: Array<string | false | undefined | null>): string {
	return parts.filter((part): part is string => typeof part === 'string').join('\n');
}

/** Shortens one-line text to `max` characters, marking the cut. */
export function clip(text: string, max: number): string {
	const single = text.replaceAll(/\s+/g, ' ').trim();
	return single.length <= max ? single : single.slice(0, Math.max(0, max - 1)) + '…';
}

function scalar(value: unknown): string {
	return typeof value === 'string' ? value : JSON.stringify(value) ?? 'undefined';
}

/**
 * Any JSON value as indented `key: value` lines, for records whose shape engi does not own
 * (native transcript records, node payloads): readable, greppable, one field a line, multi-line
 * strings indented under their key. Below `depth` levels the rest is one line of JSON.
 */
export function fieldLines(value: unknown, indent = '', depth = 12): string[] {
	if (value === null || typeof value !== 'object') {
		return [`${indent}${scalar(value)}`];
	}

	const entries: Array<[string, unknown]> = Array.isArray(value) ? value.map((item, index) => [`[${index}]`, item]) : Object.entries(value);
	return entries.flatMap(([key, item]) => {
		if (item !== null && typeof item === 'object' && Object.keys(item).length > 0) {
			return depth > 0 ? [`${indent}${key}:`, ...fieldLines(item, `${indent}  `, depth - 1)] : [`${indent}${key}: ${JSON.stringify(item)}`];
		}

		const text = scalar(item);
		return text.includes('\n') ? [`${indent}${key}: |`, ...text.split('\n').map(line => `${indent}  ${line}`)] : [`${indent}${key}: ${text}`];
	});
}

/** An answer's state and its reasons in one line: `degraded (quarantined_pages: 2 wiki pages are held…)`. */
export function stateText(state: string, reasons: ReadonlyArray<{readonly code: string; readonly detail: string}>): string {
	return reasons.length === 0 ? state : `${state} (${reasons.map(reason => `${reason.code}: ${reason.detail}`).join('; ')})`;
}
