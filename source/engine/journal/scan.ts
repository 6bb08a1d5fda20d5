import {existsSync} from 'node:fs';
import {decodeLine, forEachLine} from '../util/lines.js';
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
 * applied, and not silently dropped.
 */
export function scanJournal(path: string, from: {offset: number; line: number} = {offset: 0, line: 1}): JournalScan {
	const events: ScannedEvent[] = [];
	const corrupt: CorruptLine[] = [];
	let unterminatedTail: JournalScan['unterminatedTail'];
	let unknownOps = 0;
	if (!existsSync(path)) {
		return {events, corrupt, unterminatedTail, unknownOps, endOffset: 0, nextLine: 1};
	}

	const end = forEachLine(
		path,
		raw => {
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
	return {events, corrupt, unterminatedTail, unknownOps, endOffset: end.offset, nextLine: end.nextLine};
}

/** "2 (lines 3, 7)": how many lines, then which (the first ten), so neither is read as the other. */
export function countedLines(lines: readonly number[]): string {
	const which = lines.length <= 10 ? lines.join(', ') : `${lines.slice(0, 10).join(', ')} and ${lines.length - 10} more`;
	return `${lines.length} (${lines.length === 1 ? 'line' : 'lines'} ${which})`;
}
