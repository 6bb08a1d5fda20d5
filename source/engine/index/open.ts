import {existsSync, readdirSync, renameSync, rmSync, statSync, type Stats} from 'node:fs';
import {basename, join} from 'node:path';
import {damageOf, openedCache} from '../cache-damage.js';
import {noteCacheWarning} from '../cache-notices.js';
import type {Deps} from '../deps.js';
import {EngiError, systemErrorCode} from '../../lib/errors.js';
import {requireKnowledgeBase, type KbPaths} from '../kb/paths.js';
import {scanJournal, type CorruptLine} from '../journal/scan.js';
import type {ScannedJournal} from '../journal/quarantine.js';
import {CacheDamage, cannotWrite, isBusy, isCorruptDatabase, migrate, openDatabase, openReadOnlyInPlace, parseStored, type Database} from '../../lib/sqlite.js';
import {canonicalUtc} from '../../lib/time.js';
import {createApplier} from './apply.js';
import {readEventCount} from './store.js';
import {clearIndexTables, createEventIndexes, dropEventIndexes, indexMigrations} from './schema.js';
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
	/** The inode of the index file this handle opened (null in memory): a recovery moves aside only the file that failed. */
	readonly inode: number | null;
	close(): void;
};

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

/** How far this index has read the journal (see watermark.ts); undefined for a new index. */
export function readWatermark(db: Database): Watermark | undefined {
	const value = db.prepare(`SELECT value FROM meta WHERE key = 'watermark'`).pluck().get() as string | undefined;
	return value === undefined ? undefined : parseStored<Watermark>(value, 'index');
}

export type IndexOptions = {
	readonly forceRebuild?: boolean;
	/** The journal as just scanned (by the repair pass of `index rebuild`), with its identity then. */
	readonly scanned?: ScannedJournal;
	/**
	 * What an index another process keeps locked past the busy timeout gets: `memory` (the
	 * default) an index in memory for this call, with an index_busy warning; `fail` the typed,
	 * retryable error index_busy, for a caller whose work is the state it keeps in the file
	 * (dream's progress), which an index in memory would throw away.
	 */
	readonly onBusy?: 'memory' | 'fail';
};

/**
 * Runs `use` over the up-to-date index. The index is a cache any command may refresh (see
 * README "On disk"): a damaged file is moved aside and rebuilt from the journal, whether the
 * damage shows when it is opened or only when `use` reads a bad page, and then `use` runs once
 * more on the new index. Nothing is checked in advance, so the warm path pays nothing for this.
 * `use` must not append to the journal before its last read of the index.
 */
export async function withIndex<T>(paths: KbPaths, deps: Deps, use: (index: IndexHandle) => T | Promise<T>, options: IndexOptions = {}): Promise<T> {
	let index = openIndex(paths, deps, options);
	try {
		return await use(index);
	} catch (error) {
		// Damage of the catalog, read inside this scope, is the catalog's to recover.
		if (!damageOf(error, 'index') || index.inode === null) {
			throw error;
		}

		index.close();
		index = recoverIndex(paths, deps, options, error, index.inode);
		return await use(index);
	} finally {
		index.close();
	}
}

/**
 * Opens the derived index and brings it up to date with the journal: nothing to do when the
 * journal's stat is unchanged, only the new lines when it only grew, a rebuild otherwise.
 * A damaged file is recovered as in withIndex; an unwritable `.engi` gets an index in memory.
 */
export function openIndex(paths: KbPaths, deps: Deps, options: IndexOptions = {}): IndexHandle {
	requireKnowledgeBase(paths);
	const opened: {inode: number | null} = {inode: null};
	try {
		return openOnDisk(paths, deps, options, [], opened);
	} catch (error) {
		if (isCorruptDatabase(error)) {
			return recoverIndex(paths, deps, options, error, opened.inode);
		}

		if (isBusy(error)) {
			if (options.forceRebuild) {
				throw busyError(paths, error, 'was to be rebuilt'); // A rebuild in memory would rebuild nothing.
			}

			return heldIndex(paths, options, error, []);
		}

		if (!cannotWrite(error)) {
			throw error;
		}

		// A read-only knowledge base (a mounted backup, a shared checkout) still answers reads.
		return inMemory(paths, options, [`index_unwritable: ${paths.index} cannot be written (${systemErrorCode(error) ?? 'error'}); built a temporary in-memory index`]);
	}
}

