import {readFileSync} from 'node:fs';
import {basename, dirname, join} from 'node:path';
import {isDirectory, listDirectory, stem} from '../shared/fs.js';
import {JsonTooDeepError, maxJsonDepth, parseBoundedJson} from '../../lib/json-depth.js';

/**
 * The legacy JSON tree (`storage/`): `session/<projectID>/<sessionID>.json`,
 * `message/<sessionID>/<messageID>.json` and `part/<messageID>/<partID>.json`. Every file holds
 * one JSON document with its own ids. Some writers named message directories by the session id
 * without its `ses_` prefix, and early trees kept parts flat in `part/` with a `messageID` field.
 *
 * Before that tree, each project had its own under `project/<dir>/storage/`:
 * `session/info/<sessionID>.json`, `session/message/<sessionID>/<messageID>.json` and
 * `session/part/<sessionID>/<messageID>/<partID>.json`. OpenCode's first storage migration copies
 * them to the shared tree but skips the `global` project and projects whose worktree is gone, so
 * those sessions live only there. Read as a storage root, `project/<dir>/storage` lists its
 * sessions as the project `info`; the message and part directories are found by their own names.
 */

/** `<storage>/session/<projectID>/<sessionID>.json` → `<storage>`. */
export function storageRootOf(sessionFile: string): string {
	return dirname(dirname(dirname(sessionFile)));
}

export function jsonFilesIn(directory: string): string[] {
	return listDirectory(directory)
		.filter(entry => entry.isFile() && entry.name.endsWith('.json'))
		.map(entry => join(directory, entry.name));
}

/**
 * Whether an id a file states can name a directory of the store: a plain name. An id of `..` or
 * with a separator (`../../elsewhere`) would lead the read, and the files a retention plan lists,
 * out of the store.
 */
function isPlainName(name: string): boolean {
	return name !== '.' && name !== '..' && !/[\\/\0]/.test(name);
}

/** The session's message directory: named by its id, its file name, or the name without `ses_`. */
export function messageDirectoryOf(storage: string, sessionFile: string, sessionId: string | undefined): string | undefined {
	const name = stem(sessionFile, '.json');
	const candidates = [sessionId, name, name.replace(/^ses_/, ''), sessionId?.replace(/^ses_/, '')];
	const messageRoots = [join(storage, 'message'), join(projectSessionTreeOf(sessionFile), 'message')];
	for (const messages of messageRoots) {
		for (const candidate of candidates) {
			if (candidate && isPlainName(candidate)) {
				const directory = join(messages, candidate);
				if (isDirectory(directory)) {
					return directory;
				}
			}
		}
	}

	return undefined;
}

/** `project/<dir>/storage/session/info/<ses>.json` → `project/<dir>/storage/session` (the per-project tree's own root). */
function projectSessionTreeOf(sessionFile: string): string {
	return dirname(dirname(sessionFile));
}

/** Part directories are named by message id; in the usual layout that is also the file name. */
export function partDirectoryOf(storage: string, messageFile: string, messageId: string | undefined): string | undefined {
	// The per-project tree nests parts by session: `session/part/<sessionID>/<messageID>/`.
	const sessionDirectory = dirname(messageFile);
	const projectParts = join(dirname(dirname(sessionDirectory)), 'part', basename(sessionDirectory));
	for (const parts of [join(storage, 'part'), projectParts]) {
		for (const candidate of [messageId, stem(messageFile, '.json')]) {
			if (candidate && isPlainName(candidate)) {
				const directory = join(parts, candidate);
				if (isDirectory(directory)) {
					return directory;
				}
			}
		}
	}

	return undefined;
}

/** A JSON file's value, or undefined (told why) when it cannot be read or parsed, or nests too deeply. */
export function readJsonFile(path: string, why?: (reason: string) => void): unknown {
	try {
		return parseBoundedJson(readFileSync(path, 'utf8'));
	} catch (error) {
		why?.(error instanceof JsonTooDeepError ? `JSON nested deeper than ${maxJsonDepth} levels` : 'not valid JSON');
		return undefined;
	}
}
