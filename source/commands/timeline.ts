import * as z from 'zod/mini';
import {defineCommand} from '../cli/define.js';
import {intFlag} from '../cli/flag-schemas.js';
import {getTimeline, timelineOutputSchema} from '../engine/knowledge/timeline.js';
import {tsv} from '../output/text.js';
import {knowledgeBase, pageFooter, pagingOptions} from './shared.js';

export default defineCommand({
	name: 'timeline',
	summary: 'list journal events in order, optionally for one period',
	usage: 'engi timeline [prefix] [--limit <n>] [--offset <n>]',
	examples: ['engi timeline', 'engi timeline 2026-09 --limit 20'],
	options: {...pagingOptions, limit: {...pagingOptions.limit, value: intFlag(1, 1000)}},
	positionals: [{name: 'prefix', description: 'a prefix of observed_utc, e.g. 2026-09 or 2026-09-14T10', value: z.string()}],
	needsRoot: true,
	mcp: {access: 'read'},
	output: timelineOutputSchema,
	async run(flags, context) {
		return {data: await getTimeline(knowledgeBase(context), {prefix: flags.prefix, limit: flags.limit, offset: flags.offset}, context.deps)};
	},
	human: (result, context) =>
		[
			result.total === 0 ? 'no journal events' + (context.flags['prefix'] === undefined ? '' : ` observed at ${String(context.flags['prefix'])}…; try a shorter prefix`) : '',
			tsv(result.entries.map(entry => [entry.observed_utc, entry.line, entry.op, entry.summary + (entry.duplicate ? ' (duplicate)' : '')])),
			...pageFooter(result, context),
		]
			.filter(Boolean)
			.join('\n'),
});
