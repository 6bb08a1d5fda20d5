import * as z from 'zod/mini';
import type {Database} from '../../lib/sqlite.js';

export const historyEntrySchema = z.object({
	line: z.number(),
	event: z.string(),
	at: z.string(),
	op: z.string(),
	payload: z.record(z.string(), z.unknown()),
});

export type HistoryEntry = z.infer<typeof historyEntrySchema>;

/** The journal events about a node: its upserts and every edge event touching it, in file order. */
export function nodeHistory(db: Database, id: string, asOf?: string): HistoryEntry[] {
	const rows = db
		.prepare(
			`SELECT line, id, observed_utc, op, payload FROM events
			 WHERE (subject = ? OR object = ?) AND duplicate = 0 ${asOf ? 'AND observed_utc <= ?' : ''} ORDER BY line`,
		)
		.all(...(asOf ? [id, id, asOf] : [id, id])) as Array<{line: number; id: string; observed_utc: string; op: string; payload: string}>;
	return rows.map(row => ({line: row.line, event: row.id, at: row.observed_utc, op: row.op, payload: JSON.parse(row.payload) as Record<string, unknown>}));
}
