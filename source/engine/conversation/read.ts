import * as z from 'zod/mini';
import {lazySchema} from '../../lib/lazy-schema.js';
import type {SessionEvent, SessionRow} from '../../adapters/events.js';
import type {StoreSelection} from '../catalog/targets.js';
import type {Deps} from '../deps.js';
import {EngiError} from '../../lib/errors.js';
import {maskValue} from '../search/secrets.js';
import {withLocatedSession, type LocatedSession} from './locate.js';
import {prunePage, pruneReceiptSchema} from './prune/page.js';
import {catalogEnd, walkRows} from './rows.js';
import {defaultPreviewLength, type PreviewLength} from './preview.js';
import {contextRecordSchema, dialogueRecordSchema, eventsRecordSchema, indexRecordSchema, previewLengthFor, shapeRow, type ContextRecord, type View} from './views.js';

const pageFields = {
	session_id: z.string(),
	source: z.string(),
	source_path: z.string(),
	offset: z.number(),
	limit: z.number(),
	/** Zero-based line to pass as --offset for the next page; null at the end. */
	next_offset: z.nullable(z.number()),
	/** `past_end` when --offset lies beyond the session's last line. */
	status: z.enum(['ok', 'past_end']),
	/** Last line (or item) of the session. */
	last_line: z.number(),
	/** Lines in this page's range that could not be read (not JSON, too long, unknown type). */
	skipped: z.number(),
	warnings: z.array(z.string()),
	/** With --prune: what the page's pruning left out (prune/page.ts). */
	prune: z.optional(pruneReceiptSchema),
};

export const readOutputSchema = lazySchema(() => z.discriminatedUnion('view', [
	z.object({view: z.literal('events'), ...pageFields, lines: z.nullable(z.array(z.number())), records: z.array(eventsRecordSchema)}),
	z.object({view: z.literal('dialogue'), ...pageFields, records: z.array(dialogueRecordSchema)}),
	z.object({view: z.literal('context'), ...pageFields, records: z.array(contextRecordSchema)}),
	z.object({view: z.literal('index'), ...pageFields, records: z.array(indexRecordSchema)}),
]));

export type ReadOutput = z.infer<typeof readOutputSchema>;

/** Source rows a page holds unless told otherwise. */
export const readPageSize = 20;

export type ReadInput = StoreSelection & {
	readonly id: string;
	readonly view: View;
	readonly offset?: number;
	readonly limit?: number;
	readonly lines?: number[];
	/** Secrets masked, for pages handed on (`resume`); `read` shows a person their own transcript as it is. */
	readonly masked?: boolean;
	/** Tool output that later steps made obsolete replaced by notes (--prune). */
	readonly prune?: boolean;
	/** `--preview-chars` as given: how much of each text the context view's previews keep (a whole number, or `all`). */
	readonly previewChars?: string;
};

/** A read's input with its page settled: from `offset` (default the start), `limit` rows (default readPageSize). */
type PageInput = ReadInput & {readonly offset: number; readonly limit: number};

/** A row with every string of its events and its native record masked, before any view cuts previews from them. */
function maskedRow(row: SessionRow): SessionRow {
	return {...row, raw: maskValue(row.raw), events: row.events.map(event => maskValue(event) as SessionEvent)};
}

/**
 * Lines a page's walk reads before its first, unseen. A walk starts at the catalog's nearest line
 * mark with the normaliser's state empty, so a record a store writes twice (a Codex prompt or
 * reply on its two channels, a result as `exec_command_end` and `function_call_output`) showed
 * again on the next page when a mark fell between the two copies; read from this far back, the
 * second copy is known for the echo it is, as one walk over both knows it. Copies further apart
 * than this are results only, which lookBack finds for the context view.
 */
const pageWarmup = 200;

/** How far back a result looks for the call it answers when the call is not on the page. */
const callLookback = 2000;

function lastLineOf(located: LocatedSession): number {
	return located.row.format === 'jsonl' ? located.row.next_line - 1 : located.row.next_line - 1;
}

function header(located: LocatedSession, input: PageInput) {
	return {
		session_id: located.row.summary.id ?? input.id,
		source: located.row.source,
		source_path: located.row.path,
		offset: input.offset,
		limit: input.limit,
		last_line: lastLineOf(located),
	};
}

/** What the lines just before a page say about the calls whose results it holds: where each call is, and whether a result already came (and was a failure). */
type Before = {readonly callLines: Map<string, number>; readonly results: Map<string, boolean>};

/**
 * Looks back from the page for the calls its results answer when they are not on it. A walk
 * starts at the catalog's nearest line mark with the normaliser's state empty, so a result a
 * store records twice (Codex's `exec_command_end`, then its `function_call_output`) is shown
 * again when a mark falls between the two: the results those lines gave are kept here too.
 */
