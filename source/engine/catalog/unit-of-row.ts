import type {DiscoveredUnit} from '../../adapters/types.js';
import type {CatalogRow} from './scan.js';

/**
 * The discovered unit a catalog row was scanned from, rebuilt from the row (the inverse of the
 * scanner's baseRow), to read the session again. Kept apart from the scanner: a search needs
 * this for its snippets, not the scanner's ~30 KB.
 */
export function unitOfRow(row: CatalogRow): DiscoveredUnit {
	return {
		key: row.key,
		path: row.path,
		paths: row.paths,
		size: row.size,
		fingerprint: row.fingerprint,
		mtimeMs: row.mtime_ms,
		...(row.summary.id ? {idHint: row.summary.id} : {}),
		...(row.summary.parent_id ? {parentIdHint: row.summary.parent_id} : {}),
		...(row.summary.project ? {projectHint: row.summary.project} : {}),
		...(row.variant ? {variant: row.variant} : {}),
		...(row.archived ? {archived: true} : {}),
	};
}
