import {decodeLine, forEachLine} from '../engine/util/lines.js';
import type {SessionRow} from './events.js';
import {parseJsonLine} from './shared/json-line.js';
import type {DiscoveredUnit, LoadedSession, SourceAdapter, JsonlAdapter, LineState} from './types.js';

/** Lines longer than this are skipped, not parsed: one huge line must not exhaust memory. */
export const maxLineBytes = 32 * 1024 * 1024;
const maxWarnings = 20;

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
};

/**
 * Streams a JSONL unit row by row. Blank lines are not records; lines that do not parse, that
 * are too long, or whose record type the adapter does not know are skipped and counted, with
 * a warning that names the line and never its content.
 */
export function scanJsonl(adapter: JsonlAdapter, unit: DiscoveredUnit, visit: RowVisitor, options: JsonlScanOptions = {}): RowScan {
	const state: LineState = options.state ?? {};
	const scan: RowScan = {skipped: 0, warnings: [], endOffset: options.fromOffset ?? 0, nextLine: options.fromLine ?? 1, stopped: false};
	const warn = (message: string, line: number, reason: string) => {
		options.onSkip?.(line, reason);
		if (scan.warnings.length < maxWarnings) {
			scan.warnings.push(message);
		}
	};

	const end = forEachLine(
		unit.path,
		raw => {
			if (raw.oversized) {
				scan.skipped++;
				warn(`line ${raw.number}: skipped, longer than ${maxLineBytes / 1024 / 1024} MiB`, raw.number, 'too long');
				return;
			}

			if (raw.length === 0) {
				return;
			}

			const text = decodeLine(raw);
			if (text.trim() === '') {
				return;
			}

			const values = parseJsonLine(text);
			if (values === null) {
				scan.skipped++;
				warn(
					raw.terminated ? `line ${raw.number}: skipped, not valid JSON` : `line ${raw.number}: skipped, incomplete last line (still being written?)`,
					raw.number,
					raw.terminated ? 'not valid JSON' : 'incomplete last line',
				);
				return;
			}

			for (const value of values) {
				let events;
				try {
					events = adapter.normalizeLine(value, raw.number, state, unit);
				} catch {
					events = null;
				}

				if (events === null) {
					scan.skipped++;
					options.onSkip?.(raw.number, 'unknown record type');
					continue;
				}

				if (visit({line: raw.number, raw: value, events}, raw.offset) === false) {
					scan.stopped = true;
					return false;
				}
			}
		},
		{fromOffset: options.fromOffset, fromLine: options.fromLine, toOffset: options.toOffset, maxLineBytes},
	);
	scan.endOffset = end.offset;
	scan.nextLine = end.nextLine;
	return scan;
}

/** Every row of a unit, whatever its format. For whole-session work on bounded sizes and tests. */
export function readAllRows(adapter: SourceAdapter, unit: DiscoveredUnit): LoadedSession {
	if (adapter.format !== 'jsonl') {
		return adapter.loadSession(unit);
	}

	const rows: SessionRow[] = [];
	const scan = scanJsonl(adapter, unit, row => {
		rows.push(row);
	});
	return {rows, skipped: scan.skipped, warnings: scan.warnings};
}
