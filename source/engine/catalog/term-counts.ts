import type {Database} from '../../lib/sqlite.js';
import type {QueryPlan} from '../search/query-plan.js';
import type {Segmented} from '../search/segment.js';
import {linesOfTermCountRowid, unitOfTextRowid} from './text-rowid.js';

/**
 * A scratch full-text index in the temp schema, with text_fts's tokenizer: the words some lines
 * hold, each with how many of the lines hold it, as FTS5 itself splits and folds them (a JS
 * imitation of its tokenizer could disagree on a letter, and a count with it).
 */
export function scratchWords(db: Database): (lines: readonly Segmented[]) => Array<[string, number]> {
	db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.text_scratch USING fts5 (words, chars, content = '', detail = none, columnsize = 0)");
	db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.text_scratch_vocab USING fts5vocab(temp, 'text_scratch', 'row')");
	const insert = db.prepare('INSERT INTO temp.text_scratch (rowid, words, chars) VALUES (?, ?, ?)');
	const vocabulary = db.prepare('SELECT term, doc FROM temp.text_scratch_vocab').raw();
	const clear = db.prepare("INSERT INTO temp.text_scratch (text_scratch) VALUES ('delete-all')");
	return lines => {
		for (const [index, line] of lines.entries()) {
			insert.run(index + 1, line.words, line.chars);
		}

		const words = vocabulary.all() as Array<[string, number]>;
		clear.run();
		return words;
	};
}

/**
 * FTS5's unicode61 tokenizer (text_fts's) keeps a run of ASCII letters and digits whole and
 * only folds its case: such a word is its own token.
 */
const asciiWord = /^[A-Za-z0-9]+$/;

/**
 * The one token FTS5 makes of a word, or undefined when it makes more or none. An ASCII word is
 * read as is: building the scratch index cost a single-word search more than counting its
 * matches did.
 */
export function tokenOf(db: Database, word: string): string | undefined {
	if (asciiWord.test(word)) {
		return word.toLowerCase();
	}

	const tokens = scratchWords(db)([{words: word, chars: ''}]);
	return tokens.length === 1 ? tokens[0]![0] : undefined;
}

/**
 * How many lines of each unit hold the query's one word, as [unit number, lines] pairs in unit
 * order, from text_counts: one entry per unit and batch, where text_fts has one per matching
 * line. Undefined when the counts cannot answer: more than one term (they must share a line),
 * a Han run (a phrase), a word FTS5 splits in two, or a unit whose counts are untrusted.
 */
export function countedPerUnit(db: Database, plan: QueryPlan): Array<[number, number]> | undefined {
	const [term, ...others] = plan.terms;
	if (term?.kind !== 'word' || others.length > 0 || db.prepare('SELECT 1 FROM text_units WHERE counted = 0 LIMIT 1').get() !== undefined) {
		return undefined;
	}

	const token = tokenOf(db, term.text);
	if (token === undefined) {
		return undefined;
	}

	const phrase = `"${token.replaceAll('"', '""')}"`;
	const rowids = JSON.parse(db.prepare('SELECT json_group_array(rowid) FROM text_counts WHERE text_counts MATCH ?').pluck().get(phrase) as string) as number[];
	const perUnit: Array<[number, number]> = [];
	for (const rowid of rowids) {
		const unit = unitOfTextRowid(rowid);
		const last = perUnit.at(-1);
		if (last?.[0] === unit) {
			last[1] += linesOfTermCountRowid(rowid);
		} else {
			perUnit.push([unit, linesOfTermCountRowid(rowid)]);
		}
	}

	return perUnit;
}
