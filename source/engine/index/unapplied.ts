import {statSync} from 'node:fs';
import {scanJournal} from '../journal/scan.js';
import type {KbPaths} from '../kb/paths.js';
import {onlyGrew, statUnchanged, type Watermark} from './watermark.js';

/**
 * Ids of the journal's events beyond `mark`, the index's watermark when the caller's checks ran:
 * those another writer appended since (usually none, found by a stat), or every event when the
 * journal was rewritten since. Asked under the journal lock, it says what is in the journal as
 * it is then. The mark must be the one the checks saw, not the index's current one: another
 * writer applies its own lines to the shared index when it ends, which would hide them.
 */
export function unappliedEventIds(mark: Watermark | undefined, paths: KbPaths): Set<string> {
	let stats;
	try {
		stats = statSync(paths.journal);
	} catch {
		return new Set();
	}

	if (statUnchanged(mark, stats)) {
		return new Set();
	}

	const from = mark && onlyGrew(paths.journal, mark, stats) ? {offset: mark.bytes, line: mark.nextLine} : {offset: 0, line: 1};
	return from.offset >= stats.size ? new Set() : new Set(scanJournal(paths.journal, from).events.map(({event}) => event.id));
}
