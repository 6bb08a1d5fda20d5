import * as z from 'zod/mini';
import {defineCommand} from '../cli/define.js';
import {intFlag} from '../cli/flag-schemas.js';
import {blockerCodes} from '../engine/retention/blockers.js';
import {planOutputSchema, planPageSize, planRetention, type RetentionSummary} from '../engine/retention/plan.js';
import {defaultRetentionDays} from '../engine/retention/window.js';
import {plural} from '../lib/words.js';
import {tsv} from '../output/text.js';
import {knowledgeBase, pagingOptions, sourceOptions} from './shared.js';

// `engi retention plan` on its own module, with what the other retention commands share: the
// plan, the most frequent of them, loads neither the sweep nor purge, attest and the log.

export const windowOptions = {
	'retention-days': {type: 'string', placeholder: '<n>', description: `keep sessions active within the last n days (default ${defaultRetentionDays})`, value: intFlag(0, 36_500)},
	'no-retention': {type: 'boolean', description: 'no window: only the other gates keep a session', value: z.boolean()},
} as const;

export const windowConflict = ['retention-days', 'no-retention'] as const;

/** The window as the engine takes it: none is 0 days, not given is the engine's default. */
export function retentionDays(flags: {'retention-days'?: number; 'no-retention'?: boolean}): number | undefined {
	return flags['no-retention'] ? 0 : flags['retention-days'];
}

export const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

export function summaryLines(result: RetentionSummary): string[] {
	const codes = blockerCodes.filter(code => result.blocker_codes[code] > 0);
	return [
		`window\t${result.retention_days === 0 ? 'none' : plural(result.retention_days, 'day')}\tcutoff ${result.cutoff_utc}`,
		`sessions\t${result.total} total\t${result.eligible} eligible\t${result.compactable} compactable\t${result.blocked} blocked`,
		`bytes\t${mib(result.bytes)} total\t${mib(result.eligible_bytes)} eligible\t${mib(result.compactable_bytes)} compactable`,
		tsv([['source', 'total', 'eligible', 'compactable', 'blocked', 'bytes'], ...result.by_source.filter(row => row.total > 0).map(row => [row.source, row.total, row.eligible, row.compactable, row.blocked, mib(row.bytes)])]),
		...(codes.length === 0 ? [] : [tsv([['blocker', 'sessions'], ...codes.map(code => [code, result.blocker_codes[code]])])]),
		...(result.interrupted > 0 ? [`interrupted\t${plural(result.interrupted, 'purge attempt')} never finished; engi retention sweep finishes them`] : []),
	];
}

export const retentionPlan = defineCommand({
	name: 'retention plan',
	summary: 'which sessions could be retired now, and what blocks the rest (reads only)',
	usage: 'engi retention plan [--source <tool>] [--source-root <dir>] [--retention-days <n> | --no-retention] [--details [--limit <n>] [--offset <n>]]',
	examples: ['engi retention plan', 'engi retention plan --details --source codex', 'engi retention plan --retention-days 30'],
	options: {
		...sourceOptions,
		...windowOptions,
		details: {type: 'boolean', description: 'list the sessions, each with its blockers and targets', value: z.boolean()},
		...pagingOptions,
		limit: {...pagingOptions.limit, description: `sessions per page with --details (default ${planPageSize})`},
	},
	conflicts: [windowConflict],
	needsRoot: true,
	mcp: {access: 'read'},
	output: planOutputSchema,
	async run(flags, context) {
		const data = await planRetention(
			{source: flags.source, sourceRoot: flags['source-root'], retentionDays: retentionDays(flags), details: Boolean(flags.details), offset: flags.offset, limit: flags.limit},
			knowledgeBase(context),
			context.deps,
		);
		return {data};
	},
	human: (result, context) =>
		[
			...summaryLines(result),
			...(result.sessions === null ? [] : [tsv(result.sessions.map(session => [session.status, session.source, session.session_id, mib(session.bytes), session.blockers.map(blocker => blocker.code).join(',')]))]),
			...result.warnings.map(warning => `warning\t${warning}`),
			result.next_offset === null ? '' : `next: ${context.page(result.next_offset)}`,
		]
			.filter(Boolean)
			.join('\n'),
});

