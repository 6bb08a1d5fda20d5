import {SessionCorruptError, type DiscoveredUnit, type JsonlAdapter, type LoadedSession} from '../types.js';
import type {SessionRow} from '../events.js';
import {scanJsonl} from '../rows.js';
import {rowsOnLines, sessionRows} from './normalize.js';
import {readSnapshot, replayMutationLog, type SessionDocument} from './replay.js';

/** A `.jsonl` unit is replayed from its mutation log; a `.json` unit is read as one snapshot. */
function readDocument(unit: DiscoveredUnit): SessionDocument {
	const isLog = unit.variant === undefined ? unit.path.endsWith('.jsonl') : unit.variant === 'log';
	return isLog ? replayMutationLog(unit.path) : readSnapshot(unit.path);
}

/**
 * Copilot Chat's transcripts are Copilot CLI's event log, line for line: Copilot's reader reads
 * them, handed in by the adapters' table (adapters/index.ts), since no adapter imports another.
 */
function readTranscript(events: JsonlAdapter, unit: DiscoveredUnit, lines?: ReadonlySet<number>): LoadedSession {
	const rows: SessionRow[] = [];
	const scan = scanJsonl(events, unit, row => {
		rows.push(row);
	}, lines === undefined ? {} : {onlyLines: lines});
	return {rows, skipped: scan.skipped, warnings: scan.warnings};
}

/** How a VS Code unit is read: its chat store's documents here, its transcripts by `events`. */
export function vscodeReaders(events: JsonlAdapter): {loadSession(unit: DiscoveredUnit): LoadedSession; rowsOnLines(unit: DiscoveredUnit, lines: ReadonlySet<number>): SessionRow[] | undefined} {
	return {
		loadSession: unit => (unit.variant === 'transcript' ? readTranscript(events, unit) : sessionRows(readDocument(unit), unit)),
		rowsOnLines: (unit, lines) => (unit.variant === 'transcript' ? readTranscript(events, unit, lines).rows : documentRowsOnLines(unit, lines)),
	};
}

/**
 * The rows on a few lines (requests), the document read whole but only their requests
 * normalised (see rowsOnLines). Undefined for a document that cannot be read: the caller then
 * loads the session, which reports why.
 */
function documentRowsOnLines(unit: DiscoveredUnit, lines: ReadonlySet<number>): SessionRow[] | undefined {
	let document: SessionDocument;
	try {
		document = readDocument(unit);
	} catch (error) {
		if (error instanceof SessionCorruptError) {
			return undefined;
		}

		throw error;
	}

	return rowsOnLines(document, lines);
}
