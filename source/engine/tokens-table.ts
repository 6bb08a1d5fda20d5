/**
 * o200k_base's rank table in a form that is ready the moment it is read: an open-addressing hash
 * of every token's bytes to its rank, laid out as typed arrays in one buffer. The build writes it
 * to build/o200k.bin (scripts/build.mjs), so an exact count reads one file instead of compiling
 * js-tiktoken's 2.3 MB rank module and hashing 200k tokens at every start.
 *
 * Layout, in 32-bit words of the platform's byte order (the magic word tells a reader built on
 * another one): magic, slot count S (a power of two), rank count R, token bytes B, pattern
 * bytes P; then S slots (a rank, or -1 when empty), R + 1 offsets of each rank's bytes, the B
 * token bytes, and the pre-tokeniser pattern in UTF-8.
 */
export type RankTable = {
	/** The rank of bytes[start, end), or -1 when those bytes are not a token. */
	readonly rankOf: (bytes: Uint8Array, start: number, end: number) => number;
	/** The pre-tokeniser's regular expression source (js-tiktoken's `pat_str`). */
	readonly pattern: string;
};

type Ranks = {readonly pat_str: string; readonly bpe_ranks: string};

const magic = 0x6f_32_30_30; // 'o200'
const headerWords = 5;

function hashOf(bytes: Uint8Array, start: number, end: number): number {
	let hash = 2_166_136_261;
	for (let index = start; index < end; index++) {
		hash = Math.imul(hash ^ bytes[index]!, 16_777_619);
	}

	return hash;
}

/** The table as bytes, from js-tiktoken's ranks (lines of a prefix, the first rank, then base64 tokens of consecutive ranks). */
export function encodeRankTable(ranks: Ranks): Uint8Array {
	const tokens: Buffer[] = [];
	for (const line of ranks.bpe_ranks.split('\n')) {
		const [, first, ...spellings] = line.split(' ');
		if (first === undefined) {
			continue;
		}

		let rank = Number.parseInt(first, 10);
		for (const spelling of spellings) {
			tokens[rank++] = Buffer.from(spelling, 'base64');
		}
	}

	let slots = 1;
	while (slots < tokens.length * 2) {
		slots *= 2; // At most half the slots fill, so probes stay short.
	}

	const tokenBytes = tokens.reduce((sum, token) => sum + (token?.length ?? 0), 0);
	const pattern = Buffer.from(ranks.pat_str, 'utf8');
	const words = headerWords + slots + tokens.length + 1;
	const buffer = new ArrayBuffer(words * 4 + tokenBytes + pattern.length);
	const header = new Int32Array(buffer, 0, words);
	header.set([magic, slots, tokens.length, tokenBytes, pattern.length]);
	const table = header.subarray(headerWords, headerWords + slots).fill(-1);
	const offsets = header.subarray(headerWords + slots);
	const bytes = new Uint8Array(buffer, words * 4, tokenBytes);
	let offset = 0;
	for (const [rank, token] of tokens.entries()) {
		offsets[rank] = offset;
		if (token) {
			bytes.set(token, offset);
			let slot = hashOf(token, 0, token.length) & (slots - 1);
			while (table[slot] !== -1) {
				slot = (slot + 1) & (slots - 1);
			}

			table[slot] = rank;
			offset += token.length;
		}
	}

	offsets[tokens.length] = offset;
	new Uint8Array(buffer, words * 4 + tokenBytes).set(pattern);
	return new Uint8Array(buffer);
}

/** The table over bytes `encodeRankTable` made (read from a file, or just built), without copying them. */
export function decodeRankTable(data: Uint8Array): RankTable {
	const aligned = data.byteOffset % 4 === 0 ? data : data.slice();
	const header = new Int32Array(aligned.buffer, aligned.byteOffset, headerWords);
	if (header[0] !== magic) {
		throw new Error('the o200k rank table was written on a machine of another byte order, or is not one; rebuild it');
	}

	const [, slots = 0, rankCount = 0, tokenBytes = 0, patternBytes = 0] = header;
	const table = new Int32Array(aligned.buffer, aligned.byteOffset + headerWords * 4, slots);
	const offsets = new Int32Array(aligned.buffer, aligned.byteOffset + (headerWords + slots) * 4, rankCount + 1);
	const bytesStart = aligned.byteOffset + (headerWords + slots + rankCount + 1) * 4;
	const bytes = new Uint8Array(aligned.buffer, bytesStart, tokenBytes);
	const pattern = Buffer.from(aligned.buffer, bytesStart + tokenBytes, patternBytes).toString('utf8');
	const mask = slots - 1;
	return {
		pattern,
		rankOf(key, start, end) {
			const length = end - start;
			for (let slot = hashOf(key, start, end) & mask; table[slot] !== -1; slot = (slot + 1) & mask) {
				const rank = table[slot]!;
				const from = offsets[rank]!;
				if (offsets[rank + 1]! - from !== length) {
					continue;
				}

				let index = 0;
				while (index < length && bytes[from + index] === key[start + index]) {
					index++;
				}

				if (index === length) {
					return rank;
				}
			}

			return -1;
		},
	};
}
