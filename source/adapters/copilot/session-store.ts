import {basename, dirname, join} from 'node:path';
import {sha256Hex} from '../../lib/hash.js';
import {openReadOnlyInPlace, type Database} from '../../lib/sqlite.js';
import {epochIso} from '../shared/epoch.js';
import {childPath, statOrUndefined} from '../shared/fs.js';
import type {DeferredUnit, DiscoveryMemo} from '../types.js';

/**
 * Copilot CLI's own index of every session, `~/.copilot/session-store.db`, beside the
 * `session-state/` root: `sessions` (id, cwd, repository, branch, summary, created_at,
 * updated_at) and `turns` (session_id, turn_index, user_message, assistant_response, timestamp).
 * A session started without a project gets a `session-state/<id>/` folder with its workspace.yaml
 * and no events.jsonl: its conversation is only here. Evidence: rajbos/ai-engineering-fluency
 * vscode-extension/src/copilotCliStore.ts (PR #915), github/copilot-cli#2654, #2655.
 */
export const sessionStoreName = 'session-store.db';

/** Discovery's variant for a session read from the store (JsonlAdapter.documents). */
export const sessionStoreVariant = 'session-store';

/** The store beside a `session-state` root, where Copilot keeps it; none beside any other root. */
export function sessionStoreOf(root: string): string | undefined {
	return basename(root) === 'session-state' ? join(dirname(root), sessionStoreName) : undefined;
}

/**
 * One unit per store session whose folder under the root holds no transcript (`folders`: the
 * names of such folders). A session with events.jsonl (or a legacy flat file) is read from that
 * alone, never twice; a row whose folder is gone is not listed either: engi retires a session by
 * removing its folder and never writes Copilot's database, so the row alone must not bring it back.
 * A warm call stats the store and its WAL and reuses the listing the memo kept for that status.
 */
export function sessionStoreUnits(root: string, folders: ReadonlySet<string>, folderCwd: (folder: string) => string | undefined, memo?: DiscoveryMemo): DeferredUnit[] {
	const store = sessionStoreOf(root);
	if (store === undefined || folders.size === 0) {
		return [];
	}

	const stats = statOrUndefined(store);
	if (!stats?.isFile()) {
		return [];
	}

	// Any write changes the main file or its write-ahead log; while neither changed, neither did a
	// row. Only the bare folders' sessions are kept, so the stamp names those folders too: a store
	// of thousands of sessions, most with their events.jsonl, is not parsed back whole on every call.
	const wal = statOrUndefined(`${store}-wal`);
	const exact = (file: typeof stats) => `${file.ino}:${file.size}:${file.mtimeMs}`;
	const stamp = `${exact(stats)}|${wal ? exact(wal) : '-'}|${namesDigest(folders)}`;
	const remembered = memo?.get(store, stamp);
	const listed = isListing(remembered) ? remembered : listStore(store, folders);
	if (listed === undefined) {
		return [];
	}

	if (listed !== remembered) {
		memo?.set(store, stamp, listed);
	}

	const units: DeferredUnit[] = [];
	for (const [id, cwd, updated, sessionStamp] of listed.sessions) {
		const folder = childPath(root, id);
		units.push({
			key: `${store}#${id}`,
			path: store,
			idHint: id,
			variant: sessionStoreVariant,
			// Measuring a session's bytes would read its rows; discovery stays cheap.
			size: 0,
			mtimeMs: updated ?? stats.mtimeMs,
			fingerprint: `store:${sessionStamp}`,
			// workspace.yaml's cwd first: since ~1.0.13 the row's is NULL in most sessions and the drive
			// root in the rest, where workspace.yaml names the project (github/copilot-cli#2655).
			details: () => {
				const project = folderCwd(folder) ?? cwd ?? undefined;
				return project === undefined ? {paths: [store]} : {paths: [store], projectHint: project};
			},
		});
	}

	return units;
}

/**
 * What the memo keeps of the store's listing under the status of its files and the names of the
 * bare folders: each of their sessions' id, cwd, last update (ms) and a stamp of its row and
 * turns. Compact: a warm call reads it back whole.
 */
type Listing = {readonly sessions: Array<[id: string, cwd: string | null, updated: number | null, stamp: string]>};

const isListing = (value: unknown): value is Listing => typeof value === 'object' && value !== null && 'sessions' in value && Array.isArray(value.sessions);