function lookBack(located: LocatedSession, rows: readonly SessionRow[], pageStart: number): Before {
	const called = new Set(rows.flatMap(row => row.events.flatMap(event => (event.kind === 'tool_call' && event.tool?.call_id ? [event.tool.call_id] : []))));
	const wanted = new Set(rows.flatMap(row => row.events.flatMap(event => (event.kind === 'tool_result' && event.result?.call_id && !called.has(event.result.call_id) ? [event.result.call_id] : []))));
	const before: Before = {callLines: new Map(), results: new Map()};
	if (wanted.size === 0 || pageStart <= 1) {
		return before;
	}

	walkRows(located.view.db, located.adapter, located.unit, {fromLine: Math.max(1, pageStart - callLookback), toLine: pageStart - 1}, row => {
		for (const event of row.events) {
			if (event.kind === 'tool_call' && event.tool?.call_id && wanted.has(event.tool.call_id)) {
				before.callLines.set(event.tool.call_id, event.line);
				before.results.delete(event.tool.call_id); // A call id used again starts over.
			} else if (event.kind === 'tool_result' && event.result?.call_id && wanted.has(event.result.call_id)) {
				before.results.set(event.result.call_id, before.results.get(event.result.call_id) === true || event.result.is_error === true);
			}
		}
	});
	return before;
}

/**
 * Drops from the page the results a line before it already gave, as one walk over both would
 * (adapters/codex/state.ts recordResult): a copy is kept only when it shows a failure the
 * earlier result did not. Rows left with nothing to show leave the page; paging, which counts
 * lines, is unchanged.
 */
function dropRepeatedResults(rows: SessionRow[], records: Array<Record<string, unknown> & {line: number}>, before: Before): {rows: SessionRow[]; records: Array<Record<string, unknown> & {line: number}>} {
	if (before.results.size === 0) {
		return {rows, records};
	}

	const settled = new Map(before.results);
	const repeats = new Set<string>();
	const kept = rows.map(row => {
		const events = row.events.filter(event => {
			const id = event.kind === 'tool_result' ? event.result?.call_id : undefined;
			const earlier = id ? settled.get(id) : undefined;
			if (!id || earlier === undefined) {
				return true;
			}

			settled.delete(id); // Only the first result on the page repeats one from before it.
			if (event.result!.is_error === true && !earlier) {
				return true;
			}

			repeats.add(`${row.line}\u0000${id}`);
			return false;
		});
		return events.length === row.events.length ? row : {...row, events};
	});
	return {
		rows: kept.filter(row => row.events.length > 0),
		records: records.filter(record => !(record['kind'] === 'tool_result' && repeats.has(`${record.line}\u0000${String(record['call_id'])}`))),
	};
}

/** Fills `call_line` on results whose call has the same explicit id, on this page or just before it. */
function pairResults(records: ContextRecord[], before: Before): void {
	const callLines = new Map(before.callLines);
	for (const record of records) {
		if (record.kind === 'tool_call' && record.call_id) {
			callLines.set(record.call_id, record.line);
		}
	}

	for (const record of records) {
		if (record.kind === 'tool_result' && record.call_id) {
			record.call_line = callLines.get(record.call_id) ?? null;
		}
	}
}

function readLines(located: LocatedSession, input: PageInput, lines: number[]): ReadOutput {
	const lastLine = lastLineOf(located);
	const beyond = lines.filter(line => line > lastLine);
	if (beyond.length > 0) {
		throw new EngiError('line_out_of_range', `--lines ${beyond.join(',')}: the session ends at line ${lastLine}`, {hint: `positions run from 1 to ${lastLine}`});
	}

	const wanted = new Set(lines);
	const found = new Map<number, unknown[]>();
	const walk = walkRows(located.view.db, located.adapter, located.unit, {fromLine: lines[0]!, toLine: lines.at(-1)!}, row => {
		if (wanted.has(row.line)) {
			found.set(row.line, [...(found.get(row.line) ?? []), input.masked ? maskValue(row.raw) : row.raw]);
		}
	});
	const missing = lines.filter(line => !found.has(line));
	if (missing.length > 0) {
		const reasons = missing.map(line => `${located.row.path}:${line} (${walk.skippedReasons.get(line) ?? 'blank or not a record'})`);
		throw new EngiError('line_unreadable', `cannot read ${reasons.join(', ')}`, {hint: 'these lines hold no readable record; other lines can still be read'});
	}

	return {
		view: 'events',
		...header(located, input),
		offset: 0,
		next_offset: null,
		status: 'ok',
		skipped: 0,
		warnings: [],
		lines,
		records: lines.flatMap(line => found.get(line)!.map(event => ({line, event}))),
	};
}

/** How far past a page pruning looks for the writes and reads that make its output obsolete. */
const pruneLookahead = 2000;

