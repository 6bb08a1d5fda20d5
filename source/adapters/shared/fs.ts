import {closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, type Dirent} from 'node:fs';
import {basename, join, sep} from 'node:path';
import {fileStatus, type FileStatus} from '../../lib/file-status.js';
import {parseBoundedJson} from '../../lib/json-depth.js';
import type {DeferredUnit, DiscoveredUnit, UnitDetails} from '../types.js';

/**
 * A file's status, or undefined when it is missing or cannot be read. Discovery stats every
 * session file on every call, so this reads the status without building node's Stats (see
 * fileStatus); a missing file, the common case, costs no exception.
 */
export function statOrUndefined(path: string): FileStatus | undefined {
	try {
		return fileStatus(path);
	} catch {
		return undefined;
	}
}

/** Sidecars (summaries, markers, registries) are a few KiB; anything far larger is not read. */
const maxSidecarBytes = 1024 * 1024;

/**
 * A small sidecar file parsed as JSON, or undefined when it is missing, too large, unreadable, or
 * not whole JSON (a tool caught mid-write): a sidecar that cannot be read states nothing.
 */
export function readSmallJson(path: string): unknown {
	const text = readSmallFile(path);
	try {
		return text === undefined ? undefined : parseBoundedJson(text);
	} catch {
		return undefined;
	}
}

/** The text of a small sidecar file, or undefined when it is missing, too large or unreadable. */
export function readSmallFile(path: string): string | undefined {
	const stats = statOrUndefined(path);
	if (!stats?.isFile() || stats.size > maxSidecarBytes) {
		return undefined;
	}

	try {
		return readFileSync(path, 'utf8');
	} catch {
		return undefined;
	}
}

/**
 * The first `bytes` of a file as text (a log that only grows, whose opening lines say what it
 * is about), or undefined when it is missing, not a file or unreadable. A character cut at the
 * end is the caller's to ignore.
 */
export function readFileHead(path: string, bytes: number): string | undefined {
	if (!statOrUndefined(path)?.isFile()) {
		return undefined;
	}

	let fd: number | undefined;
	try {
		fd = openSync(path, 'r');
		const buffer = Buffer.alloc(bytes);
		const read = readSync(fd, buffer, 0, bytes, 0);
		return buffer.subarray(0, read).toString('utf8');
	} catch {
		return undefined;
	} finally {
		try {
			if (fd !== undefined) {
				closeSync(fd);
			}
		} catch {
			// Already read; a failed close loses nothing.
		}
	}
}

export function isDirectory(path: string): boolean {
	return statOrUndefined(path)?.isDirectory() ?? false;
}

export function isFile(path: string): boolean {
	return statOrUndefined(path)?.isFile() ?? false;
}

/**
 * Directories that exist but could not be listed (no permission, an I/O error) since the catalog
 * last asked. Discovery carries on without them, as it does past an unreadable file, and the
 * catalog turns each into a warning: a session must never vanish from a listing unexplained.
 */
const unlisted: Array<{readonly path: string; readonly code: string}> = [];

/** The directories listDirectory could not read since the last call, each once. */
export function takeUnlistedDirectories(): Array<{readonly path: string; readonly code: string}> {
	return unlisted.splice(0);
}

/**
 * The status of a file discovery needs inside `directory`, or undefined when it is missing or
 * cannot be read; a directory that may not be searched (EACCES, ELOOP…) is noted for
 * takeUnlistedDirectories, as listDirectory notes one it cannot list.
 */
export function statNotingDirectory(path: string, directory: string): FileStatus | undefined {
	try {
		return fileStatus(path);
	} catch (error) {
		noteUnlisted(directory, error);
		return undefined;
	}
}

/** A directory that is there but could not be read or searched, noted once asked (a missing one is no news). */
function noteUnlisted(path: string, error: unknown): void {
	const code = (error as NodeJS.ErrnoException).code ?? 'error';
	if (code !== 'ENOENT' && code !== 'ENOTDIR') {
		unlisted.push({path, code});
	}
}

/** Directory entries sorted by name, or [] when the directory is missing or cannot be read (noted for takeUnlistedDirectories). */
export function listDirectory(path: string): Dirent[] {
	try {
		return readdirSync(path, {withFileTypes: true}).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
	} catch (error) {
		noteUnlisted(path, error);
		return [];
	}
}

