/**
 * o200k_base token counts. Building the real encoder costs over a second on a slow machine, so
 * interactive paths use `estimateTokens`, a cheap count calibrated never to under-count, and
 * load js-tiktoken (lazily, once) only when an exact figure is asked for.
 */
export {estimateTokens} from './tokens-estimate.js';

type Encoder = {encode(text: string): number[]};
let encoder: Promise<Encoder> | undefined;

/** Splits runs longer than `max` characters without whitespace: BPE merging is quadratic in a run's length. */
export function cutLongRuns(text: string, max = 128): string[] {
	const pieces: string[] = [];
	let start = 0;
	let run = 0;
	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index);
		if (code === 32 || code === 10 || code === 9 || code === 13) {
			run = 0;
			continue;
		}

		run++;
		const isHighSurrogate = code >= 0xd8_00 && code <= 0xdb_ff;
		if (run >= max && !isHighSurrogate) {
			pieces.push(text.slice(start, index + 1));
			start = index + 1;
			run = 0;
		}
	}

	if (start < text.length) {
		pieces.push(text.slice(start));
	}

	return pieces;
}

const isSpace = (code: number) => code === 32 || code === 10 || code === 9 || code === 13 || code === 11 || code === 12;

/**
 * Cuts text where o200k's pre-tokenizer always starts a new piece, so the pieces' counts add up
 * to the text's: before a space that follows a character other than whitespace (no piece of its
 * pattern holds a non-space character followed by a space). Cuts are chosen by the few characters
 * before them, not by position, so text that differs in one place is cut the same elsewhere and
 * its other pieces are counted once, from the cache.
 */
export function tokenSegments(text: string): string[] {
	const segments: string[] = [];
	let start = 0;
	let hash = 0;
	for (let index = 1; index < text.length; index++) {
		const code = text.charCodeAt(index);
		hash = ((hash << 5) - hash + text.charCodeAt(index - 1)) | 0;
		if (code === 32 && !isSpace(text.charCodeAt(index - 1)) && index - start >= 32 && ((hash & 7) === 0 || index - start >= 4096)) {
			segments.push(text.slice(start, index));
			start = index;
			hash = 0;
		}
	}

	segments.push(text.slice(start));
	return segments;
}

const cacheLimit = 200_000;

/**
 * The exact o200k count (long runs cut first, which changes counts by well under 1%). Each
 * counter remembers the pieces it has counted (tokenSegments), so measuring one document many
 * times over with small changes, as budgets do, encodes only what changed.
 */
export async function exactTokenCounter(): Promise<(text: string) => number> {
	encoder ??= (async () => {
		const [{Tiktoken}, {default: ranks}] = await Promise.all([import('js-tiktoken/lite'), import('js-tiktoken/ranks/o200k_base')]);
		return new Tiktoken(ranks);
	})();
	const ready = await encoder;
	const counted = new Map<string, number>();
	return text => {
		let total = 0;
		for (const segment of tokenSegments(text)) {
			let tokens = counted.get(segment);
			if (tokens === undefined) {
				tokens = cutLongRuns(segment).reduce((sum, piece) => sum + ready.encode(piece).length, 0);
				if (counted.size >= cacheLimit) {
					counted.clear();
				}

				counted.set(segment, tokens);
			}

			total += tokens;
		}

		return total;
	};
}
