import * as z from 'zod/mini';
import {defineCommand, type HumanContext} from '../cli/define.js';
import {choiceFlag, intFlag} from '../cli/flag-schemas.js';
import {getProject, projectOutputSchema, type ProjectOutput} from '../engine/knowledge/project.js';
import {fieldLines, stateText} from '../output/text.js';
import {plural} from '../lib/words.js';
import {knowledgeBase, pageFooter, pagingOptions} from './shared.js';

function renderHuman(result: ProjectOutput, context: HumanContext): string {
	if (result.view === 'full') {
		return result.state === 'ok' ? result.render : stateText(result.state, result.reasons);
	}

	const out = [`${result.state === 'ok' || result.state === 'empty' ? '' : `${stateText(result.state, result.reasons)}: `}${plural(result.total, 'recorded task')}${result.project ? ` in ${result.project}` : ''} (${result.view === 'brief' ? `${result.excluded_terminal} done or dropped left out` : 'done and dropped included'})`];
	if (result.total === 0) {
		out.push('record one with engi graph node --kind Task --id task:<slug> --label <text>, and engi graph relate --edge BELONGS_TO to a project');
	}

	if (result.view === 'evidence') {
		if (result.project_node) {
			out.push(...fieldLines(result.project_node.node, '  '));
		}

		for (const task of result.tasks) {
			out.push(`${task.projects.length > 0 ? task.projects.join(',') : '(unassigned)'} | [${task.status}] ${task.label} | ${task.id} | ${task.updated}`, ...fieldLines(task.node, '  '));
			for (const entry of task.history) {
				out.push(`  journal line ${entry.line} ${entry.at} ${entry.op} ${entry.event}`, ...fieldLines(entry.payload, '    '));
			}
		}

		out.push(`(${result.scope})`, ...pageFooter(result, context));
		return out.filter(Boolean).join('\n');
	}

	for (const [id, projects, status, label, updated, nextAction, blockers] of result.rows) {
		out.push(`${projects.length > 0 ? projects.join(',') : '(unassigned)'} | [${status}] ${label} | ${id} | ${updated}`);
		if (nextAction) {
			out.push(`  Next: ${nextAction}`);
		}

		if (blockers.length > 0) {
			out.push(`  Blockers: ${blockers.join('; ')}`);
		}
	}

	out.push(`(${result.scope}; details: ${result.detail})`, ...pageFooter(result, context));
	return out.filter(Boolean).join('\n');
}

export default defineCommand({
	name: 'project',
	summary: 'the project/task brief: open tasks, next actions and blockers',
	usage: 'engi project [id] [--view brief|evidence|full] [--limit <n>] [--offset <n>]',
	examples: ['engi project', 'engi project engi --view evidence --limit 5', 'engi project project:engi --view full'],
	options: {
		view: {type: 'string', placeholder: '<brief|evidence|full>', description: 'brief (default): open tasks; evidence: all tasks with journal history; full: a readable page', value: choiceFlag(['brief', 'evidence', 'full'])},
		...pagingOptions,
		limit: {...pagingOptions.limit, value: intFlag(1, 1000)},
	},
	positionals: [{name: 'id', description: 'project id, slug, label or directory name', value: z.string()}],
	needsRoot: true,
	mcp: {access: 'read'},
	output: projectOutputSchema,
	screen: 'project',
	async run(flags, context) {
		const {output, exitCode} = await getProject(knowledgeBase(context), {id: flags.id, view: flags.view, limit: flags.limit, offset: flags.offset}, context.deps);
		return {data: output, exitCode};
	},
	human: renderHuman,
});
