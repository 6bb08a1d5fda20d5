import {statSync} from 'node:fs';
import {scanJournal} from '../journal/scan.js';
import type {KbPaths} from '../kb/paths.js';
import type {Database} from '../../lib/sqlite.js';
import {readWatermark} from './open.js';
import {onlyGrew, statUnchanged} from './watermark.js';

/**
 * Ids of the journal's events this index has not applied: those another writer appended since
 * the index was brought up to date (usually none, found by a stat), or every event when the
 * journal was rewritten since. Asked under the journal lock, it says what is in the journal as
 * it is then.
 */
export function unappliedEventIds(db: Database, paths: KbPaths): Set<string> {
	let stats;
	try {
		stats = statSync(paths.journal);
	} catch {
		return new Set();
	}

	const mark = readWatermark(db);
	if (statUnchanged(mark, stats)) {
		return new Set();
	}

	const from = mark && onlyGrew(paths.journal, mark, stats) ? {offset: mark.bytes, line: mark.nextLine} : {offset: 0, line: 1};
	return from.offset >= stats.size ? new Set() : new Set(scanJournal(paths.journal, from).events.map(({event}) => event.id));
}
