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
