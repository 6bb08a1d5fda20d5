import {loadAdapters} from '../../adapters/stores.js';
import {sha256Hex} from '../../lib/hash.js';
import {rowsWithId} from '../catalog/list.js';
import {lineOffsets, matchedLinesOf, rowsOfLines} from '../catalog/search.js';
import {typedRootOf} from '../catalog/targets.js';
import type {CatalogRow} from '../catalog/scan.js';
import type {CatalogView} from '../catalog/view.js';
import {pointerPart} from '../conversation/codec/attachments.js';
import {isPlainObject} from '../conversation/codec/decode.js';
import {vocabularyOf} from '../../lib/sqlite.js';
import {planQuery, type QueryTerm} from '../search/query-plan.js';
import {stateReason, type StateReason} from '../search/result-state.js';
import {maskSecrets} from '../search/secrets.js';
import type {TraceBudget} from './trace-budget.js';
import type {TraceOutput} from './trace-schema.js';
import type {SessionTarget} from './trace-walk.js';

type Transcript = TraceOutput['transcripts'][number];
type Result = TraceOutput['results'][number];

/** Characters of a quote before its match (innen looks back 120 bytes) and after it. */
const quoteBefore = 120;
const quoteAfter = 240;

/** Every string of a native record with its JSON pointer, in document order. */
function stringsOf(value: unknown, at: string, visit: (pointer: string, text: string) => boolean): boolean {
	if (typeof value === 'string') {
		return visit(at, value);
	}

	if (Array.isArray(value)) {
		return value.some((item, index) => stringsOf(item, at + pointerPart(index), visit));
	}

	return isPlainObject(value) && Object.entries(value).some(([key, child]) => stringsOf(child, at + pointerPart(key), visit));
}

/** Where the first clue term appears in a text (case-folded; a Han run verbatim or one of its words), or -1. */
function firstMatch(text: string, terms: readonly QueryTerm[]): number {
	const folded = text.toLowerCase();
	const found = terms.flatMap(term => (term.kind === 'han' ? [term.text, ...term.words] : [term.text])).map(word => folded.indexOf(word)).filter(index => index >= 0);
	return found.length === 0 ? -1 : Math.min(...found);
}

/**
 * A window of the text around the first clue term, on whole code points. The whole text is
 * masked first, so a window never cuts a secret in two and shows half of it.
 */
function quoteOf(text: string, terms: readonly QueryTerm[]): string {
	const masked = maskSecrets(text);
	const at = Math.max(0, firstMatch(masked, terms));
	const before = [...masked.slice(0, at)];
	const after = [...masked.slice(at)];
	const quote = [...before.slice(-quoteBefore), ...after.slice(0, quoteAfter)].join('').replaceAll(/\s+/g, ' ').trim();
	return `${before.length > quoteBefore ? '…' : ''}${quote}${after.length > quoteAfter ? '…' : ''}`;
}

/** The first text of a record that holds a clue term, and its pointer. */
function quotedText(raw: unknown, terms: readonly QueryTerm[]): {pointer: string; text: string} | undefined {
	let found: {pointer: string; text: string} | undefined;
	stringsOf(raw, '', (pointer, text) => {
		if (firstMatch(text, terms) >= 0) {
			found = {pointer, text};
		}

		return found !== undefined;
	});
	return found;
}

/**
 * Searches only the transcripts the walk reached, through the catalog's word index (the same
 * plan `engi sessions --q` uses, so Chinese clues match by their character runs), within the
 * budget's sources, records and bytes. Each matching record becomes a result whose `expand` is
 * `engi read … --lines N --attachment <pointer> --expect-sha256 <hash>`: the exact text back,
 * or a typed refusal once the transcript has changed.
 */
export async function searchReached(view: CatalogView, q: string, targets: readonly SessionTarget[], budget: TraceBudget): Promise<{transcripts: Transcript[]; results: Result[]; reasons: StateReason[]}> {
	const transcripts: Transcript[] = [];
	const results: Result[] = [];
	const reasons: StateReason[] = [];
	const plan = planQuery(q, vocabularyOf(view.db, 'text_fts'));
	const unitOf = view.db.prepare('SELECT no FROM text_units WHERE key = ?').pluck();
	const matchedLines = matchedLinesOf(view.db);
	const offsetOf = lineOffsets(view);
	const adapterOf = await loadAdapters();
	let unreadable = 0;
	for (const target of targets) {
		const scope = view.filter.scope.filter(entry => target.source === null || entry.source === target.source);
		const rows: CatalogRow[] = rowsWithId(view.db, scope, target.sessionId);
		const entry = (status: Transcript['status'], row?: CatalogRow): Transcript => ({seed: target.seed, hops: target.hops, node_id: target.nodeId, source: row?.source ?? target.source, session_id: target.sessionId, status, matched_records: 0});
		if (rows.length === 0) {
			transcripts.push(entry('not_in_catalog'));
			continue;
		}

		for (const row of rows) {
			if (row.error) {
				unreadable++;
				transcripts.push(entry('unreadable', row));
				continue;
			}

			const stopped = budget.stopped('maxRecords') || budget.stopped('maxBytes');
			if (stopped || !budget.source()) {
				transcripts.push(entry('skipped_by_bound', row));
				continue;
			}

			const unit = unitOf.get(row.key) as number | undefined;
			if (unit === undefined || !plan) {
				transcripts.push(entry(plan ? 'not_indexed' : 'searched', row));
				continue;
			}

			const transcript = entry('searched', row);
			transcripts.push(transcript);
			const lines = matchedLines(plan.match, unit); // One rowid per line: no repeats.
			const id = row.summary.id ?? row.key;
			const typedRoot = typedRootOf(view.targets, row.source, row.root);
			for (const line of lines) {
				if (!budget.record()) {
					break;
				}

				const records = rowsOfLines(view, offsetOf, adapterOf, {row, unit}, [line]).filter(read => read.line === line);
				const bytes = records.reduce((sum, read) => sum + Buffer.byteLength(JSON.stringify(read.raw) ?? ''), 0);
				if (!budget.bytes(bytes)) {
					break;
				}

				const quoted = records.map(read => quotedText(read.raw, plan.terms)).find(found => found !== undefined);
				if (!quoted) {
					continue;
				}

				const sha256 = sha256Hex(quoted.text);
				transcript.matched_records++;
				results.push({
					seed: target.seed,
					hops: target.hops,
					node_id: target.nodeId,
					source: row.source,
					session_id: id,
					line,
					pointer: quoted.pointer,
					quote: quoteOf(quoted.text, plan.terms),
					sha256,
					bytes: Buffer.byteLength(quoted.text),
					expand: ['engi', 'read', id, '--source', row.source, ...(typedRoot === undefined ? [] : ['--source-root', typedRoot]), '--lines', String(line), '--attachment', quoted.pointer, '--expect-sha256', sha256],
				});
			}
		}
	}

	if (unreadable > 0) {
		reasons.push(stateReason('session_unreadable', `${unreadable} reached transcript(s) could not be parsed and were not searched (engi sessions lists them with their error)`, {count: unreadable}));
	}

	return {transcripts, results, reasons};
}
