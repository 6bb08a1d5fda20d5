import {defineCommand} from '../cli/define.js';
import {indexRebuildOutputSchema, rebuildIndex} from '../engine/index/rebuild.js';
import {knowledgeBase} from './shared.js';

export default defineCommand({
	name: 'index rebuild',
	summary: 'rebuild the derived index from the journal (quarantining corrupt lines first)',
	usage: 'engi index rebuild',
	examples: ['engi index rebuild'],
	options: {},
	needsRoot: true,
	mcp: {access: 'write'},
	output: indexRebuildOutputSchema,
	async run(_flags, context) {
		return {data: await rebuildIndex(knowledgeBase(context), context.deps)};
	},
	human: result => [`index\trebuilt`, `events\t${result.events}`, `nodes\t${result.nodes}`, `edges\t${result.edges}`, ...result.quarantined.map(line => `quarantined\tline ${line.line}\t${line.reason}`)].join('\n'),
});
