import {closeSync, openSync, readSync} from 'node:fs';
import type {SessionEvent, SessionRow} from '../../adapters/events.js';
import {readerFor, rowsAtEnd, scanJsonl} from '../../adapters/rows.js';
import {SessionCorruptError, type DiscoveredUnit, type JsonlAdapter, type LineState, type SourceAdapter} from '../../adapters/types.js';
import {computeTail, type TailState} from '../continuity/tail.js';
import {createSummarizer, type SessionSummary} from './summarize.js';
import type {TextDoc} from '../search/line-doc.js';
import {rowDoc} from '../search/session-text.js';
import {sha256Hex} from '../../lib/hash.js';
import {compressedSuffix} from '../../lib/lines.js';

// Handed by the refresh to its writer (catalogWriter's allowThread), loaded with the scanner.
export {settleDoc} from '../search/session-text.js';

/** Everything the catalog keeps about one session unit. */
export type CatalogRow = {
	key: string;
	source: string;
	root: string;
	path: string;
	paths: string[];
	variant: string | null;
	format: SourceAdapter['format'];
	fingerprint: string;
	size: number;
	mtime_ms: number;
	/** The tool has put the session away (DiscoveredUnit.archived). */
	archived: boolean;
	summary: SessionSummary;
	tail: TailState;
	records: number;
	skipped: number;
	scanned_bytes: number;
	next_line: number;
	check_hash: string | null;
	/** Why the unit could not be read at all (names file:line, never content). */
	error: string | null;
};

/** A line's start in a transcript: where a read can begin without scanning from the top. */
export type LineMark = {line: number; offset: number};

/** A scanned unit's row and the line marks its scan found (its documents went to the scan's TextSink). */
export type ScanResult = {row: CatalogRow; offsets: LineMark[]};

/**
 * Where a scan sends each row's searchable text as it reads, so no scan holds a session's
 * documents: `restart` comes first when the unit is read from the start (its earlier documents
 * and line marks are replaced, not extended).
 */
export type TextSink = {
	restart(): void;
	add(doc: TextDoc): void;
	/** True when the sink takes documents unmasked (rowDoc's `maskLater`): its writer masks them. */
	readonly maskLater?: boolean;
};

/** The end of a transcript that decides whether its work finished. */
export const tailWindowBytes = 1024 * 1024;
const markLines = 1000;
const markBytes = 1024 * 1024;
const checkBytes = 4096;

/**
 * True when the first `end` bytes of a file hold `needle` (or cannot be read: the careful answer),
 * searched a MiB at a time without parsing: what a continued scan asks of a parent it lacks.
 */
function bytesHold(path: string, end: number, needle: string): boolean {
	const wanted = Buffer.from(needle);
	const chunk = Buffer.alloc(Math.min(end, markBytes) + wanted.length);
	let fd: number | undefined;
	try {
		fd = openSync(path, 'r');
		for (let at = 0; at < end; at += markBytes) {
			const length = readSync(fd, chunk, 0, Math.min(chunk.length, end - at), at);
			if (chunk.subarray(0, length).includes(wanted)) {
				return true;
			}
		}

		return false;
	} catch {
		return true;
	} finally {
		if (fd !== undefined) {
			closeSync(fd);
		}
	}
}

function checkHash(path: string, end: number): string {
	const start = Math.max(0, end - checkBytes);
	const buffer = Buffer.alloc(end - start);
	const fd = openSync(path, 'r');
	try {
		readSync(fd, buffer, 0, buffer.length, start);
	} finally {
		closeSync(fd);
	}

	return sha256Hex(buffer);
}

function baseRow(source: string, root: string, unit: DiscoveredUnit, format: SourceAdapter['format']): Omit<CatalogRow, 'summary' | 'tail' | 'records' | 'skipped' | 'scanned_bytes' | 'next_line' | 'check_hash' | 'error'> {
	return {
		key: unit.key,
		source,
		root,
		path: unit.path,
		paths: [...unit.paths],
		variant: unit.variant ?? null,
		format,
		fingerprint: unit.fingerprint,
		size: unit.size,
		mtime_ms: unit.mtimeMs,
		archived: unit.archived === true,
	};
}

const inodeOf = (fingerprint: string) => fingerprint.split(':')[2];

/**
 * Reads one unit for the catalog. A JSONL file that only grew since the last scan is read from
 * where the last scan stopped (plus its last MiB again, for the tail); anything else is read
 * from the start. Documents and database sessions are loaded whole, and so is a JSONL store's
 * document unit (readerFor), which its row then records as a document.
 */
