import * as z from 'zod/mini';
import {defineCommand, type CommandContext} from '../cli/define.js';
import {listFlag, textFlag} from '../cli/flag-schemas.js';
import {sourceIds} from '../adapters/types.js';
import {normalizeSessionId} from '../engine/conversation/ids.js';
import {EngiError} from '../lib/errors.js';
import {attestOutputSchema, attestSession} from '../engine/retention/attest.js';
import {logOutputSchema, logPageSize, retentionLog} from '../engine/retention/log.js';
import {purgeOutputSchema, purgeSession} from '../engine/retention/purge.js';
import {sweepOutputSchema, sweepRetention, type SweepProgress} from '../engine/retention/sweep.js';
import {plural} from '../lib/words.js';
import {tsv} from '../output/text.js';
import {knowledgeBase, pagingOptions, sourceOptions} from './shared.js';
import {mib, retentionDays, summaryLines, windowConflict, windowOptions} from './retention-plan.js';

const idPositional = [{name: 'id', required: true, description: 'the session\'s full UUID or its tool\'s own id', value: z.string()}] as const;

export const retentionAttest = defineCommand({
	name: 'retention attest',
	summary: 'pin a closed session\'s bytes to the knowledge taken from it (a retention receipt)',
	usage: 'engi retention attest <id> --source <tool> [--source-root <dir>] --knowledge-node <node>… --session-closed',
	examples: ['engi retention attest 0f9e2c1a-6b1d-4c1e-9a55-2d6f0e1b7c3d --source codex --knowledge-node decision:stream-csv --session-closed'],
	options: {
		source: {type: 'string', placeholder: '<tool>', description: `the session's store: ${sourceIds.join(', ')}`, value: z.pipe(textFlag(), z.enum(sourceIds)), required: true},
		'source-root': sourceOptions['source-root'],
		'knowledge-node': {
			type: 'string',
			multiple: true,
			placeholder: '<node>',
			description: 'a knowledge node with a DERIVED_FROM or DISCUSSED_IN edge to conversation:<source>:<id> (repeat or comma-separate)',
			value: z.pipe(listFlag(), z.array(z.string()).check(z.minLength(1, 'must name a knowledge node'))),
			required: true,
		},
		'session-closed': {type: 'boolean', description: 'the session is over: nothing will be written to it again', value: z.boolean()},
	},
	positionals: idPositional,
	needsRoot: true,
	mcp: {access: 'write'},
	output: attestOutputSchema,
	async run(flags, context) {
		// Checked before anything else: a path or `..` never reaches the disk.
		const id = normalizeSessionId(flags.id);
		const data = await attestSession(
			{id, source: flags.source, sourceRoot: flags['source-root'], knowledgeNodes: flags['knowledge-node'], sessionClosed: Boolean(flags['session-closed'])},
			knowledgeBase(context),
			context.deps,
		);
		return {data};
	},
	human: result =>
		[
			`${result.appended ? 'attested' : 'unchanged'}\t${result.id}`,
			`session\t${result.source} ${result.session_id}\t${mib(result.source_bytes)}\tsha256 ${result.source_sha256}`,
			`knowledge\t${result.knowledge_node_ids.join(', ')}`,
			tsv(result.targets.map(target => ['target', target.kind, target.path, target.bytes, target.sha256 ?? ''])),
		].join('\n'),
});

export const retentionPurge = defineCommand({
	name: 'retention purge',
	summary: 'delete one attested session\'s files (a dry run unless --execute; exit 2 when refused)',
	usage: 'engi retention purge <id> [--source <tool>] [--source-root <dir>] [--retention-days <n> | --no-retention] [--execute]',
	examples: ['engi retention purge 0f9e2c1a-6b1d-4c1e-9a55-2d6f0e1b7c3d --source codex', 'engi retention purge 0f9e2c1a-6b1d-4c1e-9a55-2d6f0e1b7c3d --source codex --execute'],
	options: {...sourceOptions, ...windowOptions, execute: {type: 'boolean', description: 'delete, after checking every target again right before it goes', value: z.boolean()}},
	positionals: idPositional,
	conflicts: [windowConflict],
	needsRoot: true,
	mcp: {access: 'read', withheld: ['execute']},
	output: purgeOutputSchema,
	async run(flags, context) {
		// Checked before anything else: a path or `..` never reaches the disk.
		const id = normalizeSessionId(flags.id);
		const data = await purgeSession({id, source: flags.source, sourceRoot: flags['source-root'], retentionDays: retentionDays(flags), execute: Boolean(flags.execute)}, knowledgeBase(context), context.deps);
		return {data, exitCode: data.status === 'refused' || data.status === 'failed' ? 2 : 0};
	},
	human: result =>
		[
			`${result.status}\t${result.source} ${result.session_id}${result.status === 'dry_run' ? `\t${result.eligible ? 'eligible: --execute deletes the targets below' : 'blocked'}` : ''}`,
			...result.blockers.map(blocker => `blocker\t${blocker.code}\t${blocker.detail}`),
			...(result.failure ? [`failure\t${result.failure.code}\t${result.failure.detail}`] : []),
			tsv(result.targets.map(target => ['target', target.kind, target.path, target.bytes])),
			...(result.executed ? [`deleted\t${result.deleted_targets.length}\tfreed ${mib(result.freed_bytes)}${result.hard_linked_bytes > 0 ? `\t${mib(result.hard_linked_bytes)} kept by other hard links` : ''}`] : []),
			...result.other_hard_links.map(link => `hard link\t${link.path}\t${plural(link.links, 'other name')}`),
		]
			.filter(Boolean)
			.join('\n'),
});

