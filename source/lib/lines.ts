import {closeSync, fstatSync, openSync, readSync} from 'node:fs';
import {forEachDecompressedLine} from './zstd-lines.js';

/** A Zstandard-compressed file's name ends so (Codex's cold rollouts: `.jsonl.zst`); its lines are read decompressed. */
export const compressedSuffix = '.zst';

/**
 * Streams a file line by line over one growing Buffer, never holding the whole file: splitting
 * on byte 10 ourselves is several times faster than readline, and a line is only decoded when
 * the caller asks for it. Line numbers are 1-based physical lines; offsets are byte positions.
 */
export type LineVisitor = (line: RawLine) => boolean | void;

export type RawLine = {
	/** 1-based physical line number. */
	readonly number: number;
	/** Byte offset of the first byte of the line. */
	readonly offset: number;
	/** Length in bytes, without the newline. */
	readonly length: number;
	/** False only for a final line with no trailing newline (still being written, or torn). */
	readonly terminated: boolean;
	/** True when the line exceeded `maxLineBytes`: its bytes were skipped, not buffered. */
	readonly oversized: boolean;
	/** Valid only while the visitor runs: the next file's lines are read into the same memory. */
	readonly buffer: Buffer;
	readonly start: number;
	readonly end: number;
};

/**
 * A line's text, without its CR (CRLF files) and, on a file's first line, without a UTF-8
 * byte-order mark (files saved by Windows editors and PowerShell open with one): Buffer's
 * decoder keeps the mark, and JSON.parse refuses it.
 */
export function decodeLine(line: RawLine): string {
	let end = line.end;
	if (end > line.start && line.buffer[end - 1] === 13) {
		end--;
	}

	const start = line.offset === 0 && startsWithByteOrderMark(line.buffer, line.start, end) ? line.start + 3 : line.start;
	return line.buffer.toString('utf8', start, end);
}

function startsWithByteOrderMark(buffer: Buffer, start: number, end: number): boolean {
	return end - start >= 3 && buffer[start] === 0xef && buffer[start + 1] === 0xbb && buffer[start + 2] === 0xbf;
}

export type ForEachLineOptions = {
	/** Byte offset to start at; must be the start of a line. */
	readonly fromOffset?: number;
	/** Line number of the line at `fromOffset`. */
	readonly fromLine?: number;
	/** Stop before this byte offset (lines starting at or after it are not visited). */
	readonly toOffset?: number;
	readonly chunkSize?: number;
	/** Lines longer than this are reported as `oversized` with no content (bounded memory). */
	readonly maxLineBytes?: number;
};

/**
 * Visits each line in order. Return `false` from the visitor to stop early. Returns the offset
 * just past the last complete (newline-terminated) line visited and the next line number.
 */
export function forEachLine(path: string, visit: LineVisitor, options: ForEachLineOptions = {}): {offset: number; nextLine: number} {
	if (path.endsWith(compressedSuffix)) {
		return forEachDecompressedLine(path, visit, options);
	}

	const fd = openSync(path, 'r');
	try {
		return forEachLineFd(fd, visit, options);
	} finally {
		closeSync(fd);
	}
}

/**
 * One read buffer kept between calls: a cold scan reads thousands of files in turn, and a fresh
 * buffer each (up to a chunk) costs page faults and external memory the GC must account for. A
 * call takes it while it reads (a nested call allocates its own) and gives it back at the end;
 * it always sees exactly the length it asked for, so reads and line growth go as before.
 */
let spareMemory: ArrayBuffer | undefined;
const spareBytes = 4 * 1024 * 1024;

function takeBuffer(size: number): Buffer {
	const spare = spareMemory;
	if (spare !== undefined && spare.byteLength >= size) {
		spareMemory = undefined;
		return Buffer.from(spare, 0, size);
	}

	return Buffer.allocUnsafeSlow(size); // Never from the shared pool: this memory may be kept.
}

