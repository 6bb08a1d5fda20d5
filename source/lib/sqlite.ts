import {closeSync, existsSync, openSync} from 'node:fs';
import {createRequire} from 'node:module';
import {pathToFileURL} from 'node:url';
import type BetterSqlite3 from 'better-sqlite3';

export type Database = BetterSqlite3.Database;
export type Statement = BetterSqlite3.Statement;

type DatabaseConstructor = typeof BetterSqlite3;

let constructor: DatabaseConstructor | undefined;
let addonPath: string | null | undefined;

/** better-sqlite3 is a native addon; load it on first use so commands that never query skip it. */
export function sqlite(): DatabaseConstructor {
	// The addon reads this once, when it loads: `file:` URIs are how a database is opened
	// `immutable` (see openImmutable). Plain paths, all engi ever passes otherwise, are unaffected.
	process.env['SQLITE_USE_URI'] ??= '1';
	constructor ??= createRequire(import.meta.url)('better-sqlite3') as DatabaseConstructor;
	return constructor;
}

/**
 * Where the compiled addon is. Left to itself better-sqlite3 finds it through `bindings`, which
 * probes a dozen candidate paths on every process start; when the file is not where a normal
 * install puts it, null lets that search run after all.
 */
function nativeAddonPath(): string | null {
	if (addonPath === undefined) {
		try {
			addonPath = createRequire(import.meta.url).resolve('better-sqlite3/build/Release/better_sqlite3.node');
		} catch {
			addonPath = null;
		}
	}

	return addonPath;
}

export type OpenOptions = {readonly readonly?: boolean; readonly fileMustExist?: boolean};

/** Opens a database with the pragmas every engi cache uses: WAL, relaxed sync, a busy timeout. */
export function openDatabase(path: string, options: OpenOptions = {}): Database {
	if (!options.readonly && !options.fileMustExist && path !== ':memory:' && !existsSync(path)) {
		// SQLite creates a database 0644 and its -wal and -shm files with the database's mode:
		// created empty here first, owner-only, every engi cache stays that way.
		closeSync(openSync(path, 'a', 0o600));
	}

	const Database = sqlite();
	const binding = nativeAddonPath();
	const db = new Database(path, {readonly: options.readonly ?? false, fileMustExist: options.fileMustExist ?? false, ...(binding ? {nativeBinding: binding} : {})});
	db.pragma('busy_timeout = 10000');
	// Reading pages through a memory map avoids copying them into SQLite's page cache.
	db.pragma('mmap_size = 268435456');
	if (!options.readonly && path !== ':memory:') {
		db.pragma('journal_mode = WAL');
		db.pragma('synchronous = NORMAL');
	}

	return db;
}

/**
 * Opens a database file read-only as it stands, without taking locks or creating its -wal and
 * -shm files beside it (a read-only connection to a WAL database makes both, and cannot remove
 * them). Only for a file nothing is writing: the WAL, if any, is not read.
 */
export function openImmutable(path: string): Database {
	return openDatabase(`${pathToFileURL(path).href}?immutable=1`, {readonly: true, fileMustExist: true});
}

function sqliteCode(error: unknown): string {
	return error && typeof error === 'object' && 'code' in error && typeof error.code === 'string' ? error.code : '';
}

/** An error SQLite raised (better-sqlite3's SqliteError, code SQLITE_*), as opposed to one of the file system. */
export function isSqliteError(error: unknown): boolean {
	return sqliteCode(error).startsWith('SQLITE_');
}

/** The file is damaged or is not a database at all (better-sqlite3's SQLITE_CORRUPT*, SQLITE_NOTADB*). */
export function isCorruptDatabase(error: unknown): boolean {
	const code = sqliteCode(error);
	return code.startsWith('SQLITE_CORRUPT') || code.startsWith('SQLITE_NOTADB');
}

const unwritableCodes = new Set(['SQLITE_FULL', 'SQLITE_PERM', 'SQLITE_AUTH', 'EACCES', 'EROFS', 'EPERM', 'ENOSPC', 'EDQUOT']);

/**
 * A cache cannot be written where it lives: a read-only or full file system, no permission, or
 * an I/O error while writing. A caller may then keep the cache in memory for one call.
 */
export function cannotWrite(error: unknown): boolean {
	const code = sqliteCode(error);
	return unwritableCodes.has(code) || code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_IOERR');
}

export type Migration = {readonly version: number; readonly up: (db: Database) => void};

/**
 * Brings a derived cache to the current schema. These databases hold nothing that cannot be
 * rebuilt, so a version we do not know (older or newer) is simply dropped (every table) and
 * recreated.
 */
export function migrate(db: Database, migrations: readonly Migration[]): {recreated: boolean} {
	const target = migrations.at(-1)?.version ?? 0;
	const current = schemaVersion(db);
	if (current === target) {
		return {recreated: false};
	}

	db.transaction(() => {
		dropAllTables(db);
		for (const migration of migrations) {
			migration.up(db);
		}

		db.pragma(`user_version = ${target}`);
	}).immediate();
	if (current !== 0) {
		// The old tables' pages are free now; without this the file keeps its old size and the new
		// rows are scattered across it. Cheap here, with the tables still empty; only tidiness, so
		// if another process is using the file it is left as it is, without waiting.
		const timeout = db.pragma('busy_timeout', {simple: true}) as number;
		try {
			db.pragma('busy_timeout = 0');
			db.exec('VACUUM');
		} catch {
		} finally {
			db.pragma(`busy_timeout = ${timeout}`);
		}
	}

	return {recreated: current !== 0};
}

/** The schema version a database says it has (`user_version`; 0 for a new file). */
export function schemaVersion(db: Database): number {
	return db.pragma('user_version', {simple: true}) as number;
}

/** Drops every table, virtual (full-text) tables first so their shadow tables go with them. */
export function dropAllTables(db: Database): void {
	const list = (virtual: boolean) =>
		db
			.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND (sql LIKE 'CREATE VIRTUAL%') = ?`)
			.pluck()
			.all(virtual ? 1 : 0) as string[];
	for (const table of [...list(true), ...list(false)]) {
		db.exec(`DROP TABLE IF EXISTS "${table}"`);
	}
}

/**
 * What SQLite's integrity check finds, at most `limit` problems, or `['ok']`. One row may hold
 * several lines under a "*** in database main ***" banner; each line is one problem.
 */
export function integrityProblems(db: Database, limit: number): string[] {
	return (db.pragma(`integrity_check(${limit})`) as Array<{integrity_check: string}>)
		.flatMap(row => row.integrity_check.split('\n'))
		.map(line => line.trim())
		.filter(line => line !== '' && !line.startsWith('***'));
}

/**
 * A vocabulary lookup over an FTS5 table's terms, through an fts5vocab view created on the first
 * lookup: only Han text is looked up, so a Latin query never pays for it.
 */
export function vocabularyOf(db: Database, table: string): (word: string) => boolean {
	let lookup: Statement | undefined;
	return word => {
		if (!lookup) {
			db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${table}_vocab USING fts5vocab(main, '${table}', 'row')`);
			lookup = db.prepare(`SELECT 1 FROM temp.${table}_vocab WHERE term = ?`).pluck();
		}

		return lookup.get(word) !== undefined;
	};
}