/** Progress lines on stderr, at most one a second, once a sweep has run for a second. */
function progressReporter(context: CommandContext): (progress: SweepProgress) => void {
	const started = Date.now();
	let last = 0;
	return ({done, total, item}) => {
		const now = Date.now();
		if (now - started < 1000 || (now - last < 1000 && done < total)) {
			return;
		}

		last = now;
		context.stderr.write(context.format === 'json' ? `${JSON.stringify({progress: {done, total, session_id: item.session_id, source: item.source, status: item.status}})}\n` : `engi: sweep ${done}/${total}: ${item.status} ${item.source} ${item.session_id}\n`);
	};
}

export const retentionSweep = defineCommand({
	name: 'retention sweep',
	summary: 'retire every retirable session: dry run with a plan digest, then --execute --plan <sha256> (exit 2 if any failed)',
	usage: 'engi retention sweep [--source <tool>] [--source-root <dir>] [--retention-days <n> | --no-retention] [--details] [--execute --plan <sha256>]',
	examples: ['engi retention sweep', 'engi retention sweep --details', 'engi retention sweep --execute --plan 4b1c…'],
	options: {
		...sourceOptions,
		...windowOptions,
		details: {type: 'boolean', description: 'list every planned item (and with --execute, what happened to each)', value: z.boolean()},
		execute: {type: 'boolean', description: 'compact and delete, item by item, each checked again right before', value: z.boolean()},
		plan: {type: 'string', placeholder: '<sha256>', description: 'the plan_sha256 of the dry run being executed: refused if the plan changed', value: textFlag()},
	},
	conflicts: [windowConflict],
	needsRoot: true,
	mcp: {access: 'read', withheld: ['execute', 'plan']},
	output: sweepOutputSchema,
	async run(flags, context) {
		if (flags.plan !== undefined && !flags.execute) {
			throw new EngiError('conflicting_flags', '--plan goes with --execute', {hint: 'a dry run prints the plan; add --execute to carry it out'});
		}

		const {output, failed} = await sweepRetention(
			{
				source: flags.source,
				sourceRoot: flags['source-root'],
				retentionDays: retentionDays(flags),
				execute: Boolean(flags.execute),
				plan: flags.plan,
				details: Boolean(flags.details),
				onProgress: progressReporter(context),
			},
			knowledgeBase(context),
			context.deps,
		);
		return {data: output, exitCode: failed ? 2 : 0};
	},
	human: result =>
		[
			...summaryLines(result),
			`plan\t${result.plan_sha256}\t${plural(result.planned, 'item')}`,
			result.executed
				? `done\t${result.removed} removed (${result.compacted} compacted first)\t${result.failed} failed\tfreed ${mib(result.native_bytes_removed)}\tcompact copies ${mib(result.compact_bytes_written)}`
				: result.planned > 0
					? `next: engi retention sweep --execute --plan ${result.plan_sha256} (with the same flags)`
					: '',
			...(result.items === null ? [] : [tsv(result.items.map(item => [item.status, item.action, item.source, item.session_id, mib(item.bytes), item.failure ? `${item.failure.code}: ${item.failure.detail}` : '']))]),
			...result.warnings.map(warning => `warning\t${warning}`),
		]
			.filter(Boolean)
			.join('\n'),
});

export const retentionLogCommand = defineCommand({
	name: 'retention log',
	summary: 'purge attempts, receipts and failures, newest first (an attempt without either is interrupted)',
	usage: 'engi retention log [--limit <n>] [--offset <n>]',
	examples: ['engi retention log', 'engi retention log --format json'],
	options: {...pagingOptions, limit: {...pagingOptions.limit, description: `rows per page (default ${logPageSize})`}},
	needsRoot: true,
	mcp: {access: 'read'},
	output: logOutputSchema,
	async run(flags, context) {
		return {data: await retentionLog({offset: flags.offset, limit: flags.limit}, knowledgeBase(context), context.deps)};
	},
	human: (result, context) =>
		[
			`${plural(result.attempts, 'attempt')}: ${result.purged} purged, ${result.failed} failed, ${result.interrupted} interrupted`,
			tsv(result.entries.map(entry => [entry.observed_utc, entry.kind, entry.outcome ?? entry.reason ?? '', entry.source, entry.session_id, entry.kind === 'attempt' ? plural(entry.targets.length, 'target') : `${entry.targets.length} deleted`, entry.id])),
			result.next_offset === null ? '' : `next: ${context.page(result.next_offset)}`,
		]
			.filter(Boolean)
			.join('\n'),
});
