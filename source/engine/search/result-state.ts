import * as z from 'zod/mini';
import {lazySchema} from '../../lib/lazy-schema.js';

/**
 * How complete a search-like answer is (`query`, `sessions`, `project`, `trace`, and the
 * listings the dashboard opens on). No answer can prove that knowledge is complete, so "found
 * nothing" and "could not look" are told apart by the engine, with typed reasons, and never
 * guessed from an error message:
 *
 * - ok: the search ran everywhere it should and found something;
 * - empty: it ran everywhere it should and found nothing;
 * - degraded: it ran, but part of what it should have looked at was held, unreadable or skipped;
 * - unavailable: it could not make a trustworthy attempt.
 */
export const resultStates = ['ok', 'empty', 'degraded', 'unavailable'] as const;
export type ResultState = (typeof resultStates)[number];

export const stateReasonCodes = [
	/** The knowledge base's index could not be opened: nothing was searched. */
	'index_unavailable',
	/** The journal was rewritten since the index was built, so this call rebuilt it. */
	'index_rebuilt_during_call',
	/** Journal lines that do not parse, awaiting quarantine: their events were not searched. */
	'journal_lines_unreadable',
	/** Journal lines already moved to quarantine: their events are not in the graph. */
	'quarantined_lines',
	/** Wiki pages held by conflict quarantine: what they say is left out until they are repaired. */
	'quarantined_pages',
	/** The page asked for is held by conflict quarantine. */
	'source_conflict',
	/** A session store's root, a directory in it or a session file could not be read: what it holds is missing. */
	'store_unreadable',
	/** Sessions in scope that could not be parsed: listed with their error, but their text was not searched. */
	'session_unreadable',
	/** The session catalog could not be opened: transcripts were not searched. */
	'catalog_unavailable',
	/** A part of the search did not run (the detail says which and why). */
	'capability_skipped',
	/** A work bound stopped the search before everything reachable was looked at (subject: the bound). */
	'bound_reached',
] as const;
export type StateReasonCode = (typeof stateReasonCodes)[number];

export const stateReasonSchema = lazySchema(() =>
	z.object({
		code: z.enum(stateReasonCodes),
		/** What happened, for a person; never private content. */
		detail: z.string(),
		/** How many lines, pages, stores or sessions it concerns, where that is a number. */
		count: z.nullable(z.number()),
		/** What it concerns: a page's path, a store's root, a node id, a bound's flag. */
		subject: z.nullable(z.string()),
	}),
);

export type StateReason = z.infer<typeof stateReasonSchema>;

export function stateReason(code: StateReasonCode, detail: string, extra: {count?: number; subject?: string} = {}): StateReason {
	return {code, detail, count: extra.count ?? null, subject: extra.subject ?? null};
}

/** The state of an answer that found `found` results with these reasons, unless it could not look at all. */
export function resultState(found: number, reasons: readonly StateReason[], unavailable = false): ResultState {
	if (unavailable) {
		return 'unavailable';
	}

	if (reasons.length > 0) {
		return 'degraded';
	}

	return found > 0 ? 'ok' : 'empty';
}
