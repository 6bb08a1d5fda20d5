import {loadAdapters, type AdapterLookup} from '../../adapters/stores.js';
import type {SessionRow} from '../../adapters/events.js';
import type {RowPlace, SourceAdapter} from '../../adapters/types.js';
import {readRowsAt, readRowsOnLines, walkRows} from '../conversation/rows.js';
import {planQuery} from '../search/query-plan.js';
import {searchableText} from '../search/session-text.js';
import {catalogRowsByKey, listedSql, listedTextUnits} from './list.js';
import type {CatalogRow} from './scan.js';
import {unitOfRow} from './unit-of-row.js';
import type {CatalogView} from './view.js';
import {vocabularyOf, type Database, type Statement} from '../../lib/sqlite.js';
import {countedPerUnit, unitMatchesOf, type UnitMatches} from './term-counts.js';
import {lineOfTextRowid, textRowid, textRowidRange, unitOfTextRowidSql} from './text-rowid.js';

/** Matched lines kept per session (for `expand`); the count goes on. */
const linesKept = 100;
const linesPerSession = 3;
const snippetRadius = 70;
/** BM25's usual constants, applied to sessions (see scoreOf). */
const k1 = 1.2;
const b = 0.75;

export type SessionMatch = {row: CatalogRow; unit: number; lines: number[]; matched: number};
export type SessionSearch = {total: number; page: SessionMatch[]};

/**
 * BM25 over sessions: a session's term frequency is how many of its lines match the whole query,
 * its length how many lines it has indexed. Scoring from rowids alone keeps a word that appears
 * on half the corpus's lines cheap: FTS5's own bm25 would read every line's positions.
 */
const scoreOf = (matched: number, docs: number, averageDocs: number) => (matched * (k1 + 1)) / (matched + k1 * (1 - b + (b * docs) / averageDocs));

/**
 * A search matching at most this share of the indexed sessions checks each one's scope and
 * copies by its row; a broader one reads every session in scope once from the listing's
 * covering index (listedTextUnits). At L the covering read costs what ~3,000 lookups by row do, and
 * reading every matching session's wide row costs memory (the catalog is mapped).
 */
const perRowShare = 1 / 4;

/**
 * The matched sessions in scope, in the listing's order (newest first, by key among equals): the
 * unit number, matching lines and indexed lines of each. Integers only: a broad word's 15,000
 * keys in JS cost more to collect as garbage than SQLite took to join them.
 */
type Candidates = {readonly nos: ArrayLike<number>; readonly matched: ArrayLike<number>; readonly docs: ArrayLike<number>};

/**
 * Sessions in scope whose lines match every meaningful query word (Chinese by verbatim
 * character runs), best first, newest first among equals. A document's rowid names its
 * session and line, so the matches are counted per session without a join (see
 * matchedPerUnit); the sessions in scope come in the listing's order and are scored and cut in
 * JS (SQLite joining, sorting and counting them was most of a broad search); only the page's
 * sessions have their lines listed and their rows decoded.
 */
export function searchSessions(view: CatalogView, q: string, offset: number, limit: number): SessionSearch | undefined {
	const plan = planQuery(q, vocabularyOf(view.db, 'text_fts'));
	if (!plan) {
		return undefined;
	}

	const matched = countedPerUnit(view.db, plan) ?? matchedPerUnit(view.db, plan.match);
	const [averageDocs, indexed] = view.db.prepare('SELECT coalesce(avg(docs) FILTER (WHERE docs > 0), 1), count(*) FROM text_units').raw().get() as [number, number];
	const candidates = matched.units <= indexed * perRowShare ? candidatesByRow(view, matched) : candidatesInScope(view, matched);
	const found = bestFirst(candidates, averageDocs, offset + limit).slice(offset);
	const keyOf = new Map(view.db.prepare('SELECT no, key FROM text_units WHERE no IN (SELECT value FROM json_each(?))').raw().all(JSON.stringify(found.map(index => candidates.nos[index]!))) as Array<[number, string]>);
	const byKey = catalogRowsByKey(view.db, [...keyOf.values()]);
	// Only the page's sessions have their matching lines listed.
	const linesOf = matchedLinesOf(view.db, linesKept);
	const page = found.flatMap(index => {
		const no = candidates.nos[index]!;
		const row = byKey.get(keyOf.get(no)!);
		return row ? [{row, unit: no, lines: linesOf(plan.match, no), matched: candidates.matched[index]!}] : [];
	});
	return {total: candidates.nos.length, page};
}

