import {loadAdapters, type AdapterLookup} from '../../adapters/stores.js';
import type {SessionRow} from '../../adapters/events.js';
import type {RowPlace, SourceAdapter} from '../../adapters/types.js';
import {readRowsAt, walkRows} from '../conversation/rows.js';
import {planQuery} from '../search/query-plan.js';
import {searchableText} from '../search/session-text.js';
import {catalogRowsByKey, listedCtes} from './list.js';
import {unitOfRow, type CatalogRow} from './scan.js';
import type {CatalogView} from './view.js';
import {vocabularyOf, type Statement} from '../../lib/sqlite.js';
import {lineOfTextRowid, textRowid, textRowidSpan, unitOfTextRowid} from './text-rowid.js';

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
 * Sessions in scope whose lines match every meaningful query word (Chinese by verbatim
 * character runs), best first, newest first among equals. A document's rowid names its
 * session and line, so SQLite counts the matches per session without a join, ranks the
 * sessions in scope and cuts the page; only the page's sessions have their lines listed and
 * their rows decoded.
 */
export function searchSessions(view: CatalogView, q: string, offset: number, limit: number): SessionSearch | undefined {
	const plan = planQuery(q, vocabularyOf(view.db, 'text_fts'));
	if (!plan) {
		return undefined;
	}

	const span = textRowidSpan;
	const averageDocs = (view.db.prepare('SELECT avg(docs) FROM text_units WHERE docs > 0').pluck().get() as number | null) ?? 1;
	const listed = listedCtes(view.filter);
	const ranked = (select: string, tail: string) =>
		`WITH hits (no, matched) AS (SELECT rowid / ${span}, count(*) FROM text_fts WHERE text_fts MATCH ? GROUP BY 1), ${listed.sql}
		SELECT ${select} FROM hits JOIN text_units ON text_units.no = hits.no JOIN listed ON listed.key = text_units.key ${tail}`;
	const found = view.db
		.prepare(ranked('listed.key, hits.no, hits.matched, count(*) OVER ()', `ORDER BY ${scoreSql} DESC, coalesce(listed.modified, '') DESC, listed.key ASC LIMIT ? OFFSET ?`))
		.raw()
		.all(plan.match, ...listed.params, averageDocs, limit, offset) as Array<[string, number, number, number]>;
	// Past the last page no row carries the total: count alone then.
	const total = found[0]?.[3] ?? (offset > 0 ? (view.db.prepare(ranked('count(*)', '')).pluck().get(plan.match, ...listed.params) as number) : 0);
	// Only the page's sessions have their matching lines listed (a second, filtered pass: FTS5
	// answers a rowid range poorly, and listing every session's lines costs more than this).
	const lines = new Map<number, number[]>(found.map(([, no]) => [no, []]));
	if (found.length > 0) {
		const rowids = view.db
			.prepare(`SELECT rowid FROM text_fts WHERE text_fts MATCH ? AND rowid / ${span} IN (SELECT value FROM json_each(?))`)
			.pluck()
			.all(plan.match, JSON.stringify([...lines.keys()])) as number[];
		for (const rowid of rowids) {
			const unitLines = lines.get(unitOfTextRowid(rowid));
			if (unitLines && unitLines.length < linesKept) {
				unitLines.push(lineOfTextRowid(rowid));
			}
		}
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
