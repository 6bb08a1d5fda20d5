/**
 * Rowids of the session text index: a unit's number times 2^32 plus the line. Lines stay below
 * 2^32 and unit numbers below 2^21, so every rowid is a safe JavaScript integer; arithmetic, not
 * bit operators, because those work on 32 bits.
 */
/** Rowids per unit: `rowid / textRowidSpan` is the unit's number, in SQL as in JavaScript. */
export const textRowidSpan = 2 ** 32;
const lineSpan = textRowidSpan;
export const maxTextUnits = 2 ** 21;

export function textRowid(unit: number, line: number): number {
	return unit * lineSpan + line;
}

/**
 * The unit a text_fts or text_counts rowid belongs to, as SQL over a rowid column: the searches
 * split rowids in SQLite, which hands over small integers, not the rowids.
 */
export function unitOfTextRowidSql(rowid: string): string {
	return `(${rowid} / ${lineSpan})`;
}

export function lineOfTextRowid(rowid: number): number {
	return rowid % lineSpan;
}

/** The rowid range [first, last] of one unit's documents. */
export function textRowidRange(unit: number): [number, number] {
	return [unit * lineSpan, unit * lineSpan + lineSpan - 1];
}

/** Batches per unit, and lines per batch, that text_counts can number (see termCountRowid). */
export const maxCountBatches = 2 ** 16;
export const maxCountLines = 2 ** 16;

/** The rowid of a text_counts document: the words `lines` lines of a unit's batch hold. */
export function termCountRowid(unit: number, batch: number, lines: number): number {
	return unit * lineSpan + batch * maxCountLines + lines;
}

/** How many lines a text_counts document's words are on, as SQL over a rowid column. */
export function linesOfTermCountRowidSql(rowid: string): string {
	return `(${rowid} % ${maxCountLines})`;
}