/** A few matched sessions, each looked up by its unit and key and judged by its row (listedSql). */
function candidatesByRow(view: CatalogView, matched: UnitMatches): Candidates {
	const listed = listedSql(view.filter);
	const hits: Array<[number, number]> = [];
	for (let no = 0; no < matched.linesOf.length; no++) {
		if (matched.linesOf[no]! > 0) {
			hits.push([no, matched.linesOf[no]!]);
		}
	}

	const rows = view.db
		.prepare(`WITH ${hitsCte} SELECT hits.no, hits.matched, text_units.docs FROM hits JOIN text_units ON text_units.no = hits.no JOIN units ON units.key = text_units.key WHERE ${listed.sql} ORDER BY coalesce(units.modified, '') DESC, units.key ASC`)
		.raw()
		.all(JSON.stringify(hits), ...listed.params) as Array<[number, number, number]>;
	return {nos: rows.map(row => row[0]), matched: rows.map(row => row[1]), docs: rows.map(row => row[2])};
}

/**
 * Many matched sessions: every session in scope (listedTextUnits), with the lines of those that
 * match, into arrays of the listing's length cut to the matches.
 */
function candidatesInScope(view: CatalogView, matched: UnitMatches): Candidates {
	const listed = listedTextUnits(view.db, view.filter);
	const [nos, lines, docs] = [new Int32Array(listed.nos.length), new Int32Array(listed.nos.length), new Int32Array(listed.nos.length)];
	let found = 0;
	for (let index = 0; index < listed.nos.length; index++) {
		const no = listed.nos[index]!;
		const count = matched.linesOf[no] ?? 0;
		if (count > 0) {
			nos[found] = no;
			lines[found] = count;
			docs[found] = listed.docs[index]!;
			found++;
		}
	}

	return {nos: nos.subarray(0, found), matched: lines.subarray(0, found), docs: docs.subarray(0, found)};
}

/**
 * The indexes of the first `count` candidates, best first: by score, then in the listing's
 * order, as the SQL ranking this replaced ordered them (score, then newest, then key). Kept in
 * a short sorted array: a later candidate displaces a kept one only with a higher score, so a
 * broad word's 15,000 are mostly turned away by one comparison.
 */
function bestFirst(candidates: Candidates, averageDocs: number, count: number): number[] {
	const scores = new Float64Array(candidates.nos.length);
	for (let index = 0; index < scores.length; index++) {
		scores[index] = scoreOf(candidates.matched[index]!, candidates.docs[index]!, averageDocs);
	}

	if (count >= scores.length / 8) {
		// A deep page: sorting them all costs less than keeping thousands in order.
		return Array.from(scores.keys()).sort((x, y) => scores[y]! - scores[x]! || x - y).slice(0, count);
	}

	const kept: number[] = [];
	for (let index = 0; index < scores.length; index++) {
		const score = scores[index]!;
		if (kept.length === count && score <= scores[kept.at(-1)!]!) {
			continue;
		}

		// After every kept candidate scored as high: those come earlier in the listing.
		let [low, high] = [0, kept.length];
		while (low < high) {
			const middle = (low + high) >>> 1;
			if (scores[kept[middle]!]! >= score) {
				low = middle + 1;
			} else {
				high = middle;
			}
		}

		kept.splice(low, 0, index);
		if (kept.length > count) {
			kept.pop();
		}
	}

	return kept;
}

/** The `hits (no, matched)` of candidatesByRow, from its JSON. */
const hitsCte = 'hits (no, matched) AS (SELECT value ->> 0, value ->> 1 FROM json_each(?))';

/**
 * How many lines of each unit match: one pass over the matching lines' unit numbers, handed
 * over as one JSON array that SQLite writes as it reads them. Counting with GROUP BY sorted
 * every matching line first: a broad word matches 729k lines at L, and that sort was most of
 * the search.
 */
function matchedPerUnit(db: Database, match: string): UnitMatches {
	const units = JSON.parse(db.prepare(`SELECT json_group_array(${unitOfTextRowidSql('rowid')}) FROM text_fts WHERE text_fts MATCH ?`).pluck().get(match) as string) as number[];
	return unitMatchesOf(units);
}

