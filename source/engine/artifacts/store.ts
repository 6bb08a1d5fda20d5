import {closeSync, constants, fstatSync, mkdirSync, openSync, readSync, statSync} from 'node:fs';
import {dirname, join, relative} from 'node:path';
import {EngiError, systemErrorCode, writeError} from '../../lib/errors.js';
import type {KbPaths} from '../kb/paths.js';
import {createAtomicFile} from '../../lib/atomic.js';
import {sha256, sha256OfDescriptor} from '../../lib/hash.js';

/** `03-output/artifacts/sha256/<first two hex>/<sha256>`: a file's bytes under their own digest. */
export function storedPath(paths: KbPaths, digest: string): string {
	return join(paths.artifacts, 'sha256', digest.slice(0, 2), digest);
}

export type Stored = {readonly sha256: string; readonly bytes: number; readonly path: string; readonly relativePath: string; readonly written: boolean};

/** True when the store already holds exactly these bytes (a damaged copy does not count). */
function holds(path: string, digest: string, bytes: number): boolean {
	let fd: number;
	try {
		fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
	} catch (error) {
		if (systemErrorCode(error) === 'ENOENT') {
			return false;
		}

		throw writeError(path, error);
	}

	try {
		return fstatSync(fd).isFile() && fstatSync(fd).size === bytes && sha256OfDescriptor(fd).sha256 === digest;
	} finally {
		closeSync(fd);
	}
}

/**
 * Copies what an open file holds into the store under its sha256: hashed first, then copied
 * through an atomic file that is renamed into place only if the copy hashes the same, so a file
 * that changes while it is copied is refused and the store never holds bytes under a wrong name.
 */
export function storeDescriptor(paths: KbPaths, fd: number, label: string): Stored {
	const {sha256: digest, bytes} = sha256OfDescriptor(fd);
	const path = storedPath(paths, digest);
	const result = {sha256: digest, bytes, path, relativePath: relative(paths.root, path)};
	if (holds(path, digest, bytes)) {
		return {...result, written: false};
	}

	try {
		mkdirSync(dirname(path), {recursive: true, mode: 0o700});
	} catch (error) {
		throw writeError(path, error);
	}

	const file = createAtomicFile(path, 0o600);
	const copied = sha256();
	const buffer = Buffer.allocUnsafe(1024 * 1024);
	let position = 0;
	for (;;) {
		const read = readSync(fd, buffer, 0, buffer.length, position);
		if (read === 0) {
			break;
		}

		file.write(buffer.subarray(0, read));
		copied.update(buffer.subarray(0, read));
		position += read;
	}

	file.commit(() => {
		if (position !== bytes || copied.digest('hex') !== digest) {
			throw new EngiError('source_changed', `${label} changed while it was copied into the artifact store`, {hint: 'nothing was stored; add it again once it stops changing'});
		}
	});
	return {...result, written: true};
}

/** Opens a file to store: it must be a regular file (a named symlink is followed to one). */
export function openSource(path: string): number {
	let stats;
	try {
		stats = statSync(path);
	} catch (error) {
		throw new EngiError('file_not_found', `${path} cannot be read (${systemErrorCode(error) ?? 'error'})`, {hint: 'pass an existing file'});
	}

	if (!stats.isFile()) {
		throw new EngiError('not_a_regular_file', `${path} is not a regular file`, {hint: 'artifact add takes a file; artifact add-tree records a directory'});
	}

	try {
		return openSync(path, 'r');
	} catch (error) {
		throw new EngiError('file_not_found', `${path} cannot be opened (${systemErrorCode(error) ?? 'error'})`);
	}
}
