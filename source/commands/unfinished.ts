import {defineCommand, type HumanContext} from '../cli/define.js';
import {listUnfinished, unfinishedOutputSchema, type UnfinishedOutput} from '../engine/continuity/unfinished.js';
import {clip, tsv} from '../output/text.js';
import {pageFooter, pagingOptions, scopeInput, scopeOptions, widerScope} from './shared.js';
import {plural} from '../lib/words.js';

function renderHuman(result: UnfinishedOutput, context: HumanContext): string {
	const scope = result.scope.all_projects ? 'all projects' : `project ${result.scope.project}`;
	const lines = [`${plural(result.total, 'unfinished candidate')} (${scope}, since ${result.scope.since})`];
	if (result.total === 0) {
		lines.push(widerScope(result.scope, context));
	}

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
	lines.push(...pageFooter(result, context));
	return lines.filter(Boolean).join('\n');
}

export default defineCommand({
	name: 'unfinished',
	summary: 'sessions whose work looks unfinished, with reasons and confidence',
	usage: 'engi unfinished [--since <when>] [--source <tool>] [--project <dir> | --all-projects] [--limit <n>] [--offset <n>]',
	examples: ['engi unfinished', 'engi unfinished --all-projects --since 3d', 'engi unfinished --source codex --since yesterday'],
	options: {...scopeOptions, ...pagingOptions},
	conflicts: [['project', 'all-projects']],
	needsRoot: false,
	mcp: {access: 'read', sets: ['continuity'], quotesTranscripts: true},
	output: unfinishedOutputSchema,
	screen: 'unfinished',
	async run(flags, context) {
		return {
			data: await listUnfinished(
				{
					...scopeInput(flags),
					limit: flags.limit,
					offset: flags.offset,
				},
				context.deps,
			),
		};
	},
	human: renderHuman,
});
