import {resolve} from 'node:path';
import * as z from 'zod/mini';
import type {Deps} from '../deps.js';
import {parseSince} from '../util/since.js';
import {projectOf} from '../util/project.js';
import {listCatalogRows, sessionEntrySchema, subagentCounts, toEntry, type SessionFilter} from './list.js';
import {openCatalog} from './open.js';
import {refreshCatalog, type RefreshReport} from './refresh.js';
import {resolveTargets, type SourceTarget} from './targets.js';

export const catalogStateSchema = z.object({scanned: z.number(), unchanged: z.number(), removed: z.number()});

export const sessionsOutputSchema = z.object({
	scope: z.object({
		project: z.nullable(z.string()),
		all_projects: z.boolean(),
		since: z.nullable(z.string()),
		sources: z.array(z.object({source: z.string(), roots: z.array(z.string())})),
	}),
	total: z.number(),
	offset: z.number(),
	next_offset: z.nullable(z.number()),
	sessions: z.array(sessionEntrySchema),
	catalog: catalogStateSchema,
	warnings: z.array(z.string()),
});

export type SessionsOutput = z.infer<typeof sessionsOutputSchema>;

export type ScopeInput = {
	readonly source?: string;
	readonly sourceRoot?: string;
	readonly since?: string;
	/** A project directory; default: the working directory's project. */
	readonly project?: string;
	readonly allProjects: boolean;
	readonly includeSubagents?: boolean;
};

export type CatalogView = {
	readonly db: import('../util/sqlite.js').Database;
	readonly targets: SourceTarget[];
	readonly filter: SessionFilter;
	readonly projectRoot: string | null;
	readonly since: string | null;
	readonly report: RefreshReport;
	readonly warnings: string[];
	close(): void;
};

/**
 * Opens the catalog, refreshes it for the stores in scope, and works out the filter a listing
 * uses: the project of the working directory (or --project) unless --all-projects, and --since.
 */
export function openCatalogView(input: ScopeInput, deps: Deps): CatalogView {
	const targets = resolveTargets({source: input.source, sourceRoot: input.sourceRoot}, deps);
	const since = input.since === undefined ? null : parseSince(input.since, deps.now()).toISOString();
	const project = input.allProjects ? undefined : projectOf(input.project === undefined ? deps.cwd : resolve(deps.cwd, input.project));
	const catalog = openCatalog(deps);
	try {
		const report = refreshCatalog(catalog.db, targets);
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
			close: () => catalog.db.close(),
		};
	} catch (error) {
		catalog.db.close();
		throw error;
	}
}

/** `engi sessions`: the sessions in scope, newest first, paged. */
export function listSessions(input: ScopeInput & {limit: number; offset: number}, deps: Deps): SessionsOutput {
	const view = openCatalogView(input, deps);
	try {
		const rows = listCatalogRows(view.db, view.filter);
		const counts = subagentCounts(view.db, view.filter);
		const page = rows.slice(input.offset, input.offset + input.limit);
		return {
			scope: {
				project: view.projectRoot,
				all_projects: input.allProjects,
				since: view.since,
				sources: view.targets.map(target => ({source: target.adapter.id, roots: target.roots})),
			},
			total: rows.length,
			offset: input.offset,
			next_offset: input.offset + page.length < rows.length ? input.offset + page.length : null,
			sessions: page.map(row => toEntry(row, counts.get(`${row.source}\u0000${row.summary.id ?? row.key}`) ?? 0)),
			catalog: {scanned: view.report.scanned, unchanged: view.report.unchanged, removed: view.report.removed},
			warnings: view.warnings,
		};
	} finally {
		view.close();
	}
}
