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

/** The window the frame at the start of `data` declares (0 when it is no Zstandard frame header). */
export function frameWindow(data: Uint8Array): number {
	if (data.length < 6 || data[0] !== 0x28 || data[1] !== 0xb5 || data[2] !== 0x2f || data[3] !== 0xfd) {
		return 0;
	}

	const descriptor = data[4]!;
	const singleSegment = (descriptor >> 5) & 1;
	if (!singleSegment) {
		const exponent = 1 << (10 + (data[5]! >> 3));
		return exponent + (exponent / 8) * (data[5]! & 7);
	}

	const contentSizeFlag = descriptor >> 6;
	const at = 5 + [0, 1, 2, 4][descriptor & 3]!;
	const size = contentSizeFlag === 0 ? 1 : 1 << contentSizeFlag;
	let contentSize = 0;
	for (let index = size - 1; index >= 0; index--) {
		contentSize = contentSize * 256 + (data[at + index] ?? 0);
	}

	return contentSize + (contentSizeFlag === 1 ? 256 : 0);
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
		for (let position = 0; !stopped; ) {
			const input = Buffer.allocUnsafe(inputChunk);
			const read = readSync(fd, input, 0, input.length, position);
			if (position === 0 && frameWindow(input.subarray(0, read)) > maxWindowBytes) {
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
