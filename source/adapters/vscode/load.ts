import {SessionCorruptError, type DiscoveredUnit, type LoadedSession} from '../types.js';
import type {SessionRow} from '../events.js';
import {copilotAdapter} from '../copilot/index.js';
import {scanJsonl} from '../rows.js';
import {rowsOnLines, sessionRows} from './normalize.js';
import {readSnapshot, replayMutationLog, type SessionDocument} from './replay.js';

/** A `.jsonl` unit is replayed from its mutation log; a `.json` unit is read as one snapshot. */
function readDocument(unit: DiscoveredUnit): SessionDocument {
	const isLog = unit.variant === undefined ? unit.path.endsWith('.jsonl') : unit.variant === 'log';
	return isLog ? replayMutationLog(unit.path) : readSnapshot(unit.path);
}

/** Copilot Chat's transcripts are Copilot CLI's event log, line for line: Copilot's reader reads them. */
function readTranscript(unit: DiscoveredUnit, lines?: ReadonlySet<number>): LoadedSession {
	const rows: SessionRow[] = [];
	const scan = scanJsonl(copilotAdapter, unit, row => {
		rows.push(row);
	}, lines === undefined ? {} : {onlyLines: lines});
	return {rows, skipped: scan.skipped, warnings: scan.warnings};
}

export function loadVscodeSession(unit: DiscoveredUnit): LoadedSession {
	return unit.variant === 'transcript' ? readTranscript(unit) : sessionRows(readDocument(unit), unit);
}

/**
 * The rows on a few lines (requests), the document read whole but only their requests
 * normalised (see rowsOnLines). Undefined for a document that cannot be read: the caller then
 * loads the session, which reports why.
 */
export function vscodeRowsOnLines(unit: DiscoveredUnit, lines: ReadonlySet<number>): SessionRow[] | undefined {
	if (unit.variant === 'transcript') {
		return readTranscript(unit, lines).rows;
	}

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
