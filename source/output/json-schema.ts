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


/**
 * A document's fields in one line, for prose that tells an agent what to expect:
 * `{schema, sessions[], total}`; of a union, the shapes whose constant fields match `only`
 * (`{view: 'brief'}`), else each, `{…} | {…}`. Made from the output schema, so it cannot
 * describe a field the command no longer prints.
 */
export function shapeSummary(jsonSchema: Record<string, unknown>, only: Readonly<Record<string, string>> = {}): string {
	const union = (jsonSchema['oneOf'] ?? jsonSchema['anyOf']) as Array<Record<string, unknown>> | undefined;
	if (union) {
		const matching = union.flatMap(branch => shapesOf(branch)).filter(branch => Object.entries(only).every(([name, value]) => propertiesOf(branch)[name]?.['const'] === value));
		return [...new Set(matching.map(branch => shapeSummary(branch, only)))].join(' | ');
	}

	const fields = Object.entries(propertiesOf(jsonSchema)).map(([name, property]) => {
		if (property['const'] !== undefined && name !== 'schema') {
			return `${name}: ${JSON.stringify(property['const'])}`;
		}

		return property['type'] === 'array' ? `${name}[]` : name;
	});
	return `{${fields.join(', ')}}`;
}

/** The object shapes of a schema, unions of unions flattened (`query` prints its views or a contract's answer). */
function shapesOf(jsonSchema: Record<string, unknown>): Array<Record<string, unknown>> {
	const union = (jsonSchema['oneOf'] ?? jsonSchema['anyOf']) as Array<Record<string, unknown>> | undefined;
	return union ? union.flatMap(branch => shapesOf(branch)) : [jsonSchema];
}

function propertiesOf(jsonSchema: Record<string, unknown>): Record<string, Record<string, unknown>> {
	return (jsonSchema['properties'] ?? {}) as Record<string, Record<string, unknown>>;
}