/** A window of the (secret-masked) searchable text around the first query word it contains. */
function snippetOf(text: string, q: string): string {
	const words = (q.normalize('NFKC').match(/\p{Script=Han}+|[\p{L}\p{N}]+/gu) ?? []).map(word => word.toLowerCase());
	const lower = text.toLowerCase();
	const at = words.map(word => lower.indexOf(word)).filter(index => index >= 0).sort((x, y) => x - y)[0] ?? 0;
	const start = Math.max(0, at - snippetRadius);
	const end = Math.min(text.length, at + snippetRadius * 2);
	return `${start > 0 ? '…' : ''}${text.slice(start, end).replaceAll(/\s+/g, ' ').trim()}${end < text.length ? '…' : ''}`;
}

/**
 * Snippets for the first few matched lines of a page's sessions, read from the transcripts
 * themselves: each line straight from where the index recorded it where possible, else by
 * walking the session. Rows sharing a line are one document, as they were indexed.
 */
export async function snippetReader(view: CatalogView, q: string): Promise<(match: SessionMatch) => Array<{line: number; snippet: string}>> {
	const offsetOf = lineOffsets(view);
	const adapterOf = await loadAdapters();
	return match => snippetsOf(view, offsetOf, adapterOf, match, q);
}

function snippetsOf(view: CatalogView, offsetOf: Statement, adapterOf: AdapterLookup, match: SessionMatch, q: string): Array<{line: number; snippet: string}> {
	const lines = match.lines.slice(0, linesPerSession);
	const rows = rowsOfLines(view, offsetOf, adapterOf, match, lines);
	return lines.flatMap(line => {
		const text = rows
			.filter(row => row.line === line)
			.map(row => searchableText(row.events))
			.filter(part => part.trim() !== '')
			.join('\n');
		return text === '' ? [] : [{line, snippet: snippetOf(text, q)}];
	});
}

/** `SELECT offset FROM text_lines`: where the index recorded each line, for rowsOfLines. */
export function lineOffsets(view: CatalogView): Statement {
	return view.db.prepare('SELECT offset FROM text_lines WHERE rowid = ?').pluck();
}

/**
 * The source rows of some indexed lines of one session (lines in ascending order), read from
 * the transcript: each line straight from where the index recorded it where possible, else
 * normalising only those lines of a document (rowsOnLines), else by walking the session. Empty
 * when the session's store has no adapter any more.
 */
export function rowsOfLines(view: CatalogView, offsetOf: Statement, adapterOf: AdapterLookup, match: Pick<SessionMatch, 'row' | 'unit'>, lines: readonly number[]): SessionRow[] {
	const adapter = adapterOf(match.row.source as SourceAdapter['id']);
	if (!adapter || lines.length === 0) {
		return [];
	}

	const unit = unitOfRow(match.row);
	const places: RowPlace[] = [];
	for (const line of lines) {
		const offset = offsetOf.get(textRowid(match.unit, line)) as number | null | undefined;
		if (typeof offset === 'number') {
			places.push({line, offset});
		}
	}

	const wanted = new Set(lines);
	const rows = (places.length === lines.length ? readRowsAt(adapter, unit, places) : undefined) ?? readRowsOnLines(adapter, unit, wanted);
	if (rows) {
		return rows;
	}

	const walked: SessionRow[] = [];
	walkRows(view.db, adapter, unit, {fromLine: lines[0]!, toLine: lines.at(-1)!, only: wanted}, row => {
		if (wanted.has(row.line)) {
			walked.push(row);
		}
	});
	return walked;
}

/**
 * The lines of one unit that match, in order (at most `limit`), read from the unit's own rowid
 * range, which FTS5 seeks to in the doclist. The bounds are cast: better-sqlite3 binds a
 * JavaScript number as a double, and FTS5 takes a rowid bound only when it is an integer (with a
 * double, or with `rowid / span = unit`, it reads the whole doclist, 729k lines for a broad word
 * at L, and SQLite filters them).
 */
export function matchedLinesOf(db: Database, limit = -1): (match: string, unit: number) => number[] {
	const statement = db.prepare(`SELECT rowid FROM text_fts WHERE text_fts MATCH ? AND rowid >= CAST(? AS INTEGER) AND rowid <= CAST(? AS INTEGER) ORDER BY rowid LIMIT ${limit}`).pluck();
	return (match, unit) => (statement.all(match, ...textRowidRange(unit)) as number[]).map(rowid => lineOfTextRowid(rowid));
}
