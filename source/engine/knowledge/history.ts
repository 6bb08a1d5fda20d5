import * as z from 'zod/mini';
import {lazySchema} from '../../lib/lazy-schema.js';
import type {Database} from '../../lib/sqlite.js';
import {eventsAbout} from '../index/store.js';

export const historyEntrySchema = lazySchema(() => z.object({
	line: z.number(),
	event: z.string(),
	at: z.string(),
	op: z.string(),
	payload: z.record(z.string(), z.unknown()),
}));

export type HistoryEntry = z.infer<typeof historyEntrySchema>;

/** The journal events about a node: its upserts and every edge event touching it, in file order. */
export function nodeHistory(db: Database, id: string, asOf?: string): HistoryEntry[] {
	return eventsAbout(db, id, asOf).map(event => ({line: event.line, event: event.id, at: event.observed_utc, op: event.op, payload: event.payload}));
}
