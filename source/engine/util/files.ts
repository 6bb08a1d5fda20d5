import {closeSync, fstatSync, openSync, readSync, writeSync} from 'node:fs';

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

/** Writes the whole buffer, looping over short writes. */
export function writeAll(fd: number, bytes: Buffer): void {
	let written = 0;
	while (written < bytes.length) {
		written += writeSync(fd, bytes, written, bytes.length - written);
	}
}
