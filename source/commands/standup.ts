import * as z from 'zod/mini';
import {defineCommand} from '../cli/define.js';
import {textFlag} from '../cli/flag-schemas.js';
import {buildStandup, standupOutputSchema, type StandupOutput} from '../engine/sessions/standup.js';
import {clip} from '../output/text.js';
import {plural} from '../engine/util/plural.js';

function renderHuman(result: StandupOutput): string {
	const out = [
		`Stand-up since ${result.since}`,
		`${plural(result.totals.candidates, 'unfinished session')} (${result.totals.high} high confidence) in ${plural(result.totals.projects, 'project')}; checkpoints: ${result.totals.checkpoints_active} active, ${result.totals.checkpoints_blocked} blocked${result.totals.tasks === null ? '' : `; ${plural(result.totals.tasks, 'open task')}`}`,
		'',
	];
	for (const project of result.projects) {
		out.push(`## ${project.project} — ${project.summary}`);
		for (const candidate of project.candidates) {
			const reason = candidate.reasons[0];
			out.push(`  [${candidate.confidence}] ${candidate.source} ${candidate.id}  ${clip(candidate.title ?? '(no request)', 60)}`);
			if (reason) {
				out.push(`      ${reason.code}: ${clip(reason.detail, 80)}`);
			}
		}

		for (const checkpoint of project.checkpoints) {
			out.push(`  checkpoint ${checkpoint.status}: ${clip(checkpoint.objective, 60)}`);
			if (checkpoint.next_action) {
				out.push(`      next: ${clip(checkpoint.next_action, 80)}`);
			}

			for (const blocker of checkpoint.blockers) {
				out.push(`      blocker: ${clip(blocker, 80)}`);
			}
		}

		out.push('');
	}

	if (result.tasks) {
		out.push(`## Open tasks in ${result.tasks.root} (${result.tasks.total})`);
		for (const task of result.tasks.rows) {
			out.push(`  [${task.status}] ${task.label}${task.next_action ? ` — next: ${task.next_action}` : ''}${task.blockers.length > 0 ? ` — blocked: ${task.blockers.join('; ')}` : ''}`);
		}
	}

	out.push(...result.warnings.map(warning => `warning: ${warning}`));
	return out.join('\n').trimEnd();
}

export default defineCommand({
	name: 'standup',
	summary: 'the morning review: unfinished sessions by project, open checkpoints and tasks',
	usage: 'engi standup [--since <when>] [--source <tool>]',
	examples: ['engi standup', 'engi standup --since 3d', 'engi standup --format json'],
	options: {
		since: {type: 'string', placeholder: '<when>', description: 'default: the start of the last working day'},
		source: {type: 'string', placeholder: '<tool>', description: 'only one store'},
	},
	flags: z.object({since: z.optional(textFlag()), source: z.optional(textFlag())}),
	needsRoot: false,
	output: standupOutputSchema,
	screen: 'standup',
	async run(flags, context) {
		return {data: buildStandup({since: flags.since, source: flags.source, rootFlag: context.rootFlag}, context.deps)};
	},
	human: renderHuman,
});
