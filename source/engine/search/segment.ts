import {createRequire} from 'node:module';

/** Han characters (CJK ideographs), the text that needs a word segmenter. */
const hanRun = /\p{Script=Han}+/gu;
const hasHanPattern = /\p{Script=Han}/u;

export function hasHan(text: string): boolean {
	return hasHanPattern.test(text);
}

type Jieba = {cut(text: string): string[]};
let jieba: Jieba | undefined;

/**
 * nodejieba, loaded on first use. Its first cut builds a 349k-word dictionary (about three
 * seconds on a slow machine), so only indexing text that contains Han characters pays for it;
 * queries never do.
 */
function loadJieba(): Jieba {
	jieba ??= createRequire(import.meta.url)('nodejieba') as Jieba;
	return jieba;
}

export type Segmented = {
	/** Words: Latin text as written (FTS5's unicode61 tokenizer splits and case-folds it) and jieba's words for Han runs. */
	readonly words: string;
	/** Every Han character in order, space-separated: a phrase over these finds any verbatim substring. */
	readonly chars: string;
};

/** Prepares text for the full-text index: Han runs segmented into words, plus a character stream. */
export function segmentForIndex(text: string): Segmented {
	if (!hasHan(text)) {
		return {words: text, chars: ''};
	}

	const cut = loadJieba();
	const chars: string[] = [];
	const words = text.replaceAll(hanRun, run => {
		chars.push(...run);
		return ` ${cut.cut(run).join(' ')} `;
	});
	return {words, chars: chars.join(' ')};
}
