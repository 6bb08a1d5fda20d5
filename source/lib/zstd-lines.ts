import {closeSync, openSync, readSync} from 'node:fs';
import {createRequire} from 'node:module';
import type {ForEachLineOptions, LineVisitor, RawLine} from './lines.js';

/**
 * Lines of a Zstandard-compressed file (`.zst`), as forEachLine gives a plain file's: numbers
 * count the decompressed lines and offsets are positions in the decompressed text, so a catalog
 * mark or a snippet's place means the same in either. A read from an offset decompresses from
 * the start and visits only what lies at or after it: a compressed file cannot be entered in the
 * middle. Codex compresses rollouts idle for a week (`rollout-*.jsonl.zst`); node 20 has no
 * Zstandard, so fzstd (pure JavaScript, ~125 MB/s here) decompresses, loaded on first use.
 */
type Fzstd = {Decompress: new (ondata: (data: Uint8Array, final?: boolean) => void) => {push(chunk: Uint8Array, final?: boolean): void}};

let fzstd: Fzstd | undefined;
const decompressor = () => (fzstd ??= createRequire(import.meta.url)('fzstd') as Fzstd);

/** Compressed bytes read at a time; each read gets its own memory, since the decompressor may keep a view of it. */
const inputChunk = 256 * 1024;

/** A compressed file that does not decompress: its code names it, as a system error's would. */
export class CompressedFileError extends Error {
	readonly code = 'ZSTD_UNREADABLE';
}

/**
 * The largest window a frame may ask for: zstd's own decoder refuses more by default
 * (ZSTD_WINDOWLOG_LIMIT_DEFAULT, 2^27). fzstd allocates whatever the header says, up to 2 GB, so
 * a damaged content size in a single-segment frame's header (one flipped byte) would cost
 * gigabytes and seconds for a file of a few kilobytes.
 */
const maxWindowBytes = 128 * 1024 * 1024;

