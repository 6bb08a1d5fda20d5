import {posix, win32} from 'node:path';
import {readSmallFile} from '../shared/fs.js';
import {isRecord} from '../shared/text.js';
import {parseBoundedJson} from '../../lib/json-depth.js';

/**
 * The one local folder a `.code-workspace` file lists. A window opened on such a file (a
 * multi-root workspace) has `{"workspace": <file URI>}` in its workspace.json, not a folder; the
 * file lists the window's roots in `folders`, each `{path}` (relative to the file's directory,
 * or absolute) or `{uri}`. One local root is the window's working directory; several name no
 * single one (ambiguous stays missing), nor does a root on a remote.
 */
export function soleWorkspaceFolder(configPath: string, fileUriPath: (value: unknown) => string | undefined): string | undefined {
	const text = readSmallFile(configPath);
	if (text === undefined) {
		return undefined;
	}

	let config: unknown;
	try {
		config = parseBoundedJson(withoutCommentsAndTrailingCommas(text));
	} catch {
		return undefined;
	}

	const folders = isRecord(config) && Array.isArray(config['folders']) ? config['folders'].filter(folder => isRecord(folder)) : [];
	if (folders.length !== 1) {
		return undefined;
	}

	const [folder] = folders as Array<Record<string, unknown>>;
	if (typeof folder!['path'] === 'string' && folder!['path'].trim() !== '') {
		// A file written on Windows resolves the Windows way, wherever it is read.
		const paths = win32.isAbsolute(configPath) && !posix.isAbsolute(configPath) ? win32 : posix;
		return paths.resolve(paths.dirname(configPath), folder!['path']);
	}

	return fileUriPath(folder!['uri']);
}

/**
 * VS Code reads workspace files as JSON with comments (`//`, `/* *\/`) and trailing commas; both
 * are dropped here, outside strings, so a URL's `//` in a value stays as it is.
 */
export function withoutCommentsAndTrailingCommas(text: string): string {
	let out = '';
	let index = 0;
	while (index < text.length) {
		const char = text[index]!;
		if (char === '"') {
			const end = stringEnd(text, index);
			out += text.slice(index, end);
			index = end;
		} else if (char === '/' && text[index + 1] === '/') {
			const end = text.indexOf('\n', index);
			index = end === -1 ? text.length : end;
		} else if (char === '/' && text[index + 1] === '*') {
			const end = text.indexOf('*/', index + 2);
			index = end === -1 ? text.length : end + 2;
		} else {
			out += char;
			index++;
		}
	}

	return dropTrailingCommas(out);
}

/** The index just past the string literal opening at `start` (or the text's end, when it is cut). */
function stringEnd(text: string, start: number): number {
	let index = start + 1;
	while (index < text.length) {
		if (text[index] === '\\') {
			index += 2;
		} else if (text[index] === '"') {
			return index + 1;
		} else {
			index++;
		}
	}

	return text.length;
}

/** A comma whose next non-space character closes an object or array is dropped; strings are left alone. */
function dropTrailingCommas(text: string): string {
	let out = '';
	let index = 0;
	while (index < text.length) {
		const char = text[index]!;
		if (char === '"') {
			const end = stringEnd(text, index);
			out += text.slice(index, end);
			index = end;
			continue;
		}

		if (char === ',' && closesNext(text, index + 1)) {
			index++;
			continue;
		}

		out += char;
		index++;
	}

	return out;
}

/** Whether the first character from `start` on that is not white space closes an object or array. */
function closesNext(text: string, start: number): boolean {
	let index = start;
	while (index < text.length && /\s/.test(text[index]!)) {
		index++;
	}

	return text[index] === '}' || text[index] === ']';
}
