import * as z from 'zod/mini';
import type {Deps} from '../deps.js';
import {eventsPage} from '../index/store.js';
import {withIndex} from '../index/open.js';
import {nextOffset} from '../../lib/words.js';
import type {KbPaths} from '../kb/paths.js';

export const timelineOutputSchema = z.object({
	prefix: z.nullable(z.string()),
	total: z.number(),
	offset: z.number(),
	next_offset: z.nullable(z.number()),
	entries: z.array(
		z.object({
			line: z.number(),
			id: z.string(),
			observed_utc: z.string(),
			op: z.string(),
			summary: z.string(),
			duplicate: z.boolean(),
		}),
	),
});

export type TimelineOutput = z.infer<typeof timelineOutputSchema>;

function summarize(op: string, payload: Record<string, unknown>): string {
	const text = (value: unknown) => (typeof value === 'string' ? value : '');
	switch (op) {
		case 'node.upsert': {
			const kind = text(payload['kind'] ?? payload['type']);
			const label = text(payload['label']);
			return `${kind ? kind + ' ' : ''}${text(payload['id'])}${label ? ` "${label}"` : ''}${payload['status'] ? ` [${text(payload['status'])}]` : ''}`;
		}

		case 'edge.assert':
		case 'edge.retract':
			return `${text(payload['from'])} -${text(payload['type'])}-> ${text(payload['to'])}`;
		default:
			return `unknown op ${op}`;
	}
}

/** Events a page shows unless told otherwise. */
export const timelinePageSize = 100;

/** Journal events in file order, optionally only those observed in a period such as `2026-09`. */
export async function getTimeline(paths: KbPaths, given: {prefix?: string; limit?: number; offset?: number}, deps: Deps): Promise<TimelineOutput> {
	const input = {prefix: given.prefix, limit: given.limit ?? timelinePageSize, offset: given.offset ?? 0};
	return withIndex(paths, deps, index => {
		const {total, rows} = eventsPage(index.db, input);
		return {
			prefix: input.prefix ?? null,
			total,
			offset: input.offset,
			next_offset: nextOffset(input.offset, rows.length, total),
			entries: rows.map(row => ({
				line: row.line,
				id: row.id,
				observed_utc: row.observed_utc,
				op: row.op,
				summary: summarize(row.op, row.payload),
				duplicate: row.duplicate,
			})),
		};
	});
}
