import {resolve} from 'node:path';
import {projectOf} from '../../lib/project.js';
import {parseSince} from '../../lib/since.js';
import {cannotWrite, isBusy, isCorruptDatabase, type Database} from '../../lib/sqlite.js';
import {damageOf} from '../cache-damage.js';
import type {Deps} from '../deps.js';
import type {SessionFilter} from './list.js';
import {inMemoryCatalog, openCatalog, replaceDamagedCatalog, type CatalogHandle} from './open.js';
import {refreshCatalog, type RefreshReport} from './refresh.js';
import {hasListingIndexes} from './store.js';
import {resolveTargets, type SourceTarget, type StoreSelection} from './targets.js';

export type ScopeInput = StoreSelection & {
	readonly since?: string;
	/** A project directory; default: the working directory's project. */
	readonly project?: string;
	readonly allProjects: boolean;
	readonly includeSubagents?: boolean;
	/**
	 * Answer from the catalog as it stands, without looking at the stores, when it holds any
	 * session: the dashboard's first frame, which a refreshed answer replaces right after. A
	 * catalog with no session yet is refreshed as always, so the answer is never an empty guess.
	 */
	readonly cached?: boolean;
};

export type CatalogView = {
	readonly db: Database;
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
export async function openCatalogView(input: ScopeInput, deps: Deps, damaged?: unknown): Promise<CatalogView> {
	const targets = resolveTargets({source: input.source, sourceRoot: input.sourceRoot}, deps);
	const since = input.since === undefined ? null : parseSince(input.since, deps.now()).toISOString();
	const project = input.allProjects ? undefined : projectOf(input.project === undefined ? deps.cwd : resolve(deps.cwd, input.project));
	const {catalog, report} = await refreshedCatalog(targets, deps, damaged, input.cached ?? false);
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
 * read-only), or waited past the busy timeout for another process's write lock, answers from a
 * scan in memory, with a warning, and leaves what it committed.
 */
async function refreshedCatalog(targets: readonly SourceTarget[], deps: Deps, damaged: unknown, cached: boolean): Promise<{catalog: CatalogHandle; report: RefreshReport}> {
	let catalog = damaged === undefined ? openCatalog(deps) : replaceDamagedCatalog(deps, damaged);
	let replaced = damaged !== undefined;
	for (;;) {
		try {
			if (cached && catalog.path !== null && holdsSessions(catalog.db) && hasListingIndexes(catalog.db)) {
				return {catalog, report: {scanned: 0, unchanged: 0, removed: 0, warnings: [], unreadable: []}};
			}

			return {catalog, report: await refreshCatalog(catalog.db, targets, deps.env)};
		} catch (error) {
			catalog.db.close();
			if (catalog.path === null || !(isCorruptDatabase(error) || cannotWrite(error) || isBusy(error))) {
				throw error;
			}

			catalog = isCorruptDatabase(error) && !replaced ? replaceDamagedCatalog(deps, error) : inMemoryCatalog(deps, error, catalog.warnings);
			replaced = true;
		}
	}
}

/**
 * True once the catalog holds a unit: a catalog just made (or replaced) has none. (One whose
 * first refresh was killed before it made the listing indexes is refreshed, which makes them.)
 */
function holdsSessions(db: Database): boolean {
	return db.prepare('SELECT 1 FROM units LIMIT 1').get() !== undefined;
}

/**
 * Runs `use` over a refreshed catalog view. A read that meets a damaged page (SQLITE_CORRUPT)
 * replaces the catalog with a new one and runs `use` once more; nothing is checked in advance,
 * so the warm path pays nothing for this. Every command that reads the catalog does so through
 * here, so each rebuilds a damaged catalog with a warning and goes on. Damage of the index,
 * read inside `use`, is left to the index's own recovery.
 */
export async function withCatalogView<T>(input: ScopeInput, deps: Deps, use: (view: CatalogView) => T | Promise<T>): Promise<T> {
	let view = await openCatalogView(input, deps);
	try {
		return await use(view);
	} catch (error) {
		if (!damageOf(error, 'catalog') || view.inMemory) {
			throw error;
		}

		view.close();
		view = await openCatalogView(input, deps, error);
		return await use(view);
	} finally {
		view.close();
	}
}
