import {dirname, join} from 'node:path';
import {md5Hex} from '../../lib/hash.js';
import {openReadOnlyInPlace, type Database, type Statement} from '../../lib/sqlite.js';
import {epochIso} from '../shared/epoch.js';
import {statOrUndefined} from '../shared/fs.js';

/**
 * The Cursor editor keeps each agent chat ("composer") in its global state database,
 * `<User>/globalStorage/state.vscdb`: table `cursorDiskKV`, key `composerData:<composerId>`, a JSON
 * value (text, or the same bytes as a blob; NULL for a chat it dropped) with `name` and
 * `createdAt` (ms) among many fields. The editor's agent transcript is named by that same id and
 * no `~/.cursor/chats` store is written for it, so this row is where its title and start are.
 * Only those two fields are read, by SQLite itself, never the whole value (an older chat holds
 * its whole conversation there).
 */
export type ComposerFacts = {title?: string; started?: string};

/** Where each platform keeps the editor's `User` directory, relative to the home `~/.cursor` sits in. */
const userDirectories = [
	['.config', 'Cursor', 'User'],
	['Library', 'Application Support', 'Cursor', 'User'],
	['AppData', 'Roaming', 'Cursor', 'User'],
];

/** The editor's global state database beside a Cursor home (`~/.cursor`), if there is one. */
export function globalStateDatabase(cursorHome: string): string | undefined {
	const userHome = dirname(cursorHome);
	return userDirectories.map(parts => join(userHome, ...parts, 'globalStorage', 'state.vscdb')).find(path => statOrUndefined(path)?.isFile() === true);
}

/** A short mark of what the row gave, for the unit's fingerprint: a rename means a re-read, and no title is copied into it. */
export function composerMark(facts: ComposerFacts): string | undefined {
	return facts.title === undefined && facts.started === undefined ? undefined : `composer:${md5Hex(`${facts.title ?? ''}\n${facts.started ?? ''}`).slice(0, 12)}`;
}

/**
 * Looks chats up in one database, opened on the first look-up and closed by `close`. A database
 * that cannot be opened, or lacks the table, names nothing; a row whose value is not JSON names
 * nothing either.
 */
export function composerLookup(database: string): {facts(id: string): ComposerFacts; close(): void} {
	let db: Database | undefined;
	let query: Statement | undefined | null;
	const statement = (): Statement | null => {
		if (query === undefined) {
			try {
				db = openReadOnlyInPlace(database); // The editor's own file: nothing is created beside it.
				query = db.prepare("SELECT json_extract(CAST(value AS TEXT), '$.name'), json_extract(CAST(value AS TEXT), '$.createdAt') FROM cursorDiskKV WHERE key = ?").raw();
			} catch {
				query = null;
			}
		}

		return query;
	};

	return {
		facts(id) {
			let row: unknown;
			try {
				row = statement()?.get(`composerData:${id}`);
			} catch {
				return {}; // Not JSON: json_extract refuses it.
			}

			if (!Array.isArray(row)) {
				return {};
			}

			const name = typeof row[0] === 'string' ? row[0].trim() : '';
			const started = epochIso(row[1]);
			return {...(name === '' ? {} : {title: name}), ...(started === undefined ? {} : {started})};
		},
		close() {
			db?.close();
		},
	};
}
