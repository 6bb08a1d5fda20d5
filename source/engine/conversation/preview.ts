import * as z from 'zod/mini';
import {EngiError} from '../../lib/errors.js';
import {lazySchema} from '../../lib/lazy-schema.js';

export const previewSchema = lazySchema(() => z.object({
	/** The head of the text: its first half of the preview length (60 characters by default), or all of it when it fits. */
	preview: z.string(),
	/** The tail (the last 60 characters by default) when the middle was cut, else "". */
	preview_tail: z.string(),
	preview_truncated: z.boolean(),
	/** Length of the whole text in characters. */
	chars: z.number(),
	/** With --prune: the length of the output the note stands for. */
	omitted_chars: z.optional(z.number()),
}));

export type Preview = z.infer<typeof previewSchema>;

/** How many characters of a text a preview keeps (head and tail together), or `all` of it. */
export type PreviewLength = number | 'all';

/** The context view's previews unless told otherwise: 60 characters of head and 60 of tail. */
export const defaultPreviewLength = 120;

/** `--preview-chars`: a whole number of characters (0 keeps only the counts) or `all`. */
export function parsePreviewLength(value: string): PreviewLength {
	const trimmed = value.trim();
	if (trimmed === 'all') {
		return 'all';
	}

	if (!/^\d+$/.test(trimmed) || !Number.isSafeInteger(Number(trimmed))) {
		throw new EngiError('invalid_flag_value', `--preview-chars must be a whole number of characters or all, got "${value}"`, {hint: `e.g. --preview-chars 2000, or --preview-chars all for whole texts (default ${defaultPreviewLength})`});
	}

	return Number(trimmed);
}

/** Cuts at a character boundary, never between the halves of a surrogate pair. */
function cut(text: string, end: number): number {
	const code = text.charCodeAt(end - 1);
	return code >= 0xd8_00 && code <= 0xdb_ff ? end - 1 : end;
}

// Counting code points of a multi-megabyte output would cost more than the page itself.
const charsOf = (text: string) => (text.length > 1_000_000 ? text.length : [...text].length);

/** A bounded view of possibly huge text: its head and tail (`length` characters in all), with counts and a flag. */
export function previewOf(text: string, length: PreviewLength = defaultPreviewLength): Preview {
	if (length === 'all' || text.length <= length) {
		return {preview: text, preview_tail: '', preview_truncated: false, chars: charsOf(text)};
	}

	const head = text.slice(0, cut(text, Math.ceil(length / 2)));
	let tailStart = text.length - Math.floor(length / 2);
	const code = text.charCodeAt(tailStart);
	if (code >= 0xdc_00 && code <= 0xdf_ff) {
		tailStart++;
	}

	return {preview: head, preview_tail: text.slice(tailStart), preview_truncated: true, chars: charsOf(text)};
}

export function oneLine(text: string, max: number): string {
	const single = text.slice(0, max * 4).replaceAll(/\s+/g, ' ').trim();
	return single.length <= max ? single : single.slice(0, cut(single, max - 1)) + '…';
}