/**
 * The warning of a call another process kept out of the index past the busy timeout, with what
 * the call did instead (`after`); `error` is SQLite's busy error or the index_busy it became.
 */
export function indexBusyWarning(paths: KbPaths, error: unknown, after: string): string {
	const cause = error instanceof EngiError && error.code === 'index_busy' ? error.cause : error;
	return `index_busy: ${paths.index} stayed locked by another process (${systemErrorCode(cause) ?? 'SQLITE_BUSY'}); ${after}`;
}

/**
 * Another process kept the index's write lock past the busy timeout (a long rebuild, a writer
 * applying a large journal): the file is fine, only held, so this call reads the journal into
 * an index of its own, and the file takes the new lines on the next call; a caller whose work is
 * the state it keeps in the file (onBusy 'fail') gets the typed, retryable index_busy instead.
 */
function heldIndex(paths: KbPaths, options: IndexOptions, error: unknown, warnings: readonly string[]): IndexHandle {
	if (options.onBusy === 'fail') {
		throw busyError(paths, error, 'was brought up to date');
	}

	const warning = indexBusyWarning(paths, error, 'this call read the journal into a temporary in-memory index');
	noteCacheWarning(warning); // A writer's document may have no warnings to carry it.
	return inMemory(paths, options, [...warnings, warning]);
}

/**
 * Brings an open index up to date again, on the same connection: after this process changed the
 * journal. An index another process keeps locked past the busy timeout fails typed, and
 * retryable; the connection stays open, the index as it was, so the caller may go on with it.
 */
export function refreshOpenIndex(paths: KbPaths, index: IndexHandle): IndexHandle {
	try {
		return refreshIndex(index.db, paths, {}, index.warnings, index.inode);
	} catch (error) {
		if (!isBusy(error)) {
			throw error;
		}

		throw busyError(paths, error, 'was brought up to date');
	}
}

/**
 * Writes state a command keeps in the index beside what the journal says (wiki sync's held
 * pages and record, dream's upkeep and progress) in one write transaction, so it is saved whole
 * or not at all. An index another process keeps locked past the busy timeout fails typed
 * (index_busy, retryable), having written none of it; `during` says what the index was to take.
 */
export function writeIndexState<T>(paths: KbPaths, index: IndexHandle, during: string, write: (db: Database) => T): T {
	try {
		return index.db.transaction(() => write(index.db)).immediate();
	} catch (error) {
		if (!isBusy(error)) {
			throw error;
		}

		throw busyError(paths, error, during);
	}
}

/** The typed, retryable error of an index another process keeps locked past the busy timeout. */
function busyError(paths: KbPaths, error: unknown, during: string): EngiError {
	return new EngiError('index_busy', `${paths.index} stayed locked by another process (${systemErrorCode(error) ?? 'SQLITE_BUSY'}) while it ${during}`, {
		hint: 'another engi is rebuilding or writing the index; retry in a moment (the journal holds everything written so far)',
		cause: error,
	});
}

/** Opens and refreshes the index file, noting in `opened` which file it was (before any error can stop it). */
function openOnDisk(paths: KbPaths, deps: Deps, options: IndexOptions, warnings: string[], opened: {inode: number | null} = {inode: null}): IndexHandle {
	opened.inode = statSync(paths.index, {throwIfNoEntry: false})?.ino ?? null;
	const db = openDatabase(paths.index);
	try {
		opened.inode ??= statSync(paths.index).ino;
		if (options.forceRebuild) {
			// A rebuild reuses the file: damage in pages it never reads (free pages, say) would outlive it.
			const verdict = db.pragma('quick_check(1)', {simple: true}) as string;
			if (verdict !== 'ok') {
				throw new CacheDamage(`quick_check: ${verdict}`, 'index');
			}
		}

		migrate(db, indexMigrations, deps.env);
		return refreshIndex(db, paths, options, warnings, opened.inode);
	} catch (error) {
		db.close();
		throw error;
	}
}

function inMemory(paths: KbPaths, options: IndexOptions, warnings: string[]): IndexHandle {
	const db = openDatabase(':memory:');
	try {
		migrate(db, indexMigrations);
		return refreshIndex(db, paths, options, warnings, null);
	} catch (error) {
		db.close();
		throw error;
	}
}

