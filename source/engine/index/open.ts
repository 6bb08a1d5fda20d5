import {copyFileSync, existsSync, mkdtempSync, rmSync, statSync, type Stats} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {EngiError, systemErrorCode} from '../errors.js';
import type {KbPaths} from '../kb/paths.js';
import {scanJournal, type CorruptLine} from '../journal/scan.js';
import type {ScannedJournal} from '../journal/quarantine.js';
import {migrate, openDatabase, type Database} from '../util/sqlite.js';
import {createApplier} from './apply.js';
import {clearIndexTables, createEventIndexes, dropEventIndexes, dropIndexTables, indexMigrations} from './schema.js';
import {fingerprint, onlyGrew, statUnchanged, type Watermark} from './watermark.js';

export type IndexRefresh = 'fresh' | 'applied' | 'rebuilt';

export type IndexHandle = {
	readonly db: Database;
	/** What this call had to do to bring the index up to date. */
	readonly refresh: IndexRefresh;
	/** Why a rebuild happened: no index yet, the journal was rewritten (not just appended to), or it was asked for. */
	readonly rebuildReason: 'new' | 'journal_rewritten' | 'forced' | null;
	/** Events applied by this call. */
	readonly applied: number;
	/** Every journal line the index could not read (still in the journal, awaiting quarantine). */
	readonly corrupt: CorruptLine[];
	/** Line number of a final line without a newline, if any. */
	readonly unterminatedTail: number | undefined;
	readonly warnings: string[];
	/** True when `.engi` was not writable and the index lives in memory for this call only. */
	readonly inMemory: boolean;
	close(): void;
};

/** Fails clearly, and creates nothing, when the root has no knowledge base. */
export function requireKnowledgeBase(paths: KbPaths): void {
	if (!existsSync(paths.engi)) {
		throw new EngiError('kb_not_initialized', `no knowledge base at ${paths.root} (missing ${paths.engi})`, {
			hint: `create one with engi init ${paths.root}, or point --root at an existing knowledge base`,
		});
	}
}

function statOrUndefined(path: string): Stats | undefined {
	try {
		return statSync(path);
	} catch (error) {
		if (systemErrorCode(error) === 'ENOENT') {
			return undefined;
		}

		throw new EngiError('journal_unreadable', `cannot read ${path} (${systemErrorCode(error) ?? 'error'})`, {cause: error});
	}
}

const unwritableCodes = new Set(['SQLITE_READONLY', 'SQLITE_CANTOPEN', 'SQLITE_READONLY_DIRECTORY', 'SQLITE_PERM', 'SQLITE_AUTH', 'EACCES', 'EROFS', 'EPERM']);

function isUnwritable(error: unknown): boolean {
	const code = systemErrorCode(error) ?? '';
	return unwritableCodes.has(code) || code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_CANTOPEN');
}

const readMark = (db: Database): Watermark | undefined => {
	const value = db.prepare(`SELECT value FROM meta WHERE key = 'watermark'`).pluck().get() as string | undefined;
	return value === undefined ? undefined : (JSON.parse(value) as Watermark);
};

/**
 * Opens the derived index and brings it up to date with the journal: nothing to do when the
 * journal's stat is unchanged, only the new lines when it only grew, a rebuild otherwise.
 */
export type IndexOptions = {
	readonly forceRebuild?: boolean;
	/** The journal as just scanned (by the repair pass of `index rebuild`), with its identity then. */
	readonly scanned?: ScannedJournal;
};

export function openIndex(paths: KbPaths, options: IndexOptions = {}): IndexHandle {
	requireKnowledgeBase(paths);
	let db: Database | undefined;
	try {
		db = openDatabase(paths.index);
		return refreshIndex(db, paths, options, [], false);
	} catch (error) {
		db?.close();
		if (!isUnwritable(error)) {
			throw error;
		}

		// A read-only knowledge base (a mounted backup, a shared checkout) still answers reads.
		const warning = `index_unwritable: ${paths.index} cannot be written (${systemErrorCode(error) ?? 'error'}); built a temporary in-memory index`;
		return refreshIndex(openDatabase(':memory:'), paths, options, [warning], true);
	}
}

