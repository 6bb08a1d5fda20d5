import * as z from 'zod/mini';
import {defineCommand} from '../cli/define.js';
import {checkHarvest, harvestOutputSchema, ingestHarvest, ingestOutputSchema} from '../engine/knowledge/ingest.js';
import {tsv} from '../output/text.js';
import {knowledgeBase} from './shared.js';
import {plural} from '../lib/words.js';

export const harvest = defineCommand({
	name: 'harvest',
	summary: 'check the staged notes in 00-inbox/harvest/ (reads only; --check is the default)',
	usage: 'engi harvest [--check]',
	examples: ['engi harvest --check', 'engi harvest --check --format json'],
	options: {check: {type: 'boolean', description: 'report what ingest would do (always a dry run)', value: z.boolean()}},
	needsRoot: true,
	mcp: {access: 'read'},
	output: harvestOutputSchema,
	async run(_flags, context) {
		const {output, exitCode} = await checkHarvest(knowledgeBase(context), context.deps);
		return {data: output, exitCode};
	},
	human: result =>
		[
			`${plural(result.files.length, 'staged note')}: ${result.counts.new} new, ${result.counts.changed} changed, ${result.counts.unchanged} unchanged, ${result.counts.invalid} invalid, ${result.counts.secrets} holding secrets${result.counts.skipped > 0 ? `; ${plural(result.counts.skipped, 'inbox entry', 'inbox entries')} skipped` : ''}`,
			tsv(result.files.map(file => [file.status, file.path, file.node ?? '', [...file.reasons.map(reason => `${reason.line ?? '-'}: ${reason.message}`), ...file.secrets.map(secret => `line ${secret.line}: ${secret.pattern}`)].join('; ')])),
			tsv(result.skipped.map(entry => ['skipped', entry.path, entry.reason])),
		]
			.filter(Boolean)
			.join('\n'),
});

export const ingest = defineCommand({
	name: 'ingest',
	summary: 'append new and changed staged notes to the journal (secrets refused unless --redact)',
	usage: 'engi ingest [--redact] [--allow-dangling]',
	examples: ['engi ingest', 'engi ingest --redact'],
	options: {
		redact: {type: 'boolean', description: 'mask credential-shaped values and record that they were masked, instead of refusing the note', value: z.boolean()},
		'allow-dangling': {type: 'boolean', description: 'allow links to nodes that do not exist yet', value: z.boolean()},
	},
	needsRoot: true,
	mcp: {access: 'write'},
	output: ingestOutputSchema,
	async run(flags, context) {
		const {output, exitCode} = await ingestHarvest(knowledgeBase(context), {redact: Boolean(flags.redact), allowDangling: Boolean(flags['allow-dangling'])}, context.deps);
		return {data: output, exitCode};
	},
	human: result =>
		[
			`appended ${plural(result.appended, 'event')} from ${plural(result.added.length, 'note')}; ${result.unchanged.length} unchanged`,
			...result.added.map(file => `added\t${file.path}\t${file.node}\t${file.status}`),
			...result.invalid.map(file => `invalid\t${file.path}\t${file.reasons.map(reason => `${reason.line ?? '-'}: ${reason.message}`).join('; ')}`),
			...result.refused.map(file => `refused\t${file.path}\t${file.secrets.map(secret => `line ${secret.line}: ${secret.pattern}`).join('; ')} (pass --redact to mask)`),
			...result.redacted.map(file => `redacted\t${file.path}\t${file.secrets.map(secret => `line ${secret.line}: ${secret.pattern}`).join('; ')}`),
			...result.skipped.map(entry => `skipped\t${entry.path}\t${entry.reason}`),
		].join('\n'),
});
