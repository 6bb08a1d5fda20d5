import type {SessionRow} from '../../adapters/events.js';
import {readerFor, rowsAtEnd, scanJsonl} from '../../adapters/rows.js';
import {rowsAtLines} from '../../adapters/shared/rows-at.js';
import {SessionCorruptError, type DiscoveredUnit, type LineState, type RowPlace, type SourceAdapter} from '../../adapters/types.js';
import {catalogStore} from '../catalog/store.js';
import type {CatalogRow} from '../catalog/scan.js';
import {EngiError} from '../../lib/errors.js';
import type {Database} from '../../lib/sqlite.js';

export type RowRange = {
	readonly fromLine: number;
	readonly toLine?: number;
	/** JSONL: parse only these lines (see JsonlScanOptions.onlyLines); documents are loaded whole anyway. */
	readonly only?: ReadonlySet<number>;
	/**
	 * JSONL: at least this many lines before `fromLine` are read (not visited) first, from the
	 * mark before them, so the normaliser's state at `fromLine` is what those lines leave, not
	 * empty because a catalog mark lay just before it.
	 */
	readonly warmup?: number;
	/**
	 * JSONL, a walk to the end (no `toLine`, no `only`) that starts at or before the last line:
	 * also the rows only the end decides (JsonlAdapter.atEnd, a prompt still queued), on the last
	 * line. A brief needs them, and so does a page of a reading view; the events view shows each
	 * native record on its own line, and so not these. They are judged from the line state the
	 * catalog kept at the end it read to (`CatalogEnd`) where this walk ends there too: a walk from
	 * a mark near the end starts with no state, and would miss a prompt queued long before it.
	 */
	readonly atEnd?: CatalogEnd;
};

/** The line state a catalog row keeps (its summary's `line_state`) and the line after the last one it read. */
export type CatalogEnd = {readonly state: LineState | undefined; readonly nextLine: number};

export function catalogEnd(row: Pick<CatalogRow, 'summary' | 'next_line'>): CatalogEnd {
	return {state: row.summary.line_state, nextLine: row.next_line};
}

export type RowWalk = {skippedLines: number[]; skippedReasons: Map<number, string>; warnings: string[]; lastLine: number};

/**
 * Walks a session's rows from a line onwards, in order, until the visitor returns false.
 * JSONL starts at the nearest catalogued line offset, so a page near the end of a huge file
 * reads about a megabyte, not the whole file; documents are loaded whole.
 */
export function walkRows(db: Database, store: SourceAdapter, unit: DiscoveredUnit, range: RowRange, visit: (row: SessionRow) => boolean | void): RowWalk {
	const walk: RowWalk = {skippedLines: [], skippedReasons: new Map(), warnings: [], lastLine: 0};
	const adapter = readerFor(store, unit);
	if (adapter.format !== 'jsonl') {
		let loaded;
		try {
			loaded = adapter.loadSession(unit);
		} catch (error) {
			if (error instanceof SessionCorruptError) {
				throw new EngiError('session_corrupt', `conversation cannot be read: ${error.message}`, {hint: 'the file is damaged or in a format engi does not know'});
			}

			throw error;
		}

		walk.warnings.push(...loaded.warnings);
		walk.lastLine = loaded.rows.at(-1)?.line ?? 0;
		for (const row of loaded.rows) {
			if (row.line < range.fromLine) {
				continue;
			}

			if ((range.toLine !== undefined && row.line > range.toLine) || visit(row) === false) {
				break;
			}
		}

		return walk;
	}

	const mark = catalogStore(db).markForLine(unit.key, Math.max(1, range.fromLine - (range.warmup ?? 0)));
	const state: LineState = {};
	const scan = scanJsonl(
		adapter,
		unit,
		row => {
			walk.lastLine = row.line;
			if (row.line < range.fromLine) {
				return;
			}

			if (range.toLine !== undefined && row.line > range.toLine) {
				return false;
			}

			return visit(row);
		},
		{
			fromOffset: mark.offset,
			fromLine: mark.line,
			state,
			...(range.only ? {onlyLines: range.only} : {}),
			onSkip(line, reason) {
				if (line >= range.fromLine && (range.toLine === undefined || line <= range.toLine)) {
					walk.skippedLines.push(line);
					walk.skippedReasons.set(line, reason);
					if (walk.warnings.length < 20) {
						walk.warnings.push(`line ${line}: skipped (${reason})`);
					}
				}
			},
		},
	);
	walk.lastLine = Math.max(walk.lastLine, scan.stopped ? 0 : scan.nextLine - 1);
	if (range.atEnd && !scan.stopped && range.toLine === undefined && range.only === undefined && range.fromLine < scan.nextLine) {
		const whole = range.atEnd.nextLine === scan.nextLine && range.atEnd.state ? range.atEnd.state : state;
		for (const row of rowsAtEnd(adapter, unit, whole, scan.nextLine - 1)) {
			if (visit(row) === false) {
				break;
			}
		}
	}

	return walk;
}

/**
 * The rows on a few lines, each read from where the catalog recorded it: one line of a JSONL
 * transcript, or what a document adapter can read back alone (rowsAt). Undefined when that is
 * not possible, and the caller walks the session instead. Rows come back normalised without the
 * state of the lines between: enough for their text, not for pairing.
 */
export function readRowsAt(store: SourceAdapter, unit: DiscoveredUnit, places: readonly RowPlace[]): SessionRow[] | undefined {
	const adapter = readerFor(store, unit);
	if (adapter.format !== 'jsonl') {
		return adapter.rowsAt?.(unit, places);
	}

	return rowsAtLines(unit.path, places, (value, line) => {
		const events = adapter.normalizeLine(value, line, {}, unit);
		return Array.isArray(events) ? events : null;
	});
}

/**
 * The rows on a few lines that have no recorded place, where a document adapter can normalise
 * them alone (rowsOnLines). Undefined otherwise (JSONL: walkRows parses only the lines asked
 * for anyway), and the caller walks the session.
 */
export function readRowsOnLines(store: SourceAdapter, unit: DiscoveredUnit, lines: ReadonlySet<number>): SessionRow[] | undefined {
	const adapter = readerFor(store, unit);
	return adapter.format === 'jsonl' ? undefined : adapter.rowsOnLines?.(unit, lines);
}
