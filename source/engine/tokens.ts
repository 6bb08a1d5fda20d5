/**
 * o200k_base token counts. The exact count needs the rank table, so interactive paths use
 * `estimateTokens`, a cheap count calibrated never to under-count, and load the table (lazily,
 * once) only when an exact figure is asked for.
 */
export {estimateTokens} from './tokens-estimate.js';

type Ranks = {readonly pat_str: string; readonly bpe_ranks: string};
let counter: Promise<(text: string) => number> | undefined;

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

/** Most distinct pre-tokenised pieces kept with their counts before the memo starts afresh. */
const memoLimit = 500_000;

/**
 * The rank table as an open-addressing hash over the table's own text: each slot holds where a
 * token's base64 spelling starts in `bpe_ranks` and its rank. Building it reads the text once
 * and creates no strings, which matters: every exact count pays for it at start.
 */
function rankTable(text: string): (key: string) => number | undefined {
	const space = 32;
	const newline = 10;
	const fnv = (code: number, hash: number) => Math.imul(hash ^ code, 16_777_619);
	let size = 1;
	while (size < text.length / 4) {
		size *= 2; // Tokens take at least 5 characters of text each: at most half the slots fill.
	}

	const starts = new Int32Array(size).fill(-1);
	const ranks = new Int32Array(size);
	const tokenEnd = (start: number) => {
		let end = start;
		while (end < text.length && text.charCodeAt(end) !== space && text.charCodeAt(end) !== newline) {
			end++;
		}

		return end;
	};

	for (let line = 0; line < text.length; ) {
		// A line: a prefix, the rank of its first token, then tokens of consecutive ranks.
		const offsetStart = tokenEnd(line) + 1;
		const offsetEnd = tokenEnd(offsetStart);
		let rank = Number.parseInt(text.slice(offsetStart, offsetEnd), 10);
		let position = offsetEnd;
		while (position < text.length && text.charCodeAt(position) === space) {
			const start = position + 1;
			let hash = 2_166_136_261;
			let end = start;
			for (; end < text.length && text.charCodeAt(end) !== space && text.charCodeAt(end) !== newline; end++) {
				hash = fnv(text.charCodeAt(end), hash);
			}

			let slot = hash & (size - 1);
			while (starts[slot] !== -1) {
				slot = (slot + 1) & (size - 1);
			}

			starts[slot] = start;
			ranks[slot] = rank++;
			position = end;
		}

		line = position + 1;
	}

	return key => {
		let hash = 2_166_136_261;
		for (let index = 0; index < key.length; index++) {
			hash = fnv(key.charCodeAt(index), hash);
		}

		for (let slot = hash & (size - 1); starts[slot] !== -1; slot = (slot + 1) & (size - 1)) {
			const start = starts[slot]!;
			if (tokenEnd(start) - start === key.length && text.startsWith(key, start)) {
				return ranks[slot];
			}
		}

		return undefined;
	};
}

/**
 * The o200k count of text, as js-tiktoken's `encode(text, [], [])` gives it (special-token
 * strings are ordinary text), built from its rank table in a fraction of the time its encoder
 * takes (the encoder decodes all 200k ranks into byte keys up front; this looks up the base64
 * spelling of only the byte runs BPE asks about). Text is split by the table's own
 * pre-tokeniser pattern, and each distinct piece's count is remembered, so repeated fragments
 * (JSON keys, timestamps, a packet counted again with one entry more) cost a map lookup.
 */
export function o200kCounter(ranks: Ranks): (text: string) => number {
	const rank = rankTable(ranks.bpe_ranks);
	const pattern = new RegExp(ranks.pat_str, 'gu');
	const memo = new Map<string, number>();
	const pieceTokens = (piece: string): number => {
		const bytes = Buffer.from(piece, 'utf8');
		const rankOf = (start: number, end: number) => rank(bytes.toString('base64', start, end));
		if (bytes.length === 1 || rankOf(0, bytes.length) !== undefined) {
			return 1;
		}

		// Byte-pair merging: join the adjacent pair of lowest rank (the leftmost of equals) until no pair is a token.
		const bounds = Array.from({length: bytes.length + 1}, (_, index) => index);
		const pairs = Array.from({length: bytes.length - 1}, (_, index) => rankOf(index, index + 2) ?? Number.POSITIVE_INFINITY);
		for (;;) {
			let best = -1;
			for (let index = 0; index < pairs.length; index++) {
				if (pairs[index]! < (best === -1 ? Number.POSITIVE_INFINITY : pairs[best]!)) {
					best = index;
				}
			}

			if (best === -1) {
				return bounds.length - 1;
			}

			bounds.splice(best + 1, 1);
			pairs.splice(best, 1);
			if (best > 0) {
				pairs[best - 1] = rankOf(bounds[best - 1]!, bounds[best + 1]!) ?? Number.POSITIVE_INFINITY;
			}

			if (best < pairs.length) {
				pairs[best] = rankOf(bounds[best]!, bounds[best + 2]!) ?? Number.POSITIVE_INFINITY;
			}
		}
	};

	return text => {
		let total = 0;
		for (const run of cutLongRuns(text)) {
			pattern.lastIndex = 0;
			for (let match = pattern.exec(run); match !== null; match = pattern.exec(run)) {
				const piece = match[0];
				let count = memo.get(piece);
				if (count === undefined) {
					count = pieceTokens(piece);
					if (memo.size >= memoLimit) {
						memo.clear();
					}

					memo.set(piece, count);
				}

				total += count;
			}
		}

		return total;
	};
}

/** The exact o200k count (long runs cut first, which changes counts by well under 1%), loaded once per process. */
export async function exactTokenCounter(): Promise<(text: string) => number> {
	counter ??= (async () => {
		const {default: ranks} = await import('js-tiktoken/ranks/o200k_base');
		return o200kCounter(ranks);
	})();
	return counter;
}
