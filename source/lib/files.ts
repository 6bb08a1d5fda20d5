import {closeSync, fstatSync, fsyncSync, ftruncateSync, openSync, readSync, writeSync} from 'node:fs';
import {writeError} from './errors.js';

/** True when a file is empty, missing, or ends in a newline (so an append starts a fresh line). */
export function endsWithNewline(path: string): boolean {
	let fd: number;
	try {
		fd = openSync(path, 'r');
	} catch {
		return true;
	}

	try {
		const size = fstatSync(fd).size;
		if (size === 0) {
			return true;
		}

		const last = Buffer.alloc(1);
		readSync(fd, last, 0, 1, size - 1);
		return last[0] === 10;
	} finally {
		closeSync(fd);
	}
}

/**
 * Writes the whole buffer, looping over short writes: a nearly full disk or a file size limit
 * accepts part of a write and fails the next, so a single write call can never be trusted.
 */
export function writeAll(fd: number, bytes: Uint8Array): void {
	let written = 0;
	while (written < bytes.length) {
		const count = writeSync(fd, bytes, written, bytes.length - written);
		if (count <= 0) {
			throw Object.assign(new Error('the write made no progress'), {code: 'EIO'});
		}

		written += count;
	}
}

/**
 * Appends bytes to a file opened for appending and fsyncs them. If any of it fails, the file is
 * cut back to the length it had, so a partial line is never left behind (the caller holds the
 * file's lock: nobody else appends meanwhile), and a typed error says why.
 */
export function appendDurably(fd: number, path: string, bytes: Uint8Array): void {
	const before = fstatSync(fd).size;
	try {
		writeAll(fd, bytes);
		fsyncSync(fd);
	} catch (error) {
		try {
			ftruncateSync(fd, before);
			fsyncSync(fd);
		} catch {}

		throw writeError(path, error);
	}
}
