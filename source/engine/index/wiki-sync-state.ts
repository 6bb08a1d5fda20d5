import {basename} from 'node:path';
import {parseStored, type Database} from '../../lib/sqlite.js';
import type {FileStamp} from '../upkeep/wiki-pages.js';
import type {Watermark} from './watermark.js';

/** What the last sync kept of a live page it read and planned: what a later sync needs to skip reading it again. */
export type SyncedPage = {
	readonly id: string;
	readonly title: string;
	/** Its place among the live pages in listing order: of two pages with one name, the later has it. */
	readonly ord: number;
	/** Its `related` entries and `[[links]]` that resolved to nothing, in the order sync reports them. */
	readonly unresolved: ReadonlyArray<{line: number; ref: string}>;
	/** Its `sources` that named no page and no node (each got a Source node instead). */
	readonly unresolvedSources: readonly string[];
};

/** A file the last sync listed: a live page, or a file conflict quarantine held (`page` null). */
export type SyncedFile = {
	readonly path: string;
	readonly sha256: string;
	/** Its stamp when read, once settled (else null: read it again next time). */
	readonly stamp: FileStamp | null;
	readonly page: SyncedPage | null;
};

/** The journal as a sync left it (once its own events were in) and the conflict patterns it used: meta `wiki_sync`. */
export type WikiSyncRecord = {
	readonly journal: Pick<Watermark, 'bytes' | 'nextLine' | 'head' | 'tail'>;
	readonly conflictPaths: readonly string[];
};

/**
 * What the last completed `wiki sync` saw: the record (meta `wiki_sync`) and a row of
 * wiki_sync_files for each file it listed, so a sync that changed one page rewrites one row.
 * Derived and optional: a rebuild clears it, and without it sync plans in full.
 */
export type WikiSyncState = WikiSyncRecord & {readonly files: ReadonlyMap<string, SyncedFile>};

/** Bumped whenever the record's shape changes: a record of another shape is not used. */
const version = 2;

/** A wiki_sync_files row as read: the stamp's four columns are all null when the file had no settled stamp. */
type FileRow = [path: string, sha256: string, size: number | null, mtimeMs: number, ctimeMs: number, ino: number, nodeId: string | null, title: string, ord: number, unresolved: string | null, unresolvedSources: string | null];

const none: readonly never[] = Object.freeze([]);

/**
 * The names a page is found by, lowercase: its id, its path and its file name without `.md`, its
 * title. A reference takes the id it names; else the last page in listing order whose path or
 * file name it names; else the last whose title.
 */
export function nameKeys(path: string, id: string, title: string): {id: string; path: string; name: string; title: string} {
	return {id: id.toLowerCase(), path: path.replace(/\.md$/i, '').toLowerCase(), name: basename(path).replace(/\.md$/i, '').toLowerCase(), title: title.toLowerCase()};
}

/** The record alone, without reading a row: enough to tell whether the files are worth reading. */
export function readWikiSyncRecord(db: Database): WikiSyncRecord | undefined {
	const value = db.prepare(`SELECT value FROM meta WHERE key = 'wiki_sync'`).pluck().get() as string | undefined;
	const record = value === undefined ? undefined : parseStored<{version?: number; journal: WikiSyncRecord['journal']; conflictPaths: string[]}>(value, 'index');
	return record?.version === version ? {journal: record.journal, conflictPaths: record.conflictPaths} : undefined;
}

export function readWikiSyncFiles(db: Database): Map<string, SyncedFile> {
	const files = new Map<string, SyncedFile>();
	const rows = db.prepare('SELECT path, sha256, size, mtime_ms, ctime_ms, ino, node_id, title, ord, unresolved, unresolved_sources FROM wiki_sync_files').raw().all() as FileRow[];
	// Indexed, not destructured: this runs once a file, mostly before the JIT has compiled it, where unpacking an array walks its iterator.
	for (let index = 0; index < rows.length; index++) {
		const row = rows[index]!;
		const size = row[2];
		const nodeId = row[6];
		const unresolved = row[9];
		const unresolvedSources = row[10];
		files.set(row[0], {
			path: row[0],
			sha256: row[1],
			stamp: size === null ? null : {size, mtimeMs: row[3], ctimeMs: row[4], ino: row[5]},
			page: nodeId === null ? null : {id: nodeId, title: row[7], ord: row[8], unresolved: unresolved === null ? none : parseStored<SyncedPage['unresolved']>(unresolved, 'index'), unresolvedSources: unresolvedSources === null ? none : parseStored<string[]>(unresolvedSources, 'index')},
		});
	}

	return files;
}

