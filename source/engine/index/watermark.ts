import {closeSync, openSync, readSync, type Stats} from 'node:fs';
import {sha256Hex} from '../../lib/hash.js';

/**
 * How far the index has read the journal, and fingerprints of what it read. An unchanged stat
 * means nothing to do; a grown file whose first and last 64 KiB before the old end still hash
 * the same only grew, so just its new lines are applied; anything else is a rebuild.
 */
export type Watermark = {
	readonly bytes: number;
	readonly nextLine: number;
	readonly size: number;
	readonly mtimeMs: number;
	readonly ino: number;
	readonly head: string;
	readonly tail: string;
};

const sample = 64 * 1024;

function hashRange(fd: number, start: number, end: number): string {
	const length = Math.max(0, end - start);
	const buffer = Buffer.alloc(length);
	let read = 0;
	while (read < length) {
		const n = readSync(fd, buffer, read, length - read, start + read);
		if (n === 0) {
			break;
		}

		read += n;
	}

	return sha256Hex(buffer.subarray(0, read));
}

export function fingerprint(path: string, bytes: number): {head: string; tail: string} {
	if (bytes === 0) {
		const empty = sha256Hex();
		return {head: empty, tail: empty};
	}

	const fd = openSync(path, 'r');
	try {
		return {head: hashRange(fd, 0, Math.min(sample, bytes)), tail: hashRange(fd, Math.max(0, bytes - sample), bytes)};
	} finally {
		closeSync(fd);
	}
}

export function statUnchanged(mark: Watermark | undefined, stats: Stats | undefined): boolean {
	if (!mark) {
		return false;
	}

	if (!stats) {
		return mark.size === 0 && mark.bytes === 0;
	}

	return mark.size === stats.size && mark.mtimeMs === stats.mtimeMs && mark.ino === stats.ino;
}

export function onlyGrew(path: string, mark: Watermark, stats: Stats): boolean {
	if (stats.size < mark.bytes) {
		return false;
	}

	const now = fingerprint(path, mark.bytes);
	return now.head === mark.head && now.tail === mark.tail;
}
