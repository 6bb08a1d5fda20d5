import {closeSync, fstatSync, openSync, readSync} from 'node:fs';
import {resolve} from 'node:path';
import {EngiError} from './errors.js';
import {JsonTooDeepError, parseBoundedJson} from './json-depth.js';

/** The largest request or packet file engi reads (innen's admission bound). */
export const inputLimitBytes = 16 * 1024 * 1024;

const tooLarge = (name: string, limit: number) => new EngiError('input_too_large', `${name} exceeds the ${limit / 1024 / 1024} MiB limit`, {hint: 'nothing was read; split the input or trim it'});

/** The bytes of a file (`-` for stdin), refused as soon as they pass `limit`: nothing larger is ever held whole. */
export async function readBoundedInput(file: string, stdin: NodeJS.ReadableStream, cwd: string, limit = inputLimitBytes): Promise<Buffer> {
	if (file === '-') {
		const chunks: Buffer[] = [];
		let size = 0;
		for await (const chunk of stdin) {
			const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
			size += bytes.length;
			if (size > limit) {
				throw tooLarge('stdin', limit);
			}

			chunks.push(bytes);
		}

		return Buffer.concat(chunks);
	}

	let fd: number;
	try {
		fd = openSync(resolve(cwd, file), 'r');
	} catch {
		throw new EngiError('file_unreadable', `cannot read ${file}`, {hint: 'give the path of a readable file, or - for stdin'});
	}

	try {
		const size = fstatSync(fd).size;
		if (size > limit) {
			throw tooLarge(file, limit);
		}

		const bytes = Buffer.alloc(size);
		let read = 0;
		while (read < size) {
			const count = readSync(fd, bytes, read, size - read, read);
			if (count === 0) {
				break;
			}

			read += count;
		}

		return bytes.subarray(0, read);
	} finally {
		closeSync(fd);
	}
}

/** JSON of a file engi did not write; the message names the file and line, never the text. */
export function parseInputJson(bytes: Buffer, name: string): unknown {
	const text = bytes.toString('utf8');
	try {
		return parseBoundedJson(text);
	} catch (error) {
		if (error instanceof JsonTooDeepError) {
			throw new EngiError('invalid_json', `${name}: ${error.message}`, {hint: 'nothing was read'});
		}

		const position = /position (\d+)/.exec(error instanceof Error ? error.message : '')?.[1];
		const line = position === undefined ? undefined : text.slice(0, Number(position)).split('\n').length;
		throw new EngiError('invalid_json', `${name}${line === undefined ? '' : `:${line}`} is not valid JSON`, {hint: 'nothing was read'});
	}
}
