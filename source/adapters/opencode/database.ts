import {parseBoundedJson} from '../../lib/json-depth.js';
import {isOutdatedInPlace, openReadOnlyInPlace, type Database} from '../../lib/sqlite.js';

/**
 * Read-only access to OpenCode's SQLite database. OpenCode keeps it open in WAL mode while it
 * runs; a read-only connection still reads the last committed state (never an open transaction)
 * and never blocks the writer, and it is opened so that nothing is created beside the file
 * (openReadOnlyInPlace). Columns differ between versions, so rows are read with `SELECT *`
 * and queries only name columns the table has.
 */
export type Row = Record<string, unknown>;

type Table = {name: string; columns: Set<string>; hasRowid: boolean};

export type Schema = {
	readonly session: Table | undefined;
	/** Some 2.x builds keep their sessions here, beside (or instead of) `session`. */
	readonly sessionV2: Table | undefined;
	readonly message: Table | undefined;
	readonly part: Table | undefined;
	/**
	 * OpenCode 2.x: one row per conversation record, its kind in `type`, in `seq` order
	 * (packages/core/src/session/sql.ts). The old `message`/`part` tables stop changing after the
	 * upgrade (and a fresh 2.x database may have none); migrated messages keep their ids here.
	 */
	readonly sessionMessage: Table | undefined;
	/**
	 * OpenCode 2.x: prompts admitted while the session was busy and not yet delivered into
	 * `session_message` (packages/core/src/session/inbox.ts). Builds named it `session_inbox`
	 * (`payload`, `enqueued_seq`; a row is deleted when delivered), `session_pending` (`data`,
	 * `admitted_seq`) and `session_input` (`data`, `admitted_seq`; `promoted_seq` set when delivered).
	 */
	readonly inbox: Table | undefined;
	/** OpenCode 2.x key/value store: `migration.v1-v2` tracks the copy of 1.x sessions into `session_v2`. */
	readonly kv: Table | undefined;
};

export const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Runs `use` on a read-only connection to an OpenCode database. Connections are reused by the
 * calls of one synchronous run (a page of search snippets reads several sessions of one
 * database) and closed as soon as it ends, so a long-running process never holds a stale one.
 */
export function withDatabase<T>(path: string, use: (db: Database, schema: Schema) => T): T {
	let connection = connections.get(path);
	if (connection && isOutdatedInPlace(connection.db, path)) {
		connection.db.close();
		connections.delete(path);
		connection = undefined;
	}

	if (!connection) {
		const db = openReadOnlyInPlace(path);
		try {
			connection = {db, schema: readSchema(db)};
		} catch (error) {
			db.close();
			throw error;
		}

		if (connections.size === 0) {
			setImmediate(closeConnections);
		}

		connections.set(path, connection);
	}

	return use(connection.db, connection.schema);
}

const connections = new Map<string, {db: Database; schema: Schema}>();

function closeConnections(): void {
	for (const {db} of connections.values()) {
		db.close();
	}

	connections.clear();
}

function readSchema(db: Database): Schema {
	const tables = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{name: string}>).map(row => row.name));
	const find = (...candidates: string[]) => {
		const name = candidates.find(candidate => tables.has(candidate));
		if (name === undefined) {
			return undefined;
		}

		const columns = new Set((db.prepare(`PRAGMA table_info(${quote(name)})`).all() as Array<{name: string}>).map(row => row.name));
		let hasRowid = true;
		try {
			db.prepare(`SELECT rowid FROM ${quote(name)} LIMIT 0`);
		} catch {
			hasRowid = false; // A WITHOUT ROWID table.
		}

		return {name, columns, hasRowid};
	};

	// A pluralised table name is accepted too: what matters is that the columns read are there.
	return {
		session: find('session', 'sessions'),
		sessionV2: find('session_v2'),
		message: find('message', 'messages'),
		part: find('part', 'parts'),
		sessionMessage: find('session_message'),
		inbox: find('session_inbox', 'session_pending', 'session_input'),
		kv: find('kv'),
	};
}

/** Message order: creation time, then id (ids are time-ascending, so ties keep their order). */
export function messageOrder(columns: Set<string>, alias = ''): string {
	return columns.has('time_created') ? `${alias}time_created, ${alias}id` : `${alias}id`;
}

export type SessionListing = {row: Row; stamp: string};

