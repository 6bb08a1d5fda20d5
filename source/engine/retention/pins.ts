import {closeSync, constants, fstatSync, openSync, type Stats} from 'node:fs';
import {relative} from 'node:path';
import {EngiError, systemErrorCode} from '../../lib/errors.js';
import {canonicalJson} from '../journal/canonical.js';
import {sha256Hex, sha256OfDescriptor} from '../../lib/hash.js';
import type {Pin} from './journal.js';
import type {Target} from './targets.js';

/** Why a file cannot be read as the one that was examined. */
export type OpenRefusal = {readonly code: 'target_missing' | 'target_is_symlink' | 'target_replaced' | 'target_unreadable'; readonly detail: string};

/**
 * Opens a file without following a symbolic link and checks it is the same inode on the same
 * device as expected, so what is hashed (and later deleted) is exactly what was examined.
 */
export function openExpected(path: string, expected: {dev: number; ino: number}): {fd: number; stats: Stats} | OpenRefusal {
	let fd: number;
	try {
		fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
	} catch (error) {
		const code = systemErrorCode(error);
		if (code === 'ENOENT') {
			return {code: 'target_missing', detail: `${path} is gone`};
		}

		return code === 'ELOOP' ? {code: 'target_is_symlink', detail: `${path} is now a symbolic link; engi never deletes through one`} : {code: 'target_unreadable', detail: `${path} cannot be opened (${code ?? 'error'})`};
	}

	const stats = fstatSync(fd);
	if (!stats.isFile() || stats.dev !== expected.dev || stats.ino !== expected.ino) {
		closeSync(fd);
		return {code: 'target_replaced', detail: `${path} is no longer the file that was examined (another inode or device)`};
	}

	return {fd, stats};
}

/** The pins of a session's targets: files hashed, directories by identity. */
export function pinTargets(targets: readonly Target[]): Pin[] {
	return targets.map(target => {
		const base = {path: target.path, kind: target.kind, bytes: target.bytes, dev: target.dev, ino: target.ino};
		if (target.kind === 'directory') {
			return base;
		}

		const opened = openExpected(target.path, target);
		if ('code' in opened) {
			throw new EngiError('source_changed', `${opened.detail} since the session was examined`, {hint: 'run the command again'});
		}

		try {
			const {sha256, bytes} = sha256OfDescriptor(opened.fd);
			if (bytes !== target.bytes) {
				throw new EngiError('source_changed', `${target.path} changed while it was read (${bytes} bytes, not ${target.bytes})`, {hint: 'the session is still being written; try again once it is done'});
			}

			return {...base, sha256};
		} finally {
			closeSync(opened.fd);
		}
	});
}

/**
 * One digest for the whole bundle: every pinned path (relative to the store's boundary, so the
 * same session digests the same wherever the store lives) with its kind, bytes and sha256.
 */
export function bundleSha256(pins: readonly Pin[], boundary: string): string {
	return sha256Hex(canonicalJson(pins.map(pin => ({path: relative(boundary, pin.path), kind: pin.kind, bytes: pin.bytes, sha256: pin.sha256 ?? null}))));
}
