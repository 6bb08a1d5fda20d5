import {dirname, join} from 'node:path';
import {md5Hex} from '../../lib/hash.js';
import {openReadOnlyInPlace, type Database, type Statement} from '../../lib/sqlite.js';
import {readWorkspaceFolder} from '../shared/code-workspace.js';
import {epochIso} from '../shared/epoch.js';
import {filesStamp, statOrUndefined} from '../shared/fs.js';
import {editorUserDirectoryOf} from './paths.js';

/**
 * The Cursor editor keeps each agent chat ("composer") in its global state database,
 * `<User>/globalStorage/state.vscdb`: table `cursorDiskKV`, key `composerData:<composerId>`, a JSON
 * value (text, or the same bytes as a blob; NULL for a chat it dropped) with `name` and
 * `createdAt` (ms) among many fields. The editor's agent transcript is named by that same id and
 * no `~/.cursor/chats` store is written for it, so this row is where its title, start and model
 * (`modelConfig.modelName`) are. Only those fields are read, by SQLite itself, never the whole value (an older chat holds
 * its whole conversation there); newer databases' composerHeaders table adds the workspace and
 * whether the chat was archived.
 */
export type ComposerFacts = {title?: string; started?: string; cwd?: string; model?: string};

/** The modelName of a chat left to Cursor's Auto: no model's name. */
const autoModel = 'default';

/** Where each platform keeps the editor's `User` directory, relative to the home `~/.cursor` sits in. */
const userDirectories = [
	['.config', 'Cursor', 'User'],
	['Library', 'Application Support', 'Cursor', 'User'],
	['AppData', 'Roaming', 'Cursor', 'User'],
];

/**
 * The editor's global state database of a Cursor home (`~/.cursor`), if there is one: in the
 * `User` directory the machine's environment places (paths.ts), else in one beside the home.
 */
export function globalStateDatabase(cursorHome: string): string | undefined {
	const userHome = dirname(cursorHome);
	const placed = editorUserDirectoryOf(cursorHome);
	const candidates = [...(placed === undefined ? [] : [placed]), ...userDirectories.map(parts => join(userHome, ...parts))];
	return candidates.map(user => join(user, 'globalStorage', 'state.vscdb')).find(path => statOrUndefined(path)?.isFile() === true);
}

/** A short mark of what the database gave, for the unit's fingerprint: a change means a re-read, and nothing private is copied into it. */
export function composerMark(facts: ComposerFacts): string | undefined {
	const {title, started, cwd, model} = facts;
	return title === undefined && started === undefined && cwd === undefined && model === undefined ? undefined : `composer:${md5Hex(`${title ?? ''}\n${started ?? ''}\n${cwd ?? ''}\n${model ?? ''}`).slice(0, 12)}`;
}

/**
 * Newer editors (3.x) also index chats in table `composerHeaders(composerId, workspaceId,
 * createdAt, …)`: `workspaceId` names the window's `<User>/workspaceStorage/<workspaceId>/`, whose
 * `workspace.json` (`{"folder": "file:///…"}`) is the chat's workspace itself, where the project
 * slug only spells it lossily. Older databases have no such table.
 */
const headerQuery = 'SELECT workspaceId, createdAt FROM composerHeaders WHERE composerId = ?';

/**
 * The chat's head, composerHeaders.value: JSON `{"type": "head", name, workspaceIdentifier: {uri:
 * {fsPath, scheme, …}}, isArchived, …}`, the chat's name and its workspace as a VS Code URI. Its
 * own statement, so a head that is not JSON (or a table without the column) loses only these.
 */
const headQuery = "SELECT json_extract(value, '$.name'), json_extract(value, '$.workspaceIdentifier.uri.fsPath'), json_extract(value, '$.workspaceIdentifier.uri.scheme') FROM composerHeaders WHERE composerId = ? AND json_valid(value)";
// modelConfig.modelName: the model the chat runs on (`{modelName, maxMode, selectedModels?}`);
// only a string, as json_extract would give an object's JSON text.
const dataQuery =
	"SELECT json_extract(CAST(value AS TEXT), '$.name'), json_extract(CAST(value AS TEXT), '$.createdAt'), CASE json_type(CAST(value AS TEXT), '$.modelConfig.modelName') WHEN 'text' THEN json_extract(CAST(value AS TEXT), '$.modelConfig.modelName') END FROM cursorDiskKV WHERE key = ?";

