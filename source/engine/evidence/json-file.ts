import {closeSync, fstatSync, openSync, readSync} from 'node:fs';
import {resolve} from 'node:path';
import type * as z from 'zod/mini';
import {EngiError, systemErrorCode} from '../../lib/errors.js';
import {JsonTooDeepError, parseBoundedJson} from '../../lib/json-depth.js';

/** Contracts, proposals and reviews are small documents: anything past this is not one. */
export const maxInputBytes = 1024 * 1024;

/**
 * Reads one JSON document an agent or a person wrote (a contract, a proposal, a review) and
 * validates it. Every failure is a typed input error (`code`) naming the file and the field,
 * never echoing its content; the file is read through one descriptor, at most `maxInputBytes`.
 */
export function readJsonInput<T>(file: string, cwd: string, schema: z.ZodMiniType<T>, code: string): T {
	const path = resolve(cwd, file);
	let text: string;
	let fd: number | undefined;
	try {
		fd = openSync(path, 'r');
		const {size} = fstatSync(fd);
		if (size > maxInputBytes) {
			throw new EngiError(code, `${file} is ${size} bytes; at most ${maxInputBytes} (1 MiB) are accepted`, {hint: 'nothing was evaluated or written'});
		}

		const buffer = Buffer.alloc(size);
		let read = 0;
		while (read < size) {
			const n = readSync(fd, buffer, read, size - read, read);
			if (n === 0) {
				break;
			}

			read += n;
		}

		text = buffer.toString('utf8', 0, read);
	} catch (error) {
		if (error instanceof EngiError) {
			throw error;
		}

		throw new EngiError('file_unreadable', `cannot read ${file} (${systemErrorCode(error) ?? 'error'})`, {hint: 'check the path and its permissions'});
	} finally {
		if (fd !== undefined) {
			closeSync(fd);
		}
	}

	let value: unknown;
	try {
		value = parseBoundedJson(text);
	} catch (error) {
		// The parser's own message quotes the text, which may be private: say only what failed.
		throw new EngiError(code, `${file} is not valid JSON${error instanceof JsonTooDeepError ? ` (${error.message})` : ''}`, {hint: 'nothing was evaluated or written'});
	}

	const parsed = schema.safeParse(value);
	if (!parsed.success) {
		const issue = parsed.error.issues[0]!;
		const field = issue.path.map(String).join('.');
		const given = issue.path.reduce<unknown>((container, key) => (container !== null && typeof container === 'object' ? (container as Record<PropertyKey, unknown>)[key] : undefined), value) !== undefined;
		throw new EngiError(code, `${file}: ${field || '(document)'}: ${issueText(issue, given)}`, {hint: 'nothing was evaluated or written', details: {field}});
	}

	return parsed.data;
}

/** What a schema issue means, in words: the rule's own message, else one made from the issue's kind. */
function issueText(issue: z.core.$ZodIssue, given: boolean): string {
	if (issue.message !== 'Invalid input') {
		return issue.message;
	}

	switch (issue.code) {
		case 'unrecognized_keys': {
			return `unknown field(s) ${issue.keys.map(key => JSON.stringify(key)).join(', ')}`;
		}

		case 'invalid_type': {
			return given ? `must be a ${issue.expected}` : `must be given (a ${issue.expected})`;
		}

		case 'invalid_value': {
			return `must be ${issue.values.map(value => JSON.stringify(value)).join(' or ')}`;
		}

		case 'too_small': {
			return issue.origin === 'array' ? `needs at least ${issue.minimum} item(s)` : issue.origin === 'string' ? 'must not be empty' : `must be at least ${issue.minimum}`;
		}

		case 'too_big': {
			return issue.origin === 'array' ? `allows at most ${issue.maximum} item(s)` : `must be at most ${issue.maximum}`;
		}

		default: {
			return 'invalid';
		}
	}
}
