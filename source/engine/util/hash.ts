import {createRequire} from 'node:module';
import type * as NodeCrypto from 'node:crypto';

let crypto: typeof NodeCrypto | undefined;

/**
 * SHA-256 of some bytes or text, as hex. node:crypto takes several milliseconds to load and
 * most warm calls never hash anything, so it is loaded on the first hash instead of at start.
 */
export function sha256Hex(data: string | Uint8Array = ''): string {
	return digestHex('sha256', data);
}

/** MD5 as hex: only for matching names other tools derive with it (Cursor's workspace hashes). */
export function md5Hex(data: string | Uint8Array = ''): string {
	return digestHex('md5', data);
}

function digestHex(algorithm: string, data: string | Uint8Array): string {
	crypto ??= createRequire(import.meta.url)('node:crypto') as typeof NodeCrypto;
	return crypto.createHash(algorithm).update(data).digest('hex');
}