/** The page the last sync's record says a reference (lowercase) names, by the rule of nameKeys. */
export function recordedName(db: Database, key: string): string | undefined {
	for (const where of ['id_key = @key', 'path_key = @key OR name_key = @key', 'title_key = @key']) {
		const id = db.prepare(`SELECT node_id FROM wiki_sync_files WHERE ${where} ORDER BY ord DESC LIMIT 1`).pluck().get({key}) as string | undefined;
		if (id !== undefined) {
			return id;
		}
	}

	return undefined;
}

function saveRecord(db: Database, record: WikiSyncRecord): void {
	db.prepare(`INSERT OR REPLACE INTO meta (key, value) VALUES ('wiki_sync', ?)`).run(JSON.stringify({version, journal: record.journal, conflictPaths: record.conflictPaths}));
}

function saveFiles(db: Database, files: Iterable<SyncedFile>): void {
	const upsert = db.prepare('INSERT OR REPLACE INTO wiki_sync_files (path, sha256, size, mtime_ms, ctime_ms, ino, node_id, title, ord, id_key, path_key, name_key, title_key, unresolved, unresolved_sources) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
	for (const {path, sha256, stamp, page} of files) {
		const keys = page === null ? undefined : nameKeys(path, page.id, page.title);
		upsert.run(
			path,
			sha256,
			stamp?.size ?? null,
			stamp?.mtimeMs ?? null,
			stamp?.ctimeMs ?? null,
			stamp?.ino ?? null,
			page?.id ?? null,
			page?.title ?? null,
			page?.ord ?? null,
			keys?.id ?? null,
			keys?.path ?? null,
			keys?.name ?? null,
			keys?.title ?? null,
			page && page.unresolved.length > 0 ? JSON.stringify(page.unresolved) : null,
			page && page.unresolvedSources.length > 0 ? JSON.stringify(page.unresolvedSources) : null,
		);
	}
}

export const sameJournal = (a: WikiSyncRecord['journal'], b: WikiSyncRecord['journal']): boolean => a.bytes === b.bytes && a.nextLine === b.nextLine && a.head === b.head && a.tail === b.tail;

/**
 * Saves what a full sync saw, every file of it. Like every write here, its own write transaction,
 * called after the append (inside the plan's read transaction it could not wait for another process).
 */
export function replaceWikiSyncState(db: Database, record: WikiSyncRecord, files: readonly SyncedFile[]): void {
	db.transaction(() => {
		db.prepare('DELETE FROM wiki_sync_files').run();
		saveFiles(db, files);
		saveRecord(db, record);
	}).immediate();
}

/**
 * Saves what a sync that started from the record `from` changed: the record and the rows of the
 * files whose hash, stamp or page changed. When the record is no longer `from` (another sync
 * saved meanwhile) the rows may not fit it, so it is forgotten and the next sync plans in full.
 */
export function updateWikiSyncState(db: Database, from: WikiSyncRecord, record: WikiSyncRecord, changed: readonly SyncedFile[]): void {
	db.transaction(() => {
		const now = readWikiSyncRecord(db);
		if (now === undefined || !sameJournal(now.journal, from.journal) || JSON.stringify(now.conflictPaths) !== JSON.stringify(from.conflictPaths)) {
			forgetWikiSyncState(db);
			return;
		}

		saveFiles(db, changed);
		saveRecord(db, record);
	}).immediate();
}

/** Forgets the record (its rows mean nothing without it): the next sync plans in full. */
export function forgetWikiSyncState(db: Database): void {
	db.prepare(`DELETE FROM meta WHERE key = 'wiki_sync'`).run();
}
