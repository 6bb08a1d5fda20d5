import * as z from 'zod/mini';
import {defineCommand} from '../cli/define.js';
import {choiceFlag, intFlag, textFlag} from '../cli/flag-schemas.js';
import {EngiError} from '../lib/errors.js';
import {briefBudget, resumeOutputSchema, resumeSession, type ResumeOutput} from '../engine/continuity/resume.js';
import {views} from '../engine/conversation/views.js';
import {rangeOptions} from './read.js';
import {attachmentLine, checkPacketFlags, packetConflicts, packetOptions, renderPacketResult} from './packet-flags.js';
import {sourceOptions} from './shared.js';
import {renderBrief} from './render-brief.js';

export default defineCommand({
	name: 'resume',
	summary: 'a bounded, evidence-linked brief to pick a session up (or a page in another view)',
	usage: 'engi resume [id] [--source <tool>] [--since <when>] [--budget <tokens>] [--exact-tokens] [--view brief|context|dialogue|events|index] [--offset <n>] [--limit <n>] [--lines a,b] [--no-compact] [--no-deltas] [--attachment-refs] [--prune] [--preview-chars <n|all>]',
	examples: ['engi resume', 'engi resume 0f9e2c1a-6b1d-4c1e-9a55-2d6f0e1b7c3d --budget 1200', 'engi resume ses_4kQ2ZpLmVn --source opencode --view context --offset 40 --prune', 'engi resume 0f9e2c1a-6b1d-4c1e-9a55-2d6f0e1b7c3d --no-compact'],
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
		...packetOptions,
		compact: {...packetOptions.compact, description: 'encode compactly (the default with --format json; docs/encodings.md)'},
		'no-compact': {type: 'boolean', description: 'print the plain brief or page', value: z.boolean()},
		deltas: {...packetOptions.deltas, description: 'also share runs of lines between strings (the default with --compact)'},
		'no-deltas': {type: 'boolean', description: 'compact, without the edges layer', value: z.boolean()},
		prune: {...packetOptions.prune, description: 'other views: replace tool output later steps made obsolete by a note, and add a receipt'},
	},
	positionals: [{name: 'id', description: 'the session (default: the one unfinished session of this project)', value: z.string()}],
	conflicts: [
		['id', 'since'],
		['lines', 'offset'],
		['lines', 'limit'],
		['lines', 'budget'],
		['compact', 'no-compact'],
		['deltas', 'no-deltas'],
		['deltas', 'no-compact'],
		['attachment', 'no-compact'],
		['attachment', 'budget'],
		...packetConflicts,
	],
	needsRoot: false,
	mcp: {access: 'read', sets: ['continuity'], quotesTranscripts: true},
	output: resumeOutputSchema,
	async run(flags, context) {
		checkPacketFlags(flags, true);
		const attachment = flags.attachment === undefined ? undefined : {line: attachmentLine(flags), pointer: flags.attachment, sha256: flags['expect-sha256']!};
		const paging = flags.offset !== undefined || flags.limit !== undefined || flags.lines !== undefined;
		const view = flags.view ?? (paging ? 'events' : 'brief');
		if (view === 'brief' && paging && !attachment) {
			throw new EngiError('conflicting_flags', '--offset, --limit and --lines page through a session; the brief has no pages', {hint: 'add --view context (or dialogue, events, index)'});
		}

		if (view === 'brief' && (flags.prune || flags['attachment-refs'])) {
			throw new EngiError('conflicting_flags', `--${flags.prune ? 'prune' : 'attachment-refs'} works on pages of a session; the brief quotes no whole tool output`, {hint: flags.prune ? 'add --view context or --view events' : 'add --view events'});
		}

		// Agents pay for every token: JSON is compact unless asked otherwise; text for a person is always plain.
		const compact = !flags['no-compact'] && (Boolean(flags.compact) || context.format === 'json');

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
				encoding: {compact, deltas: compact && !flags['no-deltas'], attachmentRefs: Boolean(flags['attachment-refs'])},
				prune: Boolean(flags.prune),
				previewChars: flags['preview-chars'],
				attachment,
			},
			context.deps,
		);
		const needsChoice = 'status' in data && (data.status === 'ambiguous' || data.status === 'not_found');
		return {data, exitCode: needsChoice ? 1 : 0};
	},
	human: (result: ResumeOutput, context) => renderPacketResult(result, context, (page, pageContext) => renderBrief(page as ResumeOutput, pageContext)),
});
