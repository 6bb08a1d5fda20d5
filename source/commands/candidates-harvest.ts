import * as z from 'zod/mini';
import {defineCommand} from '../cli/define.js';
import {harvestCandidates, harvestOutputSchema, type HarvestOutput} from '../engine/candidates/harvest.js';
import {harvestPending} from '../engine/hooks/harvest-pending.js';
import {plural} from '../lib/words.js';
import {tsv} from '../output/text.js';
import {commandCounts} from './render-candidates.js';
import {knowledgeBase, scopeInput, scopeOptions} from './shared.js';

function renderHarvest(result: HarvestOutput): string {
	const {counts} = result;
	const lines = [
		`${plural(counts.considered, 'session')} considered: ${counts.written} written${counts.grown > 0 ? ` (${counts.grown} beside an earlier note: the transcript grew)` : ''}, ${counts.unchanged} unchanged, ${counts.active} still running (written in the last two minutes, left for later), ${counts.failed} failed`,
		result.consent.granted_now ? `consent recorded for this knowledge base (${result.consent.at})` : '',
		tsv(result.written.map(note => ['written', note.ref, plural(note.turns, 'turn'), commandCounts(note.commands) || 'no commands', note.project ?? 'unknown project'])),
		tsv(result.written.flatMap(note => note.masked.map(masked => ['masked', note.ref, masked.line === null ? masked.field : `line ${masked.line}`, masked.pattern]))),
		tsv(result.written.filter(note => note.private_spans > 0).map(note => ['private', note.ref, `${plural(note.private_spans, 'private span')} kept out`])),
		tsv(result.failed.map(failure => ['failed', failure.source, failure.native_id, failure.reason])),
		...result.warnings.map(warning => `warning\t${warning}`),
		counts.written > 0 ? 'next: engi candidates list' : '',
	];
	return lines.filter(Boolean).join('\n');
}

export const candidatesHarvest = defineCommand({
	name: 'candidates harvest',
	summary: 'write a candidate note of each session in scope (mechanical facts, masked)',
	usage: 'engi candidates harvest [id… | --pending] [--since <when>] [--source <tool>] [--project <dir> | --all-projects] [--consent]',
	examples: ['engi candidates harvest --consent', 'engi candidates harvest --all-projects --since 3d', 'engi candidates harvest 0f9e2c1a-6b1d-4c1e-9a55-2d6f0e1b7c3d --source claude', 'engi candidates harvest --pending'],
	options: {
		...scopeOptions,
		pending: {type: 'boolean', description: 'harvest the sessions hooks queued (engi hook pending) instead of the scope', value: z.boolean()},
		consent: {type: 'boolean', description: 'allow copying facts of private transcripts into this knowledge base (needed once, recorded in .engi/config.json)', value: z.boolean()},
	},
	positionals: [{name: 'id', variadic: true, description: 'sessions to harvest (default: those of the scope flags)', value: z.array(z.string())}],
	conflicts: [['project', 'all-projects'], ['pending', 'id'], ['pending', 'project'], ['pending', 'all-projects'], ['pending', 'since'], ['pending', 'source']],
	needsRoot: true,
	mcp: {access: 'write', withheld: ['consent']},
	output: harvestOutputSchema,
	async run(flags, context) {
		const scope = {...scopeInput(flags), consent: Boolean(flags.consent)};
		return {data: flags.pending ? await harvestPending(knowledgeBase(context), scope, context.deps) : await harvestCandidates(knowledgeBase(context), {...scope, ids: flags.id ?? []}, context.deps)};
	},
	human: renderHarvest,
});

