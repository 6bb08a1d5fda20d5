import * as z from 'zod/mini';
import {defineCommand, type HumanContext} from '../cli/define.js';
import {intFlag, textFlag} from '../cli/flag-schemas.js';
import {buildStandup, standupCandidatesPerProject, standupOutputSchema, type StandupOutput} from '../engine/continuity/standup.js';
import {clip} from '../output/text.js';
import {plural} from '../lib/words.js';
import {sourceOptions} from './shared.js';

function renderHuman(result: StandupOutput, context: HumanContext): string {
	const out = [
		`Stand-up since ${result.since}`,
		`${plural(result.totals.candidates, 'unfinished session')} (${result.totals.high} high confidence) in ${plural(result.totals.projects, 'project')}; checkpoints: ${result.totals.checkpoints_active} active, ${result.totals.checkpoints_blocked} blocked${result.totals.tasks === null ? '' : `; ${plural(result.totals.tasks, 'open task')}`}`,
		'',
	];
	if (result.projects.length === 0) {
		out.push(`Nothing unfinished and no open checkpoint${result.project ? ` in ${result.project}` : ''} since ${result.since.slice(0, 10)}; try ${context.flags['since'] === undefined ? '--since 1w' : 'a wider --since (e.g. --since 4w)'}${result.project ? ' or --all-projects' : ''}.`, '');
	}

	for (const project of result.projects) {
		out.push(`## ${project.project} — ${project.summary}`);
		for (const candidate of project.candidates) {
			const reason = candidate.reasons[0];
			out.push(`  [${candidate.confidence}] ${candidate.source} ${candidate.id}  ${clip(candidate.title ?? '(no request)', 60)}`);
			if (reason) {
				out.push(`      ${reason.code}: ${clip(reason.detail, 80)}`);
			}
		}

		if (project.candidates_total > project.candidates.length) {
			out.push(`  … ${project.candidates_total - project.candidates.length} more${project.more ? `: ${project.more}` : ''}`);
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
	usage: 'engi standup [--since <when>] [--source <tool>] [--project <dir> | --all-projects] [--limit <n>]',
	examples: ['engi standup', 'engi standup --since 3d', 'engi standup --project ~/src/engi', 'engi standup --format json'],
	options: {
		since: {type: 'string', placeholder: '<when>', description: 'default: the start of the last working day', value: textFlag()},
		source: sourceOptions.source,
		project: {type: 'string', placeholder: '<dir>', description: 'only this project', value: textFlag()},
		'all-projects': {type: 'boolean', description: 'every project (the default), as the dashboard takes it', value: z.boolean()},
		limit: {type: 'string', placeholder: '<n>', description: `unfinished sessions shown per project, newest first (default ${standupCandidatesPerProject}; each project's \`more\` lists the rest)`, value: intFlag(1, 500)},
	},
	conflicts: [['project', 'all-projects']],
	needsRoot: false,
	mcp: {access: 'read', quotesTranscripts: true},
	output: standupOutputSchema,
	screen: 'standup',
	async run(flags, context) {
		return {data: await buildStandup({since: flags.since, source: flags.source, project: flags.project, rootFlag: context.rootFlag, limit: flags.limit}, context.deps)};
	},
	human: renderHuman,
});
