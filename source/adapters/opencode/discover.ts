import {join} from 'node:path';
import {fileFingerprint, listDirectory, statOrUndefined, stem} from '../shared/fs.js';
import type {DiscoveredUnit, DiscoveryMemo} from '../types.js';
import {archivedAt, listSessions, withDatabase, type SessionListing} from './database.js';
import {databasesIn, isDatabaseFile, isStorageDirectory, projectStorageDirectories} from './paths.js';
import {opencodeSessionSchema, otherSession, type OpencodeSession} from './schema.js';
import {jsonFilesIn, messageDirectoryOf, partDirectoryOf, readJsonFile} from './storage.js';
import {sha256Hex} from '../../lib/hash.js';

/**
 * Lists OpenCode sessions under a root: a database file, a legacy `storage/` tree, or the data
 * directory holding both. OpenCode migrates the JSON tree into the database on first run and
 * leaves the tree behind, so a session found in both is one session: the database unit wins.
 */
export function discoverOpencode(root: string, memo?: DiscoveryMemo): DiscoveredUnit[] {
	if (isDatabaseFile(root)) {
		return databaseUnits(root, memo);
	}

	if (isStorageDirectory(root)) {
		return storageUnits(root);
	}

	const units: DiscoveredUnit[] = [];
	const seen = new Set<string>();
	const keep = (unit: DiscoveredUnit) => {
		if (unit.idHint !== undefined) {
			if (seen.has(unit.idHint)) {
				return;
			}

			seen.add(unit.idHint);
		}

		units.push(unit);
	};

	for (const database of databasesIn(root)) {
		databaseUnits(database, memo).forEach(keep);
	}

	const storage = join(root, 'storage');
	if (isStorageDirectory(storage)) {
		storageUnits(storage).forEach(keep);
	}

	// Last: the shared tree holds what the migration copied out of these older per-project trees.
	for (const projectStorage of projectStorageDirectories(root)) {
		storageUnits(projectStorage).forEach(keep);
	}

	return units;
}

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * One unit per session row. A database that cannot be opened or queried becomes one unit
 * without a session id, so reading it reports the damage instead of the sessions vanishing.
 */
function databaseUnits(path: string, memo?: DiscoveryMemo): DiscoveredUnit[] {
	const stats = statOrUndefined(path);
	if (!stats?.isFile()) {
		return [];
	}

	// Any write to the database changes the main file or its write-ahead log, so while neither
	// changed the per-session stamps (a grouped query over every message) cannot have either.
	const wal = statOrUndefined(`${path}-wal`);
	// Modification times at full precision; not ctime, which a reader's open alone bumps on the log.
	const exact = (file: typeof stats) => `${file.ino}:${file.size}:${file.mtimeMs}`;
	const stamp = `${exact(stats)}|${wal ? exact(wal) : '-'}`;
	const remembered = memo?.get(path, stamp);
	const listed = isListedSessions(remembered) ? remembered : listDatabaseSessions(path, stats);
	if (listed !== remembered) {
		memo?.set(path, stamp, listed);
	}

	if (listed.sessions === null) {
		return [{key: path, path, paths: [path], variant: 'db', size: stats.size, mtimeMs: stats.mtimeMs, fingerprint: fileFingerprint(stats)}];
	}

	return listed.sessions.map(([id, parent, directory, updated, sessionStamp, archived]) => {
		// Hints set one by one, not spread in: at 1,500 sessions this runs on every call.
		const unit: {-readonly [K in keyof DiscoveredUnit]: DiscoveredUnit[K]} = {
			key: `${path}#${id}`,
			path,
			// The database holds every session; it is never this unit's alone to remove.
			paths: [path],
			idHint: id,
			variant: 'db',
			// Measuring a session's bytes would read all of its rows; discovery must stay cheap.
			size: 0,
			mtimeMs: updated,
			fingerprint: `db:${sessionStamp}`,
		};
		if (parent !== null) {
			unit.parentIdHint = parent;
		}

		if (directory !== null) {
			unit.projectHint = directory;
		}

		if (archived === 1) {
			unit.archived = true;
		}

		return unit;
	});
}

/**
 * What the memo keeps of a database's listing, under the stamp of its files: each session's id,
 * parent, directory, last update, own stamp and whether it is archived (1, else 0; the rest of its
 * unit is the database's), or null when the database could not be listed. Compact, because a warm
 * call reads it back whole: kept as whole units, 1,500 sessions were 700 KB of JSON to parse on
 * every call.
 */