/**
 * The store's sessions; undefined when it cannot be read now (damaged, or held past the busy
 * timeout), which is not remembered: the next call tries again.
 */
function listStore(store: string, folders: ReadonlySet<string>): Listing | undefined {
	let db: Database | undefined;
	try {
		db = openReadOnlyInPlace(store);
		return {sessions: listSessions(db, folders)};
	} catch {
		return undefined;
	} finally {
		db?.close();
	}
}

function columnsOf(db: Database, table: string): Set<string> {
	return new Set((db.prepare(`PRAGMA table_info("${table}")`).all() as Array<{name: string}>).map(row => row.name));
}

/**
 * Every session row with a stamp of its turns (how many, the last index and time): a new turn,
 * or a rewritten session row (its updated_at), changes the session's fingerprint. Columns a build
 * lacks are read as NULL.
 */
function listSessions(db: Database, folders: ReadonlySet<string>): Listing['sessions'] {
	const sessions = columnsOf(db, 'sessions');
	const turns = columnsOf(db, 'turns');
	if (!sessions.has('id')) {
		return [];
	}

	const column = (columns: Set<string>, name: string, alias: string) => (columns.has(name) ? `${alias}.${name}` : 'NULL');
	const turnStamp = turns.has('session_id')
		? `LEFT JOIN (SELECT session_id, COUNT(*) AS n, MAX(${column(turns, 'turn_index', 'turns')}) AS last, MAX(${column(turns, 'timestamp', 'turns')}) AS at FROM turns GROUP BY session_id) t ON t.session_id = s.id`
		: 'LEFT JOIN (SELECT NULL AS session_id, NULL AS n, NULL AS last, NULL AS at) t ON 0';
	const rows = db
		.prepare(`SELECT s.id AS id, ${column(sessions, 'cwd', 's')} AS cwd, ${column(sessions, 'updated_at', 's')} AS updated, t.n AS n, t.last AS last, t.at AS at FROM sessions s ${turnStamp}`)
		.all() as Array<Record<string, unknown>>;
	const listed: Listing['sessions'] = [];
	for (const row of rows) {
		const id = row['id'];
		if (typeof id !== 'string' || !folders.has(id)) {
			continue;
		}

		const cwd = typeof row['cwd'] === 'string' && row['cwd'].trim() !== '' ? row['cwd'] : null;
		const updated = storeTime(row['updated']);
		const stamp = sha256Hex([row['updated'], row['n'], row['last'], row['at']].map(stampPart).join('|')).slice(0, 16);
		listed.push([id, cwd, updated === undefined ? null : Date.parse(updated), stamp]);
	}

	return listed;
}

/**
 * A digest of a set of names, in their order: FNV-1a twice over (two odd multipliers), with the
 * count. node:crypto takes milliseconds to load, more than a warm call should spend on this.
 */
function namesDigest(names: ReadonlySet<string>): string {
	let first = 0x81_1c_9d_c5;
	let second = 0x05_0c_5d_1f;
	for (const name of names) {
		for (let index = 0; index <= name.length; index++) {
			// One past the end: a separator no name holds (NUL), so ["ab","c"] and ["a","bc"] differ.
			const code = index < name.length ? name.charCodeAt(index) : 0;
			first = Math.imul(first ^ code, 16_777_619);
			second = Math.imul(second ^ code, 1_099_511_627);
		}
	}

	return `${names.size}.${(first >>> 0).toString(36)}.${(second >>> 0).toString(36)}`;
}

/** A column's value as stamp text: SQLite gives text, numbers (bigint too), blobs or NULL. */
function stampPart(value: unknown): string {
	if (typeof value === 'string') {
		return `s${value}`;
	}

	if (typeof value === 'number' || typeof value === 'bigint') {
		return `n${value.toString()}`;
	}

	return value instanceof Uint8Array ? `b${value.length}` : '-';
}

/**
 * A store time as an ISO string: ISO text as written, SQLite's `datetime()` text (UTC without a
 * zone, `YYYY-MM-DD HH:MM:SS`), or a Unix time in seconds or milliseconds; undefined otherwise.
 */
export function storeTime(value: unknown): string | undefined {
	if (typeof value === 'number') {
		return epochIso(value);
	}

	if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(value)) {
		return undefined;
	}

	const zoned = /(?:Z|[+-]\d{2}:?\d{2})$/i.test(value) ? value : `${value}Z`;
	const time = Date.parse(zoned.replace(' ', 'T'));
	return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}
