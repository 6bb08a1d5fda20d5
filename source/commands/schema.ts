import * as z from 'zod/mini';
import {defineCommand, schemaName} from '../cli/define.js';
import {EngiError} from '../lib/errors.js';
import {nearest} from '../lib/levenshtein.js';

export const schemaOutputSchema = z.object({
	schemas: z.record(z.string(), z.unknown()),
});

/** Every printed document starts with `schema`; add it to each object shape the output can take. */
function withSchemaField(jsonSchema: Record<string, unknown>, name: string): Record<string, unknown> {
	const union = (jsonSchema['oneOf'] ?? jsonSchema['anyOf']) as Array<Record<string, unknown>> | undefined;
	if (union) {
		const key = jsonSchema['oneOf'] ? 'oneOf' : 'anyOf';
		return {...jsonSchema, [key]: union.map(branch => withSchemaField(branch, name))};
	}

	const properties = (jsonSchema['properties'] ?? {}) as Record<string, unknown>;
	const required = Array.isArray(jsonSchema['required']) ? (jsonSchema['required'] as string[]) : [];
	return {...jsonSchema, properties: {schema: {type: 'string', const: name}, ...properties}, required: ['schema', ...required]};
}

export default defineCommand({
	name: 'schema',
	summary: 'print the JSON Schema of each command\'s JSON output',
	usage: 'engi schema [command]',
	examples: ['engi schema', 'engi schema "graph node"', 'engi schema status'],
	options: {},
	positionals: [{name: 'command', description: 'one command, e.g. status or "graph node"', value: z.string()}],
	needsRoot: false,
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
			const command = await context.commands.find(entry => entry.name === name)!.load();
			const jsonSchema = z.toJSONSchema(command.output, {io: 'output', unrepresentable: 'any'}) as Record<string, unknown>;
			// An alias (`conversation`) prints its command's documents, so it has its command's schema name.
			schemas[name] = {...withSchemaField(jsonSchema, schemaName(command.name)), $id: schemaName(command.name)};
		}

		return {data: {schemas}};
	},
	human: result => JSON.stringify(result.schemas, null, 2),
});