function refreshIndex(db: Database, paths: KbPaths, options: IndexOptions, warnings: string[], inMemory: boolean): IndexHandle {
	try {
		migrate(db, indexMigrations, dropIndexTables);
		const stats = statOrUndefined(paths.journal);
		let refresh: IndexRefresh = 'fresh';
		let rebuildReason: IndexHandle['rebuildReason'] = null;
		let applied = 0;
		if (options.forceRebuild || !statUnchanged(readMark(db), stats)) {
			db.transaction(() => {
				// Another process may have refreshed while we waited for the write lock.
				const mark = readMark(db);
				const now = statOrUndefined(paths.journal);
				if (!options.forceRebuild && statUnchanged(mark, now)) {
					return;
				}

				const incremental = !options.forceRebuild && mark !== undefined && now !== undefined && onlyGrew(paths.journal, mark, now);
				if (!incremental) {
					clearIndexTables(db);
					dropEventIndexes(db);
				}

				const from = incremental && mark ? {offset: mark.bytes, line: mark.nextLine} : {offset: 0, line: 1};
				// A scan the caller made a moment ago serves a full rebuild if the journal is still the same file, unchanged.
				const given = options.scanned;
				const reusable = !incremental && given !== undefined && now !== undefined && given.stats.ino === now.ino && given.stats.size === now.size && given.stats.mtimeMs === now.mtimeMs;
				const scan = reusable ? given.scan : scanJournal(paths.journal, from);
				const applier = createApplier(db, {fresh: !incremental});
				for (const event of scan.events) {
					applier.apply(event);
				}

				applier.flush();
				createEventIndexes(db);
				const insertCorrupt = db.prepare('INSERT OR REPLACE INTO corrupt (line, reason, bytes) VALUES (?, ?, ?)');
				db.prepare(`DELETE FROM corrupt WHERE reason = 'torn_tail'`).run();
				for (const line of scan.corrupt) {
					if (line.reason !== 'torn_tail') {
						insertCorrupt.run(line.line, line.reason, line.bytes);
					}
				}

				const next: Watermark = {
					bytes: scan.endOffset,
					nextLine: scan.nextLine,
					size: now?.size ?? 0,
					mtimeMs: now?.mtimeMs ?? 0,
					ino: now?.ino ?? 0,
					...fingerprint(paths.journal, scan.endOffset),
				};
				db.prepare(`INSERT OR REPLACE INTO meta (key, value) VALUES ('watermark', ?)`).run(JSON.stringify(next));
				// Kept here so status never counts a hundred thousand rows.
				const previous = incremental ? readEventCount(db) : 0;
				db.prepare(`INSERT OR REPLACE INTO meta (key, value) VALUES ('event_count', ?)`).run(String(previous + applier.distinct()));
				refresh = incremental ? 'applied' : 'rebuilt';
				rebuildReason = incremental ? null : options.forceRebuild ? 'forced' : mark === undefined ? 'new' : 'journal_rewritten';
				applied = applier.applied();
			}).immediate();
		}

		const corrupt = db.prepare('SELECT line, reason, bytes FROM corrupt ORDER BY line').all() as CorruptLine[];
		const mark = readMark(db);
		const size = statOrUndefined(paths.journal)?.size ?? 0;
		let unterminatedTail: number | undefined;
		if (mark && size > mark.bytes) {
			// Bytes past the last complete line: a torn write or a line still missing its newline.
			unterminatedTail = mark.nextLine;
			const tail = scanJournal(paths.journal, {offset: mark.bytes, line: mark.nextLine});
			if (tail.unterminatedTail) {
				corrupt.push(...tail.corrupt.filter(line => line.reason === 'torn_tail'));
				warnings.push(`journal_unterminated_tail: line ${tail.unterminatedTail.line} has no newline${tail.unterminatedTail.parses ? '' : ' and does not parse (torn write)'}`);
			}
		}

		return {db, refresh, rebuildReason, applied, corrupt, unterminatedTail, warnings, inMemory, close: () => db.close()};
	} catch (error) {
		db.close();
		throw error;
	}
}

/**
 * Opens a private copy of the index, for doctor. Even a read-only SQLite connection to a WAL
 * database creates its -shm and -wal files, and doctor promises to change nothing at all in the
 * knowledge base. Undefined when there is no index. The copy is removed when closed.
 */
export function openIndexCopy(paths: KbPaths): {db: Database; close(): void} | undefined {
	if (!existsSync(paths.index)) {
		return undefined;
	}

	const directory = mkdtempSync(join(tmpdir(), 'engi-doctor-'));
	const remove = () => rmSync(directory, {recursive: true, force: true});
	try {
		const copy = join(directory, 'index.sqlite');
		copyFileSync(paths.index, copy);
		if (existsSync(`${paths.index}-wal`)) {
			copyFileSync(`${paths.index}-wal`, `${copy}-wal`);
		}

		const db = openDatabase(copy, {readonly: false, fileMustExist: true});
		return {
			db,
			close() {
				db.close();
				remove();
			},
		};
	} catch (error) {
		remove();
		throw error;
	}
}

export {readMark as readWatermark};

/** Distinct events in the index (a duplicated line counts once), maintained by every refresh. */
export function readEventCount(db: Database): number {
	const value = db.prepare(`SELECT value FROM meta WHERE key = 'event_count'`).pluck().get() as string | undefined;
	return value === undefined ? 0 : Number(value);
}
