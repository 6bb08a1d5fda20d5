import {chmodSync, mkdirSync, rmSync} from 'node:fs';
import {join} from 'node:path';
import {openedCache} from '../cache-damage.js';
import {noteCacheWarning} from '../cache-notices.js';
import type {Deps} from '../deps.js';
import {systemErrorCode} from '../../lib/errors.js';
import {cacheDirectory} from '../kb/paths.js';
import {isBusy, isCorruptDatabase, migrate, openDatabase, type Database} from '../../lib/sqlite.js';
import {catalogMigrations} from './schema.js';

export type CatalogHandle = {readonly db: Database; readonly path: string | null; readonly warnings: string[]};

/** Where the session catalog lives: the user's cache directory, outside every knowledge base. */
export const catalogPath = (deps: Deps) => join(cacheDirectory(deps), 'catalog.sqlite');

/** Deletes the catalog and the files SQLite keeps beside it (its -wal belongs to it and must not be replayed into a new one). */
export function deleteCatalog(deps: Deps): void {
	for (const suffix of ['', '-wal', '-shm']) {
		rmSync(`${catalogPath(deps)}${suffix}`, {force: true});
	}
}

/**
 * Opens the session catalog in the user's cache directory. A catalog that is not a database
 * (truncated, overwritten) is built again from scratch; a cache that cannot be written (a
 * read-only home, a full disk) degrades to an in-memory catalog for this call, with a warning.
 */
export function openCatalog(deps: Deps): CatalogHandle {
	try {
		return openOnDisk(deps, []);
	} catch (error) {
		return isCorruptDatabase(error) ? replaceDamagedCatalog(deps, error) : inMemoryCatalog(deps, error, []);
	}
}

function openOnDisk(deps: Deps, warnings: string[]): CatalogHandle {
	const path = catalogPath(deps);
	// The catalog holds titles and a word index of private transcripts: owner-only.
	mkdirSync(cacheDirectory(deps), {recursive: true, mode: 0o700});
	const db = openDatabase(path);
	try {
		// No fsync at WAL checkpoints either: the catalog is rebuilt from the stores when a power
		// loss leaves it damaged (replaceDamagedCatalog), and a killed process loses nothing the
		// kernel was given. A cold scan checkpoints a hundred megabytes.
		db.pragma('synchronous = OFF');
		chmodSync(path, 0o600);
		migrate(db, catalogMigrations, deps.env);
		openedCache(db, 'catalog');
		return {db, path, warnings};
	} catch (error) {
		db.close();
		throw error;
	}
}

/**
 * The catalog was found damaged (on opening it, or on reading a bad page): delete it and start
 * a new one. It holds nothing the stores cannot give again, and a damaged word index of private
 * transcripts is better gone than kept aside.
 */
export function replaceDamagedCatalog(deps: Deps, damage: unknown): CatalogHandle {
	const path = catalogPath(deps);
	const warning = `catalog_corrupt: ${path} was damaged (${systemErrorCode(damage) ?? 'error'}); deleted it and read every session again`;
	noteCacheWarning(warning);
	try {
		deleteCatalog(deps);
		return openOnDisk(deps, [warning]);
	} catch (error) {
		return inMemoryCatalog(deps, error, [warning]);
	}
}

/**
 * A catalog for this call only, when the one on disk cannot be used: it cannot be written, or
 * another process kept it locked past the busy timeout (a long refresh; nothing is wrong with it).
 */
export function inMemoryCatalog(deps: Deps, error: unknown, warnings: readonly string[]): CatalogHandle {
	const db = openDatabase(':memory:');
	migrate(db, catalogMigrations);
	openedCache(db, 'catalog');
	const code = systemErrorCode(error) ?? 'error';
	const warning = isBusy(error)
		? `catalog_busy: ${catalogPath(deps)} stayed locked by another process (${code}); this call read every session from scratch`
		: `catalog_unwritable: ${catalogPath(deps)} could not be used (${code}); this call read every session from scratch`;
	return {db, path: null, warnings: [...warnings, warning]};
}
