/*
 * What engi says about a result, worked out one way everywhere: a count with its noun, where the
 * next page starts (`next_offset`), and a word of a command line to paste into a shell. One
 * module, not three: each of these tiny helpers on its own would be one more file for the bundle
 * to load at the start of nearly every listing.
 */

/** A count with its noun in the right number: `1 project`, `2 projects`, `plural(1, 'match', 'matches')`. */
export function plural(count: number, word: string, many = `${word}s`): string {
	return `${count} ${count === 1 ? word : many}`;
}

/**
 * Where the next page of a paged listing starts (`next_offset`): after the `shown` rows of a page
 * that began at `offset`, or null when they were the last of `total`.
 */
export function nextOffset(offset: number, shown: number, total: number): number | null {
	return offset + shown < total ? offset + shown : null;
}

/** A size in the largest binary unit it reaches, with one decimal: `512 B`, `12.3 KiB`, `1.2 MiB`. */
export function byteSize(bytes: number): string {
	const units = ['KiB', 'MiB', 'GiB', 'TiB'];
	let value = bytes;
	let unit = -1;
	while (value >= 1024 && unit < units.length - 1) {
		value /= 1024;
		unit++;
	}

	return unit < 0 ? `${bytes} B` : `${value.toFixed(1)} ${units[unit]}`;
}

/** A word for a printed shell command: as is when plainly safe, else single-quoted. */
export function shellWord(text: string): string {
	return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll('\'', '\'\\\'\'')}'`;
}
