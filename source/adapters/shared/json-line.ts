/**
 * Parses one JSONL line. Some writers glue two records onto one line with no newline between
 * them; when the whole line does not parse, try splitting it into consecutive top-level JSON
 * objects. Returns null when nothing parses.
 */
export function parseJsonLine(text: string): unknown[] | null {
	try {
		return [JSON.parse(text)];
	} catch {
		if (!text.includes('}{')) {
			return null;
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
					values.push(JSON.parse(text.slice(start, index + 1)));
				} catch {
					return null;
				}

				start = -1;
			} else if (depth < 0) {
				return null;
			}
		} else if (depth === 0 && char !== undefined && !/\s/.test(char)) {
			return null;
		}
	}

	return depth === 0 && values.length > 1 ? values : null;
}
