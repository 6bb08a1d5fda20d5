import type {Hash} from 'node:crypto';
import {closeSync, existsSync, fchmodSync, fstatSync, fsyncSync, linkSync, openSync, readSync, renameSync, statSync, unlinkSync} from 'node:fs';
import {basename, dirname, join} from 'node:path';
import {EngiError, systemErrorCode, writeError} from './errors.js';
import {writeAll} from './files.js';
import {processAlive} from './process-alive.js';
import {sha256} from './hash.js';

/**
 * A replacement for a file, written beside it and renamed over it only once every byte is
 * known to be on disk: readers see the old content or the new, never a mix, and any failure
 * (a full disk, a short write, a lost lock) leaves the old file exactly as it was.
 */
export type AtomicFile = {
	/** Appends to the replacement; a failure removes it and throws a typed error. */
	write(bytes: Uint8Array): void;
	/**
	 * Makes the replacement durable, reads it back to check every byte, runs `beforeRename`
	 * (the caller's last chance to refuse, e.g. when it no longer holds its lock), then renames.
	 * `exclusive`: only if nothing is at the path yet; false (and nothing written) when something is.
	 */
	commit(beforeRename?: () => void, options?: {exclusive?: boolean}): boolean;
	/** Removes the replacement; the original is untouched. */
	abort(): void;
};

/** `.<name>.<pid>.<ms>.tmp`: its writer's pid, so a temporary whose writer died can be told from one being written. */
const temporaryName = /^\..+\.(\d+)\.\d+\.tmp$/;

/** New files are owner-only; a replaced file keeps its own mode. */
export function createAtomicFile(path: string, mode = modeOf(path) ?? 0o600): AtomicFile {
	const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
	let fd: number | undefined;
	try {
		fd = openSync(temporary, 'wx+', mode);
		fchmodSync(fd, mode); // The umask narrowed the mode we asked for; a replacement keeps the original's.
	} catch (error) {
		discard(fd, temporary);
		throw writeError(path, error);
	}

	const opened = fd;
	const hash = sha256();
	let size = 0;
	let closed = false;
	const abort = () => {
		discard(closed ? undefined : opened, temporary);
		closed = true;
	};
	return {
		write(bytes) {
			try {
				writeAll(opened, bytes);
			} catch (error) {
				abort();
				throw writeError(path, error);
			}

			hash.update(bytes);
			size += bytes.length;
		},
		commit(beforeRename, options = {}) {
			let placed: boolean;
			try {
				fsyncSync(opened);
				verify(opened, size, hash);
				beforeRename?.();
				closeSync(opened);
				closed = true;
				placed = options.exclusive ? placeExclusively(temporary, path) : (renameSync(temporary, path), true);
			} catch (error) {
				abort();
				throw writeError(path, error);
			}

			if (!placed) {
				abort();
				return false;
			}

			fsyncDirectory(dirname(path));
			return true;
		},
		abort,
	};
}

/**
 * Whether a file name is a temporary of createAtomicFile's whose writer is no longer running:
 * a writer killed mid-write never renames nor removes its own. A live writer's, this process's
 * included, is not.
 */
export function isStaleTemporary(name: string): boolean {
	const pid = temporaryName.exec(name)?.[1];
	return pid !== undefined && !processAlive(Number(pid));
}

/** Writes a whole file atomically (see AtomicFile). */
export function writeFileAtomic(path: string, content: string | Uint8Array): void {
	const file = createAtomicFile(path);
	file.write(typeof content === 'string' ? Buffer.from(content) : content);
	file.commit();
}

/** Writes a new file atomically, never over an existing one: false, and nothing written, when `path` exists. */
export function createFileAtomic(path: string, content: string | Uint8Array): boolean {
	const file = createAtomicFile(path, 0o600);
	file.write(typeof content === 'string' ? Buffer.from(content) : content);
	return file.commit(undefined, {exclusive: true});
}

/**
 * Moves the finished temporary file to `path` unless something is there already. A hard link
 * fails with EEXIST rather than replacing, so two writers can never both win; a file system
 * without hard links falls back to a check and a rename.
 */
function placeExclusively(temporary: string, path: string): boolean {
	try {
		linkSync(temporary, path);
	} catch (error) {
		const code = systemErrorCode(error);
		if (code === 'EEXIST') {
			return false;
		}

		if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') {
			throw error;
		}

		if (existsSync(path)) {
			return false;
		}

		renameSync(temporary, path);
		return true;
	}

	unlinkSync(temporary);
	return true;
}

/** Reads the written file back: its size and its bytes' hash must be exactly what was written. */
function verify(fd: number, size: number, written: Hash): void {
	const actual = fstatSync(fd).size;
	if (actual !== size) {
		throw new EngiError('write_failed', `the replacement file holds ${actual} bytes, not the ${size} written`);
	}

	const reread = sha256();
	const buffer = Buffer.allocUnsafe(Math.min(4 * 1024 * 1024, Math.max(1, size)));
	for (let position = 0; position < size; ) {
		const read = readSync(fd, buffer, 0, Math.min(buffer.length, size - position), position);
		if (read === 0) {
			break;
		}

		reread.update(buffer.subarray(0, read));
		position += read;
	}

	if (reread.digest('hex') !== written.digest('hex')) {
		throw new EngiError('write_failed', 'the replacement file does not read back as written');
	}
}

function discard(fd: number | undefined, temporary: string): void {
	try {
		if (fd !== undefined) {
			closeSync(fd);
		}
	} catch {}

	try {
		unlinkSync(temporary);
	} catch {}
}

function modeOf(path: string): number | undefined {
	try {
		return statSync(path).mode & 0o7777;
	} catch (error) {
		if (systemErrorCode(error) === 'ENOENT') {
			return undefined;
		}

		throw writeError(path, error);
	}
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
