import type {Database} from '../../lib/sqlite.js';

/**
 * The index's events table, read: the journal line by line, with the subject and object each
 * event is about, and duplicates (an id seen before) marked.
 */
export type EventRow = {
	readonly line: number;
	readonly id: string;
	readonly observed_utc: string;
	readonly op: string;
	readonly payload: Record<string, unknown>;
};

type RawEvent = Omit<EventRow, 'payload'> & {payload: string};

const toEvent = (row: RawEvent): EventRow => ({...row, payload: JSON.parse(row.payload) as Record<string, unknown>});

/** Distinct events in the index (a duplicated line counts once), maintained by every refresh. */
export function readEventCount(db: Database): number {
	const value = db.prepare(`SELECT value FROM meta WHERE key = 'event_count'`).pluck().get() as string | undefined;
	return value === undefined ? 0 : Number(value);
}

/** The upserts of one node observed up to `asOf`, in file order (duplicates left out). */
export function nodeUpserts(db: Database, id: string, asOf: string): Array<Pick<EventRow, 'line' | 'observed_utc' | 'payload'>> {
	const rows = db
		.prepare(`SELECT line, observed_utc, payload FROM events WHERE subject = ? AND op = 'node.upsert' AND duplicate = 0 AND observed_utc <= ? ORDER BY line`)
		.all(id, asOf) as Array<{line: number; observed_utc: string; payload: string}>;
	return rows.map(row => ({line: row.line, observed_utc: row.observed_utc, payload: JSON.parse(row.payload) as Record<string, unknown>}));
}

/** The events about a node: its upserts and every edge event touching it, in file order, optionally only those observed by `asOf`. */
export function eventsAbout(db: Database, id: string, asOf?: string): EventRow[] {
	const rows = db
		.prepare(
			`SELECT line, id, observed_utc, op, payload FROM events
			 WHERE (subject = ? OR object = ?) AND duplicate = 0 ${asOf ? 'AND observed_utc <= ?' : ''} ORDER BY line`,
		)
		.all(...(asOf ? [id, id, asOf] : [id, id])) as RawEvent[];
	return rows.map(row => toEvent(row));
}

/** One page of events in file order, duplicates included, optionally only those observed at a period (a prefix of observed_utc). */
export function eventsPage(db: Database, page: {prefix?: string; limit: number; offset: number}): {total: number; rows: Array<EventRow & {duplicate: boolean}>} {
	const where = page.prefix ? `WHERE observed_utc LIKE ? ESCAPE '\\'` : '';
	const params = page.prefix ? [page.prefix.replaceAll(/[\\%_]/g, match => `\\${match}`) + '%'] : [];
	const total = db.prepare(`SELECT count(*) FROM events ${where}`).pluck().get(...params) as number;
	const rows = db
		.prepare(`SELECT line, id, observed_utc, op, payload, duplicate FROM events ${where} ORDER BY line LIMIT ? OFFSET ?`)
		.all(...params, page.limit, page.offset) as Array<RawEvent & {duplicate: number}>;
	return {total, rows: rows.map(row => ({...toEvent(row), duplicate: row.duplicate === 1}))};
}

/** A lookup of whether the index holds an event id (prepared once, for many ids). */
export function eventRecorded(db: Database): (id: string) => boolean {
	const recorded = db.prepare('SELECT 1 FROM events WHERE id = ? LIMIT 1').pluck();
	return id => recorded.get(id) !== undefined;
}
