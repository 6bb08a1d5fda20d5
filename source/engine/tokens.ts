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

/** The exact o200k count (long runs cut first, which changes counts by well under 1%). */
export async function exactTokenCounter(): Promise<(text: string) => number> {
	encoder ??= (async () => {
		const [{Tiktoken}, {default: ranks}] = await Promise.all([import('js-tiktoken/lite'), import('js-tiktoken/ranks/o200k_base')]);
		return new Tiktoken(ranks);
	})();
	const ready = await encoder;
	return text => cutLongRuns(text).reduce((sum, piece) => sum + ready.encode(piece).length, 0);
}
