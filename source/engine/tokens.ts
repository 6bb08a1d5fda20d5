/**
 * o200k_base token counts. The exact count needs the rank table, so interactive paths use
 * `estimateTokens`, a cheap count calibrated never to under-count, and load the table (lazily,
 * once) only when an exact figure is asked for.
 */
import {readFileSync} from 'node:fs';
import type {RankTable} from './tokens-table.js';

export {estimateTokens} from './tokens-estimate.js';

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

/**
 * The pre-tokeniser's pattern as it reads ASCII text: each Unicode class by the ASCII characters
 * it holds (letters by case, digits, nothing for marks and other letters), without the `u` flag.
 * On text of ASCII only it splits exactly as the whole pattern does, and V8 compiles and runs it
 * in a fraction of the time the Unicode property classes take (about 15 ms on a first packet).
 * Undefined when the pattern holds a class this does not know, so the whole one is always used.
 */
export function asciiPattern(pattern: string): RegExp | undefined {
	const ascii = pattern
		.replaceAll(String.raw`[^\s\p{L}\p{N}]`, String.raw`[^\sA-Za-z0-9]`)
		.replaceAll(String.raw`[^\r\n\p{L}\p{N}]`, String.raw`[^\r\nA-Za-z0-9]`)
		.replaceAll(String.raw`[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]`, '[A-Z]')
		.replaceAll(String.raw`[\p{Ll}\p{Lm}\p{Lo}\p{M}]`, '[a-z]')
		.replaceAll(String.raw`\p{N}`, '[0-9]');
	return ascii.includes(String.raw`\p`) || ascii.includes(String.raw`\P`) ? undefined : new RegExp(ascii, 'g');
}

const nonAscii = /[^\u0000-\u007f]/;

/** Most distinct pre-tokenised pieces kept with their counts before the memo starts afresh. */
const memoLimit = 500_000;

/**
 * The o200k count of text, as js-tiktoken's `encode(text, [], [])` gives it (special-token
 * strings are ordinary text), from its rank table in a fraction of the time its encoder takes
 * (the encoder decodes all 200k ranks into byte keys up front; this looks up only the byte runs
 * BPE asks about). Text is split by the table's own pre-tokeniser pattern, and each distinct
 * piece's count is remembered, so repeated fragments (JSON keys, timestamps, a packet counted
 * again with one entry more) cost a map lookup.
 */
export function o200kCounter(table: RankTable): (text: string) => number {
	const {rankOf} = table;
	const ascii = asciiPattern(table.pattern);
	let unicode: RegExp | undefined;
	const memo = new Map<string, number>();
	const pieceTokens = (piece: string): number => {
		const bytes = Buffer.from(piece, 'utf8');
		if (bytes.length === 1 || rankOf(bytes, 0, bytes.length) !== -1) {
			return 1;
		}

		const pairRank = (start: number, end: number) => {
			const rank = rankOf(bytes, start, end);
			return rank === -1 ? Number.POSITIVE_INFINITY : rank;
		};

		// Byte-pair merging: join the adjacent pair of lowest rank (the leftmost of equals) until no pair is a token.
		const bounds = Array.from({length: bytes.length + 1}, (_, index) => index);
		const pairs = Array.from({length: bytes.length - 1}, (_, index) => pairRank(index, index + 2));
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
				pairs[best - 1] = pairRank(bounds[best - 1]!, bounds[best + 1]!);
			}

			if (best < pairs.length) {
				pairs[best] = pairRank(bounds[best]!, bounds[best + 2]!);
			}
		}
	};

	return text => {
		const pattern = ascii && !nonAscii.test(text) ? ascii : (unicode ??= new RegExp(table.pattern, 'gu'));
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

/**
 * The rank table: the one the build wrote beside the bundle (build/o200k.bin, read from a
 * bundle's chunk or from source), or, when running from source without a build, made from
 * js-tiktoken's ranks here. Its module loads only here, so a command that only estimates never does.
 */
async function loadRankTable(): Promise<RankTable> {
	const {decodeRankTable, encodeRankTable} = await import('./tokens-table.js');
	for (const file of ['../o200k.bin', '../../build/o200k.bin']) {
		try {
			return decodeRankTable(readFileSync(new URL(file, import.meta.url)));
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
				throw error;
			}
		}
	}

	const {default: ranks} = await import('js-tiktoken/ranks/o200k_base');
	return decodeRankTable(encodeRankTable(ranks));
}

/** The exact o200k count (long runs cut first, which changes counts by well under 1%), loaded once per process. */
export async function exactTokenCounter(): Promise<(text: string) => number> {
	counter ??= loadRankTable().then(o200kCounter);
	return counter;
}
