import type {SessionRow} from './events.js';
import {maxWarnings, skipMessage, streamJsonValues, unknownRecordType} from './shared/json-lines.js';
import {isUnreadable} from './shared/schema.js';
import type {DiscoveredUnit, LoadedSession, SourceAdapter, JsonlAdapter, LineState} from './types.js';

export {maxLineBytes} from './shared/json-lines.js';

/** Visits one row; `offset` is the byte offset of its line (JSONL) or 0. Return false to stop. */
export type RowVisitor = (row: SessionRow, offset: number) => boolean | void;

export type RowScan = {
	skipped: number;
	warnings: string[];
	/** JSONL only: byte offset after the last complete line read, and the next line number. */
	endOffset: number;
	nextLine: number;
	/** True when the visitor stopped the scan early. */
	stopped: boolean;
};

export type JsonlScanOptions = {
	readonly fromOffset?: number;
	readonly fromLine?: number;
	readonly toOffset?: number;
	/** Normaliser state carried over from an earlier scan of the same file. */
	readonly state?: LineState;
	/** Told about every line that was skipped, and why (never its content). */
	readonly onSkip?: (line: number, reason: string) => void;
	/**
	 * Only these lines are parsed and normalised, each without the state of the lines between
	 * (enough for their text, as search snippets need; not for tool pairing).
	 */
	readonly onlyLines?: ReadonlySet<number>;
};

/**
 * Streams a JSONL unit row by row. Blank lines are not records; lines that do not parse, that
 * are too long, whose record type the adapter does not know or whose fields do not match are
 * skipped and counted, with a warning that names the line (and field) and never its content.
 */
export function scanJsonl(adapter: JsonlAdapter, unit: DiscoveredUnit, visit: RowVisitor, options: JsonlScanOptions = {}): RowScan {
	const state: LineState = options.state ?? {};
	const scan: RowScan = {skipped: 0, warnings: [], endOffset: options.fromOffset ?? 0, nextLine: options.fromLine ?? 1, stopped: false};
	const end = streamJsonValues(
		unit.path,
		{
			value(value, line, offset) {
				let events;
				try {
					events = adapter.normalizeLine(value, line, state, unit, offset);
				} catch {
					events = null;
				}

				if (events === null) {
					return 'unknown';
				}

				if (isUnreadable(events)) {
					return events;
				}

				return visit({line, raw: value, events}, offset);
			},
			skip(line, reason) {
				scan.skipped++;
				options.onSkip?.(line, reason);
				if (reason !== unknownRecordType && scan.warnings.length < maxWarnings) {
					scan.warnings.push(skipMessage(line, reason));
				}
			},
		},
		{fromOffset: options.fromOffset, fromLine: options.fromLine, toOffset: options.toOffset, onlyLines: options.onlyLines},
	);
	scan.endOffset = end.offset;
	scan.nextLine = end.nextLine;
	scan.stopped = end.stopped;
	return scan;
}

/** Every row of a unit, whatever its format. For whole-session work on bounded sizes and tests. */
export function readAllRows(store: SourceAdapter, unit: DiscoveredUnit): LoadedSession {
	const adapter = readerFor(store, unit);
	if (adapter.format !== 'jsonl') {
		return adapter.loadSession(unit);
	}

	const rows: SessionRow[] = [];
	const state: LineState = {};
	const scan = scanJsonl(adapter, unit, row => {
		rows.push(row);
	}, {state});
	rows.push(...rowsAtEnd(adapter, unit, state, scan.nextLine - 1));
	return {rows, skipped: scan.skipped, warnings: scan.warnings};
}

/**
 * The rows only the end of a JSONL unit decides (JsonlAdapter.atEnd), from the state a scan that
 * reached the end left, each numbered with the last line read (`lastLine`) so rows stay in line
 * order; their events keep the lines they came from. None when the adapter has no such step, or
 * when it fails: nothing may escape a reader.
 */
export function rowsAtEnd(adapter: SourceAdapter, unit: DiscoveredUnit, state: LineState, lastLine: number): SessionRow[] {
	if (adapter.format !== 'jsonl' || adapter.atEnd === undefined) {
		return [];
	}

	try {
		return adapter.atEnd(state, unit).map(({raw, events}) => ({line: Math.max(lastLine, ...events.map(event => event.line)), raw, events}));
	} catch {
		return [];
	}
}

/**
 * The adapter that reads this unit: the adapter itself, or for a JSONL store's document unit
 * (JsonlAdapter.documents) the store as a document adapter, so that everything that branches on
 * `format` (scanning, paging, snippets, retention) treats that unit as the document it is.
 */
export function readerFor(adapter: SourceAdapter, unit: Pick<DiscoveredUnit, 'variant'>): SourceAdapter {
	if (adapter.format !== 'jsonl' || adapter.documents === undefined || unit.variant !== adapter.documents.variant) {
		return adapter;
	}

	return {...adapter, format: 'document', loadSession: adapter.documents.loadSession};
}