/**
 * Every session row with a fingerprint stamp that changes when that session (and only that
 * session) changes: its `time_updated`, its message count and newest message, and the update
 * times of its last message and of that message's parts. OpenCode rewrites rows in place (a tool
 * part finishing, an abort recorded on the assistant message) and those rows are always in the
 * latest message. The aggregates run over OpenCode's indexes; only one message and its few parts
 * per session are looked up. A 2.x database adds its `session_message` stamp (sessionMessageStats).
 */
export function listSessions(db: Database, schema: Schema): SessionListing[] {
	const rows = sessionRows(db, schema);
	if (rows.length === 0) {
		return [];
	}

	const stats = messageStats(db, schema);
	const recordStats = sessionMessageStats(db, schema);
	const waiting = inboxStats(db, schema);
	return rows
		.sort((a, b) => compare(String(a['id']), String(b['id'])))
		.map(row => {
			const id = String(row['id']);
			const records = recordStats.get(id);
			const inbox = waiting.get(id);
			const archived = archivedAt(row);
			// A session with no 2.x records (or nothing waiting, or not archived) keeps the stamp it had
			// before they were read. Its archive time is stamped apart from time_updated: 1.x builds'
			// setArchived wrote time_archived alone, and unarchiving must read the session again too.
			return {row, stamp: `${String(row['time_updated'] ?? '')}:${stats.get(id) ?? '0'}${records === undefined ? '' : `:${records}`}${inbox === undefined ? '' : `:in${inbox}`}${archived === undefined ? '' : `:ar${archived}`}`};
		});
}

/**
 * When the person archived a session (ms), from its row's `time_archived`, or undefined when it is
 * not archived: OpenCode sets the column when a session is archived and clears it (NULL) when it
 * is unarchived (session/index.ts setArchived), and leaves archived sessions out of its session
 * list. Anything but a positive number archives nothing.
 */
export function archivedAt(row: Row): number | undefined {
	const time = row['time_archived'];
	return typeof time === 'number' && Number.isFinite(time) && time > 0 ? time : undefined;
}

/**
 * Session rows of every session table, once per id (a `session_v2` row before a `session` one).
 * Beside `session_v2`, a 1.x `session` row counts only while OpenCode has not copied it yet:
 * the copy leaves 1.x rows behind and 2.x then deletes from `session_v2` alone, so a copied
 * row missing there is a deleted session (copiedBelow).
 */
function sessionRows(db: Database, schema: Schema): Row[] {
	const seen = new Set<string>();
	const rows: Row[] = [];
	const copied = schema.sessionV2?.columns.has('id') ? copiedBelow(db, schema) : undefined;
	for (const table of [schema.sessionV2, schema.session]) {
		if (!table?.columns.has('id') || (table === schema.session && copied === 'all')) {
			continue;
		}

		for (const row of db.prepare(`SELECT * FROM ${quote(table.name)}`).all() as Row[]) {
			const id = row['id'];
			const leftover = table === schema.session && typeof copied === 'string' && typeof id === 'string' && id >= copied;
			if (typeof id === 'string' && !seen.has(id) && !leftover) {
				seen.add(id);
				rows.push(row);
			}
		}
	}

	return rows;
}

/**
 * How far OpenCode 2.x has copied 1.x sessions into `session_v2`, from `kv['migration.v1-v2']`
 * (packages/opencode v1 migration): `{"phase":"completed"}` is all of them ('all'); while it runs,
 * `{"phase":"sessions","cursor":id}` names the last one copied, newest id first, so every id at
 * or above the cursor was copied (that id). No kv row, or one that does not read, is a copy not
 * begun, as OpenCode itself reads it: every 1.x row is live (undefined).
 */