/** The events after a page that pruning weighs, and whether the page holds the session's newest records. */
function laterEvents(located: LocatedSession, lastTaken: number, more: boolean): {later: SessionEvent[]; newest: boolean} {
	const later: SessionEvent[] = [];
	if (more) {
		walkRows(located.view.db, located.adapter, located.unit, {fromLine: lastTaken + 1, toLine: lastTaken + pruneLookahead}, row => {
			later.push(...row.events);
		});
	}

	return {later, newest: !more};
}

/**
 * Characters of previews a page with longer previews than the default holds before it ends early
 * (its first row always goes in, so paging moves on). A row is already bounded by the line
 * limit (adapters/shared/json-lines.ts, 32 MiB), as in the events view; this bounds the page
 * too, where the events view allows 100 such rows.
 */
export const previewPageBudget = 1_000_000;

function previewCharsOf(records: ReadonlyArray<Record<string, unknown>>): number {
	let total = 0;
	for (const record of records) {
		for (const key of ['input', 'output', 'summary']) {
			const preview = record[key] as {preview: string; preview_tail: string} | undefined;
			total += preview ? preview.preview.length + preview.preview_tail.length : 0;
		}
	}

	return total;
}

/**
 * One page of a session in a view. Offsets count zero-based source lines (or document items),
 * whatever the view; a page holds up to `limit` source rows that have something to show.
 */
export async function readConversation(given: ReadInput, deps: Deps): Promise<ReadOutput> {
	const input: PageInput = {...given, offset: given.offset ?? 0, limit: given.limit ?? readPageSize};
	const previewLength: PreviewLength = previewLengthFor(input.view, input.previewChars);
	const budgeted = previewLength === 'all' || previewLength > defaultPreviewLength;
	return withLocatedSession({id: input.id, source: input.source, sourceRoot: input.sourceRoot}, deps, located => {
		if (input.lines) {
			return readLines(located, input, input.lines);
		}

		const startLine = input.offset + 1;
		let records: Array<Record<string, unknown> & {line: number}> = [];
		let taken: SessionRow[] = [];
		let rowsTaken = 0;
		let lastTaken = input.offset;
		let more = false;
		let previewChars = 0;
		let cutShort = false;
		const labels = {abandoned: located.row.summary.abandoned ?? []};
		// A prompt still queued when the file ends (JsonlAdapter.atEnd) is the person's latest request,
		// shown after the last line; the events view shows native records, and its record already.
		const walk = walkRows(located.view.db, located.adapter, located.unit, {fromLine: startLine, warmup: pageWarmup, ...(input.view === 'events' ? {} : {atEnd: catalogEnd(located.row)})}, row => {
			let shaped = shapeRow(input.view, row, labels, previewLength);
			if (shaped.length === 0) {
				return;
			}

			const shown = input.masked ? maskedRow(row) : row;
			if (input.masked) {
				shaped = shapeRow(input.view, shown, labels, previewLength);
			}

			// Rows that share a line (records glued on one line) stay on one page: paging counts lines.
			const full = rowsTaken >= input.limit || (budgeted && previewChars >= previewPageBudget);
			if (full && row.line !== lastTaken) {
				more = true;
				cutShort = rowsTaken < input.limit;
				return false;
			}

			if (budgeted) {
				previewChars += previewCharsOf(shaped);
			}

			records.push(...shaped);
			taken.push(shown);
			rowsTaken++;
			lastTaken = row.line;
		});
		const before = input.view === 'context' ? lookBack(located, taken, startLine) : undefined;
		if (before) {
			({rows: taken, records} = dropRepeatedResults(taken, records, before));
		}

		const pruned = input.prune ? prunePage(input.view, taken, labels, {source: located.adapter.id, project: located.row.summary.project ?? undefined, ...laterEvents(located, lastTaken, more)}, previewLength) : undefined;
		records = pruned?.records ?? records;
		if (before) {
			pairResults(records as ContextRecord[], before);
		}

		const lastLine = lastLineOf(located);
		const skippedInRange = walk.skippedLines.filter(line => line <= (more ? lastTaken : Number.POSITIVE_INFINITY)).length;
		const page = {
			...header(located, input),
			next_offset: more ? lastTaken : null,
			status: records.length === 0 && startLine > lastLine ? ('past_end' as const) : ('ok' as const),
			skipped: located.row.format === 'jsonl' ? skippedInRange : located.row.skipped,
			warnings: [...located.view.warnings, ...walk.warnings, ...(cutShort ? [`the page ends after ${rowsTaken} rows: their previews passed ${previewPageBudget.toLocaleString('en')} characters; the next page starts at --offset ${lastTaken}`] : [])],
			...(pruned ? {prune: pruned.receipt} : {}),
		};
		return {view: input.view, ...page, ...(input.view === 'events' ? {lines: null} : {}), records} as ReadOutput;
	});
}

export type {SessionEvent};
