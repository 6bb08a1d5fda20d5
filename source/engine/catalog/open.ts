import {chmodSync, mkdirSync} from 'node:fs';
import {join} from 'node:path';
import type {Deps} from '../deps.js';
import {systemErrorCode} from '../errors.js';
import {cacheDirectory} from '../kb/paths.js';
import {dropAllTables} from '../index/schema.js';
import {migrate, openDatabase, type Database} from '../util/sqlite.js';
import {catalogMigrations} from './schema.js';

export type CatalogHandle = {readonly db: Database; readonly path: string | null; readonly warnings: string[]};

/**
 * Opens the session catalog in the user's cache directory. A cache that cannot be written (a
 * read-only home, a full disk) degrades to an in-memory catalog for this call, with a warning.
 */
export function openCatalog(deps: Deps): CatalogHandle {
	const directory = cacheDirectory(deps);
	const path = join(directory, 'catalog.sqlite');
	try {
		// The catalog holds titles and a word index of private transcripts: owner-only.
		mkdirSync(directory, {recursive: true, mode: 0o700});
		const db = openDatabase(path);
		chmodSync(path, 0o600);
		migrate(db, catalogMigrations, dropAllTables);
		return {db, path, warnings: []};
	} catch (error) {
		const db = openDatabase(':memory:');
		migrate(db, catalogMigrations, dropAllTables);
		return {db, path: null, warnings: [`catalog_unwritable: ${path} could not be used (${systemErrorCode(error) ?? 'error'}); this call read every session from scratch`]};
	}
}
