/**
 * Edits of a JSON text someone else owns that leave every byte outside the edit as it was: the
 * span of a value found by its path of keys, and a member added at the end of an object or an
 * array in the file's own indentation. The text must already be valid JSON (JSON.parse it
 * first): the scanner only skips values, it does not check them.
 */
export type Span = {readonly start: number; readonly end: number};

const whitespace = /\s/;

function skipSpace(text: string, at: number): number {
	while (at < text.length && whitespace.test(text[at]!)) {
		at++;
	}

	return at;
}

function stringEnd(text: string, at: number): number {
	for (let index = at + 1; index < text.length; index++) {
		if (text[index] === '\\') {
			index++;
		} else if (text[index] === '"') {
			return index + 1;
		}
	}

	return text.length;
}

/** Where the value starting at `at` ends. */
function valueEnd(text: string, at: number): number {
	const first = text[at];
	if (first === '"') {
		return stringEnd(text, at);
	}

	if (first === '{' || first === '[') {
		let depth = 0;
		for (let index = at; index < text.length; index++) {
			const char = text[index];
			if (char === '"') {
				index = stringEnd(text, index) - 1;
			} else if (char === '{' || char === '[') {
				depth++;
			} else if (char === '}' || char === ']') {
				depth--;
				if (depth === 0) {
					return index + 1;
				}
			}
		}

		return text.length;
	}

	let index = at;
	while (index < text.length && !/[,\]}\s]/.test(text[index]!)) {
		index++;
	}

	return index;
}

/** The span of the member `key` of the object spanning `object`, if it has one. */
function memberSpan(text: string, object: Span, key: string): Span | undefined {
	let at = skipSpace(text, object.start + 1);
	while (at < object.end - 1 && text[at] === '"') {
		const keyEnd = stringEnd(text, at);
		const name = JSON.parse(text.slice(at, keyEnd)) as string;
		const start = skipSpace(text, skipSpace(text, keyEnd) + 1);
		const end = valueEnd(text, start);
		if (name === key) {
			return {start, end};
		}

		at = skipSpace(text, end);
		at = text[at] === ',' ? skipSpace(text, at + 1) : at;
	}

	return undefined;
}

/** The span of the value at `path` (object keys from the top), if there is one. */
export function jsonSpan(text: string, path: readonly string[]): Span | undefined {
	const start = skipSpace(text, 0);
	let span: Span | undefined = {start, end: valueEnd(text, start)};
	for (const key of path) {
		if (span === undefined || text[span.start] !== '{') {
			return undefined;
		}

		span = memberSpan(text, span, key);
	}

	return span;
}

/**
 * The text with `member` (`"key": value` in an object, a value in an array) added last in the
 * container spanning `container`, `depth` levels deep, indented with `indent`.
 */
export function appendMember(text: string, container: Span, depth: number, indent: string, member: string): string {
	const inner = indent.repeat(depth + 1);
	const body = member.split('\n').join(`\n${inner}`);
	const close = container.end - 1;
	let last = close - 1;
	while (last > container.start && whitespace.test(text[last]!)) {
		last--;
	}

	if (last === container.start) {
		return `${text.slice(0, container.start + 1)}\n${inner}${body}\n${indent.repeat(depth)}${text.slice(close)}`;
	}

	return `${text.slice(0, last + 1)},\n${inner}${body}${text.slice(last + 1)}`;
}
