import {closeSync, existsSync, openSync, readSync} from 'node:fs';
import {createRequire} from 'node:module';
import {pathToFileURL} from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import {pauseAt} from './test-pause.js';

export type Database = BetterSqlite3.Database;
export type Statement = BetterSqlite3.Statement;

type DatabaseConstructor = typeof BetterSqlite3;

/** The compiled addon, loaded on first use, or null when it is not where a normal install puts it. */
let addon: object | null | undefined;
let unbundled: DatabaseConstructor | undefined;

/**
 * better-sqlite3's JavaScript is bundled into this chunk (scripts/build.mjs): required from
 * node_modules it was thirteen CommonJS files to resolve and compile on every call that opens a
 * database (~4 ms). Its native addon loads on first use, here, so commands that never query skip
 * it, and from where a normal install puts it: left to itself better-sqlite3 finds it through
 * `bindings`, which probes a dozen candidate paths. When the file is not there, the package as
 * installed (unbundled, with its own search) opens databases instead.
 */
function nativeAddon(): object | null {
	if (addon === undefined) {
		// The addon reads this once, when it loads: `file:` URIs are how a database is opened
		// `immutable` (see openImmutable). Plain paths, all engi ever passes otherwise, are unaffected.
		process.env['SQLITE_USE_URI'] ??= '1';
		const require = createRequire(import.meta.url);
		let path: string | undefined;
		try {
			path = require.resolve('better-sqlite3/build/Release/better_sqlite3.node');
		} catch {
			addon = null;
		}

		if (path !== undefined) {
			addon = require(path) as object;
		}
	}

	return addon ?? null;
}

function openConnection(path: string, readonly: boolean, fileMustExist: boolean): Database {
	const binding = nativeAddon();
	if (binding) {
		// The addon object itself (better-sqlite3 takes one; its types know only a path).
		return new BetterSqlite3(path, {readonly, fileMustExist, nativeBinding: binding as never});
	}

	unbundled ??= createRequire(import.meta.url)('better-sqlite3') as DatabaseConstructor;
	return new unbundled(path, {readonly, fileMustExist});
}

export type OpenOptions = {readonly readonly?: boolean; readonly fileMustExist?: boolean};

/** Opens a database with the pragmas every engi cache uses: WAL, relaxed sync, a busy timeout. */
export function openDatabase(path: string, options: OpenOptions = {}): Database {
	if (!options.readonly && !options.fileMustExist && path !== ':memory:' && !existsSync(path)) {
		// SQLite creates a database 0644 and its -wal and -shm files with the database's mode:
		// created empty here first, owner-only, every engi cache stays that way.
		closeSync(openSync(path, 'a', 0o600));
	}

	const db = openConnection(path, options.readonly ?? false, options.fileMustExist ?? false);
	db.pragma(`busy_timeout = ${busyTimeoutMs}`);
	if (!options.readonly) {
		// Reading pages through a memory map avoids copying them into SQLite's page cache. Not for
		// another program's database read once (an agent's store): every page it maps stays in
		// this process's resident memory, a hundred megabytes for a large OpenCode store.
		db.pragma('mmap_size = 268435456');
	}

	if (!options.readonly && path !== ':memory:') {
		switchToWal(db);
		db.pragma('synchronous = NORMAL');
	}

	return db;
}

/** How long a connection waits for another's lock before SQLite gives up with SQLITE_BUSY. */
const busyTimeoutMs = 10_000;

/** What switchToWal sleeps on (Atomics.wait on a cell nobody changes: a synchronous sleep). */
const pauseCell = new Int32Array(new SharedArrayBuffer(4));

/**
 * Puts a database in WAL mode, waiting for another connection's write lock as busy_timeout
 * waits everywhere else. SQLite does not wait here: on a file not yet in WAL mode (a new cache,
 * created empty by openDatabase) the switch reads the header in a read transaction, then
 * upgrades it to write the header, and an upgrade that meets another writer fails at once with
 * SQLITE_BUSY ("database is locked"), busy handler or not: waiting while holding the read lock
 * could deadlock with that writer, which needs every reader gone to commit. So several
 * processes opening a new cache at once failed. Trying the whole pragma again (the failed one
 * released its read lock) is the wait SQLite leaves to us, and is safe: the switch is
 * idempotent, and once any process has made it, a retry finds the header written and writes
 * nothing. Bounded by the busy timeout, after which the SQLITE_BUSY stands.
 */
function switchToWal(db: Database): void {
	const deadline = Date.now() + busyTimeoutMs;
	for (let attempt = 0; ; attempt++) {
		try {
			db.pragma('journal_mode = WAL');
			return;
		} catch (error) {
			if (!isBusy(error) || Date.now() >= deadline) {
				throw error;
			}

			// A header write lasts a millisecond or so: retry soon, then less often.
			Atomics.wait(pauseCell, 0, 0, Math.min(2 ** attempt, 50));
		}
	}
}