/** A damaged index: move it aside, build a new one from the journal (in memory if `.engi` cannot be written), and say so. */
function recoverIndex(paths: KbPaths, deps: Deps, options: IndexOptions, error: unknown, inode: number | null): IndexHandle {
	const damage = `${systemErrorCode(error) ?? 'error'}: ${error instanceof Error ? error.message : 'unreadable'}`;
	let aside: string | undefined;
	try {
		aside = setAsideIndex(paths, deps, inode);
	} catch (moveError) {
		if (!cannotWrite(moveError)) {
			throw moveError;
		}

		const warning = `index_corrupt: ${paths.index} is damaged (${damage}) and cannot be moved aside (${systemErrorCode(moveError) ?? 'error'}); built a temporary in-memory index`;
		noteCacheWarning(warning);
		return inMemory(paths, options, [warning]);
	}

	const warning = aside
		? `index_corrupt: ${paths.index} was damaged (${damage}); moved it to ${basename(aside)} and rebuilt the index from the journal`
		: `index_corrupt: ${paths.index} was damaged (${damage}); another engi had already replaced it`;
	noteCacheWarning(warning);
	try {
		return openOnDisk(paths, deps, options, [warning]);
	} catch (retryError) {
		if (isBusy(retryError)) {
			return heldIndex(paths, options, retryError, [warning]);
		}

		if (!cannotWrite(retryError)) {
			throw retryError;
		}

		return inMemory(paths, options, [warning, `index_unwritable: ${paths.index} cannot be written (${systemErrorCode(retryError) ?? 'error'}); built a temporary in-memory index`]);
	}
}

/** Where damaged indexes are moved: beside the index, under a name the knowledge base's .gitignore (`.engi/index.sqlite-*`) already covers. */
const asidePrefix = 'index.sqlite-corrupt-';

/**
 * Renames the damaged index (and its WAL, which belongs to it and must not be replayed into a
 * new file) to `index.sqlite-corrupt-<utc>`, and drops its -shm. Undefined when the file is no
 * longer the one that failed: another process recovered first.
 */
function setAsideIndex(paths: KbPaths, deps: Deps, inode: number | null): string | undefined {
	const current = statSync(paths.index, {throwIfNoEntry: false});
	if (!current || (inode !== null && current.ino !== inode)) {
		return undefined;
	}

	const stamp = join(paths.engi, `${asidePrefix}${canonicalUtc(deps.now()).replaceAll(/[-:]/g, '')}`);
	let aside = stamp;
	for (let n = 2; existsSync(aside); n++) {
		aside = `${stamp}-${n}`; // Damaged twice within a second: keep both.
	}

	renameSync(paths.index, aside);
	if (existsSync(`${paths.index}-wal`)) {
		renameSync(`${paths.index}-wal`, `${aside}-wal`);
	}

	rmSync(`${paths.index}-shm`, {force: true});
	return aside;
}

/** Indexes moved aside after damage, oldest first: kept for inspection, safe to delete. */
export function setAsideIndexes(paths: KbPaths): string[] {
	try {
		return readdirSync(paths.engi)
			.filter(name => name.startsWith(asidePrefix) && !name.endsWith('-wal'))
			.sort();
	} catch {
		return [];
	}
}

/** Brings `db` up to date with the journal. On failure the connection stays open: whoever opened it closes it. */
function refreshIndex(db: Database, paths: KbPaths, options: IndexOptions, warnings: string[], inode: number | null): IndexHandle {
	const stats = statOrUndefined(paths.journal);
	let refresh: IndexRefresh = 'fresh';
	let rebuildReason: IndexHandle['rebuildReason'] = null;
	let applied = 0;
	if (options.forceRebuild || !statUnchanged(readWatermark(db), stats)) {
		db.transaction(() => {
			// Another process may have refreshed while we waited for the write lock.
			const mark = readWatermark(db);
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
	const mark = readWatermark(db);
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

	openedCache(db, 'index');
	return {db, refresh, rebuildReason, applied, corrupt, unterminatedTail, warnings, inMemory: inode === null, inode, close: () => db.close()};
}

/**
 * Opens the index read-only where it lies, for doctor, which promises to change nothing in the
 * knowledge base: no copy, no lock, no -wal or -shm file made (see openReadOnlyInPlace).
 * Undefined when there is no index.
 */
export function openIndexReadOnly(paths: KbPaths): Database | undefined {
	return existsSync(paths.index) ? openReadOnlyInPlace(paths.index) : undefined;
}
