import {fileURLToPath} from 'node:url';

/**
 * The local path a `file:` URI string names; anything else (a remote URI, not a string, a malformed URI) names none.
 * A URI VS Code wrote on Windows (`file:///c%3A/Users/a`) names that Windows folder, `c:\Users\a` (what
 * VS Code's own fsPath gives), on whatever platform the store is read: fileURLToPath off Windows
 * would keep the leading slash (`/c:/Users/a`), a path on no machine. A URI with a host is the
 * UNC path Windows gives it (below), where fileURLToPath off Windows names nothing.
 */
export function localPathOfFileUri(value: unknown): string | undefined {
	if (typeof value !== 'string' || !value.startsWith('file:')) {
		return undefined;
	}

	try {
		return windowsDrivePath(value) ?? uncPath(value) ?? fileURLToPath(value);
	} catch {
		return undefined; // A malformed escape, or an encoded slash.
	}
}

const driveUri = /^file:\/\/\/([A-Za-z])(?::|%3A)(\/.*)?$/i;

/** `file:///c%3A/a%20b` → `c:\a b`; undefined for a URI with no drive letter. Throws on a malformed escape. */
function windowsDrivePath(uri: string): string | undefined {
	const match = driveUri.exec(uri);
	if (!match) {
		return undefined;
	}

	const rest = match[2] ?? '/';
	if (/%2f|%5c/i.test(rest)) {
		throw new Error('encoded separator');
	}

	return `${match[1]}:${decodeURIComponent(rest.replace(/[?#].*$/, '')).replaceAll('/', '\\')}`;
}

const hostUri = /^file:\/\/([^/?#]+)(\/[^?#]*)?/i;

/**
 * `file://server/share/a` → `\\server\share\a`: a folder VS Code on Windows opened by its UNC
 * path (a network share, or WSL's `\\wsl.localhost\<distro>`), as fsPath names it there;
 * undefined for a URI with no host or the host `localhost`. Throws on a malformed escape.
 */
function uncPath(uri: string): string | undefined {
	const match = hostUri.exec(uri);
	const host = match ? decodeURIComponent(match[1]!) : '';
	if (host === '' || host.toLowerCase() === 'localhost' || /[\\/]/.test(host)) {
		return undefined;
	}

	const rest = match![2] ?? '';
	if (/%2f|%5c/i.test(rest)) {
		throw new Error('encoded separator');
	}

	return `\\\\${host}${decodeURIComponent(rest).replaceAll('/', '\\')}`;
}
