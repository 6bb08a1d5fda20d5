import {spawn} from 'node:child_process';
import {mkdirSync, rmSync} from 'node:fs';
import {join} from 'node:path';
import {exactTokenCounter} from '../../source/engine/tokens.js';
import {cli, measure, median, runOnce, type Row} from '../lib/measure.js';
import {homeEnv, storeTiers, tierHome} from './sessions.js';

type Reply = {id?: number; result?: Record<string, unknown>; error?: unknown};

/**
 * A running `engi mcp`, spoken to as an MCP client does over stdio (newline-delimited
 * JSON-RPC): `request` resolves with the reply to the id it sends.
 */
function mcpServer(args: readonly string[], env: NodeJS.ProcessEnv) {
	const child = spawn(process.execPath, [cli, 'mcp', ...args], {env, stdio: ['pipe', 'pipe', 'ignore']});
	const waiting = new Map<number, (reply: Reply) => void>();
	let buffered = '';
	child.stdout.setEncoding('utf8');
	child.stdout.on('data', (chunk: string) => {
		buffered += chunk;
		let newline;
		while ((newline = buffered.indexOf('\n')) !== -1) {
			const reply = JSON.parse(buffered.slice(0, newline)) as Reply;
			buffered = buffered.slice(newline + 1);
			if (reply.id !== undefined) {
				waiting.get(reply.id)?.(reply);
			}
		}
	});
	let next = 1;
	const send = (message: Record<string, unknown>) => child.stdin.write(`${JSON.stringify({jsonrpc: '2.0', ...message})}\n`);
	return {
		async request(method: string, params: Record<string, unknown> = {}): Promise<Reply> {
			const id = next++;
			const reply = new Promise<Reply>(resolve => waiting.set(id, resolve));
			send({id, method, params});
			return reply;
		},
		notify: (method: string) => send({method}),
		async close(): Promise<void> {
			const exited = new Promise(resolve => child.on('exit', resolve));
			child.stdin.end();
			await exited;
		},
	};
}

const initialize = {protocolVersion: '2025-06-18', capabilities: {}, clientInfo: {name: 'engi-bench', version: '0'}};

/** From spawning `engi mcp` to its answer to the first tools/list (after initialize, as a host does it). */
async function startToToolsList(env: NodeJS.ProcessEnv): Promise<{ms: number; tools: unknown[]}> {
	const started = process.hrtime.bigint();
	const server = mcpServer([], env);
	await server.request('initialize', initialize);
	server.notify('notifications/initialized');
	const listed = await server.request('tools/list');
	const ms = Number(process.hrtime.bigint() - started) / 1e6;
	await server.close();
	return {ms, tools: (listed.result?.['tools'] ?? []) as unknown[]};
}

async function toolList(args: readonly string[], env: NodeJS.ProcessEnv): Promise<unknown[]> {
	const server = mcpServer(args, env);
	await server.request('initialize', initialize);
	server.notify('notifications/initialized');
	const listed = await server.request('tools/list');
	await server.close();
	return (listed.result?.['tools'] ?? []) as unknown[];
}

/**
 * Issue 18's figures: `engi hook run` (it runs at the end of every agent session), `engi mcp`
 * from start to its first tools/list, a tool call's round trip on a server already running
 * against the warm M catalog beside the same CLI call less a process start (`node -e 0`), and the
 * o200k size of the tool lists a host loads.
 */
export async function agentsSuite(corpus: string, env: NodeJS.ProcessEnv): Promise<Row[]> {
	const rows: Row[] = [];
	const kb = join(corpus, 'agents-kb');
	rmSync(kb, {recursive: true, force: true});
	runOnce(['node', cli, 'init', kb, '--no-register', '--format', 'json'], env);
	const project = join(corpus, 'agents-project');
	mkdirSync(join(project, '.git'), {recursive: true});
	const pending = join(kb, '00-inbox', 'harvest');
	// Stdin is empty here, so the flags stand in for the payload an agent would send.
	const hook = ['node', cli, 'hook', 'run', '--event', 'session-end', '--agent', 'claude', '--session-id', 'c0de0000-0000-4000-8000-00000000be01', '--cwd', project, '--root', kb];
	rows.push(measure('agents', 'hook run, a new pending note', hook, env, {before: () => rmSync(pending, {recursive: true, force: true}), target: '≤ 2× node -e 0'}));
	rows.push(measure('agents', 'hook run, the same session again (nothing written)', hook, env, {target: '≤ 2× node -e 0'}));

	const kbEnv = {...env, ENGI_ROOT: kb};
	await startToToolsList(kbEnv); // Warm-up: the file cache, as for every other row.
	const starts: number[] = [];
	const baselines: number[] = [];
	let tools: unknown[] = [];
	for (let index = 0; index < 11; index++) {
		baselines.push(runOnce(['node', '-e', '0'], env).ms);
		const run = await startToToolsList(kbEnv);
		starts.push(run.ms);
		tools = run.tools;
	}

	rows.push({suite: 'agents', name: `engi mcp: start to the first tools/list answer (${tools.length} tools)`, runs: starts.length, medianMs: median(starts), baselineMs: median(baselines), rssMb: 0, target: '≤ 3× node -e 0'});

	const home = tierHome(corpus, 'M');
	const tierEnv = {...homeEnv(env, home), VSCODE_APPDATA: join(home, '.config'), ENGI_ROOT: kb};
	const argv = ['sessions', '--all-projects', '--limit', '20'];
	const cliRow = measure('agents', `the same call on the CLI: engi ${argv.join(' ')} (M: ${storeTiers.M.sessions} sessions, catalog warm)`, ['node', cli, ...argv, '--format', 'json'], tierEnv);
	rows.push(cliRow);
	const server = mcpServer([], tierEnv);
	await server.request('initialize', initialize);
	server.notify('notifications/initialized');
	const call = async () => {
		const started = process.hrtime.bigint();
		const reply = await server.request('tools/call', {name: 'sessions', arguments: {'all-projects': true, limit: 20}});
		if (reply.error || (reply.result?.['isError'] as boolean | undefined)) {
			process.stderr.write(`bench: the sessions tool call failed: ${JSON.stringify(reply).slice(0, 400)}\n`);
		}

		return Number(process.hrtime.bigint() - started) / 1e6;
	};

	await call();
	const trips: number[] = [];
	for (let index = 0; index < 11; index++) {
		trips.push(await call());
	}

	await server.close();
	const budget = cliRow.medianMs - cliRow.baselineMs;
	rows.push({
		suite: 'agents',
		name: 'engi mcp: the sessions tool call round trip on a running server (same arguments)',
		runs: trips.length,
		medianMs: median(trips),
		baselineMs: Number.NaN,
		rssMb: 0,
		target: '≤ 1.2× (CLI call − node -e 0)',
		note: `CLI call − node -e 0 = ${budget.toFixed(1)} ms; round trip / that = ${(median(trips) / budget).toFixed(2)}×`,
	});

	const count = await exactTokenCounter();
	for (const args of [[], ['--allow-writes'], ['--tools', 'continuity']]) {
		const listed = await toolList(args, kbEnv);
		const text = JSON.stringify(listed);
		rows.push({suite: 'agents', name: `engi mcp ${args.join(' ') || '(read-only)'}: the tool list a host loads`, runs: 1, medianMs: 0, baselineMs: Number.NaN, rssMb: 0, note: `${listed.length} tools, ${count(text)} o200k tokens (${(Buffer.byteLength(text) / 1024).toFixed(1)} KiB of JSON)`});
	}

	return rows;
}
