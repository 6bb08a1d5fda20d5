import {defineCommand} from '../cli/define.js';
import {getStatus, statusOutputSchema} from '../engine/knowledge/status.js';
import {tsv} from '../output/text.js';
import {knowledgeBase} from './shared.js';

export default defineCommand({
	name: 'status',
	summary: 'count nodes, live edges, events and quarantined lines',
	usage: 'engi status',
	examples: ['engi status', 'engi status --format json'],
	options: {},
	needsRoot: true,
	mcp: {access: 'read'},
	output: statusOutputSchema,
	async run(_flags, context) {
		return {data: await getStatus(knowledgeBase(context), context.deps)};
	},
	human: result =>
		[
			tsv([
				['root', result.root],
				['nodes', result.nodes],
				['edges', result.edges],
				['events', result.events],
				['quarantined', result.quarantined],
				['corrupt_lines', result.corrupt_lines],
				['index', `${result.index.refresh}${result.index.in_memory ? ' (in memory)' : ''}`],
			]),
			...result.warnings.map(warning => `warning\t${warning}`),
		].join('\n'),
});