type ListedSessions = {readonly sessions: Array<[id: string, parent: string | null, directory: string | null, updated: number, stamp: string, archived: 0 | 1]> | null};

const isListedSessions = (value: unknown): value is ListedSessions =>
	typeof value === 'object' && value !== null && 'sessions' in value && (value.sessions === null || Array.isArray(value.sessions));

function listDatabaseSessions(path: string, stats: NonNullable<ReturnType<typeof statOrUndefined>>): ListedSessions {
	let listings: SessionListing[];
	try {
		listings = withDatabase(path, listSessions);
	} catch {
		return {sessions: null};
	}

	return {
		sessions: listings.map(({row, stamp}) => {
			const updated = typeof row['time_updated'] === 'number' ? row['time_updated'] : stats.mtimeMs;
			const id = String(row['id']);
			// A 2.x fork names the session it was copied from in `fork_session_id`, not `parent_id`.
			return [id, otherSession(id, text(row['parent_id']) ?? text(row['fork_session_id'])) ?? null, text(row['directory']) ?? null, updated, stamp, archivedAt(row) === undefined ? 0 : 1];
		}),
	};
}

/** Session files are tiny (id, directory, parent, title); reading them is how the layout states those facts. */
const maxSessionFileBytes = 64 * 1024;

function readSessionFacts(path: string, size: number): OpencodeSession | undefined {
	if (size > maxSessionFileBytes) {
		return undefined;
	}

	const parsed = opencodeSessionSchema.safeParse(readJsonFile(path));
	return parsed.success ? parsed.data : undefined;
}

/**
 * The per-project tree's `session/share/<sessionID>.json` (session/index.ts `share`): a shared
 * session's link and secret, a sibling of its `session/info/` file. No project is named so (a
 * project id is a commit hash or `global`), so the directory holds no sessions.
 */
const shareDirectory = 'share';

function storageUnits(storage: string): DiscoveredUnit[] {
	const units: DiscoveredUnit[] = [];
	for (const project of listDirectory(join(storage, 'session'))) {
		if (!project.isDirectory() || project.name === shareDirectory) {
			continue;
		}

		for (const file of jsonFilesIn(join(storage, 'session', project.name))) {
			const unit = storageUnit(storage, file);
			if (unit) {
				units.push(unit);
			}
		}
	}

	return units;
}

/**
 * A storage session spans many files: its fingerprint folds the size and mtime of the session
 * file, every message file and every part file, so any rewrite shows.
 */
function storageUnit(storage: string, file: string): DiscoveredUnit | undefined {
	const stats = statOrUndefined(file);
	if (!stats?.isFile()) {
		return undefined;
	}

	const session = readSessionFacts(file, stats.size);
	const id = session?.id ?? stem(file, '.json');
	const parent = otherSession(id, session?.parentID ?? session?.parent_id ?? undefined);
	const files = [file];
	const messages = messageDirectoryOf(storage, file, id);
	for (const message of messages ? jsonFilesIn(messages) : []) {
		files.push(message);
		const parts = partDirectoryOf(storage, message, undefined);
		files.push(...(parts ? jsonFilesIn(parts) : []));
	}

	for (const sidecar of [join(storage, 'session_diff', `${id}.json`), join(storage, 'todo', `${id}.json`)]) {
		if (statOrUndefined(sidecar)?.isFile()) {
			files.push(sidecar);
		}
	}

	let size = 0;
	let mtimeMs = 0;
	const stamp: string[] = [];
	for (const path of files) {
		const fileStats = statOrUndefined(path);
		if (fileStats) {
			size += fileStats.size;
			mtimeMs = Math.max(mtimeMs, fileStats.mtimeMs);
			stamp.push(`${fileStats.size}.${Math.trunc(fileStats.mtimeMs)}`);
		}
	}

	// The session file states its archive time; rewriting it changes the fingerprint below.
	const archived = session?.time?.archived ?? session?.time_archived;
	return {
		key: file,
		path: file,
		paths: files,
		idHint: id,
		...(parent ? {parentIdHint: parent} : {}),
		...(session?.directory ? {projectHint: session.directory} : {}),
		...(archived !== undefined && archived > 0 ? {archived: true} : {}),
		variant: 'storage',
		size,
		mtimeMs,
		fingerprint: `storage:${files.length}:${fileFingerprint(stats)}:${hashOf(stamp.join(','))}`,
	};
}

/** A short digest of a long stamp: enough to notice any change, small enough to store per unit. */
function hashOf(text: string): string {
	return sha256Hex(text).slice(0, 16);
}
