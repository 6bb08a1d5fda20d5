import * as z from 'zod/mini';
import type {Deps} from '../deps.js';
import {repairJournal} from '../journal/quarantine.js';
import type {KbPaths} from '../kb/paths.js';
import {countEdges, countNodes, readEventCount} from './store.js';
import {requireKnowledgeBase, withIndex} from './open.js';

export const indexRebuildOutputSchema = z.object({
	ok: z.boolean(),
	events: z.number(),
	nodes: z.number(),
	edges: z.number(),
	quarantined: z.array(z.object({line: z.number(), reason: z.string()})),
});

export type IndexRebuildOutput = z.infer<typeof indexRebuildOutputSchema>;

/**
 * `engi index rebuild`: quarantines the journal's corrupt lines, then builds the index again
 * from the journal as that repair left it (reusing the repair's scan when the file is still the
 * one it read), and counts what the new index holds: every edge row, retracted or not.
 */
export async function rebuildIndex(paths: KbPaths, deps: Deps): Promise<IndexRebuildOutput> {
	requireKnowledgeBase(paths);
	const repaired = await repairJournal(paths, deps);
	return withIndex(
		paths,
		deps,
		index => ({ok: true, events: readEventCount(index.db), nodes: countNodes(index.db), edges: countEdges(index.db), quarantined: [...repaired.lines]}),
		{forceRebuild: true, ...(repaired.healthy ? {scanned: repaired.healthy} : {})},
	);
}
