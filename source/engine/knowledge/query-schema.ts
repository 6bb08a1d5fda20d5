import * as z from 'zod/mini';
import {lazySchema} from '../../lib/lazy-schema.js';
import {historyEntrySchema} from './history.js';
import {resultStates, stateReasonSchema} from '../search/result-state.js';
import {rankFactorsSchema} from '../upkeep/ranking.js';

/** Matches a page shows unless told otherwise, and the most it shows (a larger --limit is lowered, and the answer says `truncated`). */
export const queryPageSize = 20;
export const queryLimitMax = 100;

const stateFields = lazySchema(() => ({
	q: z.string(),
	/** ok: found; empty: looked everywhere, nothing matched; degraded: found or not, but the look was partial; unavailable: could not look. */
	state: z.enum(resultStates),
	reasons: z.array(stateReasonSchema),
	as_of: z.string(),
	include_expired: z.boolean(),
	include_archived: z.boolean(),
	offset: z.number(),
	limit: z.number(),
	total: z.number(),
	/** Matches left out because dream archived them (--include-archived keeps them). */
	archived_hidden: z.number(),
	next_offset: z.nullable(z.number()),
	/** --limit was above the maximum and was lowered. */
	truncated: z.boolean(),
	warnings: z.array(z.string()),
}));

export const hitSchema = lazySchema(() => z.object({
	node_id: z.string(),
	kind: z.nullable(z.string()),
	score: z.number(),
	/** How it matched and every factor of its rank, in one line. */
	why: z.string(),
	label: z.nullable(z.string()),
	/** The factors of the fused score, each as a number. */
	factors: rankFactorsSchema,
}));

export const localCandidatesSchema = lazySchema(() => z.object({
	roots: z.array(z.string()),
	paths: z.array(z.string()),
	limits: z.object({max_depth: z.number(), max_entries: z.number(), max_results: z.number(), scanned: z.number(), truncated: z.boolean()}),
}));

export const contextRowSchema = lazySchema(() => z.object({
	node_id: z.string(),
	kind: z.nullable(z.string()),
	label: z.nullable(z.string()),
	status: z.nullable(z.string()),
	score: z.number(),
	why: z.string(),
	linked_projects: z.array(z.object({id: z.string(), label: z.nullable(z.string())})),
	decisions: z.array(z.object({id: z.string(), label: z.nullable(z.string()), edge: z.string()})),
	/** Links that are missing or ambiguous, shown as such rather than guessed. */
	authority_gaps: z.array(z.object({kind: z.enum(['no_project', 'ambiguous_project', 'dangling_link']), detail: z.string()})),
}));

export const queryOutputSchema = lazySchema(() => z.discriminatedUnion('view', [
	z.object({view: z.literal('hits'), ...stateFields, hits: z.array(hitSchema), unindexed_local_candidates: z.nullable(localCandidatesSchema)}),
	z.object({
		view: z.literal('context'),
		...stateFields,
		rows: z.array(contextRowSchema),
		/** The argv that shows the same candidates with their full evidence. */
		expand: z.array(z.string()),
		unindexed_local_candidates: z.nullable(localCandidatesSchema),
	}),
	z.object({
		view: z.literal('evidence'),
		...stateFields,
		candidates: z.array(z.object({id: z.string(), score: z.number(), why: z.string(), node: z.record(z.string(), z.unknown()), node_sha256: z.string(), history: z.array(historyEntrySchema)})),
	}),
]));

export type QueryOutput = z.infer<typeof queryOutputSchema>;
export type Hit = z.infer<typeof hitSchema>;
