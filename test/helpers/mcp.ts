import type {TestContext} from 'node:test';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js';
import {cliPath} from './cli.js';

/**
 * The SDK's own client connected to `engi mcp` (the built CLI) over stdio, as a host would start
 * it; closed when the test ends. The client checks every structured result against the tool's
 * output schema itself.
 */
export async function connectMcp(t: TestContext, options: {env: Record<string, string>; cwd?: string; args?: readonly string[]}): Promise<{client: Client; stderr: () => string}> {
	const transport = new StdioClientTransport({command: process.execPath, args: [cliPath, 'mcp', ...(options.args ?? [])], env: options.env, cwd: options.cwd ?? options.env['HOME'], stderr: 'pipe'});
	let stderr = '';
	transport.stderr?.on('data', (chunk: Buffer) => {
		stderr += chunk.toString();
	});
	const client = new Client({name: 'engi-test', version: '1.0.0'});
	await client.connect(transport);
	t.after(async () => client.close());
	return {client, stderr: () => stderr};
}

/** The argv the CLI takes for a tool's arguments: arguments in order, then each flag (a list repeated, true as the bare flag). */
export function argvFor(command: string, positionals: readonly string[], args: Readonly<Record<string, unknown>>): string[] {
	const argv = [...command.split(' ')];
	for (const name of positionals) {
		if (args[name] !== undefined) {
			argv.push(String(args[name]));
		}
	}

	for (const [name, value] of Object.entries(args)) {
		if (positionals.includes(name)) {
			continue;
		}

		for (const item of Array.isArray(value) ? value : [value]) {
			argv.push(...(item === true ? [`--${name}`] : [`--${name}`, String(item)]));
		}
	}

	return argv;
}
