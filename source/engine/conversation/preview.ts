import * as z from 'zod/mini';
import {lazySchema} from '../../lib/lazy-schema.js';

export const previewSchema = lazySchema(() => z.object({
	/** The first 60 characters (all of the text when it is 120 characters or fewer). */
	preview: z.string(),
	/** The last 60 characters when the middle was cut, else "". */
	preview_tail: z.string(),
	preview_truncated: z.boolean(),
	/** Length of the whole text in characters. */
	chars: z.number(),
}));

export type Preview = z.infer<typeof previewSchema>;

const edge = 60;

/** Cuts at a character boundary, never between the halves of a surrogate pair. */
function cut(text: string, end: number): number {
	const code = text.charCodeAt(end - 1);
	return code >= 0xd8_00 && code <= 0xdb_ff ? end - 1 : end;
}

/** A bounded view of possibly huge text: its head and tail, with counts and a flag. */
export function previewOf(text: string): Preview {
	if (text.length <= edge * 2) {
		return {preview: text, preview_tail: '', preview_truncated: false, chars: [...text].length};
	}

	const head = text.slice(0, cut(text, edge));
	let tailStart = text.length - edge;
	const code = text.charCodeAt(tailStart);
	if (code >= 0xdc_00 && code <= 0xdf_ff) {
		tailStart++;
	}

	// Counting code points of a multi-megabyte output would cost more than the page itself.
	return {preview: head, preview_tail: text.slice(tailStart), preview_truncated: true, chars: text.length > 1_000_000 ? text.length : [...text].length};
}

export function oneLine(text: string, max: number): string {
	const single = text.slice(0, max * 4).replaceAll(/\s+/g, ' ').trim();
	return single.length <= max ? single : single.slice(0, cut(single, max - 1)) + '…';
}
