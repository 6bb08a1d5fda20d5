import {closeSync, existsSync, openSync} from 'node:fs';
import {EngiError, systemErrorCode} from '../../lib/errors.js';
import {decodeLine, forEachLineFd} from '../../lib/lines.js';
import {parseJournalLine, type CorruptReason} from './parse-line.js';
import type {JournalLine} from './schema.js';

export type ScannedEvent = {readonly line: number; readonly event: JournalLine; readonly known: boolean};

export type CorruptLine = {readonly line: number; readonly reason: CorruptReason | 'torn_tail'; readonly bytes: number};

export type JournalScan = {
	readonly events: ScannedEvent[];
	readonly corrupt: CorruptLine[];
	/** The final line has no newline: a crash mid-write, or a hand edit. Never applied until mended. */
	readonly unterminatedTail: {readonly line: number; readonly parses: boolean} | undefined;
	readonly unknownOps: number;
	/** Byte offset just past the last complete line. */
	readonly endOffset: number;
	readonly nextLine: number;
};

/**
 * Reads the journal from a line boundary to its end. Complete lines that fail to parse are
 * reported as corrupt with their line numbers; an unterminated final line is reported, not
 * applied, and not silently dropped. `heartbeat` runs on every line, for a caller that scans
 * while holding the journal lock and must keep it fresh.
 */
export function scanJournal(path: string, from: {offset: number; line: number} = {offset: 0, line: 1}, heartbeat?: () => void): JournalScan {
	const events: ScannedEvent[] = [];
	const corrupt: CorruptLine[] = [];
	let unterminatedTail: JournalScan['unterminatedTail'];
	let unknownOps = 0;
	if (!existsSync(path)) {
		return {events, corrupt, unterminatedTail, unknownOps, endOffset: 0, nextLine: 1};
	}

	const unreadable = (error: unknown) =>
		error instanceof EngiError ? error : new EngiError('journal_unreadable', `cannot read ${path} (${systemErrorCode(error) ?? 'error'})`, {hint: 'engi needs to read the journal: check that it is a file and its permissions', cause: error});
	let fd: number;
	try {
		fd = openSync(path, 'r');
	} catch (error) {
		throw unreadable(error);
	}

	let end: {offset: number; nextLine: number};
	try {
		end = forEachLineFd(
			fd,
			raw => {
				heartbeat?.();
				const parsed = parseJournalLine(decodeLine(raw));
				if (!raw.terminated) {
					if (parsed.kind === 'blank') {
						return;
					}

					unterminatedTail = {line: raw.number, parses: parsed.kind === 'event'};
					if (parsed.kind !== 'event') {
						corrupt.push({line: raw.number, reason: 'torn_tail', bytes: raw.length});
					}

					return;
				}

				if (parsed.kind === 'event') {
					events.push({line: raw.number, event: parsed.event, known: parsed.known});
					if (!parsed.known) {
						unknownOps++;
					}
				} else if (parsed.kind === 'corrupt') {
					corrupt.push({line: raw.number, reason: parsed.reason, bytes: raw.length});
				}
			},
			{fromOffset: from.offset, fromLine: from.line},
		);
	} catch (error) {
		throw unreadable(error);
	} finally {
		closeSync(fd);
	}

	return {events, corrupt, unterminatedTail, unknownOps, endOffset: end.offset, nextLine: end.nextLine};
}

/** "2 (lines 3, 7)": how many lines, then which (the first ten), so neither is read as the other. */
export function countedLines(lines: readonly number[]): string {
	const which = lines.length <= 10 ? lines.join(', ') : `${lines.slice(0, 10).join(', ')} and ${lines.length - 10} more`;
	return `${lines.length} (${lines.length === 1 ? 'line' : 'lines'} ${which})`;
}
