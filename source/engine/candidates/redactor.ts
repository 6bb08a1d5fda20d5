import * as z from 'zod/mini';
import {lazySchema} from '../../lib/lazy-schema.js';
import {clipMaskedReporting, maskedTailReporting} from '../search/secrets.js';

/** One secret-shaped span masked before a value was stored: where it was and which pattern, never the value. */
export const redactionSchema = lazySchema(() => z.object({
	/** The note field (or claim) the value went into. */
	field: z.string(),
	/** Transcript line the value came from, when it came from one. */
	line: z.nullable(z.number()),
	pattern: z.string(),
}));

export type Redaction = z.infer<typeof redactionSchema>;

/**
 * Masks every value on its way into a note or a served turn, and remembers what it masked, so
 * the caller can report it. Values are cut to a limit after masking (a secret across the cut is
 * masked whole).
 */
export function createRedactor() {
	const found: Redaction[] = [];
	return {
		found,
		clip(text: string, limit: number, where: {field: string; line: number | null}, options: {oneLine?: boolean} = {}): string {
			const clipped = clipMaskedReporting(text, limit, options);
			for (const pattern of clipped.patterns) {
				found.push({field: where.field, line: where.line, pattern});
			}

			return clipped.text;
		},
		/** The masked end of a text, `length` characters of it. */
		tail(text: string, length: number, where: {field: string; line: number | null}): string {
			const masked = maskedTailReporting(text, length);
			for (const pattern of masked.patterns) {
				found.push({field: where.field, line: where.line, pattern});
			}

			return masked.text.slice(-length);
		},
	};
}

export type Redactor = ReturnType<typeof createRedactor>;
