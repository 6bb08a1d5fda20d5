import * as z from 'zod/mini';
import {schemaName, type CommandDefinition} from '../cli/define.js';

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

/**
 * The JSON Schema of the documents a command prints: its zod output schema converted, with the
 * `schema` field every document carries. `engi schema` prints it and `engi mcp` serves it as the
 * tool's output schema, so the two cannot differ. An alias (`conversation`) prints its command's
 * documents, so it has its command's schema name.
 */
export function outputJsonSchema(command: CommandDefinition): Record<string, unknown> {
	const jsonSchema = z.toJSONSchema(command.output, {io: 'output', unrepresentable: 'any'}) as Record<string, unknown>;
	return {...withSchemaField(jsonSchema, schemaName(command.name)), $id: schemaName(command.name)};
}

