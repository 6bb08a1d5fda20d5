import * as z from 'zod/mini';
import type {Deps} from '../deps.js';
import {countLiveEdges, countNodes, momentOf, readEventCount} from '../index/store.js';
import {withIndex} from '../index/open.js';
import {countQuarantined} from '../journal/quarantine.js';
import {countedLines} from '../journal/scan.js';
import type {KbPaths} from '../kb/paths.js';

export const indexStateSchema = z.object({
	refresh: z.enum(['fresh', 'applied', 'rebuilt']),
	in_memory: z.boolean(),
});

export const statusOutputSchema = z.object({
	root: z.string(),
	nodes: z.number(),
	edges: z.number(),
	events: z.number(),
	quarantined: z.number(),
	corrupt_lines: z.number(),
	index: indexStateSchema,
	warnings: z.array(z.string()),
});

export type StatusOutput = z.infer<typeof statusOutputSchema>;

/** Counts of the knowledge base as of now: nodes, live edges, distinct events, quarantined lines. */
export async function getStatus(paths: KbPaths, deps: Deps): Promise<StatusOutput> {
	return withIndex(paths, deps, index => {
		const quarantine = countQuarantined(paths);
		const warnings = [...index.warnings];
		if (index.corrupt.length > 0) {
			warnings.push(`journal_corrupt_lines: ${countedLines(index.corrupt.map(line => line.line))}; a writing command quarantines them, engi doctor explains`);
		}

		return {
			root: paths.root,
			nodes: countNodes(index.db),
			edges: countLiveEdges(index.db, momentOf(deps)),
			events: readEventCount(index.db),
			quarantined: quarantine.lines,
			corrupt_lines: index.corrupt.length,
			index: {refresh: index.refresh, in_memory: index.inMemory},
			warnings,
		};
	});
}
