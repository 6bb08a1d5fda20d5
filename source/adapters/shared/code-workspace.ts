import {posix, win32} from 'node:path';
import {localPathOfFileUri} from './file-uri.js';
import {readSmallFile, readSmallJson} from './fs.js';
import {isRecord} from './text.js';
import {parseBoundedJson} from '../../lib/json-depth.js';

/**
 * The one local folder a `.code-workspace` file lists (a multi-root window's workspace.json names
 * that file, not a folder): `folders` entries are `{path}`, relative to the file's directory or
 * absolute, or `{uri}`. Several roots name no single working directory, nor does a remote one.
 */
export function soleWorkspaceFolder(configPath: string, fileUriPath: (value: unknown) => string | undefined): string | undefined {
	const text = readSmallFile(configPath);
	let config: unknown;
	try {
		config = text === undefined ? undefined : parseBoundedJson(withoutCommentsAndTrailingCommas(text));
	} catch {
		return undefined;
	}

	const folders = isRecord(config) && Array.isArray(config['folders']) ? config['folders'].filter(folder => isRecord(folder)) : [];
	const folder = folders.length === 1 ? (folders[0] as Record<string, unknown>) : undefined;
	if (typeof folder?.['path'] === 'string' && folder['path'].trim() !== '') {
		// A file written on Windows resolves the Windows way, wherever it is read.
		const paths = posix.isAbsolute(configPath) ? posix : win32;
		return paths.resolve(paths.dirname(configPath), folder['path']);
	}

	return fileUriPath(folder?.['uri']);
}

/**
 * The workspace folder a `workspaceStorage/<id>/workspace.json` names (`{"folder":"file:///…"}`),
 * as a local path; VS Code and its forks (Cursor) keep the same file. A window opened on a
 * `.code-workspace` file names that file instead (`{"workspace": …}`): the one folder it lists is
 * the project (one more small read, for such windows only), several name no single directory.
 * Remote folders (`vscode-remote://…`) give none.
 */
export function readWorkspaceFolder(path: string): string | undefined {
	const value = readSmallJson(path);
	if (!isRecord(value)) {
		return undefined;
	}

	if (value['folder'] !== undefined) {
		return localPathOfFileUri(value['folder']);
	}

	const config = localPathOfFileUri(value['workspace']);
	return config === undefined ? undefined : soleWorkspaceFolder(config, localPathOfFileUri);
}

/**
 * VS Code reads workspace files as JSON with comments and trailing commas; both are dropped,
 * outside strings (a URL's `//` in a value stays).
 */
export function withoutCommentsAndTrailingCommas(text: string): string {
	let out = '';
	// Where in `out` the last comma stands while only white space follows it.
	let comma = -1;
	let index = 0;
	while (index < text.length) {
		const char = text[index]!;
		const next = text[index + 1];
		let end = index + 1;
		if (char === '/' && (next === '/' || next === '*')) {
			const close = next === '/' ? text.indexOf('\n', index) : text.indexOf('*/', index + 2) + 1;
			index = close <= 0 ? text.length : close + 1;
			continue;
		}

		if (char === '"') {
			while (end < text.length && text[end] !== '"') {
				end += text[end] === '\\' ? 2 : 1;
			}

			end++;
		} else if ((char === '}' || char === ']') && comma !== -1) {
			out = out.slice(0, comma) + out.slice(comma + 1);
		}

		out += text.slice(index, end);
		if (!/\s/.test(char)) {
			comma = char === ',' ? out.length - 1 : -1;
		}

		index = end;
	}

	return out;
}
