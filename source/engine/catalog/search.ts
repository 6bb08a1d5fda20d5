import {loadAdapters, type AdapterLookup} from '../../adapters/stores.js';
import type {SessionRow} from '../../adapters/events.js';
import type {RowPlace, SourceAdapter} from '../../adapters/types.js';
import {readRowsAt, walkRows} from '../conversation/rows.js';
import {planQuery} from '../search/query-plan.js';
import {searchableText} from '../search/session-text.js';
import {listNarrowRows, wholeRows, type NarrowRow} from './list.js';
import {unitOfRow, type CatalogRow} from './scan.js';
import type {CatalogView} from './view.js';
import {vocabularyOf, type Statement} from '../../lib/sqlite.js';
import {lineOfTextRowid, textRowid, textRowidSpan, unitOfTextRowid} from './text-rowid.js';

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
 * BM25 over sessions: a session's term frequency is how many of its lines match the whole
 * query, its length how many lines it has indexed. Scoring from rowids alone keeps a word that
 * appears on half the corpus's lines cheap: FTS5's own bm25 would read every line's positions.
 */
function scoreOf(matched: number, docs: number, averageDocs: number): number {
	return (matched * (k1 + 1)) / (matched + k1 * (1 - b + (b * docs) / averageDocs));
}

const byModifiedDesc = (x: string | null, y: string | null) => ((x ?? '') < (y ?? '') ? 1 : (x ?? '') > (y ?? '') ? -1 : 0);

/**
 * Sessions in scope whose lines match every meaningful query word (Chinese by verbatim
 * character runs), best first, newest first among equals. A document's rowid names its
 * session and line, so SQLite counts the matches per session without a join, and only the
 * page's sessions have their lines listed and their rows decoded.
 */
export function searchSessions(view: CatalogView, q: string, offset: number, limit: number): SessionSearch | undefined {
	const plan = planQuery(q, vocabularyOf(view.db, 'text_fts'));
	if (!plan) {
		return undefined;
	}

	const span = textRowidSpan;
	const counts = view.db
		.prepare(`SELECT no, count(*) FROM (SELECT rowid / ${span} AS no FROM text_fts WHERE text_fts MATCH ?) GROUP BY no`)
		.raw()
		.all(plan.match) as Array<[number, number]>;
	if (counts.length === 0) {
		return {total: 0, page: []};
	}

	const matchedBy = new Map(counts);
	const units = view.db.prepare('SELECT no, key, docs FROM text_units WHERE no IN (SELECT value FROM json_each(?))').all(JSON.stringify([...matchedBy.keys()])) as Array<{no: number; key: string; docs: number}>;
	const counted = units.map(unit => ({...unit, matched: matchedBy.get(unit.no)!}));
	const averageDocs = (view.db.prepare('SELECT avg(docs) FROM text_units WHERE docs > 0').pluck().get() as number | null) ?? 1;
	const inScope = new Map<string, NarrowRow>();
	for (const row of listNarrowRows(view.db, view.filter)) {
		inScope.set(row.key, row);
	}

	const ranked = counted.flatMap(unit => {
		const narrow = inScope.get(unit.key);
		return narrow ? [{narrow, unit, score: scoreOf(unit.matched, unit.docs, averageDocs)}] : [];
	});
	ranked.sort((x, y) => y.score - x.score || byModifiedDesc(x.narrow.modified, y.narrow.modified) || (x.narrow.key < y.narrow.key ? -1 : 1));
	const kept = ranked.slice(offset, offset + limit);
	// Only the page's sessions have their matching lines listed (a second, filtered pass: FTS5
	// answers a rowid range poorly, and listing every session's lines costs more than this).
	const lines = new Map<number, number[]>(kept.map(entry => [entry.unit.no, []]));
	if (kept.length > 0) {
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

	const rows = wholeRows(
		view.db,
		kept.map(entry => entry.narrow),
	);
	const byKey = new Map(rows.map(row => [row.key, row]));
	const page = kept.flatMap(entry => {
		const row = byKey.get(entry.narrow.key);
		return row ? [{row, unit: entry.unit.no, lines: lines.get(entry.unit.no) ?? [], matched: entry.unit.matched}] : [];
	});
	return {total: ranked.length, page};
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