/**
 * `directory/name` for a name (or a relative path of plain names) inside a directory path that is
 * already normal, as every path discovery builds from a store root is: what join gives, without
 * its normalising pass over the whole path. Discovery builds one for every file on every call.
 */
export function childPath(directory: string, name: string): string {
	return directory.endsWith(sep) ? directory + name : directory + sep + name;
}

/** The catalog fingerprint of a file: any change to size, mtime or inode means re-read. */
export function fileFingerprint(stats: FileStatus): string {
	return `${stats.size}:${Math.trunc(stats.mtimeMs)}:${stats.ino}`;
}

/**
 * One stamp of several files' statuses (a database and its WAL, a store and its sidecar): a status
 * each, no read; a missing file has its own mark, so a file appearing or going changes the stamp.
 */
export function filesStamp(paths: readonly string[]): string {
	return paths
		.map(path => {
			const stats = statOrUndefined(path);
			return stats ? fileFingerprint(stats) : 'missing';
		})
		.join('+');
}

/**
 * Files under `root` whose name matches, to a bounded depth, in name order. Symbolic links to
 * directories are not followed, so a link loop can never hang discovery.
 */
export function walkFiles(root: string, match: (name: string, path: string) => boolean, maxDepth = 6): string[] {
	const found: string[] = [];
	const visit = (directory: string, depth: number) => {
		for (const entry of listDirectory(directory)) {
			const path = childPath(directory, entry.name);
			if (entry.isDirectory()) {
				if (depth < maxDepth) {
					visit(path, depth + 1);
				}
			} else if (entry.isFile() && match(entry.name, path)) {
				found.push(path);
			}
		}
	};

	if (existsSync(root)) {
		visit(root, 0);
	}

	return found;
}

/** A unit for one file, with its fingerprint; undefined when the file vanished meanwhile. */
export function fileUnit(path: string, extra: {idHint?: string; parentIdHint?: string; projectHint?: string; variant?: string; note?: string; paths?: string[]; archived?: boolean} = {}) {
	const stats = statOrUndefined(path);
	if (!stats?.isFile()) {
		return undefined;
	}

	// Hints set one by one, not spread in: discovery makes a unit of every file on every call,
	// and in a fresh process each conditional spread takes V8's slow path.
	const unit: {-readonly [K in keyof DiscoveredUnit]: DiscoveredUnit[K]} = {key: path, path, paths: extra.paths ?? [path], size: stats.size, mtimeMs: stats.mtimeMs, fingerprint: fileFingerprint(stats)};
	if (extra.idHint !== undefined) {
		unit.idHint = extra.idHint;
	}

	if (extra.parentIdHint !== undefined) {
		unit.parentIdHint = extra.parentIdHint;
	}

	if (extra.projectHint !== undefined) {
		unit.projectHint = extra.projectHint;
	}

	if (extra.variant !== undefined) {
		unit.variant = extra.variant;
	}

	if (extra.note !== undefined) {
		unit.note = extra.note;
	}

	if (extra.archived) {
		unit.archived = true;
	}

	return unit;
}

/**
 * A unit for one file whose other files and hints a sidecar states: `details` works them out when
 * the unit is read. Undefined when the file vanished meanwhile.
 */
export function deferredFileUnit(path: string, idHint: string, details: () => UnitDetails): DeferredUnit | undefined {
	const stats = statOrUndefined(path);
	return stats?.isFile() ? {key: path, path, idHint, size: stats.size, mtimeMs: stats.mtimeMs, fingerprint: fileFingerprint(stats), details} : undefined;
}

export function stem(path: string, extension: string): string {
	const name = basename(path);
	return name.endsWith(extension) ? name.slice(0, -extension.length) : name;
}

/** Resolves a user's --source-root: the directory itself, or a known child of it if present. */
export function rootOrChild(path: string, child: string): string {
	const inner = join(path, child);
	return isDirectory(inner) ? inner : path;
}

/**
 * A tool's home directory: its environment override (e.g. `CODEX_HOME`) when set, else the dot
 * directory in the user's home; undefined when neither is known.
 */
export function toolHome(context: {env: Record<string, string | undefined>; home: string | undefined}, envVar: string | undefined, dotDirectory: string): string | undefined {
	const configured = envVar === undefined ? undefined : context.env[envVar]?.trim();
	return configured || (context.home ? join(context.home, dotDirectory) : undefined);
}