export function scanUnit(
	store: SourceAdapter,
	root: string,
	unit: DiscoveredUnit,
	previous: CatalogRow | undefined,
	markBefore: (offset: number) => LineMark,
	texts: TextSink,
): ScanResult {
	const adapter = readerFor(store, unit);
	if (adapter.format !== 'jsonl') {
		return scanDocument(adapter, root, unit, texts);
	}

	// A compressed file is rewritten, never appended to: it is read from the start.
	const grew =
		previous !== undefined &&
		!unit.path.endsWith(compressedSuffix) &&
		previous.error === null &&
		previous.format === 'jsonl' &&
		previous.path === unit.path &&
		unit.size >= previous.scanned_bytes &&
		inodeOf(previous.fingerprint) === inodeOf(unit.fingerprint) &&
		previous.check_hash === checkHash(unit.path, previous.scanned_bytes);
	return grew ? continueJsonl(adapter, root, unit, previous, markBefore, texts) : scanJsonlFromStart(adapter, root, unit, texts);
}

/**
 * What a forward scan takes from every row, from scratch or continuing: its text document (sent
 * on at once), a sparse line offset now and then (from `last`, the mark the scan starts after),
 * and the summary's running counts.
 */
function createRowRecorder(summarizer: ReturnType<typeof createSummarizer>, last: LineMark, records: number, texts: TextSink) {
	const recorder = {
		offsets: [] as LineMark[],
		records,
		add(row: SessionRow, offset: number): void {
			recorder.records++;
			const doc = rowDoc(row, offset, texts.maskLater);
			if (doc) {
				texts.add(doc);
			}

			if (row.line - last.line >= markLines || offset - last.offset >= markBytes) {
				last = {line: row.line, offset};
				recorder.offsets.push(last);
			}

			for (const event of row.events) {
				summarizer.add(event);
			}
		},
	};
	return recorder;
}

/** The catalog row of a JSONL unit read up to `end`, its tail judged from `tailEvents`. */
function jsonlRow(
	adapter: JsonlAdapter,
	root: string,
	unit: DiscoveredUnit,
	read: {summary: SessionSummary; lineState: LineState; tailEvents: SessionEvent[]; bounded: boolean; records: number; skipped: number; end: {endOffset: number; nextLine: number}},
): CatalogRow {
	return {
		...baseRow(adapter.id, root, unit, 'jsonl'),
		summary: {...read.summary, line_state: read.lineState},
		tail: computeTail(read.tailEvents, read.bounded, {recordsToolResults: adapter.recordsToolResults}),
		records: read.records,
		skipped: read.skipped,
		scanned_bytes: read.end.endOffset,
		next_line: read.end.nextLine,
		check_hash: checkHash(unit.path, read.end.endOffset),
		error: null,
	};
}

/**
 * The text of the human request on `line`, read again from the nearest of `marks` before it
 * (the summarizer asks only when it kept no title for that request).
 */
function humanTextAt(adapter: JsonlAdapter, unit: DiscoveredUnit, marks: readonly LineMark[], line: number): string | undefined {
	const from = marks.findLast(mark => mark.line <= line) ?? {line: 1, offset: 0};
	let text: string | undefined;
	scanJsonl(
		adapter,
		unit,
		row => {
			text = row.events.find(event => event.kind === 'user' && event.human && !event.sidechain && event.text?.trim())?.text;
			return false;
		},
		{fromOffset: from.offset, fromLine: from.line, onlyLines: new Set([line])},
	);
	return text;
}

/**
 * What the end of the file decides (JsonlAdapter.atEnd), from the state of the scan that read
 * every line in one pass: judged with the tail only. The summary and the search text are carried
 * forward when the file grows, and the lines that follow may deliver what the end held pending.
 */
function endEvents(adapter: JsonlAdapter, unit: DiscoveredUnit, lineState: LineState, end: {nextLine: number}): SessionEvent[] {
	return rowsAtEnd(adapter, unit, lineState, end.nextLine - 1).flatMap(row => row.events);
}

/** Longer outputs of tool results that did not fail are not kept for the tail (keptForTail). */
const tailOutputChars = 1024;

/**
 * A row's events as the tail window holds them: a tool result that did not fail keeps no long
 * output, which computeTail reads only of a failed one. Tool output is most of a transcript's
 * bytes; held for the last MiB of each file, it survived the young generation's collections
 * and was copied by each (a cold build of 1,500 sessions: 189 → 150 MB copied).
 */
function keptForTail(events: SessionEvent[]): SessionEvent[] {
	let kept = events;
	for (let index = 0; index < events.length; index++) {
		const result = events[index]!.result;
		if (result && !result.is_error && result.output.length > tailOutputChars) {
			if (kept === events) {
				kept = [...events];
			}

			kept[index] = {...events[index]!, result: {...result, output: ''}};
		}
	}

	return kept;
}

