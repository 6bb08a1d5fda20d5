import * as z from 'zod/mini';
import {defineCommand} from '../cli/define.js';
import {EngiError} from '../lib/errors.js';
import {nearest} from '../lib/levenshtein.js';
import {outputJsonSchema} from '../output/json-schema.js';

export const schemaOutputSchema = z.object({
	schemas: z.record(z.string(), z.unknown()),
});

export default defineCommand({
	name: 'schema',
	summary: 'print the JSON Schema of each command\'s JSON output',
	usage: 'engi schema [command]',
	examples: ['engi schema', 'engi schema "graph node"', 'engi schema status'],
	options: {},
	positionals: [{name: 'command', description: 'one command, e.g. status or "graph node"', value: z.string()}],
	needsRoot: false,
	mcp: {access: 'never'},
	output: schemaOutputSchema,
	async run(flags, context) {
		const names = context.commands.map(entry => entry.name);
		const wanted = flags.command?.trim().replaceAll(/\s+/g, ' ');
		if (wanted !== undefined && !names.includes(wanted)) {
			const suggestion = nearest(wanted, names);
			throw new EngiError('unknown_command', `unknown command: ${wanted}`, {hint: suggestion ? `did you mean ${suggestion}?` : 'engi --help lists the commands'});
		}

		const schemas: Record<string, unknown> = {};
		for (const name of wanted ? [wanted] : names) {
			schemas[name] = outputJsonSchema(await context.commands.find(entry => entry.name === name)!.load());
		}

		return {data: {schemas}};
	},
	human: result => JSON.stringify(result.schemas, null, 2),
});