function copiedBelow(db: Database, schema: Schema): 'all' | string | undefined {
	const kv = schema.kv;
	if (!kv?.columns.has('key') || !kv.columns.has('value')) {
		return undefined;
	}

	const row = db.prepare(`SELECT value FROM ${quote(kv.name)} WHERE key = ?`).get('migration.v1-v2') as Row | undefined;
	const text = row?.['value'];
	let state: unknown;
	try {
		state = typeof text === 'string' ? parseBoundedJson(text) : undefined;
	} catch {
		return undefined;
	}

	if (typeof state !== 'object' || state === null) {
		return undefined;
	}

	const {phase, cursor} = state as Record<string, unknown>;
	if (phase === 'completed') {
		return 'all';
	}

	return phase === 'sessions' && typeof cursor === 'string' && cursor !== '' ? cursor : undefined;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function messageStats(db: Database, schema: Schema): Map<string, string> {
	const message = schema.message;
	const stats = new Map<string, string>();
	if (!message?.columns.has('session_id') || !message.columns.has('id')) {
		return stats;
	}

	const table = quote(message.name);
	const newest = message.columns.has('time_created') ? 'max(time_created)' : 'max(id)';
	const lastUpdated = message.columns.has('time_updated') ? `(SELECT time_updated FROM ${table} WHERE id = t.last_id)` : "''";
	const part = schema.part;
	const partStamp = part?.columns.has('message_id')
		? `(SELECT count(*) || '/' || ifnull(max(${part.columns.has('time_updated') ? 'time_updated' : 'id'}), '') FROM ${quote(part.name)} WHERE message_id = t.last_id)`
		: "''";
	const latestFirst = messageOrder(message.columns, 'm.').replaceAll(', ', ' DESC, ') + ' DESC';
	const sql = `SELECT t.sid, t.messages, t.newest, ${lastUpdated} AS last_updated, ${partStamp} AS last_parts FROM (
		SELECT s.sid, s.messages, s.newest,
			(SELECT m.id FROM ${table} m WHERE m.session_id = s.sid ORDER BY ${latestFirst} LIMIT 1) AS last_id
		FROM (SELECT session_id AS sid, count(*) AS messages, ${newest} AS newest FROM ${table} GROUP BY session_id) s) t`;
	for (const row of db.prepare(sql).all() as Row[]) {
		stats.set(String(row['sid']), [row['messages'], row['newest'], row['last_updated'] ?? '', row['last_parts'] ?? ''].map(String).join('/'));
	}

	return stats;
}

/**
 * Each session's 2.x record count, last `seq` and newest `time_updated`: a record appended raises
 * the first two, and a record rewritten in place (an assistant step streaming, a tool finishing, a
 * compaction completing) moves the last. One grouped query over OpenCode's session index.
 */
function sessionMessageStats(db: Database, schema: Schema): Map<string, string> {
	const table = schema.sessionMessage;
	const stats = new Map<string, string>();
	if (!table?.columns.has('session_id')) {
		return stats;
	}

	const last = table.columns.has('seq') ? 'max(seq)' : "''";
	const updated = table.columns.has('time_updated') ? 'max(time_updated)' : "''";
	const sql = `SELECT session_id AS sid, count(*) AS records, ${last} AS last, ${updated} AS updated FROM ${quote(table.name)} GROUP BY session_id`;
	for (const row of db.prepare(sql).all() as Row[]) {
		stats.set(String(row['sid']), [row['records'], row['last'] ?? '', row['updated'] ?? ''].map(String).join('/'));
	}

	return stats;
}

/** Where an inbox table keeps a row's order and payload, and what marks a row still waiting (database.ts Schema.inbox). */
export function inboxColumns(table: Table): {order: string; payload: string; waiting: string} | undefined {
	const order = ['enqueued_seq', 'admitted_seq'].find(column => table.columns.has(column));
	const payload = ['payload', 'data'].find(column => table.columns.has(column));
	if (order === undefined || payload === undefined || !table.columns.has('session_id') || !table.columns.has('type')) {
		return undefined;
	}

	return {order, payload, waiting: table.columns.has('promoted_seq') ? 'promoted_seq IS NULL' : '1'};
}

/** Each session's waiting prompts: count and newest order, one grouped query over a table that holds only what waits. */
function inboxStats(db: Database, schema: Schema): Map<string, string> {
	const table = schema.inbox;
	const columns = table && inboxColumns(table);
	const stats = new Map<string, string>();
	if (!table || !columns) {
		return stats;
	}

	const sql = `SELECT session_id AS sid, count(*) AS waiting, max(${quote(columns.order)}) AS last FROM ${quote(table.name)} WHERE type = 'user' AND ${columns.waiting} GROUP BY session_id`;
	for (const row of db.prepare(sql).all() as Row[]) {
		stats.set(String(row['sid']), `${String(row['waiting'])}/${String(row['last'] ?? '')}`);
	}

	return stats;
}
