import * as z from 'zod/mini';
import {defineCommand} from '../cli/define.js';
import {readEventCount, requireKnowledgeBase, withIndex} from '../engine/index/open.js';
import {repairJournal} from '../engine/journal/quarantine.js';
import {knowledgeBase} from './shared.js';

export const indexRebuildOutputSchema = z.object({
	ok: z.boolean(),
	events: z.number(),
	nodes: z.number(),
	edges: z.number(),
	quarantined: z.array(z.object({line: z.number(), reason: z.string()})),
});

export default defineCommand({
	name: 'index rebuild',
	summary: 'rebuild the derived index from the journal (quarantining corrupt lines first)',
	usage: 'engi index rebuild',
	examples: ['engi index rebuild'],
	options: {},
	flags: z.object({}),
	needsRoot: true,
	output: indexRebuildOutputSchema,
	async run(_flags, context) {
		const paths = knowledgeBase(context);
		requireKnowledgeBase(paths);
		const repaired = await repairJournal(paths, context.deps);
		return withIndex(
			paths,
			context.deps,
			index => {
				const count = (sql: string) => index.db.prepare(sql).pluck().get() as number;
				return {
					data: {
						ok: true,
						events: readEventCount(index.db),
						nodes: count('SELECT count(*) FROM nodes'),
						edges: count('SELECT count(*) FROM edges'),
						quarantined: [...repaired.lines],
					},
				};
			},
			{forceRebuild: true, ...(repaired.healthy ? {scanned: repaired.healthy} : {})},
		);
	},
	human: result => [`index\trebuilt`, `events\t${result.events}`, `nodes\t${result.nodes}`, `edges\t${result.edges}`, ...result.quarantined.map(line => `quarantined\tline ${line.line}\t${line.reason}`)].join('\n'),
});
