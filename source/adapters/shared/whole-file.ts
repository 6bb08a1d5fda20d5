import {readFileSync} from 'node:fs';
import {SessionCorruptError} from '../types.js';
import {statOrUndefined} from './fs.js';
import {JsonTooDeepError, maxJsonDepth, parseBoundedJson} from '../../lib/json-depth.js';

/** Sessions stored as one document are read whole; past this size one is refused rather than risk memory. */
export const maxWholeFileBytes = 256 * 1024 * 1024;

/** A session file's text, read whole: a SessionCorruptError (naming `what`) when it is too large or cannot be read. */
export function readWholeText(path: string, what: string): string {
	if ((statOrUndefined(path)?.size ?? 0) > maxWholeFileBytes) {
		throw new SessionCorruptError(path, null, `${what} larger than ${maxWholeFileBytes / 1024 / 1024} MiB`);
	}

	try {
		return readFileSync(path, 'utf8');
	} catch {
		throw new SessionCorruptError(path, null, 'cannot be read');
	}
}

/**
 * A session stored as one JSON document, read whole and parsed. Writers that save in place (not by
 * rename) can be caught mid-save, so a parse failure is a SessionCorruptError saying so.
 */
export function readWholeJson(path: string, what: string): unknown {
	const text = readWholeText(path, what);
	try {
		return parseBoundedJson(text);
	} catch (error) {
		throw new SessionCorruptError(path, null, error instanceof JsonTooDeepError ? `JSON nested deeper than ${maxJsonDepth} levels` : 'not valid JSON (torn or still being written?)');
	}
}