/** A statement's one row as an array, or undefined where the query fails (a value that is not JSON). */
function rowOf(statement: Statement | null, key: string): unknown[] | undefined {
	try {
		const row: unknown = statement?.get(key);
		return Array.isArray(row) ? row : undefined;
	} catch {
		return undefined;
	}
}

/** The folder a workspace storage directory's `workspace.json` names (or the one its `.code-workspace` file lists), if a local one. */
function workspaceFolder(userDirectory: string, workspaceId: unknown): string | undefined {
	if (typeof workspaceId !== 'string' || !/^[\w.-]{1,128}$/.test(workspaceId) || /^\.+$/.test(workspaceId)) {
		return undefined; // Never a path of its own: only a directory name under workspaceStorage.
	}

	return readWorkspaceFolder(join(userDirectory, 'workspaceStorage', workspaceId, 'workspace.json'));
}

/** An absolute local path, POSIX or Windows. */
const absolutePath = /^(?:\/|[A-Za-z]:[\\/])/;

/** The head's workspace where it is a local folder (scheme `file`, or none stated); a remote one is no path here. */
function headWorkspace(fsPath: unknown, scheme: unknown): string | undefined {
	const local = scheme === undefined || scheme === null || scheme === 'file';
	return local && typeof fsPath === 'string' && absolutePath.test(fsPath) ? fsPath : undefined;
}

/**
 * The chats the person archived in the editor (composerHeaders.isArchived): one small query, made
 * when the database changed. None where the database or the table cannot be read.
 */
export function archivedComposerIds(database: string): string[] {
	try {
		const db = openReadOnlyInPlace(database);
		try {
			const ids: unknown[] = db.prepare('SELECT composerId FROM composerHeaders WHERE isArchived = 1 LIMIT 100000').pluck().all();
			return ids.filter((id): id is string => typeof id === 'string');
		} finally {
			db.close();
		}
	} catch {
		return [];
	}
}

/** The database's stamp: the file and its WAL, where the editor's recent commits wait; a status each, no read. */
export function globalStateStamp(database: string): string {
	return filesStamp([database, `${database}-wal`]);
}

/**
 * Looks chats up in one database, opened on the first look-up and closed by `close`. A database
 * that cannot be opened, or lacks a table, names nothing from it; a row whose value is not JSON
 * names nothing either.
 */
export function composerLookup(database: string): {facts(id: string): ComposerFacts; close(): void} {
	let db: Database | undefined;
	const prepared = new Map<string, Statement | null>();
	const statement = (sql: string): Statement | null => {
		if (!prepared.has(sql)) {
			try {
				db ??= openReadOnlyInPlace(database); // The editor's own file: nothing is created beside it.
				prepared.set(sql, db.prepare(sql).raw());
			} catch {
				prepared.set(sql, null);
			}
		}

		return prepared.get(sql) ?? null;
	};

	// Many chats share a window: its workspace.json is read once a look-up.
	const folders = new Map<unknown, string | undefined>();
	const folderOf = (workspaceId: unknown) => {
		if (!folders.has(workspaceId)) {
			folders.set(workspaceId, workspaceFolder(dirname(dirname(database)), workspaceId));
		}

		return folders.get(workspaceId);
	};

	return {
		facts(id) {
			const data = rowOf(statement(dataQuery), `composerData:${id}`) ?? [];
			const header = rowOf(statement(headerQuery), id) ?? [];
			// The head is asked only where the document and the window leave the name or the workspace unsaid.
			let name = typeof data[0] === 'string' ? data[0].trim() : '';
			const started = epochIso(data[1]) ?? epochIso(header[1]);
			let cwd = folderOf(header[0]);
			if (name === '' || cwd === undefined) {
				const head = rowOf(statement(headQuery), id) ?? [];
				name ||= typeof head[0] === 'string' ? head[0].trim() : '';
				cwd ??= headWorkspace(head[1], head[2]);
			}

			const model = typeof data[2] === 'string' ? data[2].trim() : '';
			return {...(name === '' ? {} : {title: name}), ...(started === undefined ? {} : {started}), ...(cwd === undefined ? {} : {cwd}), ...(model === '' || model === autoModel ? {} : {model})};
		},
		close() {
			db?.close();
		},
	};
}
