import {readSync} from 'node:fs';
import {createRequire} from 'node:module';
import type * as NodeCrypto from 'node:crypto';

let crypto: typeof NodeCrypto | undefined;

/**
 * SHA-256 of some bytes or text, as hex. node:crypto takes several milliseconds to load and
 * most warm calls never hash anything, so it is loaded on the first hash instead of at start.
 */
export function sha256Hex(data: string | Uint8Array = ''): string {
	crypto ??= createRequire(import.meta.url)('node:crypto') as typeof NodeCrypto;
	// The one-shot form (Node 20.12+) skips a Hash object per call: a cold scan hashes every Codex message.
	return typeof crypto.hash === 'function' ? crypto.hash('sha256', data, 'hex') : sha256().update(data).digest('hex');
}

/** An incremental SHA-256, for bytes that arrive in pieces (loaded as lazily as sha256Hex). */
export function sha256(): NodeCrypto.Hash {
	return createHash('sha256');
}

/** MD5 as hex: only for matching names other tools derive with it (Cursor's workspace hashes). */
export function md5Hex(data: string | Uint8Array = ''): string {
	return createHash('md5').update(data).digest('hex');
}

function createHash(algorithm: string): NodeCrypto.Hash {
	crypto ??= createRequire(import.meta.url)('node:crypto') as typeof NodeCrypto;
	return crypto.createHash(algorithm);
}

const fileChunk = 1024 * 1024;

/** SHA-256 and length of everything an open file holds, read in bounded chunks from the start. */
export function sha256OfDescriptor(fd: number): {sha256: string; bytes: number} {
	const hash = sha256();
	const buffer = Buffer.allocUnsafe(fileChunk);
	let bytes = 0;
	for (;;) {
		const read = readSync(fd, buffer, 0, fileChunk, bytes);
		if (read === 0) {
			break;
		}

		hash.update(buffer.subarray(0, read));
		bytes += read;
	}

	return {sha256: hash.digest('hex'), bytes};
}
