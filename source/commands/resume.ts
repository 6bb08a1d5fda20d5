import * as z from 'zod/mini';
import {defineCommand} from '../cli/define.js';
import {choiceFlag, intFlag, textFlag} from '../cli/flag-schemas.js';
import {EngiError} from '../lib/errors.js';
import {briefBudget, resumeOutputSchema, resumeSession, type ResumeOutput} from '../engine/continuity/resume.js';
import {views} from '../engine/conversation/views.js';
import {rangeOptions} from './read.js';
import {sourceOptions} from './shared.js';
import {renderBrief} from './render-brief.js';

export default defineCommand({
	name: 'resume',
	summary: 'a bounded, evidence-linked brief to pick a session up (or a page in another view)',
	usage: 'engi resume [id] [--source <tool>] [--since <when>] [--budget <tokens>] [--exact-tokens] [--view brief|context|dialogue|events|index] [--offset <n>] [--limit <n>] [--lines a,b]',
	examples: ['engi resume', 'engi resume 0f9e2c1a-6b1d-4c1e-9a55-2d6f0e1b7c3d --budget 1200', 'engi resume ses_4kQ2ZpLmVn --source opencode --view context --offset 40'],
	options: {
		...sourceOptions,
		project: {type: 'string', placeholder: '<dir>', description: 'without an id: pick the unfinished session of this project (default: the working directory\'s)', value: textFlag()},
		since: {type: 'string', placeholder: '<when>', description: 'without an id: choose among sessions active since (default: yesterday); as in engi unfinished', value: textFlag()},
		view: {type: 'string', placeholder: '<view>', description: 'brief (default), or context, dialogue, events, index as in engi read', value: choiceFlag(['brief', ...views] as const)},
		budget: {type: 'string', placeholder: '<tokens>', description: `largest brief in o200k tokens (default ${briefBudget}); the least recent items are dropped first`, value: intFlag(50, 1_000_000)},
		'exact-tokens': {type: 'boolean', description: 'count tokens exactly with the o200k encoder (slower to start) instead of a safe estimate', value: z.boolean()},
		offset: {...rangeOptions.offset, description: 'other views: zero-based source line to start at'},
		limit: {...rangeOptions.limit, description: 'other views: source rows per page (1–100)'},
		lines: {...rangeOptions.lines, description: 'exactly these lines as native records'},
	},
	positionals: [{name: 'id', description: 'the session (default: the one unfinished session of this project)', value: z.string()}],
	conflicts: [
		['id', 'since'],
		['lines', 'offset'],
		['lines', 'limit'],
		['lines', 'budget'],
	],
	needsRoot: false,
	mcp: {access: 'read', sets: ['continuity'], quotesTranscripts: true},
	output: resumeOutputSchema,
	async run(flags, context) {
		const paging = flags.offset !== undefined || flags.limit !== undefined || flags.lines !== undefined;
		const view = flags.view ?? (paging ? 'events' : 'brief');
		if (view === 'brief' && paging) {
			throw new EngiError('conflicting_flags', '--offset, --limit and --lines page through a session; the brief has no pages', {hint: 'add --view context (or dialogue, events, index)'});
		}

		const data = await resumeSession(
			{
				id: flags.id,
				source: flags.source,
				sourceRoot: flags['source-root'],
				project: flags.project,
				since: flags.since,
				view,
				budget: flags.budget,
				exactTokens: flags['exact-tokens'],
				offset: flags.offset,
				limit: flags.limit,
				lines: flags.lines,
			},
			context.deps,
		);
		const needsChoice = 'status' in data && (data.status === 'ambiguous' || data.status === 'not_found');
		return {data, exitCode: needsChoice ? 1 : 0};
	},
	human: (result: ResumeOutput, context) => renderBrief(result, context),
});
