import type {Database} from '../../lib/sqlite.js';
import {parseBoundedJson} from '../../lib/json-depth.js';
import {inboxColumns, messageOrder, quote, type Row, type Schema} from './database.js';

/**
 * Reading one session's rows back from OpenCode's database: what loading a session needs, kept
 * apart from database.ts so that a warm call, which lists sessions and reads none, does not
 * load it.
 */

/** A session's row from whichever session table holds it (`session_v2` first). */
function sessionRow(db: Database, schema: Schema, sessionId: string): Row | undefined {
	for (const table of [schema.sessionV2, schema.session]) {
		const row = table?.columns.has('id') ? (db.prepare(`SELECT * FROM ${quote(table.name)} WHERE id = ?`).get(sessionId) as Row | undefined) : undefined;
		if (row) {
			return row;
		}
	}

	return undefined;
}

export type SessionRecords = {
	session: Row | undefined;
	messages: Row[];
	/** Each message's rowid, where its table has them: how one message is found again. */
	messageRowids?: number[];
	/** Part rows by message id, each list in id order. */
	parts: Map<string, Row[]>;
	/** The session's 2.x `session_message` rows in `seq` order, migrated copies of `messages` included. */
	records?: Row[];
	/** Each record's rowid, where its table has them. */
	recordRowids?: number[];
	/** 2.x prompts the person sent that wait to be delivered, oldest first: `{id, time_created, data}` rows (the payload in `data`). */
	waiting?: Row[];
};

/** One session's rows, read in a single transaction so messages, parts and records agree. */
export function readSessionRecords(db: Database, schema: Schema, sessionId: string): SessionRecords {
	return db.transaction(() => {
		const session = sessionRow(db, schema, sessionId);
		const message = schema.message;
		const records = {...readRecords(db, schema, sessionId), ...readWaiting(db, schema, sessionId)};
		if (!message?.columns.has('session_id')) {
			return {session, messages: [], parts: new Map(), ...records};
		}

		const rowid = message.hasRowid ? `rowid AS ${rowidColumn}, ` : '';
		const messages = db.prepare(`SELECT ${rowid}* FROM ${quote(message.name)} WHERE session_id = ? ORDER BY ${messageOrder(message.columns)}`).all(sessionId) as Row[];
		const messageRowids = message.hasRowid ? messages.map(row => takeRowid(row)) : undefined;
		return {session, messages, ...(messageRowids ? {messageRowids} : {}), parts: readParts(db, schema, sessionId), ...records};
	})();
}

function readRecords(db: Database, schema: Schema, sessionId: string): Pick<SessionRecords, 'records' | 'recordRowids'> {
	const table = schema.sessionMessage;
	if (!table?.columns.has('session_id')) {
		return {};
	}

	const rowid = table.hasRowid ? `rowid AS ${rowidColumn}, ` : '';
	const order = table.columns.has('seq') ? 'seq, id' : messageOrder(table.columns);
	const records = db.prepare(`SELECT ${rowid}* FROM ${quote(table.name)} WHERE session_id = ? ORDER BY ${order}`).all(sessionId) as Row[];
	return {records, ...(table.hasRowid ? {recordRowids: records.map(row => takeRowid(row))} : {})};
}

/** The person's prompts still waiting in the session's inbox, in the order they were admitted. */
function readWaiting(db: Database, schema: Schema, sessionId: string): Pick<SessionRecords, 'waiting'> {
	const table = schema.inbox;
	const columns = table && inboxColumns(table);
	if (!table || !columns) {
		return {};
	}

	const created = table.columns.has('time_created') ? 'time_created' : 'NULL';
	const id = table.columns.has('id') ? 'id' : 'NULL';
	const waiting = db.prepare(`SELECT ${id} AS id, ${created} AS time_created, ${quote(columns.payload)} AS data FROM ${quote(table.name)}
		WHERE session_id = ? AND type = 'user' AND ${columns.waiting} ORDER BY ${quote(columns.order)}`).all(sessionId) as Row[];
	return waiting.length > 0 ? {waiting} : {};
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

/** A few of one session's 2.x records by rowid; a rowid no longer in the session reads as nothing. */
export function readRecordsByRowid(db: Database, schema: Schema, sessionId: string, rowids: readonly number[]): Row[] {
	const table = schema.sessionMessage;
	if (rowids.length === 0 || !table?.columns.has('session_id') || !table.hasRowid) {
		return [];
	}

	const byRowid = db.prepare(`SELECT * FROM ${quote(table.name)} WHERE rowid = ? AND session_id = ?`);
	return db.transaction(() => rowids.flatMap((rowid): Row[] => {
		const row = byRowid.get(rowid, sessionId) as Row | undefined;
		return row ? [row] : [];
	}))();
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

/**
 * The session whose own message was created at `time` (created itself before then, and before
 * `before`, the fork's creation), other than `sessionId`: the source of a 1.x fork whose last copied
 * message has that time. A copy in another fork of the same source is no candidate, since copies
 * are older than the session holding them. The newest such session when several match.
 */
export function findForkSource(db: Database, schema: Schema, sessionId: string, time: number, before: number): string | undefined {
	const message = schema.message;
	const session = schema.session;
	if (!message?.columns.has('time_created') || !message.columns.has('session_id') || !session?.columns.has('time_created') || !session.columns.has('id')) {
		return undefined;
	}

	const row = db.prepare(`SELECT s.id AS id FROM ${quote(message.name)} m JOIN ${quote(session.name)} s ON s.id = m.session_id
		WHERE m.time_created = ? AND m.session_id <> ? AND s.time_created <= m.time_created AND s.time_created < ?
		ORDER BY s.time_created DESC, s.id DESC LIMIT 1`).get(time, sessionId, before) as Row | undefined;
	return typeof row?.['id'] === 'string' ? row['id'] : undefined;
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
