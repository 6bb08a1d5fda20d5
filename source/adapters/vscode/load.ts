import {SessionCorruptError, type DiscoveredUnit, type LoadedSession} from '../types.js';
import type {SessionRow} from '../events.js';
import {rowsOnLines, sessionRows} from './normalize.js';
import {readSnapshot, replayMutationLog, type SessionDocument} from './replay.js';

/** A `.jsonl` unit is replayed from its mutation log; a `.json` unit is read as one snapshot. */
function readDocument(unit: DiscoveredUnit): SessionDocument {
	const isLog = unit.variant === undefined ? unit.path.endsWith('.jsonl') : unit.variant === 'log';
	return isLog ? replayMutationLog(unit.path) : readSnapshot(unit.path);
}

export function loadVscodeSession(unit: DiscoveredUnit): LoadedSession {
	return sessionRows(readDocument(unit), unit);
}

/**
 * The rows on a few lines (requests), the document read whole but only their requests
 * normalised (see rowsOnLines). Undefined for a document that cannot be read: the caller then
 * loads the session, which reports why.
 */
export function vscodeRowsOnLines(unit: DiscoveredUnit, lines: ReadonlySet<number>): SessionRow[] | undefined {
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
