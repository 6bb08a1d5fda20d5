/** Plain-text building blocks for the human face: no colour, tabs between columns. */
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
