import * as z from 'zod/mini';
import {defineCommand} from '../cli/define.js';
import {choiceFlag, intFlag, linesFlag} from '../cli/flag-schemas.js';
import {EngiError} from '../lib/errors.js';
import {readConversation, readOutputSchema, readPageSize} from '../engine/conversation/read.js';
import {views} from '../engine/conversation/views.js';
import {renderReadPage} from './render-read.js';
import {sourceOptions} from './shared.js';

/** How a read picks its rows: a page from a line (`--offset`, `--limit`) or exact `--lines`; resume's other views take the same. */
export const rangeOptions = {
	offset: {type: 'string', placeholder: '<n>', description: 'zero-based source line to start at (see next_offset)', value: intFlag(0, Number.MAX_SAFE_INTEGER)},
	limit: {type: 'string', placeholder: '<n>', description: `source rows per page, 1–100 (default ${readPageSize})`, value: intFlag(1, 100)},
	lines: {type: 'string', placeholder: '<a,b,c>', description: 'exactly these 1-based lines as native records (at most 100)', value: linesFlag()},
} as const;

export default defineCommand({
	name: 'read',
	summary: 'read one agent session, a page at a time (alias: conversation); the one command that shows transcript text unmasked, secrets included',
	usage: 'engi read <id> [--source <tool>] [--source-root <dir>] [--view dialogue|events|context|index] [--offset <n>] [--limit <n>] | [--lines a,b,c]',
	examples: [
		'engi read 0f9e2c1a-6b1d-4c1e-9a55-2d6f0e1b7c3d',
		'engi read 0f9e2c1a-6b1d-4c1e-9a55-2d6f0e1b7c3d --view context --offset 40 --limit 20',
		'engi read ses_4kQ2ZpLmVn --source opencode --lines 12,15',
	],
	options: {
		...sourceOptions,
		view: {type: 'string', placeholder: '<view>', description: 'dialogue (default): user and assistant text; events: native records; context: text plus bounded tool previews; index: one line per event', value: choiceFlag(views)},
		...rangeOptions,
	},
	positionals: [{name: 'id', required: true, description: 'a full session UUID or the tool\'s own session id', value: z.string()}],
	conflicts: [
		['lines', 'offset'],
		['lines', 'limit'],
	],
	needsRoot: false,
	mcp: {access: 'read', sets: ['continuity'], quotesTranscripts: true},
	output: readOutputSchema,
	async run(flags, context) {
		if (flags.lines && flags.view && flags.view !== 'events') {
			throw new EngiError('conflicting_flags', '--lines returns native records (the events view) and cannot be combined with --view ' + flags.view, {hint: 'drop --view, or use --offset/--limit'});
		}

		return {
			data: readConversation(
				{
					id: flags.id,
					source: flags.source,
					sourceRoot: flags['source-root'],
					view: flags.lines ? 'events' : (flags.view ?? 'dialogue'),
					offset: flags.offset,
					limit: flags.limit,
					lines: flags.lines,
				},
				context.deps,
			),
		};
	},
	human: renderReadPage,
});
