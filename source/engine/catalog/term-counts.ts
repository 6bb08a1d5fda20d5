import type {Database} from '../../lib/sqlite.js';
import type {QueryPlan} from '../search/query-plan.js';
import type {Segmented} from '../search/segment.js';
import {linesOfTermCountRowidSql, unitOfTextRowidSql} from './text-rowid.js';

/**
 * The words some lines hold, each with how many of the lines hold it, as FTS5's unicode61
 * tokenizer (text_fts's) splits and folds them. A line whose letters and digits are all ASCII is
 * counted here; any other line goes through a scratch full-text index in the temp schema, so FTS5
 * itself splits and folds it (a JS imitation of its Unicode tables could disagree on a letter,
 * and a count with it). Every line through the scratch index cost a cold build ~8% of its time.
 */
export function scratchWords(db: Database): (lines: readonly Segmented[]) => Array<[string, number]> {
	let scratch: ReturnType<typeof scratchIndex> | undefined;
	return lines => {
		const counts = new AsciiWordCounts();
		const others: Segmented[] = [];
		for (const [index, line] of lines.entries()) {
			if (asciiTokenized(line)) {
				counts.addLine(line.words.toLowerCase(), index);
			} else {
				others.push(line);
			}
		}

		const words = counts.entries();
		if (others.length === 0) {
			return words;
		}

		const merged = new Map(words);
		for (const [term, lineCount] of (scratch ??= scratchIndex(db))(others)) {
			merged.set(term, (merged.get(term) ?? 0) + lineCount);
		}

		return [...merged];
	};
}

/**
 * Per ASCII word, how many lines hold it: an open-addressing table over the words of lowercased
 * lines, read in place, so a word already seen costs no string. A Map keyed by a new string per
 * word took about as long as the scratch index (150 against 158 ms over 400 batches of real
 * lines); this table takes 48.
 */
class AsciiWordCounts {
	private size = 1024;
	private used = 0;
	private words: Array<string | undefined> = new Array<string | undefined>(this.size);
	private hashes = new Int32Array(this.size);
	private counts = new Int32Array(this.size);
	private lastLines = new Int32Array(this.size);

	/** Counts each word of `line` (already lowercased) once for line number `index`. */
	addLine(line: string, index: number): void {
		const length = line.length;
		let at = 0;
		while (at < length) {
			let code = line.charCodeAt(at);
			if (!isWordCode(code)) {
				at++;
				continue;
			}

			const start = at;
			let hash = 0;
			do {
				hash = Math.imul(hash ^ code, 16_777_619);
				at++;
				code = at < length ? line.charCodeAt(at) : 0;
			} while (isWordCode(code));
			this.count(line, start, at, hash, index);
		}
	}

	entries(): Array<[string, number]> {
		const entries: Array<[string, number]> = [];
		for (const [slot, word] of this.words.entries()) {
			if (word !== undefined) {
				entries.push([word, this.counts[slot]!]);
			}
		}

		return entries;
	}

	private count(line: string, start: number, end: number, hash: number, index: number): void {
		const mask = this.size - 1;
		for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
			const word = this.words[slot];
			if (word === undefined) {
				this.words[slot] = line.slice(start, end);
				this.hashes[slot] = hash;
				this.counts[slot] = 1;
				this.lastLines[slot] = index;
				if (++this.used * 2 > this.size) {
					this.grow();
				}

				return;
			}

			if (this.hashes[slot] === hash && word.length === end - start && line.startsWith(word, start)) {
				if (this.lastLines[slot] !== index) {
					this.lastLines[slot] = index;
					this.counts[slot]! += 1;
				}

				return;
			}
		}
	}

	private grow(): void {
		const {words, hashes, counts, lastLines} = this;
		this.size *= 2;
		this.words = new Array<string | undefined>(this.size);
		this.hashes = new Int32Array(this.size);
		this.counts = new Int32Array(this.size);
		this.lastLines = new Int32Array(this.size);
		const mask = this.size - 1;
		for (const [old, word] of words.entries()) {
			if (word === undefined) {
				continue;
			}

			let slot = hashes[old]! & mask;
			while (this.words[slot] !== undefined) {
				slot = (slot + 1) & mask;
			}

			this.words[slot] = word;
			this.hashes[slot] = hashes[old]!;
			this.counts[slot] = counts[old]!;
			this.lastLines[slot] = lastLines[old]!;
		}
	}
}

/** a-z and 0-9: what a lowercased ASCII word is made of. */
function isWordCode(code: number): boolean {
	return (code >= 97 && code <= 122) || (code >= 48 && code <= 57);
}

