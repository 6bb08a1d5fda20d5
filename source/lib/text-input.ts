import {readFileSync} from 'node:fs';
import {resolve} from 'node:path';
import {EngiError} from './errors.js';

/** The text of `--file <path>`, or of stdin for `--file -`. */
export async function readTextInput(file: string, stdin: NodeJS.ReadableStream, cwd: string): Promise<string> {
	if (file === '-') {
		const chunks: Buffer[] = [];
		for await (const chunk of stdin) {
			chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
		}

		return Buffer.concat(chunks).toString('utf8');
	}

	try {
		return readFileSync(resolve(cwd, file), 'utf8');
	} catch {
		throw new EngiError('file_unreadable', `cannot read ${file}`);
	}
}
