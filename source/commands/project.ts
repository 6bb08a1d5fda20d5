import * as z from 'zod/mini';
import {defineCommand} from '../cli/define.js';
import {choiceFlag, intFlag} from '../cli/flag-schemas.js';
import {getProject, projectOutputSchema, type ProjectOutput} from '../engine/knowledge/project.js';
import {knowledgeBase, pagingOptions} from './shared.js';

function renderHuman(result: ProjectOutput): string {
	if (result.view === 'full') {
		return result.render;
	}

	if (result.view === 'evidence') {
		return JSON.stringify(result, null, 2);
	}

	const out = [`Recorded tasks: ${result.total} (terminal excluded: ${result.excluded_terminal}); next_offset=${result.next_offset ?? 'none'}`];
	for (const [id, projects, status, label, updated, nextAction, blockers] of result.rows) {
		out.push(`${projects.length > 0 ? projects.join(',') : '(unassigned)'} | [${status}] ${label} | ${id} | ${updated}`);
		if (nextAction) {
			out.push(`  Next: ${nextAction}`);
		}

		if (blockers.length > 0) {
			out.push(`  Blockers: ${blockers.join('; ')}`);
		}
	}

	out.push(`(${result.scope}; details: ${result.detail})`);
	return out.join('\n');
}

export default defineCommand({
	name: 'project',
	summary: 'the project/task brief: open tasks, next actions and blockers',
	usage: 'engi project [id] [--view brief|evidence|full] [--limit <n>] [--offset <n>]',
	examples: ['engi project', 'engi project engi --view evidence --limit 5', 'engi project project:engi --view full'],
	options: {
		view: {type: 'string', placeholder: '<brief|evidence|full>', description: 'brief (default): open tasks; evidence: all tasks with journal history; full: a readable page'},
		...pagingOptions,
	},
	positionals: [{name: 'id', description: 'project id, slug, label or directory name'}],
	flags: z.object({
		id: z.optional(z.string()),
		view: z.optional(choiceFlag(['brief', 'evidence', 'full'])),
		limit: z.optional(intFlag(1, 1000)),
		offset: z.optional(intFlag(0, Number.MAX_SAFE_INTEGER)),
	}),
	needsRoot: true,
	output: projectOutputSchema,
	screen: 'project',
	async run(flags, context) {
		return {data: await getProject(knowledgeBase(context), {id: flags.id, view: flags.view ?? 'brief', limit: flags.limit ?? 50, offset: flags.offset ?? 0}, context.deps)};
	},
	human: renderHuman,
});
