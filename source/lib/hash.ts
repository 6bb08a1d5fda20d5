import {createRequire} from 'node:module';
import type * as NodeCrypto from 'node:crypto';

let crypto: typeof NodeCrypto | undefined;

/**
 * SHA-256 of some bytes or text, as hex. node:crypto takes several milliseconds to load and
 * most warm calls never hash anything, so it is loaded on the first hash instead of at start.
 */
export function sha256Hex(data: string | Uint8Array = ''): string {
	return sha256().update(data).digest('hex');
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
