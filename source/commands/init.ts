import * as z from 'zod/mini';
import {defineCommand} from '../cli/define.js';
import {initKnowledgeBase, initOutputSchema} from '../engine/kb/init.js';
import {lines} from '../output/text.js';

export default defineCommand({
	name: 'init',
	summary: 'create a knowledge base and register it as the default root',
	usage: 'engi init <absolute path> [--git] [--no-register] [--force]',
	examples: ['engi init "$HOME/kb"', 'engi init "$HOME/kb" --git', 'engi init /srv/team-kb --no-register'],
	options: {
		'no-register': {type: 'boolean', description: 'do not record it as the global default root', value: z.boolean()},
		force: {type: 'boolean', description: 'add the layout to a non-empty directory', value: z.boolean()},
		git: {type: 'boolean', description: 'also make it a git repository (git init), to share it between machines with pull and push', value: z.boolean()},
	},
	positionals: [{name: 'path', required: true, description: 'absolute directory for the knowledge base', value: z.string()}],
	needsRoot: false,
	mcp: {access: 'never'},
	output: initOutputSchema,
	async run(flags, context) {
		return {data: initKnowledgeBase({path: flags.path, register: !flags['no-register'], force: Boolean(flags.force), git: Boolean(flags.git)}, context.deps)};
	},
	human: result =>
		lines(
			result.created.length === 0 ? `knowledge base already complete at ${result.root}` : `created knowledge base at ${result.root}`,
			...result.created.map(path => `  + ${path}`),
			...(result.git === null ? [] : [result.git === 'initialized' ? `git repository initialised at ${result.root}` : `already a git repository`]),
			result.registered ? `registered as the default root in ${result.config_path}` : 'not registered (pass --root or set ENGI_ROOT to use it)',
		),
});
