import type {SessionEvent, SessionRow} from '../../adapters/events.js';
import {filesTouched} from '../conversation/tool-calls.js';
import {maxRowText, type TextDoc} from './line-doc.js';
import {maskedHead, maskedHeadReadsWhole} from './secrets.js';

/**
 * What of a transcript row is searchable: what people and assistants wrote, which tools ran and
 * which files they touched. Raw tool output stays out (it is most of the bytes, and mostly noise),
 * and secret-shaped strings are masked before anything is indexed.
 */
export function searchableText(events: readonly SessionEvent[]): string {
	return maskRowText(rowText(events));
}

/** What of a row is searchable, not masked yet. */
function rowText(events: readonly SessionEvent[]): string {
	const parts: string[] = [];
	for (const event of events) {
		if ((event.kind === 'user' || event.kind === 'assistant') && event.text) {
			parts.push(event.text);
		} else if (event.kind === 'tool_call' && event.tool) {
			parts.push(event.tool.name, ...filesTouched(event));
			const input = event.tool.input;
			if (input && typeof input === 'object' && !Array.isArray(input)) {
				for (const key of ['file_path', 'path', 'filePath', 'file', 'pattern', 'query']) {
					const value = (input as Record<string, unknown>)[key];
					if (typeof value === 'string' && value.length < 500) {
						parts.push(value);
					}
				}
			}
		}
	}

	return parts.join('\n');
}

/** A row's text as it is indexed: masked before the cut, so a secret straddling it is not indexed in part. */
function maskRowText(text: string): string {
	return maskedHead(text, maxRowText).slice(0, maxRowText);
}

/**
 * A row's document. With `maskLater`, a text masking reads whole in one pass is handed on
 * unmasked (`raw`), for the catalog's writing thread to mask (settleDoc) as it indexes it: a
 * cold build spent ~6% of its reading thread masking. A longer one (a huge paste, whose masked
 * head may take more than one window) is masked here, as are all without `maskLater`.
 */
export function rowDoc(row: SessionRow, offset: number | null = row.offset ?? null, maskLater = false): TextDoc | undefined {
	const raw = rowText(row.events);
	if (maskLater && maskedHeadReadsWhole(raw, maxRowText)) {
		return raw.trim() === '' ? undefined : {line: row.line, offset, text: raw, raw: true};
	}

	const text = maskRowText(raw);
	return text.trim() === '' ? undefined : {line: row.line, offset, text};
}

/** A document as it is indexed: a raw one masked, or undefined when nothing but blanks is left (as rowDoc gives none). */
export function settleDoc(doc: TextDoc): TextDoc | undefined {
	if (!doc.raw) {
		return doc;
	}

	const text = maskRowText(doc.text);
	return text.trim() === '' ? undefined : {line: doc.line, offset: doc.offset, text};
}
