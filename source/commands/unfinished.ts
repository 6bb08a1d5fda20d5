import * as z from 'zod/mini';
import {defineCommand} from '../cli/define.js';
import {intFlag, textFlag} from '../cli/flag-schemas.js';
import {listUnfinished, unfinishedOutputSchema, type UnfinishedOutput} from '../engine/sessions/unfinished.js';
import {clip, tsv} from '../output/text.js';
import {pagingOptions, scopeOptions} from './shared.js';

function renderHuman(result: UnfinishedOutput): string {
	const scope = result.scope.all_projects ? 'all projects' : `project ${result.scope.project}`;
	const lines = [`${result.total} unfinished candidate${result.total === 1 ? '' : 's'} (${scope}, since ${result.scope.since})`];
	lines.push(
		tsv(
			result.candidates.map(candidate => [
				candidate.modified ?? '',
				candidate.source,
				candidate.id,
				candidate.confidence + (candidate.active_now ? ' (active now)' : ''),
				candidate.reasons.map(reason => reason.code).join(',') || '-',
				clip(candidate.title ?? '(no request)', 70),
			]),
		),
	);
	if (result.next_offset !== null) {
		lines.push(`next_offset=${result.next_offset}`);
	}

	lines.push(...result.warnings.map(warning => `warning\t${warning}`));
	return lines.filter(Boolean).join('\n');
}

export default defineCommand({
	name: 'unfinished',
	summary: 'sessions whose work looks unfinished, with reasons and confidence',
	usage: 'engi unfinished [--since <when>] [--source <tool>] [--project <dir> | --all-projects] [--limit <n>] [--offset <n>]',
	examples: ['engi unfinished', 'engi unfinished --all-projects --since 3d', 'engi unfinished --source codex --since yesterday'],
	options: {...scopeOptions, ...pagingOptions},
	flags: z.object({
		source: z.optional(textFlag()),
		'source-root': z.optional(textFlag()),
		since: z.optional(textFlag()),
		project: z.optional(textFlag()),
		'all-projects': z.optional(z.boolean()),
		limit: z.optional(intFlag(1, 500)),
		offset: z.optional(intFlag(0, Number.MAX_SAFE_INTEGER)),
	}),
	conflicts: [['project', 'all-projects']],
	needsRoot: false,
	output: unfinishedOutputSchema,
	screen: 'unfinished',
	async run(flags, context) {
		return {
			data: listUnfinished(
				{
					source: flags.source,
					sourceRoot: flags['source-root'],
					since: flags.since,
					project: flags.project,
					allProjects: Boolean(flags['all-projects']),
					limit: flags.limit ?? 50,
					offset: flags.offset ?? 0,
				},
				context.deps,
			),
		};
	},
	human: renderHuman,
});
