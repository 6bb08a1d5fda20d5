import {lstatSync, readdirSync, realpathSync, type Dirent, type Stats} from 'node:fs';
import {basename, dirname, join, resolve, sep} from 'node:path';
import {systemErrorCode} from '../../lib/errors.js';

/** One file or directory a session's retirement removes, as it is on disk now. */
export type Target = {
	readonly path: string;
	readonly kind: 'file' | 'directory';
	readonly bytes: number;
	readonly dev: number;
	readonly ino: number;
	/** Names the file has; more than one means another name keeps its bytes on disk. */
	readonly links: number;
	readonly mtime_ms: number;
	/** The path as the kernel names it (symbolic links in the store's location resolved), for open-file checks. */
	readonly canonical: string;
};

/** Why a session's files cannot be retired as they are (a symlink, a path outside the store, a device). */
export type TargetProblem = {readonly path: string; readonly reason: 'symlink' | 'outside_store' | 'not_a_regular_file' | 'unreadable'; readonly detail: string};

export type TargetScan = {
	/** In the order of removal: files inside the session's directories deepest first, its own files, then the directories deepest first. */
	readonly targets: Target[];
	/** Listed files that are no longer there. */
	readonly missing: string[];
	readonly problems: TargetProblem[];
	readonly bytes: number;
};

/** True when `path` lies inside `directory` (never `directory` itself); both are resolved first. */
export function isInside(path: string, directory: string): boolean {
	const parent = resolve(directory);
	return resolve(path).startsWith(parent.endsWith(sep) ? parent : parent + sep);
}

/** Real paths of directories, shared by every scan of one call: many sessions share a project directory. */
export type RealPaths = Map<string, string | undefined>;

export function realPath(cache: RealPaths, path: string): string | undefined {
	if (!cache.has(path)) {
		let real: string | undefined;
		try {
			real = realpathSync(path);
		} catch {}

		cache.set(path, real);
	}

	return cache.get(path);
}

const depth = (path: string) => path.split(sep).length;
const deepestFirst = (a: Target, b: Target) => depth(b.path) - depth(a.path) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

function lstatOrUndefined(path: string): Stats | undefined {
	try {
		return lstatSync(path);
	} catch (error) {
		if (systemErrorCode(error) === 'ENOENT' || systemErrorCode(error) === 'ENOTDIR') {
			return undefined;
		}

		throw error;
	}
}

/**
 * Everything a session's retirement would remove: its listed files and the directories that are
 * its alone with all they hold, each stat'ed without following links. Anything that is not a
 * plain file or directory inside the store's boundary is a problem, never a target: a symbolic
 * link is not followed, a path that resolves outside the boundary is not touched.
 */
export function scanTargets(files: readonly string[], directories: readonly string[], boundary: string, realPaths: RealPaths = new Map()): TargetScan {
	const problems: TargetProblem[] = [];
	const missing: string[] = [];
	const realBoundary = realPath(realPaths, boundary);
	if (realBoundary === undefined) {
		return {targets: [], missing: [], problems: [{path: boundary, reason: 'unreadable', detail: `the store directory ${boundary} cannot be resolved`}], bytes: 0};
	}

	/** The directory holding `path` as the kernel names it. */
	const canonicalDirectory = (path: string): string | undefined => realPath(realPaths, dirname(path));

	const seen = new Set<string>();
	const inner: Target[] = [];
	const own: Target[] = [];
	const folders: Target[] = [];
	const add = (path: string, into: Target[], expect?: 'file' | 'directory'): Stats | undefined => {
		if (seen.has(path)) {
			return undefined;
		}

		seen.add(path);
		let stats: Stats | undefined;
		try {
			stats = lstatOrUndefined(path);
		} catch (error) {
			problems.push({path, reason: 'unreadable', detail: `${path} cannot be examined (${systemErrorCode(error) ?? 'error'})`});
			return undefined;
		}

		if (!stats) {
			missing.push(path);
			return undefined;
		}

		const real = canonicalDirectory(path);
		if (!isInside(path, boundary) || real === undefined || !(real === realBoundary || isInside(real, realBoundary))) {
			problems.push({path, reason: 'outside_store', detail: `${path} lies outside the store ${boundary}`});
			return undefined;
		}

		if (stats.isSymbolicLink()) {
			problems.push({path, reason: 'symlink', detail: `${path} is a symbolic link; engi never deletes through one`});
			return undefined;
		}

		const kind = stats.isFile() ? 'file' : stats.isDirectory() ? 'directory' : undefined;
		if (kind === undefined || (expect !== undefined && kind !== expect)) {
			problems.push({path, reason: 'not_a_regular_file', detail: `${path} is not a regular ${expect ?? 'file'}`});
			return undefined;
		}

		into.push({path, kind, bytes: kind === 'file' ? stats.size : 0, dev: stats.dev, ino: stats.ino, links: stats.nlink, mtime_ms: stats.mtimeMs, canonical: join(real, basename(path))});
		return stats;
	};

	const walk = (directory: string) => {
		if (!add(directory, folders, 'directory')) {
			return;
		}

		let entries: Dirent[];
		try {
			entries = readdirSync(directory, {withFileTypes: true}).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
		} catch (error) {
			problems.push({path: directory, reason: 'unreadable', detail: `${directory} cannot be listed (${systemErrorCode(error) ?? 'error'})`});
			return;
		}

		// A directory entry's type is the link's own, never its target's: a link is added (and refused), not walked.
		for (const entry of entries) {
			const path = join(directory, entry.name);
			if (entry.isDirectory()) {
				walk(path);
			} else {
				add(path, inner);
			}
		}
	};

	for (const directory of directories) {
		walk(directory);
	}

	// Sidecars before the transcript that names them (paths lists the transcript first).
	for (const file of [...files].reverse()) {
		add(file, own, 'file');
	}

	const targets = [...inner.sort(deepestFirst), ...own, ...folders.sort(deepestFirst)];
	return {targets, missing, problems, bytes: targets.reduce((sum, target) => sum + target.bytes, 0)};
}
