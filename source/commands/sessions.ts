import * as z from 'zod/mini';
import {defineCommand} from '../cli/define.js';
import {intFlag, textFlag} from '../cli/flag-schemas.js';
import {listSessions, sessionsOutputSchema, type SessionsOutput} from '../engine/catalog/sessions.js';
import {clip, tsv} from '../output/text.js';
import {pagingOptions, scopeOptions} from './shared.js';

function renderHuman(result: SessionsOutput): string {
	const scope = result.scope.all_projects ? 'all projects' : `project ${result.scope.project}`;
	const lines = [`${result.total} session${result.total === 1 ? '' : 's'} (${scope}${result.scope.since ? `, since ${result.scope.since}` : ''})`];
	lines.push(tsv(result.sessions.map(session => [session.modified ?? '', session.source, session.id, session.project, clip(session.title ?? '(no request)', 80)])));
	if (result.q !== null) {
		for (const session of result.sessions) {
			for (const match of session.matches ?? []) {
				lines.push(`${session.id}:${match.line}\t${match.snippet}`);
			}
		}
	}
	if (result.next_offset !== null) {
		lines.push(`next_offset=${result.next_offset}`);
	}

	lines.push(...result.warnings.map(warning => `warning\t${warning}`));
	return lines.filter(Boolean).join('\n');
}

export default defineCommand({
	name: 'sessions',
	summary: 'list agent sessions, newest first (default: this project)',
	usage: 'engi sessions [--q <text>] [--source <tool>] [--since <when>] [--project <dir> | --all-projects] [--subagents] [--limit <n>] [--offset <n>]',
	examples: ['engi sessions', 'engi sessions --all-projects --since 3d', 'engi sessions --all-projects --q "flaky retry test"', 'engi sessions --source codex --source-root ~/backup/.codex --all-projects'],
	options: {
		...scopeOptions,
		q: {type: 'string', placeholder: '<text>', description: 'full-text search of what was said, tool names and file paths (all words must match)'},
		subagents: {type: 'boolean', description: 'also list subagent and child sessions'},
		...pagingOptions,
	},
	flags: z.object({
		source: z.optional(textFlag()),
		'source-root': z.optional(textFlag()),
		since: z.optional(textFlag()),
		project: z.optional(textFlag()),
		'all-projects': z.optional(z.boolean()),
		q: z.optional(textFlag()),
		subagents: z.optional(z.boolean()),
		limit: z.optional(intFlag(1, 500)),
		offset: z.optional(intFlag(0, Number.MAX_SAFE_INTEGER)),
	}),
	conflicts: [['project', 'all-projects']],
	needsRoot: false,
	output: sessionsOutputSchema,
	async run(flags, context) {
		return {
			data: listSessions(
				{
					source: flags.source,
					sourceRoot: flags['source-root'],
					since: flags.since,
					project: flags.project,
					allProjects: Boolean(flags['all-projects']),
					includeSubagents: Boolean(flags.subagents) || flags.q !== undefined,
					q: flags.q,
					limit: flags.limit ?? 50,
					offset: flags.offset ?? 0,
				},
				context.deps,
			),
		};
	},
	human: renderHuman,
});
