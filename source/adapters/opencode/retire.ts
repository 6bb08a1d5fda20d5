import {basename, dirname} from 'node:path';
import type {DiscoveredUnit, Retirement} from '../types.js';
import {storageRootOf} from './storage.js';

/**
 * Only sessions of the legacy JSON tree are files of their own: `message/<session>/` and each
 * `part/<message>/` directory belong to the session alone. A session in the database lives among
 * every other session's rows, and engi never writes OpenCode's database.
 */
export function opencodeRetirement(unit: DiscoveredUnit): Retirement | undefined {
	if (unit.variant !== 'storage') {
		return undefined;
	}

	const storage = storageRootOf(unit.path);
	const directories = new Set<string>();
	for (const path of unit.paths) {
		const directory = dirname(path);
		const group = dirname(directory);
		// Flat early layouts keep files straight in `part/` or `message/`, which are shared.
		if (dirname(group) === storage && (basename(group) === 'message' || basename(group) === 'part')) {
			directories.add(directory);
		}
	}

	return {directories: [...directories], boundary: storage};
}
