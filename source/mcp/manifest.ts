import {readFileSync} from 'node:fs';
import type {CommandEntry} from '../commands.js';
import {describeTools, type ToolDescription} from './tools.js';

/**
 * The tool descriptions: from build/mcp-tools.json, which scripts/build.mjs writes from the same
 * command table when it bundles (this module's chunk sits in build/chunks/), so tools/list needs
 * neither every command loaded nor any schema converted; from source, where there is no such
 * file, made on the spot. test/mcp.test.ts checks the two are the same.
 */
export async function toolDescriptions(table: readonly CommandEntry[]): Promise<ToolDescription[]> {
	try {
		return JSON.parse(readFileSync(new URL('../mcp-tools.json', import.meta.url), 'utf8')) as ToolDescription[];
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
			throw error;
		}

		return describeTools(table);
	}
}
