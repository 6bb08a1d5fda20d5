import {existsSync} from 'node:fs';
import {createRequire} from 'node:module';
import {fileURLToPath} from 'node:url';

/** Han characters (CJK ideographs), the text that needs a word segmenter. */
const hanRun = /\p{Script=Han}+/gu;
const hasHanPattern = /\p{Script=Han}/u;

export function hasHan(text: string): boolean {
	return hasHanPattern.test(text);
}

type Jieba = {cut(text: string): string[]; load(dictionaries: {dict?: string; idfDict?: string}): unknown};
let jieba: Jieba | undefined;

/** The trimmed dictionary the build writes (see scripts/build.mjs), from a bundle or from source. */
function trimmedDictionary(): {dict: string; idfDict: string} | undefined {
	for (const directory of ['../jieba/', '../../../build/jieba/']) {
		const dict = fileURLToPath(new URL(`${directory}dict.utf8`, import.meta.url));
		const idfDict = fileURLToPath(new URL(`${directory}idf.utf8`, import.meta.url));
		if (existsSync(dict) && existsSync(idfDict)) {
			return {dict, idfDict};
		}
	}

	return undefined;
}

/**
 * nodejieba, loaded on first use with the trimmed dictionary (under a second to build, against
 * about three for the full one), so only indexing text that contains Han characters pays for
 * it, once per run; queries never do.
 */
function loadJieba(): Jieba {
	if (!jieba) {
		const loaded = createRequire(import.meta.url)('nodejieba') as Jieba;
		loaded.load(trimmedDictionary() ?? {});
		jieba = loaded;
	}

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
