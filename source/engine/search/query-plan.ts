import {stopwords} from './stopwords.js';

export type QueryTerm =
	| {readonly kind: 'word'; readonly text: string}
	/** A Han run: words found by maximum match against the index vocabulary, and the run itself. */
	| {readonly kind: 'han'; readonly text: string; readonly words: string[]};

export type QueryPlan = {
	readonly terms: QueryTerm[];
	/** The FTS5 MATCH expression requiring every meaningful term. */
	readonly match: string;
	/** The same with prefix matching on Latin terms, for a second try when the strict one finds nothing. */
	readonly prefixMatch: string;
};

const quote = (term: string) => `"${term.replaceAll('"', '""')}"`;
const maxWordLength = 8;

/**
 * Splits a Han run into words by forward maximum match against the words the index knows
 * (from fts5vocab), so a query never needs jieba. Characters that start no known word stand
 * alone; the character-stream column still finds the run verbatim.
 */
export function maximumMatch(run: string, known: (word: string) => boolean): string[] {
	const chars = [...run];
	const words: string[] = [];
	let index = 0;
	while (index < chars.length) {
		let length = Math.min(maxWordLength, chars.length - index);
		while (length > 1 && !known(chars.slice(index, index + length).join(''))) {
			length--;
		}

		words.push(chars.slice(index, index + length).join(''));
		index += length;
	}

	return words;
}

/**
 * Turns free text into an FTS5 expression: Latin words (case-folded, stop-words dropped unless
 * nothing else is left) must all appear; each Han run must appear verbatim (a phrase over the
 * character column) or as its segmented words. Returns undefined when nothing searchable is left.
 */
export function planQuery(text: string, known: (word: string) => boolean): QueryPlan | undefined {
	const pieces = text.normalize('NFKC').match(/\p{Script=Han}+|[\p{L}\p{N}]+/gu) ?? [];
	const terms: QueryTerm[] = pieces.map(piece =>
		/\p{Script=Han}/u.test(piece) ? {kind: 'han', text: piece, words: maximumMatch(piece, known)} : {kind: 'word', text: piece.toLowerCase()},
	);
	const meaningful = terms.filter(term => term.kind === 'han' || !stopwords.has(term.text));
	const used = meaningful.length > 0 ? meaningful : terms;
	if (used.length === 0) {
		return undefined;
	}

	const clause = (term: QueryTerm, prefix: boolean) => {
		if (term.kind === 'word') {
			return prefix && term.text.length >= 2 ? `${quote(term.text)}*` : quote(term.text);
		}

		const phrase = `chars : ${quote([...term.text].join(' '))}`;
		const words = term.words.length > 1 ? `words : (${term.words.map(word => quote(word)).join(' AND ')})` : `words : ${quote(term.words[0]!)}`;
		return `(${phrase} OR ${words})`;
	};

	return {
		terms: used,
		match: used.map(term => clause(term, false)).join(' AND '),
		prefixMatch: used.map(term => clause(term, true)).join(' AND '),
	};
}
