import * as z from 'zod/mini';
import {defineCommand} from '../cli/define.js';
import {textFlag} from '../cli/flag-schemas.js';
import {dream, dreamOutputSchema, type DreamOutput} from '../engine/upkeep/dream.js';
import {tsv} from '../output/text.js';
import {plural} from '../lib/words.js';
import {knowledgeBase} from './shared.js';

function renderHuman(result: DreamOutput): string {
	const head = `${result.dry_run ? 'dry run: would append ' : ''}${plural(result.appended, 'event')}${result.dry_run ? '' : ' appended'} as of ${result.as_of}${result.resumed ? ' (resumed a stopped run)' : ''}`;
	const rows = result.steps.map(step => [step.step, step.name, step.status, Object.entries(step.counts).map(([key, value]) => `${key} ${value}`).join(', '), `${step.appended} events`, `${step.ms} ms`]);
	return [head, tsv(rows)].join('\n');
}

export default defineCommand({
	name: 'dream',
	summary: 'deterministic upkeep: decay, lifecycle, entities, trivia, wiki sync, archiving, co-occurrence',
	usage: 'engi dream [--steps 1-7] [--dry-run]',
	examples: ['engi dream', 'engi dream --steps 1,2,6 --dry-run'],
	options: {
		steps: {type: 'string', placeholder: '<list>', description: 'which of steps 1-7 to run: a range (1-7) or a list (1,3,5); default all', value: textFlag()},
		'dry-run': {type: 'boolean', description: 'count what each step would do; append and save nothing (wiki sync is left out)', value: z.boolean()},
	},
	needsRoot: true,
	mcp: {access: 'write'},
	output: dreamOutputSchema,
	async run(flags, context) {
		return {data: await dream(knowledgeBase(context), {steps: flags.steps, dryRun: Boolean(flags['dry-run'])}, context.deps)};
	},
	human: renderHuman,
});
