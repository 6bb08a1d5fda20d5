import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import * as z from 'zod/mini';
import {defineCommand} from '../cli/define.js';
import {openScreen} from '../cli/open-screen.js';
import {generateDemo} from '../demo/generate.js';
import {buildStandup, standupOutputSchema} from '../engine/continuity/standup.js';
import {plural} from '../lib/words.js';

export const demoOutputSchema = z.object({directory: z.nullable(z.string()), kept: z.boolean(), standup: standupOutputSchema});

export default defineCommand({
	name: 'demo',
	summary: 'open the dashboard on a small invented set of agent sessions (nothing of yours is read)',
	usage: 'engi demo [--keep]',
	examples: ['engi demo', 'engi demo --keep --format json'],
	options: {keep: {type: 'boolean', description: 'keep the generated stores and print where they are', value: z.boolean()}},
	needsRoot: false,
	mcp: {access: 'never'},
	output: demoOutputSchema,
	async run(flags, context) {
		const base = mkdtempSync(join(tmpdir(), 'engi-demo-'));
		try {
			const world = await generateDemo(base, context.deps.now(), context.deps);
			const deps = {...context.deps, env: world.env, cwd: world.projects[0]!};
			if (context.interactive) {
				await openScreen('standup', {'all-projects': true}, world.kb, deps, process.stdout);
			}

			const standup = await buildStandup({rootFlag: world.kb}, deps);
			return {data: {directory: flags.keep ? base : null, kept: Boolean(flags.keep), standup}};
		} finally {
			if (!flags.keep) {
				rmSync(base, {recursive: true, force: true});
			}
		}
	},
	human: result => {
		const lines = [`demo stand-up: ${plural(result.standup.totals.candidates, 'unfinished session')}, ${plural(result.standup.totals.checkpoints_blocked, 'blocked checkpoint')}, ${plural(result.standup.totals.tasks ?? 0, 'open task')}`];
		for (const project of result.standup.projects) {
			lines.push(`  ${project.project}: ${project.summary}`);
		}

		if (result.kept) {
			lines.push(`stores kept in ${result.directory}`);
		}

		return lines.join('\n');
	},
});
