/**
 * A line's searchable text as the catalog stores it, apart from how it is made
 * (session-text.ts): the catalog's writer joins documents on every refresh, warm ones included,
 * and has no use for the masking and tool-call readers that make them.
 */

/** The longest text of one row that goes into the session index; the rest of a huge paste adds little. */
export const maxRowText = 8000;

/**
 * One line's searchable text. `offset` is the byte offset of the physical line its rows can be
 * read back from (for snippets without loading the whole session), or null when they cannot.
 * `raw`: the text is not masked yet (see rowDoc's `maskLater`); it is, by settleDoc, before it
 * is indexed or joined.
 */
export type TextDoc = {readonly line: number; readonly offset: number | null; readonly text: string; readonly raw?: true};

/**
 * One document per line: rows that share a line (records glued onto one line, messages restored
 * from one checkpoint) are indexed together, readable from one offset only if they all agree.
 */
export function joinLineDocs(earlier: TextDoc, doc: TextDoc): TextDoc {
	// Both masked (settled) by the writer before.
	return {line: doc.line, offset: earlier.offset === doc.offset ? doc.offset : null, text: `${earlier.text}\n${doc.text}`.slice(0, maxRowText)};
}
