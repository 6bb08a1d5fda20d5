import * as z from 'zod/mini';
import {defineCommand} from '../cli/define.js';
import {choiceFlag, textFlag} from '../cli/flag-schemas.js';
import {hookAgents, hookEvents, hookScopes} from '../engine/hooks/agents.js';
import {hookInstallOutputSchema, installHook} from '../engine/hooks/install.js';
import {hookPendingOutputSchema, listPending, pendingPageSize} from '../engine/hooks/pending.js';
import {hookRunOutputSchema, runHook} from '../engine/hooks/run.js';
import {parseInputJson, readBoundedInput} from '../lib/bounded-input.js';
import {plural} from '../lib/words.js';
import {tsv} from '../output/text.js';
import {knowledgeBase, pageFooter, pagingOptions} from './shared.js';

/** A hook payload is a few hundred bytes; anything near this is not one. */
const payloadLimitBytes = 1024 * 1024;

export const hookInstall = defineCommand({
	name: 'hook install',
	summary: 'merge engi\'s session-end hook into an agent\'s own config file (idempotent, backed up)',
	usage: 'engi hook install --agent <agent> [--scope user|project] [--command <engi>] [--dry-run]',
	examples: ['engi hook install --agent claude', 'engi hook install --agent codex --dry-run', 'engi hook install --agent copilot --scope project --format json'],
	options: {
		agent: {type: 'string', placeholder: '<agent>', description: `one of ${hookAgents.join(', ')}`, value: choiceFlag(hookAgents), required: true},
		scope: {type: 'string', placeholder: '<scope>', description: 'user (the agent\'s config in your home) or project (this git project\'s); default user, project for copilot', value: choiceFlag(hookScopes)},
		command: {type: 'string', placeholder: '<engi>', description: 'how the hook calls engi (default engi, found on the agent\'s PATH), e.g. "node /opt/engi/build/cli.js"', value: textFlag()},
		'dry-run': {type: 'boolean', description: 'print the file as it would be written; change nothing', value: z.boolean()},
	},
	needsRoot: false,
	// It edits another program's configuration: a person's decision, never an agent's tool.
	mcp: {access: 'never'},
	output: hookInstallOutputSchema,
	async run(flags, context) {
		return {data: installHook({agent: flags.agent, scope: flags.scope, command: flags.command, dryRun: Boolean(flags['dry-run'])}, context.deps)};
	},
	human: result =>
		[
			`${result.dry_run && result.action !== 'unchanged' ? `would be ${result.action}` : result.action}\t${result.path}\t${result.native_event}\t${result.command}`,
			result.backup ? `backup\t${result.backup}` : '',
			result.merged ?? '',
			...result.notes.map(note => `note\t${note}`),
		]
			.filter(Boolean)
			.join('\n'),
});

export const hookRun = defineCommand({
	name: 'hook run',
	summary: 'queue the session an agent\'s hook names for a candidate harvest (never fails the agent)',
	usage: 'engi hook run --event session-end|stop|pre-compact [--agent <agent>] [--session-id <id>] [--transcript <file>] [--cwd <dir>] [--print]',
	examples: ['echo \'{"session_id":"0f9e2c1a-6b1d-4c1e-9a55-2d6f0e1b7c3d","transcript_path":"/tmp/t.jsonl","cwd":"/srv/app"}\' | engi hook run --event session-end --agent claude --print'],
	options: {
		event: {type: 'string', placeholder: '<event>', description: `one of ${hookEvents.join(', ')}`, value: choiceFlag(hookEvents), required: true},
		agent: {type: 'string', placeholder: '<agent>', description: `the agent whose hook runs: ${hookAgents.join(', ')}`, value: choiceFlag(hookAgents)},
		'session-id': {type: 'string', placeholder: '<id>', description: 'the session, when the payload does not say', value: textFlag()},
		transcript: {type: 'string', placeholder: '<file>', description: 'the transcript, when the payload does not say', value: textFlag()},
		cwd: {type: 'string', placeholder: '<dir>', description: 'the session\'s working directory (default: the payload\'s, else the current one)', value: textFlag()},
		print: {type: 'boolean', description: 'print the result (by default stdout stays empty: it belongs to the agent\'s hook protocol)', value: z.boolean()},
	},
	needsRoot: true,
	exitsZero: true,
	// It answers an agent's hook on stdin; an MCP host has no payload to hand it.
	mcp: {access: 'never'},
	output: hookRunOutputSchema,
	async run(flags, context) {
		const stdin = context.stdin as NodeJS.ReadableStream & {isTTY?: boolean};
		const bytes = stdin.isTTY ? Buffer.alloc(0) : await readBoundedInput('-', stdin, context.deps.cwd, payloadLimitBytes);
		const payload = bytes.toString('utf8').trim() === '' ? {} : parseInputJson(bytes, 'the hook payload on stdin');
		const data = runHook(knowledgeBase(context), {event: flags.event, agent: flags.agent, payload, sessionId: flags['session-id'], transcript: flags.transcript, cwd: flags.cwd}, context.deps);
		return flags.print ? {data} : {data, silent: true};
	},
	human: result => [`${result.status}\t${result.path}\t${result.session_id ?? 'no session id'}`, `next: ${result.harvest}`].join('\n'),
});

export const hookPending = defineCommand({
	name: 'hook pending',
	summary: 'the sessions hooks queued, and whether a harvest has taken each',
	usage: 'engi hook pending [--limit <n>] [--offset <n>]',
	examples: ['engi hook pending', 'engi hook pending --format json', 'engi hook pending --limit 20 --offset 20'],
	options: {...pagingOptions, limit: {...pagingOptions.limit, description: `rows per page (default ${pendingPageSize})`}},
	needsRoot: true,
	mcp: {access: 'read'},
	output: hookPendingOutputSchema,
	async run(flags, context) {
		return {data: await listPending(knowledgeBase(context), {limit: flags.limit, offset: flags.offset})};
	},
	human: (result, context) =>
		[
			`${plural(result.total, 'pending note')}: ${result.counts.queued} queued, ${result.counts.harvested} harvested${result.counts.unreadable > 0 ? `, ${result.counts.unreadable} unreadable` : ''}`,
			tsv(result.pending.map(row => [row.status, row.agent ?? '-', row.session_id ?? '-', row.queued_at ?? '-', row.status === 'queued' ? (row.harvest ?? '') : (row.candidate ?? row.path)])),
			...pageFooter(result, context),
		]
			.filter(Boolean)
			.join('\n'),
});
