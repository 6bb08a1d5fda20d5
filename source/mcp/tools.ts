import * as z from 'zod/mini';
import type {CommandEntry} from '../commands.js';
import {mcpToolSets, type CommandDefinition, type McpExposure, type McpToolSet} from '../cli/define.js';
import {flagJsonShapes} from '../cli/flag-schemas.js';
import {EngiError} from '../lib/errors.js';
import {nearest} from '../lib/levenshtein.js';
import {outputJsonSchema} from '../output/json-schema.js';

/**
 * One command as an MCP tool, everything about it from the command's own declarations. Plain
 * JSON, so the build can write every tool's description once (build/mcp-tools.json) and the
 * server can answer tools/list without loading every command and converting its schemas.
 */
export type ToolDescription = {
	readonly name: string;
	/** The command's name in the table, e.g. `checkpoint record`. */
	readonly command: string;
	readonly access: 'read' | 'write';
	readonly sets: readonly McpToolSet[];
	readonly quotesTranscripts: boolean;
	readonly description: string;
	readonly inputSchema: Record<string, unknown>;
	readonly outputSchema: Record<string, unknown>;
};

/** A tool the server serves: its description, and its command, loaded when it is first called. */
export type McpTool = ToolDescription & {load(): Promise<CommandDefinition>};

export type McpToolChoice = {
	/** `all`, a set (`continuity`), or tool names. */
	readonly tools: 'all' | McpToolSet | readonly string[];
	readonly allowWrites: boolean;
	/** Writing tools served without --allow-writes, by name. */
	readonly allowWrite: readonly string[];
};

export const mcpListOutputSchema = z.object({
	tools: z.array(
		z.object({
			name: z.string(),
			command: z.string(),
			access: z.enum(['read', 'write']),
			sets: z.array(z.enum(mcpToolSets)),
			description: z.string(),
		}),
	),
	count: z.number(),
});

export type McpListOutput = z.infer<typeof mcpListOutputSchema>;

/** `checkpoint record` → `checkpoint_record` (MCP tool names allow no spaces). */
export function toolName(command: string): string {
	return command.replaceAll(' ', '_');
}

/** What the command offers a client, and what it would be left out for. */
function servable(command: CommandDefinition): command is CommandDefinition & {mcp: McpExposure & {access: 'read' | 'write'}} {
	return command.mcp.access === 'read' || command.mcp.access === 'write';
}

/**
 * A tool's input schema from the command's declarations: each argument and flag by name, its
 * JSON Schema made from the same zod `value` schema that validates it on the command line (with
 * the JSON shape an MCP client sends, flagJsonShapes), its description, and which are required.
 * Withheld flags are left out; nothing else is accepted.
 */
export function toolInputSchema(command: CommandDefinition, withheld: readonly string[] = []): Record<string, unknown> {
	const properties: Record<string, unknown> = {};
	const required: string[] = [];
	const declared = [...(command.positionals ?? []).map(positional => [positional.name, positional] as const), ...Object.entries(command.options)];
	for (const [name, spec] of declared) {
		if (withheld.includes(name)) {
			continue;
		}

		const {$schema: _draft, ...schema} = z.toJSONSchema(spec.value, {io: 'input', metadata: flagJsonShapes, unrepresentable: 'any'}) as Record<string, unknown>;
		properties[name] = {...schema, description: spec.description};
		if (spec.required) {
			required.push(name);
		}
	}

	return {type: 'object', properties, ...(required.length > 0 ? {required} : {}), additionalProperties: false};
}

/** The output schema `engi schema` prints; MCP wants an object at the top even when the document is a union of shapes. */
function toolOutputSchema(command: CommandDefinition): Record<string, unknown> {
	const schema = outputJsonSchema(command);
	return schema['type'] === undefined ? {type: 'object', ...schema} : schema;
}

/**
 * Every command the table lets `engi mcp` serve, described: an alias is served once, under its
 * command's name; never a destructive command or one not meant for agents.
 */
export async function describeTools(table: readonly CommandEntry[]): Promise<ToolDescription[]> {
	const described: ToolDescription[] = [];
	for (const entry of table) {
		const command = await entry.load();
		if (command.name !== entry.name || !servable(command)) {
			continue;
		}

		described.push({
			name: toolName(command.name),
			command: command.name,
			access: command.mcp.access,
			sets: [...(command.mcp.sets ?? [])],
			quotesTranscripts: command.mcp.quotesTranscripts ?? false,
			description: entry.summary,
			inputSchema: toolInputSchema(command, command.mcp.withheld),
			outputSchema: toolOutputSchema(command),
		});
	}

	return described;
}

/** The tools to serve out of those described: read-only unless writes are allowed, narrowed to a set or to names when asked. */
export function mcpTools(table: readonly CommandEntry[], described: readonly ToolDescription[], choice: McpToolChoice): McpTool[] {
	const known = new Map(described.map(tool => [tool.name, tool.access]));
	refuseUnknown([...(typeof choice.tools === 'string' ? [] : choice.tools)], known, '--tools');
	refuseUnknown(choice.allowWrite, known, '--allow-write');
	const notWrites = choice.allowWrite.filter(name => known.get(name) === 'read');
	if (notWrites.length > 0) {
		throw new EngiError('invalid_flag_value', `--allow-write names tools that only read: ${notWrites.join(', ')}`, {hint: 'read-only tools are always served; name writing tools, e.g. checkpoint_record'});
	}

	return described
		.filter(tool => (choice.tools === 'all' ? true : typeof choice.tools === 'string' ? tool.sets.includes(choice.tools) : choice.tools.includes(tool.name)))
		.filter(tool => tool.access === 'read' || choice.allowWrites || choice.allowWrite.includes(tool.name))
		.map(tool => ({...tool, load: table.find(entry => entry.name === tool.command)!.load}));
}

function refuseUnknown(names: readonly string[], known: ReadonlyMap<string, unknown>, flag: string): void {
	const unknown = names.find(name => !known.has(name));
	if (unknown !== undefined) {
		const suggestion = nearest(unknown, [...known.keys()]);
		throw new EngiError('unknown_tool', `${flag}: no tool ${unknown}`, {hint: suggestion ? `did you mean ${suggestion}? (engi mcp --list --allow-writes lists them)` : 'engi mcp --list --allow-writes lists the tools'});
	}
}

/** What `engi mcp --list` prints. */
export function toolListing(tools: readonly McpTool[]): McpListOutput {
	return {
		tools: tools.map(tool => ({name: tool.name, command: tool.command, access: tool.access, sets: [...tool.sets], description: tool.description})),
		count: tools.length,
	};
}
