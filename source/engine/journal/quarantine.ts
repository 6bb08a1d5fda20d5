import {closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, statSync, writeSync} from 'node:fs';
import {join} from 'node:path';
import type {Deps} from '../deps.js';
import {withExclusiveLock} from '../kb/lock.js';
import type {KbPaths} from '../kb/paths.js';
import {writeFileAtomic} from '../util/atomic.js';
import {decodeLine, forEachLine} from '../util/lines.js';
import {utcDate} from '../util/time.js';
import {parseJournalLine} from './parse-line.js';
import {scanJournal, type JournalScan} from './scan.js';

export type RepairResult = {
	readonly quarantined: number;
	readonly lines: ReadonlyArray<{readonly line: number; readonly reason: string}>;
	readonly quarantineFile: string | undefined;
	/**
	 * When the journal needed nothing, the scan that showed it, with the journal's identity at
	 * that moment: an index rebuild right after may use it instead of parsing everything again.
	 */
	readonly healthy?: ScannedJournal;
};

export type ScannedJournal = {readonly scan: JournalScan; readonly stats: {readonly ino: number; readonly size: number; readonly mtimeMs: number}};

/**
 * Moves every line that is not an event, verbatim, to `.engi/quarantine/<UTC date>.jsonl`, then
 * replaces the journal atomically with the remaining lines. A valid final line that only lacks
 * its newline is kept and terminated. The caller must hold the journal lock.
 */
export function repairJournalLocked(paths: KbPaths, deps: Deps): RepairResult {
	if (!existsSync(paths.journal)) {
		return {quarantined: 0, lines: [], quarantineFile: undefined};
	}

	// First only look: a healthy journal (the usual case) costs one parse and no copies.
	const before = statSync(paths.journal);
	const scan = scanJournal(paths.journal);
	if (scan.corrupt.length === 0 && scan.unterminatedTail === undefined) {
		const after = statSync(paths.journal);
		const same = before.ino === after.ino && before.size === after.size && before.mtimeMs === after.mtimeMs;
		return {quarantined: 0, lines: [], quarantineFile: undefined, ...(same ? {healthy: {scan, stats: {ino: after.ino, size: after.size, mtimeMs: after.mtimeMs}}} : {})};
	}

	const kept: Buffer[] = [];
	const moved: Buffer[] = [];
	const lines: Array<{line: number; reason: string}> = [];
	forEachLine(paths.journal, raw => {
		const bytes = Buffer.from(raw.buffer.subarray(raw.start, raw.end));
		const parsed = parseJournalLine(decodeLine(raw));
		if (parsed.kind === 'corrupt') {
			moved.push(bytes);
			lines.push({line: raw.number, reason: raw.terminated ? parsed.reason : 'torn_tail'});
			return;
		}

		kept.push(bytes); // A valid (or blank) last line is kept and terminated.
	});

	let quarantineFile: string | undefined;
	if (moved.length > 0) {
		mkdirSync(paths.quarantine, {recursive: true});
		quarantineFile = join(paths.quarantine, `${utcDate(deps.now())}.jsonl`);
		// Quarantine first and durably: if we crash before the rename, the lines exist twice, never zero times.
		const fd = openSync(quarantineFile, 'a');
		try {
			for (const bytes of moved) {
				writeSync(fd, Buffer.concat([bytes, Buffer.from('\n')]));
			}

			fsyncSync(fd);
		} finally {
			closeSync(fd);
		}
	}

	const content = Buffer.concat(kept.flatMap(bytes => [bytes, Buffer.from('\n')]));
	writeFileAtomic(paths.journal, content);
	return {quarantined: moved.length, lines, quarantineFile};
}

export async function repairJournal(paths: KbPaths, deps: Deps): Promise<RepairResult> {
	return withExclusiveLock(paths.engi, 'journal', () => repairJournalLocked(paths, deps));
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

