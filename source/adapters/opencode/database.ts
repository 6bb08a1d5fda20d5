import {isOutdatedInPlace, openReadOnlyInPlace, type Database} from '../../lib/sqlite.js';
import {parseBoundedJson} from '../../lib/json-depth.js';

/**
 * Read-only access to OpenCode's SQLite database. OpenCode keeps it open in WAL mode while it
 * runs; a read-only connection still reads the last committed state (never an open transaction)
 * and never blocks the writer, and it is opened so that nothing is created beside the file
 * (openReadOnlyInPlace). Columns differ between versions, so rows are read with `SELECT *`
 * and queries only name columns the table has.
 */
export type Row = Record<string, unknown>;

type Table = {name: string; columns: Set<string>; hasRowid: boolean};

type Schema = {
	readonly session: Table | undefined;
	readonly message: Table | undefined;
	readonly part: Table | undefined;
};

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

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
	return {session: find('session', 'sessions'), message: find('message', 'messages'), part: find('part', 'parts')};
}

/** Message order: creation time, then id (ids are time-ascending, so ties keep their order). */
function messageOrder(columns: Set<string>, alias = ''): string {
	return columns.has('time_created') ? `${alias}time_created, ${alias}id` : `${alias}id`;
}

export type SessionListing = {row: Row; stamp: string};

/**
 * Every session row with a fingerprint stamp that changes when that session (and only that
 * session) changes: its `time_updated`, its message count and newest message, and the update
 * times of its last message and of that message's parts. OpenCode rewrites rows in place (a tool
 * part finishing, an abort recorded on the assistant message) and those rows are always in the
 * latest message. The aggregates run over OpenCode's indexes; only one message and its few parts
 * per session are looked up.
 */
export function listSessions(db: Database, schema: Schema): SessionListing[] {
	if (!schema.session?.columns.has('id')) {
		return [];
	}

	const rows = db.prepare(`SELECT * FROM ${quote(schema.session.name)}`).all() as Row[];
	const stats = messageStats(db, schema);
	return rows
		.filter(row => typeof row['id'] === 'string')
		.sort((a, b) => compare(String(a['id']), String(b['id'])))
		.map(row => {
			const id = String(row['id']);
			return {row, stamp: `${String(row['time_updated'] ?? '')}:${stats.get(id) ?? '0'}`};
		});
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

export type SessionRecords = {
	session: Row | undefined;
	messages: Row[];
	/** Each message's rowid, where its table has them: how one message is found again. */
	messageRowids?: number[];
	/** Part rows by message id, each list in id order. */
	parts: Map<string, Row[]>;
};

/** One session's rows, read in a single transaction so messages and parts agree. */
export function readSessionRecords(db: Database, schema: Schema, sessionId: string): SessionRecords {
	return db.transaction(() => {
		const session = schema.session?.columns.has('id') ? (db.prepare(`SELECT * FROM ${quote(schema.session.name)} WHERE id = ?`).get(sessionId) as Row | undefined) : undefined;
		const message = schema.message;
		if (!message?.columns.has('session_id')) {
			return {session, messages: [], parts: new Map()};
		}

		const rowid = message.hasRowid ? `rowid AS ${rowidColumn}, ` : '';
		const messages = db.prepare(`SELECT ${rowid}* FROM ${quote(message.name)} WHERE session_id = ? ORDER BY ${messageOrder(message.columns)}`).all(sessionId) as Row[];
		const messageRowids = message.hasRowid ? messages.map(row => takeRowid(row)) : undefined;
		return {session, messages, ...(messageRowids ? {messageRowids} : {}), parts: readParts(db, schema, sessionId)};
	})();
}

const rowidColumn = 'engi_rowid';

function takeRowid(row: Row): number {
	const rowid = row[rowidColumn] as number;
	delete row[rowidColumn];
	return rowid;
}

/**
 * A few of one session's messages by rowid, with their parts: what reading some rows back
 * needs, without the rest of the session. A rowid no longer in the session reads as nothing.
 */
export function readMessagesByRowid(db: Database, schema: Schema, sessionId: string, rowids: readonly number[]): SessionRecords {
	const message = schema.message;
	const part = schema.part;
	if (!message?.columns.has('session_id') || !message.hasRowid) {
		return {session: undefined, messages: [], parts: new Map()};
	}

	const byRowid = db.prepare(`SELECT * FROM ${quote(message.name)} WHERE rowid = ? AND session_id = ?`);
	const partsOf = part?.columns.has('message_id') ? db.prepare(`SELECT * FROM ${quote(part.name)} WHERE message_id = ? ORDER BY id`) : undefined;
	return db.transaction(() => {
		const messages: Row[] = [];
		const parts = new Map<string, Row[]>();
		for (const rowid of rowids) {
			const row = byRowid.get(rowid, sessionId) as Row | undefined;
			if (row) {
				messages.push(row);
				parts.set(String(row['id']), partsOf ? (partsOf.all(row['id']) as Row[]) : []);
			}
		}

		return {session: undefined, messages, parts};
	})();
}

function readParts(db: Database, schema: Schema, sessionId: string): Map<string, Row[]> {
	const parts = new Map<string, Row[]>();
	const part = schema.part;
	const message = schema.message;
	if (!part?.columns.has('message_id') || !message) {
		return parts;
	}

	// Older databases have no part.session_id: reach the parts through their messages.
	const sql = part.columns.has('session_id')
		? `SELECT * FROM ${quote(part.name)} WHERE session_id = ? ORDER BY message_id, id`
		: `SELECT p.* FROM ${quote(part.name)} p JOIN ${quote(message.name)} m ON p.message_id = m.id WHERE m.session_id = ? ORDER BY p.message_id, p.id`;
	for (const row of db.prepare(sql).all(sessionId) as Row[]) {
		const messageId = String(row['message_id']);
		const list = parts.get(messageId);
		if (list) {
			list.push(row);
		} else {
			parts.set(messageId, [row]);
		}
	}

	return parts;
}

/** A JSON column's value: parsed text (or bytes), or undefined when it does not parse. */
export function parseDataColumn(value: unknown): unknown {
	const text = typeof value === 'string' ? value : Buffer.isBuffer(value) ? value.toString('utf8') : undefined;
	if (text === undefined) {
		return undefined;
	}

	try {
		return parseBoundedJson(text);
	} catch {
		return undefined;
	}
}
