import * as z from 'zod/mini';
import {defineCommand, type HumanContext} from '../cli/define.js';
import {textFlag} from '../cli/flag-schemas.js';
import {listSessions, sessionSearchPageSize, sessionsOutputSchema, sessionsPageSize, type SessionsOutput} from '../engine/catalog/sessions.js';
import {clip, stateText, tsv} from '../output/text.js';
import {pageFooter, pagingOptions, scopeInput, scopeOptions, widerScope} from './shared.js';
import {plural} from '../lib/words.js';

function renderHuman(result: SessionsOutput, context: HumanContext): string {
	const scope = result.scope.all_projects ? 'all projects' : `project ${result.scope.project}`;
	// A degraded answer says so first, with what is missing from it.
	const lines = [`${result.state === 'degraded' ? `${stateText(result.state, result.reasons)}: ` : ''}${plural(result.total, 'session')} (${scope}${result.scope.since ? `, since ${result.scope.since}` : ''})`];
	if (result.total === 0) {
		lines.push(result.q === null ? widerScope(result.scope, context) : `no session has every word of "${result.q}"; try fewer words${result.scope.all_projects ? '' : ' or --all-projects'}`);
	}

	// An archived session (put away in its tool) says so before its title: it is never unfinished.
	lines.push(tsv(result.sessions.map(session => [session.modified ?? '', session.source, session.id, session.project, `${session.archived ? '[archived] ' : ''}${clip(session.title ?? '(no request)', 80)}`])));
	if (result.q !== null) {
		for (const session of result.sessions) {
			for (const match of session.matches ?? []) {
				lines.push(`${session.id}:${match.line}\t${match.snippet}`);
			}
		}
	}
	lines.push(...pageFooter(result, context));
	return lines.filter(Boolean).join('\n');
}

export default defineCommand({
	name: 'sessions',
	summary: 'list agent sessions, newest first (default: this project)',
	usage: 'engi sessions [--q <text>] [--source <tool>] [--since <when>] [--project <dir> | --all-projects] [--subagents] [--limit <n>] [--offset <n>]',
	examples: ['engi sessions', 'engi sessions --all-projects --since 3d', 'engi sessions --all-projects --q "flaky retry test"', 'engi sessions --source codex --source-root ~/backup/.codex --all-projects'],
	options: {
		...scopeOptions,
		q: {type: 'string', placeholder: '<text>', description: 'full-text search of what was said, tool names and file paths (all words must match)', value: textFlag()},
		subagents: {type: 'boolean', description: 'also list subagent and child sessions', value: z.boolean()},
		...pagingOptions,
		limit: {...pagingOptions.limit, description: `rows per page (default ${sessionsPageSize}; ${sessionSearchPageSize} with --q)`},
	},
	conflicts: [['project', 'all-projects']],
	needsRoot: false,
	mcp: {access: 'read', sets: ['continuity'], quotesTranscripts: true},
	output: sessionsOutputSchema,
	async run(flags, context) {
		return {
			data: await listSessions(
				{
					...scopeInput(flags),
					includeSubagents: flags.subagents,
					q: flags.q,
					limit: flags.limit,
					offset: flags.offset,
				},
				context.deps,
			),
		};
	},
	human: renderHuman,
});
