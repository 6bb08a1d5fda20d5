import {loadAdapter} from '../../adapters/stores.js';
import type {SourceAdapter} from '../../adapters/types.js';
import type {CatalogRow} from '../catalog/scan.js';
import {withCatalogView, type CatalogView} from '../catalog/view.js';
import {catalogRowsByKey} from '../catalog/list.js';
import type {Deps} from '../deps.js';
import {EngiError} from '../../lib/errors.js';
import type {CandidateNote} from './note.js';

export type CandidateSource = {readonly view: CatalogView; readonly row: CatalogRow; readonly adapter: SourceAdapter};

/**
 * Runs `use` over the transcript a queued candidate was harvested from, and nothing else: the
 * store root and the path its note records, looked up by the catalog key of that path. Evidence
 * never discovers sessions; what an agent can be shown is what a harvest already put in the
 * queue. A damaged catalog met on the way is rebuilt and `use` runs again (withCatalogView).
 */
export async function withCandidateSource<T>(note: CandidateNote, deps: Deps, use: (source: CandidateSource) => T | Promise<T>): Promise<T> {
	const missing = (why: string) =>
		new EngiError('source_missing', `the transcript of ${note.source} session ${note.native_id} is no longer where it was harvested (${note.source_path}): ${why}`, {
			hint: 'nothing was changed; a moved transcript needs a new harvest',
		});
	try {
		return await withCatalogView({source: [note.source], sourceRoot: [note.source_root], allProjects: true, includeSubagents: true}, deps, async view => {
			const key = note.source_key ?? note.source_path;
			const row = catalogRowsByKey(view.db, [key]).get(key);
			if (!row || row.source !== note.source || row.path !== note.source_path || !view.filter.scope.some(entry => entry.root === row.root)) {
				throw missing('no session there now');
			}

			if (row.error) {
				throw new EngiError('session_corrupt', `conversation ${note.native_id} cannot be read: ${row.error}`, {hint: 'the file is damaged or in a format engi does not know'});
			}

			return use({view, row, adapter: (await loadAdapter(row.source as SourceAdapter['id']))!});
		});
	} catch (error) {
		if (error instanceof EngiError && error.code === 'source_root_missing') {
			throw missing('its store is gone');
		}

		throw error;
	}
}
