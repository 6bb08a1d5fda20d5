import {basename, isAbsolute, join} from 'node:path';
import {isDirectory, isFile, listDirectory} from '../shared/fs.js';
import type {AdapterContext} from '../types.js';

/**
 * OpenCode keeps everything in its data directory, `$XDG_DATA_HOME/opencode` (default
 * `~/.local/share/opencode`; OpenCode uses the same XDG path on macOS): the v1.2+ database
 * `opencode.db` (other release channels write `opencode-<channel>.db`) and, from older versions,
 * the JSON tree `storage/`. `OPENCODE_DB` moves the database (absolute, or relative to the data
 * directory).
 */
export function opencodeDataDirectory(context: AdapterContext): string | undefined {
	const xdg = context.env['XDG_DATA_HOME']?.trim();
	if (xdg) {
		return join(xdg, 'opencode');
	}

	return context.home ? join(context.home, '.local', 'share', 'opencode') : undefined;
}

export function opencodeRoots(context: AdapterContext): string[] {
	const data = opencodeDataDirectory(context);
	const configured = context.env['OPENCODE_DB']?.trim();
	if (configured && configured !== ':memory:') {
		if (isAbsolute(configured)) {
			return [configured];
		}

		return data ? [join(data, configured)] : [];
	}

	return data ? [data] : [];
}

const databaseName = /^opencode(?:-[A-Za-z0-9._-]+)?\.db$/;

/**
 * A root that is a file can only be a database (`OPENCODE_DB` may name it anything). Its
 * `-wal`/`-shm` companions are never roots.
 */
export function isDatabaseFile(path: string): boolean {
	return !/-(?:wal|shm|journal)$/.test(path) && isFile(path);
}

/** The databases in a data directory: `opencode.db` first, then channel databases by name. */
export function databasesIn(directory: string): string[] {
	return listDirectory(directory)
		.filter(entry => entry.isFile() && databaseName.test(entry.name))
		.map(entry => entry.name)
		.sort((a, b) => (a === 'opencode.db' ? -1 : b === 'opencode.db' ? 1 : a < b ? -1 : a > b ? 1 : 0))
		.map(name => join(directory, name));
}

/** A legacy storage tree holds `session/<projectID>/<sessionID>.json`. */
export function isStorageDirectory(path: string): boolean {
	return isDirectory(join(path, 'session')) && (isDirectory(join(path, 'message')) || basename(path) === 'storage');
}

/**
 * The per-project trees of versions before the shared `storage/` tree:
 * `project/<dir>/storage/session/info/<sessionID>.json` (storage.ts describes the layout).
 */
export function projectStorageDirectories(dataDirectory: string): string[] {
	return listDirectory(join(dataDirectory, 'project'))
		.filter(entry => entry.isDirectory())
		.map(entry => join(dataDirectory, 'project', entry.name, 'storage'))
		.filter(storage => isDirectory(join(storage, 'session', 'info')));
}

export function isDataDirectory(path: string): boolean {
	return isDirectory(join(path, 'storage')) || databasesIn(path).length > 0 || projectStorageDirectories(path).length > 0;
}

/**
 * Accepts the data directory (database and/or storage, deduplicated together by discovery), the
 * `storage` directory, a database file, or the parent of the data directory (`~/.local/share`).
 */
export function resolveOpencodeRoot(path: string): string[] {
	if (isDatabaseFile(path) || isStorageDirectory(path) || isDataDirectory(path)) {
		return [path];
	}

	const inner = join(path, 'opencode');
	return isDataDirectory(inner) ? [inner] : [path];
}
