/**
 * The parts of the MCP SDK `engi mcp` runs, bundled on their own into build/mcp-sdk.js with the
 * SDK's own copy of zod (scripts/build.mjs says why); server.ts imports them from here.
 */
export {Server} from '@modelcontextprotocol/sdk/server/index.js';
export {StdioServerTransport} from '@modelcontextprotocol/sdk/server/stdio.js';
export {CallToolRequestSchema, ListToolsRequestSchema} from '@modelcontextprotocol/sdk/types.js';
