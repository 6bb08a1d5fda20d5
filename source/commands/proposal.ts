import {defineCommand} from '../cli/define.js';
import {textFlag} from '../cli/flag-schemas.js';
import {proposalApplyOutputSchema} from '../engine/evidence/proposal-output-schema.js';
import {applyText} from './contract-text.js';
import {knowledgeBase} from './shared.js';

export const proposalApply = defineCommand({
	name: 'proposal apply',
	summary: 'write a reviewed task proposal to the journal (only if every premise is supported and every pin holds)',
	usage: 'engi proposal apply <review.json>',
	examples: ['engi proposal apply review.json'],
	options: {},
	positionals: [{name: 'review', required: true, description: 'a review that engi query --proposal-review approved', value: textFlag()}],
	needsRoot: true,
	mcp: {access: 'write'},
	output: proposalApplyOutputSchema,
	async run(flags, context) {
		const {applyReview} = await import('../engine/evidence/proposal-apply.js');
		const {output, exitCode} = await applyReview(knowledgeBase(context), {file: flags.review}, context.deps);
		return {data: output, exitCode};
	},
	human: applyText,
});
