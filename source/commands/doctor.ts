import {defineCommand} from '../cli/define.js';
import {doctorOutputSchema, runDoctor} from '../engine/knowledge/doctor.js';
import {tsv} from '../output/text.js';
import {knowledgeBase} from './shared.js';

export default defineCommand({
	name: 'doctor',
	summary: 'check the knowledge base without changing it (exit 0 clean, 1 warnings, 2 corruption)',
	usage: 'engi doctor',
	examples: ['engi doctor', 'engi doctor --format json'],
	options: {},
	needsRoot: true,
	mcp: {access: 'read'},
	output: doctorOutputSchema,
	async run(_flags, context) {
		const {output, exitCode} = runDoctor(() => knowledgeBase(context), context.deps);
		return {data: output, exitCode};
	},
	human: result => [tsv(result.checks.map(check => [check.name, check.ok ? 'ok' : check.severity === 'warning' ? 'WARN' : 'FAIL', check.detail])), `exit_code\t${result.exit_code}`].join('\n'),
});
