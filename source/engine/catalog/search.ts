import {adapterFor} from '../../adapters/index.js';
import type {SourceAdapter} from '../../adapters/types.js';
import {unitOfRow} from '../conversation/locate.js';
import {walkRows} from '../conversation/rows.js';
import {planQuery, vocabularyOf} from '../search/query-plan.js';
import {searchableText} from '../search/session-text.js';
import {listNarrowRows, wholeRows} from './list.js';
import type {CatalogRow} from './scan.js';
import type {CatalogView} from './sessions.js';

const matchCap = 5000;
const linesPerSession = 3;
const snippetRadius = 70;

export type SessionMatch = {row: CatalogRow; rank: number; lines: number[]};

/**
 * Sessions whose text matches every meaningful query word (Chinese by verbatim character runs),
 * best bm25 first, each with the lines that matched. Ranking happens inside FTS5 with a LIMIT;
 * only the surviving documents are joined and grouped.
 */
export function matchSessions(view: CatalogView, q: string): {matches: SessionMatch[]; capped: boolean} | undefined {
	const plan = planQuery(q, vocabularyOf(view.db, 'text_fts'));
	if (!plan) {
		return undefined;
	}

	const docs = view.db
		.prepare(
			`SELECT d.key AS key, d.line AS line, s.rank AS rank FROM
			 (SELECT rowid, bm25(text_fts) AS rank FROM text_fts WHERE text_fts MATCH ? ORDER BY rank LIMIT ${matchCap}) s
			 JOIN text_docs d ON d.rowid = s.rowid`,
		)
		.all(plan.match) as Array<{key: string; line: number; rank: number}>;
	// Only the sessions that matched are decoded, never the whole catalog.
	const matched = new Set(docs.map(doc => doc.key));
	const inScope = new Map(wholeRows(view.db, listNarrowRows(view.db, view.filter).filter(row => matched.has(row.key))).map(row => [row.key, row]));
	const byKey = new Map<string, SessionMatch>();
	for (const doc of docs) {
		const row = inScope.get(doc.key);
		if (!row) {
			continue;
		}

		const entry = byKey.get(doc.key) ?? {row, rank: doc.rank, lines: []};
		entry.rank = Math.min(entry.rank, doc.rank);
		entry.lines.push(doc.line);
		byKey.set(doc.key, entry);
	}

	const matches = [...byKey.values()].sort((a, b) => a.rank - b.rank || (a.row.summary.modified ?? '' < (b.row.summary.modified ?? '') ? 1 : -1));
	for (const match of matches) {
		match.lines = [...new Set(match.lines)].sort((a, b) => a - b);
	}

	return {matches, capped: docs.length === matchCap};
}

/** A window of the (secret-masked) searchable text around the first query word it contains. */
function snippetOf(text: string, q: string): string {
	const words = (q.normalize('NFKC').match(/\p{Script=Han}+|[\p{L}\p{N}]+/gu) ?? []).map(word => word.toLowerCase());
	const lower = text.toLowerCase();
	const at = words.map(word => lower.indexOf(word)).filter(index => index >= 0).sort((a, b) => a - b)[0] ?? 0;
	const start = Math.max(0, at - snippetRadius);
	const end = Math.min(text.length, at + snippetRadius * 2);
	return `${start > 0 ? '…' : ''}${text.slice(start, end).replaceAll(/\s+/g, ' ').trim()}${end < text.length ? '…' : ''}`;
}

/** Snippets for the first few matched lines of a session, read from the transcript itself. */
export function snippetsFor(view: CatalogView, match: SessionMatch, q: string): Array<{line: number; snippet: string}> {
	const adapter = adapterFor(match.row.source as SourceAdapter['id']);
	if (!adapter) {
		return [];
	}

	const lines = match.lines.slice(0, linesPerSession);
	const wanted = new Set(lines);
	const snippets: Array<{line: number; snippet: string}> = [];
	walkRows(view.db, adapter, unitOfRow(match.row), {fromLine: lines[0]!, toLine: lines.at(-1)!, only: wanted}, row => {
		if (wanted.has(row.line) && !snippets.some(snippet => snippet.line === row.line)) {
			snippets.push({line: row.line, snippet: snippetOf(searchableText(row.events), q)});
		}
	});
	return snippets;
}