function scanJsonlFromStart(adapter: JsonlAdapter, root: string, unit: DiscoveredUnit, texts: TextSink): ScanResult {
	texts.restart();
	const first: LineMark = {line: 1, offset: 0};
	// Asked at `finish` only, when the recorder's marks are all known.
	const summarizer = createSummarizer(unit, undefined, line => humanTextAt(adapter, unit, [first, ...recorder.offsets], line));
	const recorder = createRowRecorder(summarizer, first, 0, texts);
	// The rows of the last MiB read so far (what the tail is judged from), oldest first from `start`.
	const window: Array<{offset: number; events: SessionEvent[]}> = [];
	let start = 0;
	const lineState: LineState = {};
	const scan = scanJsonl(adapter, unit, (row, offset) => {
		recorder.add(row, offset);
		window.push({offset, events: keptForTail(row.events)});
		while (window[start]!.offset < offset - tailWindowBytes) {
			start++;
		}

		// Compacted now and then, not on every row: a row dropped from the window is soon garbage.
		if (start > 1024 && start * 2 > window.length) {
			window.splice(0, start);
			start = 0;
		}
	}, {state: lineState});
	const tailStart = Math.max(0, scan.endOffset - tailWindowBytes);
	const tailEvents = [...window.slice(start).filter(entry => entry.offset >= tailStart).flatMap(entry => entry.events), ...endEvents(adapter, unit, lineState, scan)];
	return {
		row: jsonlRow(adapter, root, unit, {summary: summarizer.finish(), lineState, tailEvents, bounded: tailStart > 0, records: recorder.records, skipped: scan.skipped, end: scan}),
		offsets: [first, ...recorder.offsets],
	};
}

function continueJsonl(adapter: JsonlAdapter, root: string, unit: DiscoveredUnit, previous: CatalogRow, markBefore: (offset: number) => LineMark, texts: TextSink): ScanResult {
	const {line_state: previousState, ...previousSummary} = previous.summary;
	if (previousState === undefined) {
		return scanJsonlFromStart(adapter, root, unit, texts); // Scanned before the state was kept: the lines after cannot be read as in one pass.
	}

	const start = markBefore(previous.scanned_bytes);
	const summarizer = createSummarizer(unit, previousSummary, line => humanTextAt(adapter, unit, [start, ...recorder.offsets], line));
	const recorder = createRowRecorder(summarizer, start, previous.records, texts);
	const lineState = structuredClone(previousState);
	const grown = scanJsonl(adapter, unit, (row, offset) => recorder.add(row, offset), {fromOffset: previous.scanned_bytes, fromLine: previous.next_line, state: lineState});
	// An id JSON would escape is searched for no further: taken as written (a full read).
	if (summarizer.rebranched(id => !/^[\w.:-]+$/.test(id) || bytesHold(unit.path, previous.scanned_bytes, `"${id}"`))) {
		return scanJsonlFromStart(adapter, root, unit, texts); // A rewind to an earlier record: what was live may now be abandoned.
	}

	const tailStart = Math.max(0, grown.endOffset - tailWindowBytes);
	const from = markBefore(tailStart);
	const tailEvents: SessionEvent[] = [];
	scanJsonl(
		adapter,
		unit,
		(row, offset) => {
			if (offset >= tailStart) {
				tailEvents.push(...row.events);
			}
		},
		{fromOffset: from.offset, fromLine: from.line, toOffset: grown.endOffset},
	);
	tailEvents.push(...endEvents(adapter, unit, lineState, grown));
	return {
		row: jsonlRow(adapter, root, unit, {summary: summarizer.finish(), lineState, tailEvents, bounded: tailStart > 0, records: recorder.records, skipped: previous.skipped + grown.skipped, end: grown}),
		offsets: recorder.offsets,
	};
}

function scanDocument(adapter: Exclude<SourceAdapter, JsonlAdapter>, root: string, unit: DiscoveredUnit, texts: TextSink): ScanResult {
	texts.restart();
	const summarizer = createSummarizer(unit);
	try {
		const loaded = adapter.loadSession(unit);
		const events = loaded.rows.flatMap(row => row.events);
		for (const event of events) {
			summarizer.add(event);
		}

		for (const row of loaded.rows) {
			const doc = rowDoc(row, undefined, texts.maskLater);
			if (doc) {
				texts.add(doc);
			}
		}

		return {
			row: {
				...baseRow(adapter.id, root, unit, adapter.format),
				summary: summarizer.finish(),
				tail: computeTail(events, false, {recordsToolResults: adapter.recordsToolResults}),
				records: loaded.rows.length,
				skipped: loaded.skipped,
				scanned_bytes: unit.size,
				next_line: (loaded.rows.at(-1)?.line ?? 0) + 1,
				check_hash: null,
				error: null,
			},
			offsets: [],
		};
	} catch (error) {
		const reason = error instanceof SessionCorruptError ? error.message : `${unit.path}: could not be read (${error instanceof Error ? error.name : 'error'})`;
		return {
			row: {
				...baseRow(adapter.id, root, unit, adapter.format),
				summary: summarizer.finish(),
				tail: computeTail([], false),
				records: 0,
				skipped: 0,
				scanned_bytes: unit.size,
				next_line: 1,
				check_hash: null,
				error: reason,
			},
			offsets: [],
		};
	}
}