/**
 * Opens a database file read-only as it stands, without taking locks or creating its -wal and
 * -shm files beside it (a read-only connection to a WAL database makes both, and cannot remove
 * them). Only for a file nothing is writing: the WAL, if any, is not read.
 */
export function openImmutable(path: string): Database {
	return openDatabase(`${pathToFileURL(path).href}?immutable=1`, {readonly: true, fileMustExist: true});
}

/** True when the file's header says WAL mode (bytes 18 and 19, the write and read versions, are 2). */
function isWalDatabase(path: string): boolean {
	const header = Buffer.alloc(20);
	const fd = openSync(path, 'r');
	try {
		return readSync(fd, header, 0, header.length, 0) === header.length && header[18] === 2 && header[19] === 2;
	} finally {
		closeSync(fd);
	}
}

/**
 * Opens a database another program owns (an agent's store, or a cache engi must not change)
 * read-only, leaving its directory exactly as it was. The cases, and why:
 * - Not in WAL mode: a plain read-only connection creates nothing (it reads a hot rollback
 *   journal, it never writes one) and shares the writer's locks, so it never sees a torn page.
 * - WAL mode with its -wal and -shm present: the owner has it open (or left it so). A read-only
 *   connection shares them and reads every committed row, the newest ones still in the WAL
 *   included; it creates nothing, and only marks the shared memory, as every reader does.
 * - WAL mode otherwise (the owner closed it cleanly, so no -wal; or a crash left a -wal
 *   without its -shm): a read-only connection would create the -wal and -shm beside the file
 *   and could not remove them. Opened immutable instead: nothing is created, and nothing is
 *   missed when there is no -wal. The frames of an orphaned -wal are not read until its owner
 *   recovers them; creating its -shm to read them would be writing into another program's store.
 * When a shared connection fails (a WAL only a writer can recover), the file is read as it is.
 */
export function openReadOnlyInPlace(path: string): Database {
	if (!isWalDatabase(path)) {
		return openDatabase(path, {readonly: true, fileMustExist: true});
	}

	if (existsSync(`${path}-wal`) && existsSync(`${path}-shm`)) {
		try {
			const db = openDatabase(path, {readonly: true, fileMustExist: true});
			db.prepare('SELECT 1 FROM sqlite_master LIMIT 1').get(); // Connections open lazily: fail here, not mid-read.
			return db;
		} catch {
			// A WAL left by a crashed writer needs a writer to recover it: read the file as it is.
		}
	}

	return openImmutable(path);
}

/**
 * One value of another program's database (the first column of the first row `sql` gives), read
 * in place (openReadOnlyInPlace) as a hint: its writer's lock is waited on only as long as a
 * commit takes, not the ten seconds a cache's connection waits. Undefined when the database
 * cannot be read (damaged, being rewritten, of another shape).
 */
export function peekValue(path: string, sql: string): unknown {
	try {
		const db = openReadOnlyInPlace(path);
		try {
			db.pragma(`busy_timeout = ${peekLockWaitMs}`);
			return db.prepare(sql).pluck().get();
		} finally {
			db.close();
		}
	} catch {
		return undefined;
	}
}

/** How long peekValue waits for the writer's lock: a commit's time (milliseconds). */
const peekLockWaitMs = 250;

/**
 * True when a connection openReadOnlyInPlace made immutable may no longer read its file right:
 * a -wal has appeared beside it, so its owner has opened it and may be writing. Reopen then.
 */
export function isOutdatedInPlace(db: Database, path: string): boolean {
	return db.name.endsWith('?immutable=1') && existsSync(`${path}-wal`);
}

function sqliteCode(error: unknown): string {
	return error && typeof error === 'object' && 'code' in error && typeof error.code === 'string' ? error.code : '';
}

/** An error SQLite raised (better-sqlite3's SqliteError, code SQLITE_*), as opposed to one of the file system. */
export function isSqliteError(error: unknown): boolean {
	return sqliteCode(error).startsWith('SQLITE_');
}

/**
 * The file is damaged or is not a database at all (better-sqlite3's SQLITE_CORRUPT*,
 * SQLITE_NOTADB*), or its header names a format this SQLite cannot read: damage there (a schema
 * format number past 4) is reported as SQLITE_ERROR "unsupported file format", not as corruption.
 */
export function isCorruptDatabase(error: unknown): boolean {
	const code = sqliteCode(error);
	return code.startsWith('SQLITE_CORRUPT') || code.startsWith('SQLITE_NOTADB') || (code === 'SQLITE_ERROR' && error instanceof Error && error.message === 'unsupported file format');
}

