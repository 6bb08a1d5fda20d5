import {readdirSync} from 'node:fs';
import {join} from 'node:path';
import {homeOf, type Deps} from '../deps.js';

export const localScanLimits = {maxDepth: 3, maxEntries: 5000, maxResults: 25} as const;

/**
 * When the graph knows nothing and `query --local-scan` asks for it (never by default: the
 * names of personal files are private), a bounded look at file names in ~/Documents and
 * ~/Downloads: names only (no file is opened, no symlink followed), every query word must
 * appear in the name, and the limits are reported so an empty answer is understood as "not
 * found within these bounds".
 */
export function scanLocalFiles(words: readonly string[], deps: Deps) {
	const home = homeOf(deps);
	const roots = home ? [join(home, 'Documents'), join(home, 'Downloads')] : [];
	const wanted = words.map(word => word.toLowerCase()).filter(Boolean);
	const paths: string[] = [];
	let scanned = 0;
	let truncated = false;
	const visit = (directory: string, depth: number) => {
		let entries;
		try {
			entries = readdirSync(directory, {withFileTypes: true}).sort((a, b) => (a.name < b.name ? -1 : 1));
		} catch {
			return;
		}

		for (const entry of entries) {
			if (scanned >= localScanLimits.maxEntries || paths.length >= localScanLimits.maxResults) {
				truncated = true;
				return;
			}

			scanned++;
			const path = join(directory, entry.name);
			const name = entry.name.toLowerCase();
			if (wanted.length > 0 && wanted.every(word => name.includes(word))) {
				paths.push(path);
			}

			if (entry.isDirectory() && depth < localScanLimits.maxDepth && !entry.name.startsWith('.')) {
				visit(path, depth + 1);
			}
		}
	};

	for (const root of roots) {
		visit(root, 1);
	}

	return {roots, paths, limits: {max_depth: localScanLimits.maxDepth, max_entries: localScanLimits.maxEntries, max_results: localScanLimits.maxResults, scanned, truncated}};
}
