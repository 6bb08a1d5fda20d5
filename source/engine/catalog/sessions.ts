import * as z from 'zod/mini';
import {lazySchema} from '../../lib/lazy-schema.js';
import {nextOffset} from '../../lib/words.js';
import type {Deps} from '../deps.js';
import {countUnreadableSessions, listCatalogPage, sessionEntrySchema, subagentCounts, toEntry} from './list.js';
import {sourceRootArgument, typedRootOf} from './targets.js';
import {withCatalogView, type CatalogView, type ScopeInput} from './view.js';
import {resultState, resultStates, stateReason, stateReasonSchema, type StateReason} from '../search/result-state.js';

export const catalogStateSchema = lazySchema(() => z.object({scanned: z.number(), unchanged: z.number(), removed: z.number()}));

const searchMatchSchema = lazySchema(() => z.object({line: z.number(), snippet: z.string()}));

export const sessionsOutputSchema = lazySchema(() => z.object({
	/** The full-text query, when --q was given. */
	q: z.nullable(z.string()),
	/** ok: sessions found; empty: none in scope; degraded: a store or session could not be read, so some may be missing; unavailable: never (an error instead). */
	state: z.enum(resultStates),
	reasons: z.array(stateReasonSchema),
	scope: z.object({
		project: z.nullable(z.string()),
		all_projects: z.boolean(),
		since: z.nullable(z.string()),
		sources: z.array(z.object({source: z.string(), roots: z.array(z.string())})),
	}),
	total: z.number(),
	offset: z.number(),
	next_offset: z.nullable(z.number()),
	sessions: z.array(
		z.object({
			...sessionEntrySchema.shape,
			/** With --q: matching lines with secret-masked snippets, and the command that shows them whole. */
			matches: z.optional(z.array(searchMatchSchema)),
			matched_lines: z.optional(z.number()),
			expand: z.optional(z.string()),
		}),
	),
	catalog: catalogStateSchema,
	warnings: z.array(z.string()),
}));

export type SessionsOutput = z.infer<typeof sessionsOutputSchema>;

/** Sessions a listing page shows unless told otherwise. */
export const sessionsPageSize = 50;
/** A search page reads a snippet for each hit from its transcript: 20, as `engi query` shows. */
export const sessionSearchPageSize = 20;

export type SessionsInput = ScopeInput & {readonly limit?: number; readonly offset?: number; readonly q?: string};

/**
 * What a listing or search over the view is missing, typed: each store root, directory or
 * session file the refresh could not read, and (for a search) the sessions in scope that could
 * not be parsed, whose text is not in the index.
 */
export function viewReasons(view: CatalogView, options: {searching: boolean}): StateReason[] {
	const reasons = view.report.unreadable.map(entry => stateReason('store_unreadable', `${entry.source}: ${entry.path} could not be read (${entry.code}); what it holds is left out`, {subject: entry.path}));
	if (options.searching) {
		const corrupt = countUnreadableSessions(view.db, view.filter);
		if (corrupt > 0) {
			reasons.push(stateReason('session_unreadable', `${corrupt} session(s) in scope could not be parsed and were not searched (engi sessions lists them with their error)`, {count: corrupt}));
		}
	}

	return reasons;
}

/**
 * `engi sessions`: the sessions in scope, newest first, paged; with `q`, those whose text
 * matches, best first, subagent sessions included (what was said there is searched too).
 */
export async function listSessions(given: SessionsInput, deps: Deps): Promise<SessionsOutput> {
	const input = {
		...given,
		includeSubagents: Boolean(given.includeSubagents) || given.q !== undefined,
		limit: given.limit ?? (given.q === undefined ? sessionsPageSize : sessionSearchPageSize),
		offset: given.offset ?? 0,
	};
	return withCatalogView(input, deps, async view => {
		if (input.q !== undefined) {
			return searchSessionsPage(view, input, input.q);
		}

		const {total, rows: page} = listCatalogPage(view.db, view.filter, input.offset, input.limit);
		const counts = subagentCounts(view.db, view.filter, page);
		const reasons = viewReasons(view, {searching: false});
		return {
			q: null,
			state: resultState(total, reasons),
			reasons,
			scope: scopeOf(view, input),
			total,
			offset: input.offset,
			next_offset: nextOffset(input.offset, page.length, total),
			sessions: page.map(row => toEntry(row, counts.get(`${row.source}\u0000${row.summary.id ?? row.key}`) ?? 0)),
			catalog: {scanned: view.report.scanned, unchanged: view.report.unchanged, removed: view.report.removed},
			warnings: view.warnings,
		};
	});
}

function scopeOf(view: CatalogView, input: ScopeInput) {
	return {project: view.projectRoot, all_projects: input.allProjects, since: view.since, sources: view.targets.map(target => ({source: target.adapter.id, roots: target.roots}))};
}

async function searchSessionsPage(view: CatalogView, input: ScopeInput & {limit: number; offset: number}, q: string): Promise<SessionsOutput> {
	// Loaded for a search alone: it reads transcripts (and so the adapters' readers), a listing does not.
	const {searchSessions, snippetReader} = await import('./search.js');
	const found = searchSessions(view, q, input.offset, input.limit);
	const total = found?.total ?? 0;
	const page = found?.page ?? [];
	const counts = subagentCounts(view.db, view.filter, page.map(match => match.row));
	const snippetsFor = await snippetReader(view, q);
	const reasons = viewReasons(view, {searching: true});
	return {
		q,
		state: resultState(total, reasons),
		reasons,
		scope: scopeOf(view, input),
		total,
		offset: input.offset,
		next_offset: nextOffset(input.offset, page.length, total),
		sessions: page.map(match => {
			const id = match.row.summary.id ?? match.row.key;
			return {
				...toEntry(match.row, counts.get(`${match.row.source}\u0000${id}`) ?? 0),
				matches: snippetsFor(match),
				matched_lines: match.matched,
				expand: `engi read ${id} --source ${match.row.source}${sourceRootArgument(typedRootOf(view.targets, match.row.source, match.row.root))} --lines ${match.lines.join(',')}`,
			};
		}),
		catalog: {scanned: view.report.scanned, unchanged: view.report.unchanged, removed: view.report.removed},
		warnings: view.warnings,
	};
}
