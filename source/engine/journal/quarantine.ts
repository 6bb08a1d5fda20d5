import {existsSync, readdirSync, statSync} from 'node:fs';
import {join} from 'node:path';
import type {Deps} from '../deps.js';
import {withExclusiveLock, type HeldLock} from '../kb/lock.js';
import type {KbPaths} from '../kb/paths.js';
import {forEachLine} from '../../lib/lines.js';
import {utcDate} from '../../lib/time.js';
import {repairLinesLocked, type MovedLine} from './line-repair.js';
import {parseJournalLine} from './parse-line.js';
import {scanJournal, type JournalScan} from './scan.js';

export type RepairResult = {
	readonly quarantined: number;
	readonly lines: readonly MovedLine[];
	readonly quarantineFile: string | undefined;
	/**
	 * When the journal needed nothing, the scan that showed it, with the journal's identity at
	 * that moment: an index rebuild right after may use it instead of parsing everything again.
	 */
	readonly healthy?: ScannedJournal;
};

export type ScannedJournal = {readonly scan: JournalScan; readonly stats: {readonly ino: number; readonly size: number; readonly mtimeMs: number}};

/**
 * Moves every line that is not an event, verbatim, to `.engi/quarantine/<UTC date>.jsonl` and
 * mends the journal (see repairLinesLocked: a torn tail is cut off in place; only corrupt lines
 * in the middle make a verified rewrite). A valid final line that only lacks its newline is
 * kept and terminated. The caller holds the journal lock.
 */
export function repairJournalLocked(paths: KbPaths, deps: Deps, lock: HeldLock): RepairResult {
	if (!existsSync(paths.journal)) {
		return {quarantined: 0, lines: [], quarantineFile: undefined};
	}

	// First only look: a healthy journal (the usual case) costs one parse and no copies.
	const before = statSync(paths.journal);
	const scan = scanJournal(paths.journal, undefined, lock.heartbeat);
	if (scan.corrupt.length === 0 && scan.unterminatedTail === undefined) {
		const after = statSync(paths.journal);
		const same = before.ino === after.ino && before.size === after.size && before.mtimeMs === after.mtimeMs;
		return {quarantined: 0, lines: [], quarantineFile: undefined, ...(same ? {healthy: {scan, stats: {ino: after.ino, size: after.size, mtimeMs: after.mtimeMs}}} : {})};
	}

	const repair = repairLinesLocked({
		path: paths.journal,
		classify(text) {
			const parsed = parseJournalLine(text);
			return parsed.kind === 'corrupt' ? parsed.reason : undefined;
		},
		quarantineFile: join(paths.quarantine, `${utcDate(deps.now())}.jsonl`),
		lock,
		deps,
	});
	return {quarantined: repair.moved.length, lines: repair.moved, quarantineFile: repair.quarantineFile};
}

export async function repairJournal(paths: KbPaths, deps: Deps): Promise<RepairResult> {
	return withExclusiveLock(paths.engi, 'journal', lock => repairJournalLocked(paths, deps, lock));
}

/** Lines waiting in quarantine, across all its files. Reading only. */
export function countQuarantined(paths: KbPaths): {lines: number; files: string[]; unreadable: string[]} {
	let names: string[];
	try {
		names = readdirSync(paths.quarantine).filter(name => name.endsWith('.jsonl')).sort();
	} catch {
		return {lines: 0, files: [], unreadable: []};
	}

	let lines = 0;
	const unreadable: string[] = [];
	for (const name of names) {
		try {
			forEachLine(join(paths.quarantine, name), raw => {
				if (raw.length > 0) {
					lines++;
				}
			});
		} catch {
			unreadable.push(name);
		}
	}

	return {lines, files: names, unreadable};
}
