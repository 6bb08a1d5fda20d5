import {loadAdapter} from '../../adapters/stores.js';
import type {DiscoveredUnit, SourceAdapter} from '../../adapters/types.js';
import {rowsWithId} from '../catalog/list.js';
import type {CatalogRow} from '../catalog/scan.js';
import {unitOfRow} from '../catalog/unit-of-row.js';
import {withCatalogView, type CatalogView} from '../catalog/view.js';
import {typedRootOf, type StoreSelection} from '../catalog/targets.js';
import type {Deps} from '../deps.js';
import {EngiError} from '../../lib/errors.js';
import {normalizeSessionId} from './ids.js';

export type LocatedSession = {
	readonly adapter: SourceAdapter;
	readonly row: CatalogRow;
	readonly unit: DiscoveredUnit;
	readonly view: CatalogView;
	/** The `--source-root` the session's store was named by, if any, for printed commands. */
	readonly typedRoot: string | undefined;
};

/**
 * Runs `use` over one session found by exact id across the stores in scope. No match, several
 * matches (listed with their sources and paths) and an unreadable session are distinct errors.
 * A damaged catalog met while finding or reading it is rebuilt and `use` runs again (see
 * withCatalogView).
 */
export async function withLocatedSession<T>(input: StoreSelection & {id: string}, deps: Deps, use: (located: LocatedSession) => T | Promise<T>): Promise<T> {
	const id = normalizeSessionId(input.id);
	return withCatalogView({source: input.source, sourceRoot: input.sourceRoot, allProjects: true, includeSubagents: true}, deps, async view => {
		const rows = rowsWithId(view.db, view.filter.scope, id);
		if (rows.length === 0) {
			const sources = typeof input.source === 'string' ? [input.source] : (input.source ?? []);
			throw new EngiError('session_not_found', `conversation not found: ${id}${sources.length > 0 ? ` (source ${sources.join(', ')})` : ''}`, {
				hint: 'engi sessions --all-projects lists what engi can see; use --source <tool> --source-root <store> for a store outside the default paths',
			});
		}

		if (rows.length > 1) {
			throw new EngiError('session_ambiguous', `ambiguous conversation: ${id} exists in ${rows.length} places`, {
				hint: 'select one with --source and --source-root',
				details: {candidates: rows.map(row => ({source: row.source, path: row.path}))},
			});
		}

		const row = rows[0]!;
		if (row.error) {
			throw new EngiError('session_corrupt', `conversation ${id} cannot be read: ${row.error}`, {hint: 'the file is damaged or in a format engi does not know'});
		}

		const adapter = (await loadAdapter(row.source as SourceAdapter['id']))!;
		return use({adapter, row, unit: unitOfRow(row), view, typedRoot: typedRootOf(view.targets, row.source, row.root)});
	});
}
