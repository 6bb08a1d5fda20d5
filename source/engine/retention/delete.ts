import {closeSync, lstatSync, realpathSync, rmdirSync, unlinkSync} from 'node:fs';
import {dirname} from 'node:path';
import {systemErrorCode} from '../../lib/errors.js';
import {fsyncDirectory} from '../../lib/atomic.js';
import {sha256OfDescriptor} from '../../lib/hash.js';
import {pauseAt} from '../../lib/test-pause.js';
import type {Pin} from './journal.js';
import {openExpected} from './pins.js';
import {isInside} from './targets.js';

/** Why a deletion stopped; the blocker codes name why it never started. */
export const failureCodes = ['source_changed', 'target_replaced', 'target_is_symlink', 'target_outside_store', 'target_unreadable', 'delete_failed'] as const;
export type FailureCode = (typeof failureCodes)[number];

export type Deletion = {
	readonly deleted: string[];
	/** Pinned targets that were gone before this run reached them (an interrupted run took them). */
	readonly alreadyGone: string[];
	readonly freedBytes: number;
	/** Files whose bytes stay on disk under another name. */
	readonly otherHardLinks: Array<{path: string; links: number}>;
	readonly hardLinkedBytes: number;
	readonly failure: {code: FailureCode; detail: string} | null;
};

type Step = {readonly path: string; readonly kind: 'file' | 'directory'};

/**
 * Deletes exactly the given targets, in order, each only after checking it right there against
 * its pin: inside the store boundary (its directory resolved), not a symbolic link, the same
 * device and inode, the same size, and for files the same sha256, read through the very
 * descriptor whose inode is then checked against the path once more before the unlink. The first
 * check that fails stops the run; what was deleted until then is reported, never undone.
 */
export function deleteTargets(steps: readonly Step[], pins: ReadonlyMap<string, Pin>, boundary: string, env: Readonly<Record<string, string | undefined>>): Deletion {
	const result = {deleted: [] as string[], alreadyGone: [] as string[], freedBytes: 0, otherHardLinks: [] as Array<{path: string; links: number}>, hardLinkedBytes: 0};
	const touched = new Set<string>();
	const stop = (code: FailureCode, detail: string): Deletion => {
		syncDirectories(touched);
		return {...result, failure: {code, detail}};
	};

	let realBoundary: string;
	try {
		realBoundary = realpathSync(boundary);
	} catch (error) {
		return stop('target_unreadable', `the store directory ${boundary} cannot be resolved (${systemErrorCode(error) ?? 'error'})`);
	}

	for (const step of steps) {
		pauseAt(env, 'retention.before_unlink');
		const pin = pins.get(step.path);
		if (!pin || pin.kind !== step.kind) {
			return stop('source_changed', `${step.path} is not pinned by the receipt`);
		}

		const place = placeOf(step.path, boundary, realBoundary);
		if (place === 'outside') {
			return stop('target_outside_store', `${step.path} lies outside the store ${boundary}`);
		}

		const problem = place === 'gone' ? 'gone' : step.kind === 'file' ? unlinkFile(step.path, pin, result, env) : removeDirectory(step.path, pin, env);
		if (problem === 'gone') {
			result.alreadyGone.push(step.path);
			continue;
		}

		if (problem) {
			return stop(problem.code, problem.detail);
		}

		result.deleted.push(step.path);
		touched.add(dirname(step.path));
	}

	syncDirectories(touched);
	return {...result, failure: null};
}

/** Whether a path lies inside the boundary once its directory is resolved; `gone` when that directory no longer exists. */
function placeOf(path: string, boundary: string, realBoundary: string): 'inside' | 'gone' | 'outside' {
	let real: string;
	try {
		real = realpathSync(dirname(path));
	} catch (error) {
		return systemErrorCode(error) === 'ENOENT' ? 'gone' : 'outside';
	}

	return isInside(path, boundary) && (real === realBoundary || isInside(real, realBoundary)) ? 'inside' : 'outside';
}

type Problem = {code: FailureCode; detail: string} | 'gone' | undefined;

function unlinkFile(path: string, pin: Pin, result: {freedBytes: number; otherHardLinks: Array<{path: string; links: number}>; hardLinkedBytes: number}, env: Readonly<Record<string, string | undefined>>): Problem {
	const opened = openExpected(path, pin);
	if ('code' in opened) {
		return opened.code === 'target_missing' ? 'gone' : {code: opened.code, detail: opened.detail};
	}

	try {
		if (opened.stats.size !== pin.bytes) {
			return {code: 'source_changed', detail: `${path} holds ${opened.stats.size} bytes, not the ${pin.bytes} pinned`};
		}

		const {sha256, bytes} = sha256OfDescriptor(opened.fd);
		if (bytes !== pin.bytes || sha256 !== pin.sha256) {
			return {code: 'source_changed', detail: `${path} no longer has the sha256 the receipt pinned`};
		}

		pauseAt(env, 'retention.file_checked');
		const now = lstatSync(path, {throwIfNoEntry: false});
		if (!now) {
			return 'gone'; // Removed since it was checked, by a sweep racing this one, which records it.
		}

		if (now.isSymbolicLink() || now.dev !== pin.dev || now.ino !== pin.ino) {
			return {code: 'target_replaced', detail: `${path} was replaced while it was checked`};
		}

		unlinkSync(path);
		// Other names keep the inode's bytes: say so, and do not count them as freed.
		if (opened.stats.nlink > 1) {
			result.otherHardLinks.push({path, links: opened.stats.nlink - 1});
			result.hardLinkedBytes += pin.bytes;
		} else {
			result.freedBytes += pin.bytes;
		}

		return undefined;
	} catch (error) {
		// Removed between the check and the unlink: by a sweep racing this one, which records it.
		const code = systemErrorCode(error);
		return code === 'ENOENT' ? 'gone' : {code: 'delete_failed', detail: `${path} could not be deleted (${code ?? 'error'})`};
	} finally {
		closeSync(opened.fd);
	}
}

function removeDirectory(path: string, pin: Pin, env: Readonly<Record<string, string | undefined>>): Problem {
	const stats = lstatSync(path, {throwIfNoEntry: false});
	if (!stats) {
		return 'gone';
	}

	if (stats.isSymbolicLink()) {
		return {code: 'target_is_symlink', detail: `${path} is now a symbolic link; engi never deletes through one`};
	}

	if (!stats.isDirectory() || stats.dev !== pin.dev || stats.ino !== pin.ino) {
		return {code: 'target_replaced', detail: `${path} is no longer the directory that was pinned`};
	}

	try {
		pauseAt(env, 'retention.before_rmdir');
		rmdirSync(path);
		return undefined;
	} catch (error) {
		const code = systemErrorCode(error);
		if (code === 'ENOENT') {
			return 'gone'; // Removed since it was checked, by a sweep racing this one.
		}

		return code === 'ENOTEMPTY' || code === 'EEXIST'
			? {code: 'source_changed', detail: `${path} holds files the receipt did not pin (written since)`}
			: {code: 'delete_failed', detail: `${path} could not be removed (${code ?? 'error'})`};
	}
}

/** Makes the removals durable before a receipt says they happened. */
function syncDirectories(directories: ReadonlySet<string>): void {
	for (const directory of directories) {
		fsyncDirectory(directory);
	}
}