/**
 * Whether unicode61 splits the line at every character but ASCII letters and digits: no Han
 * characters, nothing beyond ASCII but the punctuation and symbols FTS5's Unicode tables
 * separate words at (common ones: dashes, quotes, arrows, box drawing, check marks), and no run
 * so long that FTS5 clips it (to 32,768 bytes).
 */
function asciiTokenized(line: Segmented): boolean {
	return line.chars === '' && asciiSeparated.test(line.words) && (line.words.length < clippedRun || !longRun.test(line.words));
}

/**
 * ASCII but NUL, and the separators of Latin-1, General Punctuation, currency signs, arrows,
 * mathematical operators, technical symbols, box drawing, shapes, symbols and dingbats (less
 * their circled digits) and Supplemental Punctuation. Each one is a separator in FTS5's tables,
 * which predate many newer symbols (it reads U+23F4 as a letter), and none changes when a line
 * is lowercased: test/session-term-counts.test.ts checks every code point of the class against
 * FTS5 itself.
 */
export const asciiSeparated = /^[\x01-\x7f\x80-\xa9\xab-\xb1\xb4\xb6-\xb8\xbb\xbf\xd7\xf7\u2000-\u2064\u206a-\u206f\u20a0-\u20b9\u2190-\u23f3\u2500-\u26ff\u2701-\u2775\u2794-\u2b4c\u2e00-\u2e2e\u2e30-\u2e3b]*$/;
const clippedRun = 32_768;
const longRun = /[A-Za-z0-9]{32768}/;

/** The scratch index: each call adds lines, reads its vocabulary and empties it again. */
function scratchIndex(db: Database): (lines: readonly Segmented[]) => Array<[string, number]> {
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

	const tokens = scratchIndex(db)([{words: word, chars: ''}]);
	return tokens.length === 1 ? tokens[0]![0] : undefined;
}

/**
 * How many lines of each unit match a query: `linesOf[unit number]`, 0 where none (or past the
 * array's end), and how many units match at all. By unit number, not as pairs: a broad word
 * matches every one of 15,000 sessions at L, and a pair array each, then a map of them to find
 * each listed session's count, cost a fresh process more than SQLite took to find them.
 */
export type UnitMatches = {readonly linesOf: Int32Array; readonly units: number};

/**
 * UnitMatches of matches given as their unit numbers, in any order, each worth `lines[i]` of
 * its unit's lines (1 without `lines`). Plain indexed loops: in a fresh process they run in
 * the interpreter, where a callback per match cost more than the counting. The array is as
 * long as the largest unit number matched (unit numbers are below 2^21: at most 8 MB).
 */
export function unitMatchesOf(units: readonly number[], lines?: readonly number[]): UnitMatches {
	let largest = -1;
	for (let index = 0; index < units.length; index++) {
		largest = units[index]! > largest ? units[index]! : largest;
	}

	const perUnit = new Int32Array(largest + 1);
	let matched = 0;
	for (let index = 0; index < units.length; index++) {
		const unit = units[index]!;
		const count = lines === undefined ? 1 : lines[index]!;
		matched += perUnit[unit] === 0 && count > 0 ? 1 : 0;
		perUnit[unit]! += count;
	}

	return {linesOf: perUnit, units: matched};
}

/**
 * How many lines of each unit hold the query's one word, from text_counts: one entry per unit
 * and batch, where text_fts has one per matching line. Undefined when the counts cannot answer:
 * more than one term (they must share a line), a Han run (a phrase), a word FTS5 splits in two,
 * or a unit whose counts are untrusted.
 */
export function countedPerUnit(db: Database, plan: QueryPlan): UnitMatches | undefined {
	const [term, ...others] = plan.terms;
	if (term?.kind !== 'word' || others.length > 0 || db.prepare('SELECT 1 FROM text_units WHERE counted = 0 LIMIT 1').get() !== undefined) {
		return undefined;
	}

	const token = tokenOf(db, term.text);
	if (token === undefined) {
		return undefined;
	}

	const phrase = `"${token.replaceAll('"', '""')}"`;
	// Each rowid split by SQLite: two arrays of small integers, shorter to hand over and parse
	// than the rowids themselves.
	const [units, lines] = (db.prepare(`SELECT json_group_array(${unitOfTextRowidSql('rowid')}), json_group_array(${linesOfTermCountRowidSql('rowid')}) FROM text_counts WHERE text_counts MATCH ?`).raw().get(phrase) as [string, string]).map(json => JSON.parse(json) as number[]);
	return unitMatchesOf(units!, lines!);
}
