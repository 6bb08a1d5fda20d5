import {closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync} from 'node:fs';
import {basename, dirname, join} from 'node:path';

/** Writes a file so readers see either the old or the new content, never a torn mix. */
export function writeFileAtomic(path: string, content: string | Uint8Array): void {
	const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
	const fd = openSync(temporary, 'w', 0o644);
	try {
		writeSync(fd, typeof content === 'string' ? Buffer.from(content) : content);
		fsyncSync(fd);
	} catch (error) {
		closeSync(fd);
		unlinkSync(temporary);
		throw error;
	}

	closeSync(fd);
	renameSync(temporary, path);
	fsyncDirectory(dirname(path));
}

/** Makes a rename durable: the directory entry itself must reach the disk. */
export function fsyncDirectory(path: string): void {
	let fd: number | undefined;
	try {
		fd = openSync(path, 'r');
		fsyncSync(fd);
	} catch {
		// Some file systems refuse fsync on directories; the rename is still atomic.
	} finally {
		if (fd !== undefined) {
			closeSync(fd);
		}
	}
}