const le32 = (bytes: readonly number[], at: number) => (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0;
const frameMagic = 0xfd_2f_b5_28;
// Skippable frames (0x184D2A50 to 0x184D2A5F) hold data a decoder passes over: magic, a 4-byte length, that many bytes.
const isSkippable = (header: readonly number[]) => le32(header, 0) >>> 4 === 0x18_4d_2a_5;
/** The frame content size field's length: none, or one byte in a single-segment frame, when the flag is 0. */
const contentSizeBytes = (descriptor: number) => (descriptor >> 6 ? 1 << (descriptor >> 6) : (descriptor >> 5) & 1);

/** How long the header starting with `held` is: undefined until that is known, -1 when it is no frame's. */
function headerLength(held: readonly number[]): number | undefined {
	if (held.length < 5) {
		return undefined;
	}

	if (isSkippable(held)) {
		return 8;
	}

	const descriptor = held[4]!;
	return le32(held, 0) === frameMagic ? 6 - ((descriptor >> 5) & 1) + [0, 1, 2, 4][descriptor & 3]! + contentSizeBytes(descriptor) : -1;
}

/** The window a whole frame header declares: its window descriptor's, or a single-segment frame's content size (the header's last bytes). */
function frameWindow(header: readonly number[]): number {
	const descriptor = header[4]!;
	if (!((descriptor >> 5) & 1)) {
		// A power, not a shift: the exponent reaches 41, past 32-bit shifts.
		const exponent = 2 ** (10 + (header[5]! >> 3));
		return exponent + (exponent / 8) * (header[5]! & 7);
	}

	const sizeBytes = contentSizeBytes(descriptor);
	let size = 0;
	for (let index = header.length - 1; index >= header.length - sizeBytes; index--) {
		size = size * 256 + header[index]!;
	}

	return size + (sizeBytes === 2 ? 256 : 0);
}

/**
 * Follows the frames of a Zstandard stream by their headers and block headers as its bytes are
 * read, without decoding: a file may hold many frames (concatenated, or written one per flush),
 * and the decoder allocates each one's window when it meets its header, so every header has to
 * be checked before the bytes holding it are decoded, not only the first. Where the bytes stop
 * being frames the walk stops, and the decoder reports the damage.
 */
export function createFrameWalk(): (chunk: Uint8Array) => number {
	let skip = 0; // Bytes to pass over: a block's content, a checksum, a skippable frame.
	let held: number[] = []; // The header being read: a frame's (up to 18 bytes) or a block's (3).
	let inFrame = false;
	let checksum = false;
	let lost = false;
	/** The largest window declared by the frame headers that end in `chunk`. */
	return chunk => {
		let largest = 0;
		for (let at = 0; at < chunk.length && !lost; ) {
			if (skip > 0) {
				const passed = Math.min(skip, chunk.length - at);
				skip -= passed;
				at += passed;
				continue;
			}

			held.push(chunk[at++]!);
			if (!inFrame) {
				const length = headerLength(held);
				lost = length === -1;
				if (lost || length === undefined || held.length < length) {
					continue;
				}

				if (isSkippable(held)) {
					skip = le32(held, 4);
				} else {
					largest = Math.max(largest, frameWindow(held));
					checksum = ((held[4]! >> 2) & 1) === 1;
					inFrame = true;
				}

				held = [];
			} else if (held.length === 3) {
				const type = (held[0]! >> 1) & 3;
				// A raw or compressed block's bytes follow its header; an RLE block holds one byte, repeated.
				skip = type === 1 ? 1 : (held[0]! >> 3) | (held[1]! << 5) | (held[2]! << 13);
				lost = type === 3; // Reserved: the decoder refuses it.
				if (held[0]! & 1) {
					// The frame's last block, then its checksum when the descriptor says it has one.
					skip += checksum ? 4 : 0;
					inFrame = false;
				}

				held = [];
			}
		}

		return largest;
	};
}

export function forEachDecompressedLine(path: string, visit: LineVisitor, options: ForEachLineOptions = {}): {offset: number; nextLine: number} {
	const from = options.fromOffset ?? 0;
	const until = options.toOffset ?? Number.POSITIVE_INFINITY;
	const maxLineBytes = options.maxLineBytes ?? Number.POSITIVE_INFINITY;
	// The start of a line whose newline has not come yet, kept as the pieces it came in and joined
	// once when it ends: joining at every piece made a line of many megabytes (a Codex compacted
	// record) cost its length squared over the piece size in copies.
	let carry: Buffer[] = [];
	let earlierBytes = 0; // Bytes of the current line before this piece: carried, or dropped when too long.
	let lineStart = 0; // The current line's offset in the decompressed text.
	let skippingOversized = false; // Inside a line already reported too long: its bytes are dropped.
	let lineNumber = 1;
	let completeOffset = from;
	let nextLine = options.fromLine ?? 1;
	let stopped = false;

	const deliver = (line: RawLine): void => {
		if (line.offset >= until) {
			stopped = true;
			return;
		}

		if (line.offset >= from) {
			if (line.terminated && !line.oversized) {
				completeOffset = line.offset + line.length + 1;
				nextLine = line.number + 1;
			}

			if (visit(line) === false) {
				stopped = true;
			}
		}
	};

	/** The current line, ending at `newline` in `data`, whose part in `data` starts at `start`. */
	const endLine = (data: Buffer, start: number, newline: number): void => {
		const length = earlierBytes + (newline - start);
		if (skippingOversized) {
			// The end of a line reported too long: reading goes on after it.
			skippingOversized = false;
			if (lineStart >= from && lineStart < until) {
				completeOffset = lineStart + length + 1;
				nextLine = lineNumber + 1;
			}
		} else if (carry.length === 0) {
			deliver({number: lineNumber, offset: lineStart, length, terminated: true, oversized: false, buffer: data, start, end: newline});
		} else {
			const line = Buffer.concat([...carry, data.subarray(start, newline)]);
			deliver({number: lineNumber, offset: lineStart, length, terminated: true, oversized: false, buffer: line, start: 0, end: line.length});
		}

		carry = [];
		earlierBytes = 0;
		lineStart += length + 1;
		lineNumber++;
	};

	const take = (chunk: Uint8Array): void => {
		if (stopped) {
			return;
		}

		const data = Buffer.from(chunk); // A copy: the decoder reuses its output memory.
		let start = 0;
		let newline: number;
		while (!stopped && (newline = data.indexOf(10, start)) !== -1) {
			endLine(data, start, newline);
			start = newline + 1;
		}

		if (stopped || start === data.length) {
			return;
		}

		earlierBytes += data.length - start;
		if (skippingOversized) {
			return;
		}

		carry.push(data.subarray(start));
		if (earlierBytes > maxLineBytes) {
			// Too long to hold: reported once, with no content, and dropped up to its newline.
			deliver({number: lineNumber, offset: lineStart, length: earlierBytes, terminated: true, oversized: true, buffer: data, start: 0, end: 0});
			skippingOversized = true;
			carry = [];
		}
	};

	const fd = openSync(path, 'r');
	try {
		const stream = new (decompressor().Decompress)(take);
		const walk = createFrameWalk();
		for (let position = 0; !stopped; ) {
			const input = Buffer.allocUnsafe(inputChunk);
			const read = readSync(fd, input, 0, input.length, position);
			if (walk(input.subarray(0, read)) > maxWindowBytes) {
				throw new CompressedFileError(`${path}: not a readable Zstandard stream (its window is larger than ${maxWindowBytes / 1024 / 1024} MiB)`);
			}

			position += read;
			try {
				stream.push(input.subarray(0, read), read === 0);
			} catch (error) {
				throw new CompressedFileError(`${path}: not a readable Zstandard stream (${error instanceof Error ? error.message : 'error'})`);
			}

			if (read === 0) {
				break;
			}
		}
	} finally {
		closeSync(fd);
	}

	if (!stopped && carry.length > 0 && !skippingOversized) {
		const last = Buffer.concat(carry);
		deliver({number: lineNumber, offset: lineStart, length: last.length, terminated: false, oversized: false, buffer: last, start: 0, end: last.length});
	}

	return {offset: completeOffset, nextLine};
}
