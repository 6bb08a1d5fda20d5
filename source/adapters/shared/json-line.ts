import {JsonTooDeepError, parseBoundedJson} from '../../lib/json-depth.js';

/** The values of one line, or why it has none: not JSON, or nested past maxJsonDepth. */
export type ParsedJsonLine = unknown[] | 'not_json' | 'too_deep';

/**
 * Parses one JSONL line. Some writers glue two records onto one line with no newline between
 * them; when the whole line does not parse, try splitting it into consecutive top-level JSON
 * objects.
 */
export function parseJsonLine(text: string): ParsedJsonLine {
	try {
		return [parseBoundedJson(text)];
	} catch (error) {
		if (error instanceof JsonTooDeepError) {
			return 'too_deep';
		}

		if (!text.includes('}{')) {
			return 'not_json';
		}
	}

	const values: unknown[] = [];
	let depth = 0;
	let inString = false;
	let escaped = false;
	let start = -1;
	for (let index = 0; index < text.length; index++) {
		const char = text[index];
		if (inString) {
			if (escaped) {
				escaped = false;
			} else if (char === '\\') {
				escaped = true;
			} else if (char === '"') {
				inString = false;
			}

			continue;
		}

		if (char === '"') {
			inString = true;
		} else if (char === '{') {
			if (depth === 0) {
				start = index;
			}

			depth++;
		} else if (char === '}') {
			depth--;
			if (depth === 0 && start !== -1) {
				try {
					values.push(parseBoundedJson(text.slice(start, index + 1)));
				} catch (error) {
					return error instanceof JsonTooDeepError ? 'too_deep' : 'not_json';
				}

				start = -1;
			} else if (depth < 0) {
				return 'not_json';
			}
		} else if (depth === 0 && char !== undefined && !/\s/.test(char)) {
			return 'not_json';
		}
	}

	return depth === 0 && values.length > 1 ? values : 'not_json';
}

/** How many record starts a torn line is tried from (tornLineTail), in each of its two passes. */
const maxTailStarts = 6;

/**
 * The whole record that ends a torn line, or undefined. A writer that dies mid-record and
 * starts again (Copilot CLI 1.0.71 on resume, github/copilot-cli#4098) leaves the unfinished
 * prefix and a complete record on one line, with no newline between them: the complete record
 * kept the prefix's ids, so it is the record. It starts at a `{"`, parsed to the end of the line.
 * First tried are the starts no well-formed prefix puts there (not a value after `:`, `,`, `[` or
 * `{`); then, since a prefix can be cut just after such a character, the rest. Each pass tries a
 * few starts, left to right: the first that parses is the outermost whole record.
 */
export function tornLineTail(text: string): unknown {
	for (const wantValue of [false, true]) {
		let tried = 0;
		for (let index = text.indexOf('{"', 1); index !== -1 && tried < maxTailStarts; index = text.indexOf('{"', index + 1)) {
			if (opensValue(text, index) !== wantValue) {
				continue;
			}

			tried++;
			try {
				return parseBoundedJson(text.slice(index));
			} catch {
				// Not a whole record to the end of the line: try the next start.
			}
		}
	}

	return undefined;
}

/** Whether the `{` at `index` is where a well-formed object puts a value (after `:`, `,`, `[` or `{`). */
function opensValue(text: string, index: number): boolean {
	let before = index - 1;
	while (before >= 0 && (text[before] === ' ' || text[before] === '\t')) {
		before--;
	}

	const char = text[before];
	return char === ':' || char === ',' || char === '[' || char === '{';
}