/**
 * Damage found in a cache's rows rather than by SQLite: raised under SQLite's code for
 * corruption, so whoever recovers a damaged cache (moves it aside or deletes it, and builds it
 * again) recovers from this too.
 */
export class CacheDamage extends Error {
	readonly code = 'SQLITE_CORRUPT';
	constructor(
		message: string,
		/** The cache whose rows are damaged. */
		readonly cache: CacheName,
	) {
		super(message);
	}
}

/** engi's two SQLite caches: the session catalog (user cache directory) and a knowledge base's index. */
export type CacheName = 'catalog' | 'index';

/**
 * A JSON value a cache stored. SQLite keeps no checksum of a row's contents, so bytes damaged in
 * the middle of a page read back as text that no longer parses, with no SQLite error: that is
 * the file's damage, not a bug, and is reported as such (CacheDamage).
 */
export function parseStored<T>(text: string, cache: CacheName): T {
	try {
		return JSON.parse(text) as T;
	} catch (error) {
		throw new CacheDamage(`a stored value does not parse (${error instanceof Error ? error.message.slice(0, 60) : 'error'})`, cache);
	}
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

/** Another connection kept the lock past the busy timeout: the file is fine, only held. */
export function isBusy(error: unknown): boolean {
	return sqliteCode(error).startsWith('SQLITE_BUSY');
}

/**
 * Runs `write` in an immediate transaction without waiting for another connection's lock: for
 * writes that only spare later calls work (a remembered listing, a kept answer). A lock held
 * elsewhere, or a database that cannot be written, leaves it undone; any other error is thrown.
 */
export function writeUnlessHeld(db: Database, write: () => void): void {
	const timeout = db.pragma('busy_timeout', {simple: true}) as number;
	try {
		db.pragma('busy_timeout = 0');
		db.transaction(write).immediate();
	} catch (error) {
		if (!isBusy(error) && !cannotWrite(error)) {
			throw error;
		}
	} finally {
		db.pragma(`busy_timeout = ${timeout}`);
	}
}

export type Migration = {readonly version: number; readonly up: (db: Database) => void};

/**
 * Brings a derived cache to the current schema. These databases hold nothing that cannot be
 * rebuilt, so a version we do not know (older or newer) is simply dropped (every table) and
 * recreated. `env` is for the fault tests: ENGI_TEST_PAUSE_AT=migrate.before_lock stops the
 * process after it read the version and before it takes the write lock.
 */
export function migrate(db: Database, migrations: readonly Migration[], env: Readonly<Record<string, string | undefined>> = {}): {recreated: boolean} {
	const target = migrations.at(-1)?.version ?? 0;
	const current = schemaVersion(db);
	if (current === target) {
		return {recreated: false};
	}

	pauseAt(env, 'migrate.before_lock');
	// Dropping a table visits every page of it: through the memory map, an old catalog of 400 MB
	// counted toward the process's RSS (338 MB at the peak of an upgraded L build, 203 MB for a
	// new one). Read through SQLite's page cache instead while the old schema goes.
	const mapped = db.pragma('mmap_size', {simple: true}) as number;
	if (mapped > 0) {
		db.pragma('mmap_size = 0');
	}

	try {
		return recreate(db, migrations, target);
	} finally {
		if (mapped > 0) {
			db.pragma(`mmap_size = ${mapped}`);
		}
	}
}

/** Drops the tables of another schema and creates this one's, under the write lock (see migrate). */
function recreate(db: Database, migrations: readonly Migration[], target: number): {recreated: boolean} {
	let recreated = false;
	db.transaction(() => {
		// Read again under the write lock: a cache opened cold by several processes at once is
		// migrated by the first to get the lock, and may be filled by it before the next gets it.
		// Dropping the tables then would empty them under that process's reads.
		const locked = schemaVersion(db);
		if (locked === target) {
			return;
		}

		dropAllTables(db);
		for (const migration of migrations) {
			migration.up(db);
		}

		db.pragma(`user_version = ${target}`);
		recreated = locked !== 0;
	}).immediate();
	if (recreated) {
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

	return {recreated};
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

const prepared = new WeakMap<Database, Map<string, Statement>>();

/**
 * A statement prepared once per open database and kept while it is open: for lookups a call
 * makes hundreds or thousands of times (a ranked query, a wiki sync), where preparing costs more
 * than the lookup. Give each mode its own SQL: a kept statement keeps `pluck` or `raw` once set.
 */
export function preparedOnce(db: Database, sql: string): Statement {
	let statements = prepared.get(db);
	if (!statements) {
		statements = new Map();
		prepared.set(db, statements);
	}

	let statement = statements.get(sql);
	if (!statement) {
		statement = db.prepare(sql);
		statements.set(sql, statement);
	}

	return statement;
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
