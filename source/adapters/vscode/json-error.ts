/**
 * Where a JSON text first goes wrong. V8's parse errors state a position only for some
 * mistakes, and others quote the offending text instead, which must never reach a message;
 * so on failure the document is re-scanned here to find the offset of the first error.
 */
class JsonSyntaxError extends Error {
	constructor(readonly offset: number) {
		super('invalid JSON');
	}
}

const numberPattern = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const escapes = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);

function createScanner(text: string) {
	let index = 0;
	const fail = (): never => {
		throw new JsonSyntaxError(index);
	};

	const skipSpace = () => {
		while (index < text.length && (text[index] === ' ' || text[index] === '\t' || text[index] === '\n' || text[index] === '\r')) {
			index++;
		}
	};

	const scanString = () => {
		index++; // Opening quote.
		for (;;) {
			const char = text[index];
			if (char === undefined || char.charCodeAt(0) < 0x20) {
				fail();
			} else if (char === '"') {
				index++;
				return;
			} else if (char === '\\') {
				index++;
				const escape = text[index] ?? '';
				if (escape === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(index + 1, index + 5))) {
					index += 5;
				} else if (escapes.has(escape)) {
					index++;
				} else {
					fail();
				}
			} else {
				index++;
			}
		}
	};

	const scanWord = (word: string) => {
		if (!text.startsWith(word, index)) {
			fail();
		}

		index += word.length;
	};

	const scanNumber = () => {
		numberPattern.lastIndex = index;
		if (!numberPattern.test(text)) {
			fail();
		}

		index = numberPattern.lastIndex;
	};

	const scanContainer = (close: '}' | ']') => {
		index++; // Opening bracket.
		skipSpace();
		if (text[index] === close) {
			index++;
			return;
		}

		for (;;) {
			skipSpace();
			if (close === '}') {
				if (text[index] !== '"') {
					fail();
				}

				scanString();
				skipSpace();
				if (text[index] !== ':') {
					fail();
				}

				index++;
			}

			scanValue();
			skipSpace();
			if (text[index] === ',') {
				index++;
			} else if (text[index] === close) {
				index++;
				return;
			} else {
				fail();
			}
		}
	};

	function scanValue(): void {
		skipSpace();
		const char = text[index];
		if (char === '{') {
			scanContainer('}');
		} else if (char === '[') {
			scanContainer(']');
		} else if (char === '"') {
			scanString();
		} else if (char === 't') {
			scanWord('true');
		} else if (char === 'f') {
			scanWord('false');
		} else if (char === 'n') {
			scanWord('null');
		} else {
			scanNumber();
		}
	}

	return {
		scanDocument() {
			scanValue();
			skipSpace();
			if (index < text.length) {
				fail();
			}
		},
		get index() {
			return index;
		},
	};
}

/** The offset of the first syntax error in `text`, or -1 when it is valid JSON. */
export function jsonErrorOffset(text: string): number {
	const scanner = createScanner(text);
	try {
		scanner.scanDocument();
		return -1;
	} catch (error) {
		// A pathologically deep document overflows the stack: report where the scan had got to.
		return error instanceof JsonSyntaxError ? error.offset : scanner.index;
	}
}

/** The 1-based line of a character offset. */
export function lineAtOffset(text: string, offset: number): number {
	let line = 1;
	for (let index = text.indexOf('\n'); index !== -1 && index < offset; index = text.indexOf('\n', index + 1)) {
		line++;
	}

	return line;
}
