import * as z from 'zod/mini';
import {defineCommand, mcpToolSets, type McpToolSet} from '../cli/define.js';
import {listFlag, textFlag} from '../cli/flag-schemas.js';
import {toolDescriptions} from '../mcp/manifest.js';
import {mcpListOutputSchema, mcpTools, toolListing} from '../mcp/tools.js';
import {tsv} from '../output/text.js';
import {plural} from '../lib/words.js';

/** `--tools continuity` names a set; anything else but `all` is a list of tool names. */
function toolChoice(value: string | undefined): 'all' | McpToolSet | string[] {
	if (value === undefined || value === 'all') {
		return 'all';
	}

	return (mcpToolSets as readonly string[]).includes(value) ? (value as McpToolSet) : value.split(',').map(name => name.trim()).filter(Boolean);
}

export default defineCommand({
	name: 'mcp',
	summary: 'serve engi\'s commands as MCP tools over stdio (read-only unless --allow-writes; destructive commands never)',
	usage: 'engi mcp [--tools all|continuity|<name,…>] [--allow-writes | --allow-write <name,…>] [--list]',
	examples: ['engi mcp', 'engi mcp --tools continuity', 'engi mcp --allow-write checkpoint_record', 'engi mcp --list --allow-writes'],
	options: {
		tools: {type: 'string', placeholder: '<set|names>', description: 'all (default); continuity: at most 8 tools, for hosts that load every tool on every turn; or tool names, comma-separated', value: textFlag()},
		'allow-writes': {type: 'boolean', description: 'also serve the tools that write: they append to the journal or a checkpoint file, or rebuild the index', value: z.boolean()},
		'allow-write': {type: 'string', multiple: true, placeholder: '<name,…>', description: 'serve only these writing tools, e.g. checkpoint_record', value: listFlag()},
		list: {type: 'boolean', description: 'print the tools the server would serve, and exit', value: z.boolean()},
	},
	conflicts: [['allow-writes', 'allow-write']],
	needsRoot: false,
	mcp: {access: 'never'},
	output: mcpListOutputSchema,
	async run(flags, context) {
		const tools = mcpTools(context.commands, await toolDescriptions(context.commands), {tools: toolChoice(flags.tools), allowWrites: Boolean(flags['allow-writes']), allowWrite: flags['allow-write'] ?? []});
		if (flags.list) {
			return {data: toolListing(tools)};
		}

		// The SDK loads only here, on the path that serves.
		const {serveMcp} = await import('../mcp/server.js');
		await serveMcp(tools, context);
		return {data: toolListing(tools), silent: true};
	},
	human: result => [`${plural(result.count, 'tool')}`, tsv(result.tools.map(tool => [tool.name, tool.access, tool.description]))].join('\n'),
});
