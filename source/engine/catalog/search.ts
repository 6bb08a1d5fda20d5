import {loadAdapters, type AdapterLookup} from '../../adapters/stores.js';
import type {SessionRow} from '../../adapters/events.js';
import type {RowPlace, SourceAdapter} from '../../adapters/types.js';
import {readRowsAt, walkRows} from '../conversation/rows.js';
import {planQuery} from '../search/query-plan.js';
import {searchableText} from '../search/session-text.js';
import {catalogRowsByKey, listedCtes, listedSql} from './list.js';
import {unitOfRow, type CatalogRow} from './scan.js';
import type {CatalogView} from './view.js';
import {vocabularyOf, type Database, type Statement} from '../../lib/sqlite.js';
import {countedPerUnit} from './term-counts.js';
import {lineOfTextRowid, textRowid, textRowidRange, textRowidSpan} from './text-rowid.js';

/** Matched lines kept per session (for `expand`); the count goes on. */
const linesKept = 100;
const linesPerSession = 3;
const snippetRadius = 70;
/** BM25's usual constants, applied to sessions (see scoreSql). */
const k1 = 1.2;
const b = 0.75;

export type SessionMatch = {row: CatalogRow; unit: number; lines: number[]; matched: number};
export type SessionSearch = {total: number; page: SessionMatch[]};

/**
 * BM25 over sessions, as SQL: a session's term frequency is how many of its lines match the
 * whole query, its length how many lines it has indexed. Scoring from rowids alone keeps a word
 * that appears on half the corpus's lines cheap: FTS5's own bm25 would read every line's
 * positions. The same operations in the same order as `(m × (k1 + 1)) / (m + k1 × (1 − b + b ×
 * docs / average))` in doubles, so the order is the one this was first written to give in JS.
 */
const scoreSql = `(hits.matched * (${k1} + 1)) / (hits.matched + ${k1} * (1 - ${b} + (${b} * text_units.docs) / ?))`;

/**
 * A search matching at most this share of the indexed sessions checks each one's scope and
 * copies by its row; a broader one joins the listing's covering indexes (every session in
 * scope, read once). At L the covering read costs what ~3,000 lookups by row do, and reading
 * every matching session's wide row costs memory (the catalog is mapped).
 */
const perRowShare = 1 / 4;

/**
 * Sessions in scope whose lines match every meaningful query word (Chinese by verbatim
 * character runs), best first, newest first among equals. A document's rowid names its
 * session and line, so the matches are counted per session without a join (see
 * matchedPerUnit); SQLite ranks the sessions in scope and cuts the page; only the page's
 * sessions have their lines listed and their rows decoded.
 */
export function searchSessions(view: CatalogView, q: string, offset: number, limit: number): SessionSearch | undefined {
	const plan = planQuery(q, vocabularyOf(view.db, 'text_fts'));
	if (!plan) {
		return undefined;
	}

	const matched = countedPerUnit(view.db, plan) ?? matchedPerUnit(view.db, plan.match);
	const [averageDocs, indexed] = view.db.prepare('SELECT coalesce(avg(docs) FILTER (WHERE docs > 0), 1), count(*) FROM text_units').raw().get() as [number, number];
	const order = (table: string) => `ORDER BY ${scoreSql} DESC, coalesce(${table}.modified, '') DESC, ${table}.key ASC`;
	// A few matching sessions are looked up by key and judged one by one (listedSql); many are
	// joined with every session in scope, read once from the covering indexes (listedCtes).
	const ranked = (select: (table: string) => string, tail: (table: string) => string) => {
		if (matched.length <= indexed * perRowShare) {
			const listed = listedSql(view.filter);
			return {
				sql: `WITH ${hitsCte} SELECT ${select('units')} FROM hits JOIN text_units ON text_units.no = hits.no JOIN units ON units.key = text_units.key WHERE ${listed.sql} ${tail('units')}`,
				params: [JSON.stringify(matched), ...listed.params],
			};
		}

		const listed = listedCtes(view.filter);
		return {
			sql: `WITH ${hitsCte}, ${listed.sql} SELECT ${select('listed')} FROM hits JOIN text_units ON text_units.no = hits.no JOIN listed ON listed.key = text_units.key ${tail('listed')}`,
			params: [JSON.stringify(matched), ...listed.params],
		};
	};

	const paged = ranked(table => `${table}.key, hits.no, hits.matched, count(*) OVER ()`, table => `${order(table)} LIMIT ? OFFSET ?`);
	const found = view.db.prepare(paged.sql).raw().all(...paged.params, averageDocs, limit, offset) as Array<[string, number, number, number]>;
	// Past the last page no row carries the total: count alone then.
	const counted = ranked(() => 'count(*)', () => '');
	const total = found[0]?.[3] ?? (offset > 0 ? (view.db.prepare(counted.sql).pluck().get(...counted.params) as number) : 0);
	// Only the page's sessions have their matching lines listed.
	const lines = new Map<number, number[]>();
	const linesOf = matchedLinesOf(view.db, linesKept);
	for (const [, no] of found) {
		lines.set(no, linesOf(plan.match, no));
	}

	const byKey = catalogRowsByKey(
		view.db,
		found.map(([key]) => key),
	);
	const page = found.flatMap(([key, no, matched]) => {
		const row = byKey.get(key);
		return row ? [{row, unit: no, lines: lines.get(no) ?? [], matched}] : [];
	});
	return {total, page};
}

/** The `hits (no, matched)` of matchedPerUnit, from its JSON. */
const hitsCte = 'hits (no, matched) AS (SELECT value ->> 0, value ->> 1 FROM json_each(?))';

/**
 * How many lines of each unit match, as [unit number, lines] pairs: one pass over the rowids,
 * which FTS5 gives in order (a unit's lines come in one run), handed over as one JSON array
 * of unit numbers that SQLite writes as it reads them. Counting with GROUP BY sorted every
 * matching line first: a broad word matches 729k lines at L, and that sort was most of the
 * search.
 */
function matchedPerUnit(db: Database, match: string): Array<[number, number]> {
	const units = JSON.parse(db.prepare(`SELECT json_group_array(rowid / ${textRowidSpan}) FROM text_fts WHERE text_fts MATCH ?`).pluck().get(match) as string) as number[];
	const perUnit = new Map<number, number>();
	// Counted run by run: the map is touched once per unit, not once per line.
	let [unit, run] = [units[0], 0];
	for (const next of units) {
		if (next !== unit) {
			perUnit.set(unit!, (perUnit.get(unit!) ?? 0) + run);
			[unit, run] = [next, 0];
		}

		run++;
	}

	if (run > 0) {
		perUnit.set(unit!, (perUnit.get(unit!) ?? 0) + run);
	}

	return [...perUnit];
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
 * the transcript: each line straight from where the index recorded it where possible, else by
 * walking the session. Empty when the session's store has no adapter any more.
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

	const rows = places.length === lines.length ? readRowsAt(adapter, unit, places) : undefined;
	if (rows) {
		return rows;
	}

	const wanted = new Set(lines);
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
