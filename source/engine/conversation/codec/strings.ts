import {encodingNames} from './decode.js';
import {eachString, freeKey, keysIn, mapStrings} from './keys.js';

export type StringsLayer = {encoding: typeof encodingNames.strings; ref_key: string; texts: string[]; page: unknown};

/** Short keys tried first; o200k reads each as one token. */
const refCandidates = ['$', '@', '~', '^', '%', '&'];

const digits = (index: number) => String(index).length;

/**
 * The strings layer: a string value that occurs more than once is kept once in `texts` and
 * referenced as `{<ref_key>: n}` wherever it occurs, when that is shorter than repeating it. The
 * most repeated strings get the smallest indices. Undefined when no string gains.
 */
export function encodeStrings(document: unknown): StringsLayer | undefined {
	const counts = new Map<string, number>();
	eachString(document, text => {
		if (text.length >= 4) {
			counts.set(text, (counts.get(text) ?? 0) + 1);
		}
	});
	const repeated = [...counts].filter(([, count]) => count > 1);
	if (repeated.length === 0) {
		return undefined;
	}

	const key = freeKey(keysIn(document), refCandidates, '$ref');
	// {"<key>":n}: braces, quotes, colon and the index.
	const referenceCost = (index: number) => JSON.stringify(key).length + 3 + digits(index);
	// Stable sort: equal counts keep document order, so the choice never depends on what a text says.
	repeated.sort((a, b) => b[1] - a[1]);
	const index = new Map<string, number>();
	const texts: string[] = [];
	for (const [text, count] of repeated) {
		const length = JSON.stringify(text).length;
		const next = texts.length;
		if (count * length > length + 1 + count * referenceCost(next)) {
			index.set(text, next);
			texts.push(text);
		}
	}

	if (texts.length === 0) {
		return undefined;
	}

	const page = mapStrings(document, text => {
		const found = index.get(text);
		return found === undefined ? text : {[key]: found};
	});
	return {encoding: encodingNames.strings, ref_key: key, texts, page};
}