function giveBack(taken: Buffer): void {
	const memory = taken.buffer as ArrayBuffer;
	if (memory.byteLength <= spareBytes && (spareMemory === undefined || spareMemory.byteLength < memory.byteLength)) {
		spareMemory = memory;
	}
}

export function forEachLineFd(fd: number, visit: LineVisitor, options: ForEachLineOptions = {}): {offset: number; nextLine: number} {
	const limit = options.toOffset ?? fstatSync(fd).size;
	// No bigger than what is left to read (most transcripts are far smaller than a chunk), and
	// never zero, so a line longer than the file's remaining bytes can still grow it.
	const chunkSize = options.chunkSize ?? 4 * 1024 * 1024;
	const taken = takeBuffer(Math.max(Math.min(64 * 1024, chunkSize), Math.min(chunkSize, limit - (options.fromOffset ?? 0) + 1)));
	try {
		return visitLines(fd, visit, options, limit, taken);
	} finally {
		giveBack(taken);
	}
}

function visitLines(fd: number, visit: LineVisitor, options: ForEachLineOptions, limit: number, first: Buffer): {offset: number; nextLine: number} {
	const maxLineBytes = options.maxLineBytes ?? Number.POSITIVE_INFINITY;
	let position = options.fromOffset ?? 0;
	let buffer = first;
	let lineNumber = options.fromLine ?? 1;
	let fill = 0;
	let bufferOffset = position; // File offset of buffer[0].
	let completeOffset = position;
	for (;;) {
		const wanted = Math.min(buffer.length - fill, Math.max(0, limit - position));
		const read = wanted > 0 ? readSync(fd, buffer, fill, wanted, position) : 0;
		position += read;
		const end = fill + read;
		let start = 0;
		let newline: number;
		// Search only the bytes read: past `end` the buffer holds stale bytes of earlier reads.
		const filled = buffer.subarray(0, end);
		while ((newline = filled.indexOf(10, start)) !== -1) {
			const line: RawLine = {
				number: lineNumber,
				offset: bufferOffset + start,
				length: newline - start,
				terminated: true,
				oversized: false,
				buffer,
				start,
				end: newline,
			};
			lineNumber++;
			start = newline + 1;
			completeOffset = bufferOffset + start;
			if (visit(line) === false) {
				return {offset: completeOffset, nextLine: lineNumber};
			}
		}

		if (read === 0) {
			if (start < end) {
				visit({number: lineNumber, offset: bufferOffset + start, length: end - start, terminated: false, oversized: false, buffer, start, end});
			}

			return {offset: completeOffset, nextLine: lineNumber};
		}

		const tail = end - start;
		if (start === 0 && tail === buffer.length && buffer.length * 2 > maxLineBytes) {
			// A line too long to hold: skip to its end without buffering and report it as oversized.
			const lineOffset = bufferOffset;
			let scan = position;
			let found = -1;
			while (found === -1 && scan < limit) {
				const n = readSync(fd, buffer, 0, Math.min(buffer.length, limit - scan), scan);
				if (n === 0) {
					break;
				}

				const index = buffer.subarray(0, n).indexOf(10);
				found = index === -1 ? -1 : scan + index;
				scan += n;
			}

			const lineEnd = found === -1 ? limit : found;
			const skipped: RawLine = {number: lineNumber, offset: lineOffset, length: lineEnd - lineOffset, terminated: found !== -1, oversized: true, buffer, start: 0, end: 0};
			lineNumber++;
			position = found === -1 ? limit : found + 1;
			bufferOffset = position;
			fill = 0;
			if (found !== -1) {
				completeOffset = position;
			}

			if (visit(skipped) === false || found === -1) {
				return {offset: completeOffset, nextLine: lineNumber};
			}

			continue;
		}

		if (start === 0 && tail === buffer.length) {
			// One line longer than the buffer: grow it rather than split the line.
			const grown = Buffer.allocUnsafe(buffer.length * 2);
			buffer.copy(grown, 0, 0, tail);
			buffer = grown;
		} else {
			buffer.copy(buffer, 0, start, end);
		}

		bufferOffset += start;
		fill = tail;
	}
}
