import * as z from 'zod/mini';
import {resultStates, stateReasonSchema} from '../search/result-state.js';

export const hopTypes = ['DERIVED_FROM', 'DISCUSSED_IN', 'DELIVERED', 'METADATA_SESSION_REF'] as const;

export const hopSchema = z.object({
	type: z.enum(hopTypes),
	/** forward: along the edge; reverse: against it (`DELIVERED` runs from a conversation to what it delivered). */
	direction: z.enum(['forward', 'reverse']),
	from: z.string(),
	/** A node id, or for METADATA_SESSION_REF the session id the evidence file names. */
	to: z.string(),
	/** METADATA_SESSION_REF: SHA-256 of the evidence file and the JSON pointer of the field naming the session (JSONL: /<0-based line>/…). */
	parent_sha256: z.nullable(z.string()),
	pointer: z.nullable(z.string()),
});

export type TraceHop = z.infer<typeof hopSchema>;

const counters = {sources: z.number(), bytes: z.number(), records: z.number(), nodes: z.number(), depth: z.number()};

export const transcriptStatuses = ['searched', 'not_in_catalog', 'unreadable', 'not_indexed', 'skipped_by_bound'] as const;

export const traceOutputSchema = z.object({
	q: z.string(),
	/** ok: records found; empty: every reachable transcript searched, none matched; degraded: a bound, a held page or an unreadable store left part unsearched; unavailable: the index could not open. */
	state: z.enum(resultStates),
	reasons: z.array(stateReasonSchema),
	as_of: z.string(),
	/** The work bounds this trace ran under. */
	bounds: z.object(counters),
	/** What it spent of each (depth: the deepest hop taken); never more than its bound. */
	spent: z.object(counters),
	/** Knowledge nodes the clue matched, best first: where each walk starts. */
	seeds: z.array(z.object({node_id: z.string(), kind: z.nullable(z.string()), label: z.nullable(z.string())})),
	/** Every transcript the walk reached, in the order it was searched. */
	transcripts: z.array(z.object({
		seed: z.string(),
		hops: z.array(hopSchema),
		node_id: z.nullable(z.string()),
		source: z.nullable(z.string()),
		session_id: z.string(),
		status: z.enum(transcriptStatuses),
		matched_records: z.number(),
	})),
	/** One per matching record: where it was reached from, a masked quote, and the command that returns the exact value after checking its hash. */
	results: z.array(z.object({
		seed: z.string(),
		hops: z.array(hopSchema),
		node_id: z.nullable(z.string()),
		source: z.string(),
		session_id: z.string(),
		line: z.number(),
		/** JSON pointer of the quoted text inside the native record. */
		pointer: z.string(),
		/** Around the first match, secrets masked. */
		quote: z.string(),
		/** SHA-256 and UTF-8 bytes of the text at the pointer, unmasked, as the transcript holds it now. */
		sha256: z.string(),
		bytes: z.number(),
		expand: z.array(z.string()),
	})),
	warnings: z.array(z.string()),
});

export type TraceOutput = z.infer<typeof traceOutputSchema>;
