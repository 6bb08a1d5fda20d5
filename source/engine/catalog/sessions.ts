import {resolve} from 'node:path';
import * as z from 'zod/mini';
import {lazySchema} from '../../lib/lazy-schema.js';
import type {Deps} from '../deps.js';
import {shellWord} from '../../lib/shell.js';
import {nextOffset} from '../../lib/paging.js';
import {parseSince} from '../../lib/since.js';
import {projectOf} from '../../lib/project.js';
import {listCatalogPage, sessionEntrySchema, subagentCounts, toEntry, type SessionFilter} from './list.js';
import {searchSessions, snippetReader} from './search.js';
import {cannotWrite, isCorruptDatabase} from '../../lib/sqlite.js';
import {inMemoryCatalog, openCatalog, replaceDamagedCatalog, type CatalogHandle} from './open.js';
import {refreshCatalog, type RefreshReport} from './refresh.js';
import {resolveTargets, typedRootOf, type SourceTarget, type StoreSelection} from './targets.js';

export const catalogStateSchema = lazySchema(() => z.object({scanned: z.number(), unchanged: z.number(), removed: z.number()}));

const searchMatchSchema = lazySchema(() => z.object({line: z.number(), snippet: z.string()}));

export const sessionsOutputSchema = lazySchema(() => z.object({
	/** The full-text query, when --q was given. */
	q: z.nullable(z.string()),
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

export type ScopeInput = StoreSelection & {
	readonly since?: string;
	/** A project directory; default: the working directory's project. */
	readonly project?: string;
	readonly allProjects: boolean;
	readonly includeSubagents?: boolean;
};

export type CatalogView = {
	readonly db: import('../../lib/sqlite.js').Database;
	readonly targets: SourceTarget[];
	readonly filter: SessionFilter;
	readonly projectRoot: string | null;
	readonly since: string | null;
	readonly report: RefreshReport;
	readonly warnings: string[];
	/** True when the catalog lives in memory for this call only (the cache could not be used). */
	readonly inMemory: boolean;
	close(): void;
};

/**
 * Opens the catalog, refreshes it for the stores in scope, and works out the filter a listing
 * uses: the project of the working directory (or --project) unless --all-projects, and --since.
 * `damaged`: the catalog just failed a read as corrupt, so start from a new one.
 */
export function openCatalogView(input: ScopeInput, deps: Deps, damaged?: unknown): CatalogView {
	const targets = resolveTargets({source: input.source, sourceRoot: input.sourceRoot}, deps);
	const since = input.since === undefined ? null : parseSince(input.since, deps.now()).toISOString();
	const project = input.allProjects ? undefined : projectOf(input.project === undefined ? deps.cwd : resolve(deps.cwd, input.project));
	const {catalog, report} = refreshedCatalog(targets, deps, damaged);
	return {
		db: catalog.db,
		targets,
		filter: {
			scope: targets.flatMap(target => target.roots.map(root => ({source: target.adapter.id, root}))),
			project: project?.spellings,
			since: since ?? undefined,
			includeSubagents: input.includeSubagents ?? false,
		},
		projectRoot: project?.root ?? null,
		since,
		report,
		warnings: [...catalog.warnings, ...report.warnings],
		inMemory: catalog.path === null,
		close: () => catalog.db.close(),
	};
}

/**
 * The catalog brought up to date with the stores. A refresh that meets a damaged page starts
 * over on a new catalog (once); one that cannot write (the cache filled up mid-build, or turned
 * read-only) answers from a scan in memory, with a warning, and leaves what it committed.
 */
function refreshedCatalog(targets: readonly SourceTarget[], deps: Deps, damaged: unknown): {catalog: CatalogHandle; report: RefreshReport} {
	let catalog = damaged === undefined ? openCatalog(deps) : replaceDamagedCatalog(deps, damaged);
	let replaced = damaged !== undefined;
	for (;;) {
		try {
			return {catalog, report: refreshCatalog(catalog.db, targets)};
		} catch (error) {
			catalog.db.close();
			if (catalog.path === null || !(isCorruptDatabase(error) || cannotWrite(error))) {
				throw error;
			}

			catalog = isCorruptDatabase(error) && !replaced ? replaceDamagedCatalog(deps, error) : inMemoryCatalog(deps, error, catalog.warnings);
			replaced = true;
		}
	}
}

/**
 * Runs `use` over a refreshed catalog view. A read that meets a damaged page (SQLITE_CORRUPT)
 * replaces the catalog with a new one and runs `use` once more; nothing is checked in advance,
 * so the warm path pays nothing for this.
 */
export function withCatalogView<T>(input: ScopeInput, deps: Deps, use: (view: CatalogView) => T): T {
	let view = openCatalogView(input, deps);
	try {
		return use(view);
	} catch (error) {
		if (!isCorruptDatabase(error) || view.inMemory) {
			throw error;
		}

		view.close();
		view = openCatalogView(input, deps, error);
		return use(view);
	} finally {
		view.close();
	}
}

/** Sessions a listing page shows unless told otherwise. */
export const sessionsPageSize = 50;
/** A search page reads a snippet for each hit from its transcript: 20, as `engi query` shows. */
export const sessionSearchPageSize = 20;

export type SessionsInput = ScopeInput & {readonly limit?: number; readonly offset?: number; readonly q?: string};

/**
 * `engi sessions`: the sessions in scope, newest first, paged; with `q`, those whose text
 * matches, best first, subagent sessions included (what was said there is searched too).
 */
export function listSessions(given: SessionsInput, deps: Deps): SessionsOutput {
	const input = {
		...given,
		includeSubagents: Boolean(given.includeSubagents) || given.q !== undefined,
		limit: given.limit ?? (given.q === undefined ? sessionsPageSize : sessionSearchPageSize),
		offset: given.offset ?? 0,
	};
	return withCatalogView(input, deps, view => {
		if (input.q !== undefined) {
			return searchSessionsPage(view, input, input.q);
		}

		const {total, rows: page} = listCatalogPage(view.db, view.filter, input.offset, input.limit);
		const counts = subagentCounts(view.db, view.filter, page);
		return {
			q: null,
			scope: {
				project: view.projectRoot,
				all_projects: input.allProjects,
				since: view.since,
				sources: view.targets.map(target => ({source: target.adapter.id, roots: target.roots})),
			},
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

function searchSessionsPage(view: CatalogView, input: ScopeInput & {limit: number; offset: number}, q: string): SessionsOutput {
	const found = searchSessions(view, q, input.offset, input.limit);
	const total = found?.total ?? 0;
	const page = found?.page ?? [];
	const counts = subagentCounts(view.db, view.filter, page.map(match => match.row));
	const snippetsFor = snippetReader(view, q);
	return {
		q,
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

/** ` --source-root <dir>` for a printed command, when the session's store was named by one. */
export function sourceRootArgument(typedRoot: string | undefined): string {
	return typedRoot === undefined ? '' : ` --source-root ${shellWord(typedRoot)}`;
}
