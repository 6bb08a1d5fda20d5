import {dirname, join} from 'node:path';
import type {SessionEvent, SessionInfo, SessionRow} from '../events.js';
import {openReadOnlyInPlace, type Database} from '../../lib/sqlite.js';
import {SessionCorruptError, type DiscoveredUnit, type LoadedSession} from '../types.js';
import {workspaceCwd, workspaceName} from './discover.js';
import {userEvents} from './normalize.js';
import {storeTime} from './session-store.js';

type Row = Record<string, unknown>;

/**
 * One session of Copilot CLI's session-store.db (session-store.ts): line 1 is its `sessions` row
 * (the session's facts), then one line per `turns` row in turn_index order, each the person's
 * prompt and the reply. The reply may be shortened (VS Code's Copilot describes the same column
 * of its own store as "truncated to ~1000 chars", microsoft/vscode#312293); it is still the reply
 * the store has. Kept apart from discovery so that a warm call, which reads no session, does not
 * load it.
 */
export function loadSessionStoreSession(unit: DiscoveredUnit): LoadedSession {
	const id = unit.idHint;
	if (id === undefined) {
		throw new SessionCorruptError(unit.path, null, 'the session store unit names no session');
	}

	let records: {session: Row | undefined; turns: Row[]};
	let db: Database | undefined;
	try {
		db = openReadOnlyInPlace(unit.path);
		records = readRecords(db, id);
	} catch {
		throw new SessionCorruptError(unit.path, null, `session ${id} could not be read from the session store`);
	} finally {
		db?.close();
	}

	if (records.session === undefined) {
		throw new SessionCorruptError(unit.path, null, `session ${id} is not in the session store`);
	}

	const folder = join(dirname(unit.path), 'session-state', id);
	const rows: SessionRow[] = [{line: 1, raw: records.session, events: sessionFacts(records.session, id, folder)}];
	let skipped = 0;
	records.turns.forEach((turn, index) => {
		const events = turnEvents(turn, index + 2);
		if (events === undefined) {
			skipped++;
		} else {
			rows.push({line: index + 2, raw: turn, events});
		}
	});
	return {rows, skipped, warnings: skipped === 0 ? [] : [`${unit.path}: ${skipped} turn(s) of session ${id} with a prompt or reply that is not text were skipped`]};
}

/** The session row and its turns, read in one transaction so they agree. */
function readRecords(db: Database, id: string): {session: Row | undefined; turns: Row[]} {
	return db.transaction(() => {
		const session = db.prepare('SELECT * FROM sessions WHERE id = ?').get(id) as Row | undefined;
		const columns = new Set((db.prepare('PRAGMA table_info("turns")').all() as Array<{name: string}>).map(row => row.name));
		if (!columns.has('session_id')) {
			return {session, turns: []};
		}

		// rowid breaks ties (the order the turns were written in), where the table has one.
		const written = hasRowid(db) ? ['rowid'] : [];
		const order = [...(columns.has('turn_index') ? ['turn_index'] : []), ...written].join(', ') || 'session_id';
		return {session, turns: db.prepare(`SELECT * FROM turns WHERE session_id = ? ORDER BY ${order}`).all(id) as Row[]};
	})();
}

/** False for a WITHOUT ROWID table, which has no rowid to order by. */
function hasRowid(db: Database): boolean {
	try {
		db.prepare('SELECT rowid FROM turns LIMIT 0');
		return true;
	} catch {
		return false;
	}
}

const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value : undefined);

/**
 * The session's facts: its cwd (its folder's workspace.yaml's, else the row's: since ~1.0.13 the
 * row's is NULL in most sessions and the drive root in the rest, github/copilot-cli#2655), its
 * name (workspace.yaml's, which a rename updates, else the row's summary) and its start and last
 * update.
 */
function sessionFacts(session: Row, id: string, folder: string): SessionEvent[] {
	const yaml = join(folder, 'workspace.yaml');
	const cwd = workspaceCwd(yaml) ?? text(session['cwd']);
	const title = workspaceName(yaml) ?? text(session['summary']);
	const started = storeTime(session['created_at']);
	const modified = storeTime(session['updated_at']);
	const facts: SessionInfo = {
		id,
		...(cwd === undefined ? {} : {cwd}),
		...(title === undefined ? {} : {title}),
		...(started === undefined ? {} : {started}),
		...(modified === undefined ? {} : {modified}),
	};
	return [{line: 1, kind: 'meta', ...(started === undefined ? {} : {timestamp: started}), session: facts}];
}

/** A turn's prompt and reply, or undefined when either is neither text nor NULL (a damaged row). */
function turnEvents(turn: Row, line: number): SessionEvent[] | undefined {
	const prompt = turn['user_message'];
	const reply = turn['assistant_response'];
	if ((prompt !== null && prompt !== undefined && typeof prompt !== 'string') || (reply !== null && reply !== undefined && typeof reply !== 'string')) {
		return undefined;
	}

	const timestamp = storeTime(turn['timestamp']);
	const base = {line, ...(timestamp === undefined ? {} : {timestamp})};
	const events = typeof prompt === 'string' ? userEvents({content: prompt}, base) : [];
	if (text(reply) !== undefined) {
		events.push({...base, kind: 'assistant', text: reply as string});
	}

	return events;
}
