const han = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/;

const isLower = (code: number) => code >= 97 && code <= 122;
const isUpper = (code: number) => code >= 65 && code <= 90;
const isDigit = (code: number) => code >= 48 && code <= 57;

/** Tokens for one run of ASCII letters and digits, by its make-up (measured against o200k). */
function wordTokens(length: number, letters: number, digits: number, upper: number, caseChanges: number): number {
	if (caseChanges > 2 && caseChanges * 4 > length) {
		return Math.ceil(length / 1.3); // Case flipping every few characters: random text (base64, keys).
	}

	if (digits === 0) {
		// Lowercase prose averages four or more characters a token; all-caps text merges far less.
		return upper > 1 && upper * 2 >= letters ? Math.ceil(length / 2) : Math.ceil(length / 4) + Math.floor(upper / 2);
	}

	if (letters === 0) {
		return Math.ceil(length / 3); // o200k splits digit runs into groups of at most three.
	}

	return Math.ceil(length / 1.3); // Hex ids, hashes and base64 split into pieces of 1.5–1.8 characters.
}

/**
 * An upper estimate of the o200k token count, calibrated on English, code, JSON, Chinese and
 * random ids never to fall below the true count: alphanumeric runs by their make-up, each ASCII
 * symbol a token, newlines a token per run (spaces join the next word), CJK characters 1.25
 * tokens, other non-ASCII characters their UTF-8 byte count (byte-level BPE's own ceiling).
 */
export function estimateTokens(text: string): number {
	let tokens = 0;
	let cjk = 0;
	let length = 0;
	let letters = 0;
	let digits = 0;
	let upper = 0;
	let caseChanges = 0;
	let previousUpper: boolean | undefined;
	let inNewlines = false;
	const endWord = () => {
		if (length > 0) {
			tokens += wordTokens(length, letters, digits, upper, caseChanges);
			length = 0;
			letters = 0;
			digits = 0;
			upper = 0;
			caseChanges = 0;
			previousUpper = undefined;
		}
	};

	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index);
		if (isLower(code) || isUpper(code) || isDigit(code)) {
			length++;
			if (isDigit(code)) {
				digits++;
			} else {
				letters++;
				const nowUpper = isUpper(code);
				if (nowUpper) {
					upper++;
				}

				if (previousUpper !== undefined && previousUpper !== nowUpper) {
					caseChanges++;
				}

				previousUpper = nowUpper;
			}

			inNewlines = false;
			continue;
		}

		endWord();
		if (code === 10 || code === 13) {
			if (!inNewlines) {
				tokens++;
			}

			inNewlines = true;
			continue;
		}

		inNewlines = false;
		if (code === 32 || code === 9) {
			continue;
		}

		if (code < 128) {
			tokens++;
		} else if (han.test(text[index]!)) {
			cjk++;
		} else if (code >= 0xd8_00 && code <= 0xdb_ff) {
			tokens += 4;
			index++;
		} else {
			tokens += code < 0x8_00 ? 2 : 3;
		}
	}

	endWord();
	return tokens + Math.ceil(cjk * 1.25);
}
