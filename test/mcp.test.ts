/**
 * `engi mcp` (issue 18): the SDK's real client spawns the built CLI over stdio, lists the tools
 * and calls each one; every result must be the document the CLI prints for the same inputs, and
 * the tool list must be what the command table declares (the same flag and output schemas
 * `engi schema` prints).
 */
import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {existsSync, mkdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {mcpToolSets, type CommandDefinition} from '../source/cli/define.js';
import {commandTable, loadCommand} from '../source/commands.js';
import {describeTools, mcpTools, toolName} from '../source/mcp/tools.js';
import {cliPath, repoRoot, runCli} from './helpers/cli.js';
import {buildFixtureHome} from './fixtures/home.js';
import {goldenJson} from './helpers/json-golden.js';
import {makeKb} from './helpers/kb.js';
import {argvFor, connectMcp} from './helpers/mcp.js';
import {writeClaudeSession} from './helpers/stores.js';

const sessionOne = 'c0de0000-0000-4000-8000-000000000001';
const claudeFixture = '11111111-1111-4111-8111-111111111111';

/** A knowledge base with a little in it, the fixture stores, and a git project with a session. */
function world(t: test.TestContext) {
	const kb = makeKb(t);
	buildFixtureHome(kb.env);
	const repo = join(kb.base, 'repo');
	mkdirSync(join(repo, '.git'), {recursive: true});
	writeClaudeSession(join(kb.env['HOME']!, '.claude', 'projects'), sessionOne, repo, [
		{user: 'add a CSV export to the orders page', assistant: 'Added the export button.', at: '2026-11-24T09:00:00.000Z'},
		{user: 'now include the refund column', at: '2026-11-24T09:05:00.000Z'},
	]);
	kb.ok(['graph', 'node', '--id', 'project:shop', '--kind', 'Project', '--label', 'Web shop']);
	kb.ok(['graph', 'node', '--id', 'task:csv', '--kind', 'Task', '--label', 'CSV export of orders', '--status', 'open']);
	kb.ok(['graph', 'relate', '--from', 'task:csv', '--edge', 'BELONGS_TO', '--to', 'project:shop']);
	const record = runCli(['checkpoint', 'record', '--session', sessionOne, '--objective', 'CSV export', '--format', 'json'], {env: kb.env, cwd: repo});
	assert.equal(record.code, 0, record.stderr);
	return {kb, repo};
}

/** Tools of the default (read-only) server, with arguments that give each a document (those that need a file or a harvested note are called in their own tests through the CLI). */
const readCalls: Record<string, Record<string, unknown>> = {
	status: {},
	timeline: {},
	project: {},
	query: {q: 'csv'},
	harvest: {},
	doctor: {},
	sessions: {'all-projects': true, limit: 50},
	read: {id: claudeFixture, source: ['claude'], limit: 5},
	unfinished: {'all-projects': true, since: '2020-01-01'},
	checkpoint_show: {id: sessionOne},
	checkpoint_list: {},
	resume: {id: sessionOne, source: ['claude']},
	pickup: {id: sessionOne, source: ['claude']},
	standup: {since: '2026-11-01'},
	candidates_list: {},
	retention_plan: {'no-retention': true},
	retention_log: {},
	trace: {q: 'csv'},
	hook_pending: {},
};

test('every command declares how engi mcp offers it, and what it declares holds together', async () => {
	const accesses = new Set(['read', 'write', 'destructive', 'never']);
	for (const entry of commandTable) {
		const command: CommandDefinition = await entry.load();
		assert.ok(accesses.has(command.mcp.access), `${entry.name}: unknown MCP access ${command.mcp.access}`);
		for (const flag of command.mcp.withheld ?? []) {
			assert.ok(flag in command.options, `${entry.name} withholds --${flag}, which it does not have`);
		}

		for (const set of command.mcp.sets ?? []) {
			assert.ok((mcpToolSets as readonly string[]).includes(set), `${entry.name}: unknown tool set ${set}`);
		}
	}

	const described = await describeTools(commandTable);
	const continuity = mcpTools(commandTable, described, {tools: 'continuity', allowWrites: true, allowWrite: []});
	assert.ok(continuity.length > 0 && continuity.length <= 8, `--tools continuity serves ${continuity.length} tools`);
	const everything = mcpTools(commandTable, described, {tools: 'all', allowWrites: true, allowWrite: []});
	for (const tool of everything) {
		const {mcp} = await tool.load();
		assert.ok(mcp.access === 'read' || mcp.access === 'write', `${tool.name} is served though it is ${mcp.access}`);
	}

	for (const entry of commandTable) {
		const command = await entry.load();
		if (command.mcp.access === 'never' || command.mcp.access === 'destructive' || command.name !== entry.name) {
			assert.ok(!everything.some(tool => tool.name === toolName(entry.name)), `${entry.name} is not served`);
		}
	}
});

test('the server describes the tools as the build wrote them, from the same command table', async () => {
	const built = JSON.parse(readFileSync(join(repoRoot, 'build', 'mcp-tools.json'), 'utf8')) as unknown;
	assert.deepEqual(built, JSON.parse(JSON.stringify(await describeTools(commandTable))), 'build/mcp-tools.json is stale: rebuild');
});

test('the SDK client lists the tools the table declares, with the flag schemas and the output schemas engi schema prints', async t => {
	const {kb, repo} = world(t);
	const {client} = await connectMcp(t, {env: kb.env, cwd: repo});
	const {tools} = await client.listTools();
	const readOnly: string[] = [];
	for (const entry of commandTable) {
		const command: CommandDefinition = await entry.load();
		if (command.mcp.access === 'read' && command.name === entry.name) {
			readOnly.push(toolName(entry.name));
		}
	}

	assert.deepEqual(tools.map(tool => tool.name).sort(), readOnly.sort(), 'the default server serves exactly the read-only tools');
	assert.deepEqual(Object.keys(readCalls).filter(tool => !readOnly.includes(tool)), [], 'every tool called below is served');
	const printed = runCli(['schema', '--format', 'json'], {env: kb.env}).json<{schemas: Record<string, Record<string, unknown>>}>().schemas;
	for (const tool of tools) {
		const name = tool.name.replaceAll('_', ' ');
		const command = await loadCommand(name);
		const {type: _added, ...output} = tool.outputSchema as Record<string, unknown>;
		const {type: _own, ...schema} = printed[name]!;
		assert.deepEqual(output, schema, `${tool.name}: its output schema is the one engi schema prints`);
		assert.equal(tool.description, commandTable.find(entry => entry.name === name)!.summary);
		assert.ok(tool.description!.length <= 80, `${tool.name}: a short description`);
		const declared = [...(command.positionals ?? []).map(positional => positional.name), ...Object.keys(command.options)].filter(flag => !(command.mcp.withheld ?? []).includes(flag));
		assert.deepEqual(Object.keys(tool.inputSchema.properties ?? {}), declared, `${tool.name}: one input per argument and flag`);
		const requiredFlags = Object.entries(command.options).filter(([flag, option]) => (option as {required?: boolean}).required === true && !(command.mcp.withheld ?? []).includes(flag)).map(([flag]) => flag);
		assert.deepEqual(tool.inputSchema.required ?? [], [...(command.positionals ?? []).filter(positional => positional.required).map(positional => positional.name), ...requiredFlags]);
		assert.equal(tool.annotations?.readOnlyHint, true);
	}

	const read = tools.find(tool => tool.name === 'read')!;
	assert.deepEqual((read.inputSchema.properties as Record<string, {type?: string; enum?: string[]}>)['view']!.enum, ['dialogue', 'events', 'context', 'index'], 'a choice flag is an enum');
	assert.equal((read.inputSchema.properties as Record<string, {type?: string}>)['limit']!.type, 'integer', 'a number flag is an integer');
	assert.deepEqual((read.inputSchema.properties as Record<string, {type?: string[]}>)['preview-chars']!.type, ['integer', 'string'], '--preview-chars takes a count or all');
});

test('--preview-chars takes a count or all from a client, as on the command line', async t => {
	const {kb, repo} = world(t);
	const {client} = await connectMcp(t, {env: kb.env, cwd: repo});
	for (const value of [2000, 'all']) {
		const result = await client.callTool({name: 'read', arguments: {id: claudeFixture, source: ['claude'], view: 'context', 'preview-chars': value}});
		assert.notEqual(result.isError, true, JSON.stringify(result.content));
		const cli = runCli(['read', claudeFixture, '--source', 'claude', '--view', 'context', '--preview-chars', String(value), '--format', 'json'], {env: kb.env, cwd: repo});
		assert.deepEqual(result.structuredContent, {schema: 'engi.read.v1', ...cli.json<Record<string, unknown>>()});
	}
});

test('each tool call returns the JSON document the CLI prints for the same inputs', {timeout: 120_000}, async t => {
	const {kb, repo} = world(t);
	const from = Date.now() - 2000;
	const {client} = await connectMcp(t, {env: kb.env, cwd: repo});
	const normalizer = () => ({sandbox: kb.base, window: {from, to: Date.now() + 2000}});
	for (const [tool, args] of Object.entries(readCalls)) {
		const name = tool.replaceAll('_', ' ');
		const command = await loadCommand(name);
		const result = await client.callTool({name: tool, arguments: args});
		assert.notEqual(result.isError, true, `${tool}: ${JSON.stringify(result.content)}`);
		const cli = runCli([...argvFor(name, (command.positionals ?? []).map(positional => positional.name), args), '--format', 'json'], {env: kb.env, cwd: repo});
		assert.ok([0, 1, 2].includes(cli.code), `engi ${name}: ${cli.stderr}`);
		assert.equal(goldenJson(result.structuredContent, normalizer()), goldenJson(cli.json(), normalizer()), `${tool} gives the CLI's document`);
		const text = (result.content as Array<{type: string; text: string}>)[0]!.text;
		if (command.mcp.quotesTranscripts) {
			const lines = text.split('\n');
			assert.match(lines[0]!, /untrusted evidence/);
			assert.match(lines[1]!, /^`{3,}json$/);
			assert.equal(lines.at(-1), lines[1]!.slice(0, -'json'.length), 'the fence closes with the same run of backticks');
			assert.deepEqual(JSON.parse(lines.slice(2, -1).join('\n')), result.structuredContent);
		} else {
			assert.deepEqual(JSON.parse(text), result.structuredContent, `${tool}: the text is the document`);
		}
	}
});

test('typed errors come back as tool errors carrying the CLI\'s error envelope', async t => {
	const {kb, repo} = world(t);
	const {client} = await connectMcp(t, {env: kb.env, cwd: repo});
	const cases: Array<[string, Record<string, unknown>, string]> = [
		['read', {id: '99999999-9999-4999-8999-999999999999'}, 'session_not_found'],
		['read', {id: claudeFixture, limit: 0}, 'invalid_flag_value'],
		['read', {id: claudeFixture, lines: '1', offset: 2}, 'conflicting_flags'],
		['read', {}, 'missing_argument'],
		['read', {id: claudeFixture, view: 'context', 'preview-chars': -1}, 'invalid_flag_value'],
		['read', {id: claudeFixture, 'preview-chars': 'all'}, 'conflicting_flags'],
		['sessions', {everything: true}, 'unknown_flag'],
		['sessions', {'all-projects': true, project: repo}, 'conflicting_flags'],
		['query', {}, 'missing_flag'],
	];
	for (const [tool, args, code] of cases) {
		const result = await client.callTool({name: tool, arguments: args});
		assert.equal(result.isError, true, `${tool} ${JSON.stringify(args)}`);
		assert.equal(result.structuredContent, undefined);
		const envelope = JSON.parse((result.content as Array<{text: string}>)[0]!.text) as {error: {code: string; message: string; hint: string | null}};
		assert.equal(envelope.error.code, code, `${tool} ${JSON.stringify(args)}: ${envelope.error.message}`);
		if (!('everything' in args)) {
			const command = await loadCommand(tool);
			const cli = runCli([...argvFor(tool, (command.positionals ?? []).map(positional => positional.name), args), '--format', 'json'], {env: kb.env, cwd: repo});
			assert.equal(cli.error().code, code, `the CLI says the same for ${tool} ${JSON.stringify(args)}`);
		}
	}

	const unknown = await client.callTool({name: 'checkpoint_record', arguments: {objective: 'x'}});
	assert.equal(unknown.isError, true, 'a writing tool is not served by default');
	assert.equal(JSON.parse((unknown.content as Array<{text: string}>)[0]!.text).error.code, 'unknown_tool');
});

test('writing tools are served with --allow-writes or when named in --allow-write, and write what the CLI writes', async t => {
	const {kb, repo} = world(t);
	const all = await connectMcp(t, {env: kb.env, cwd: repo, args: ['--allow-writes']});
	const names = (await all.client.listTools()).tools.map(tool => tool.name);
	for (const write of ['checkpoint_record', 'graph_node', 'graph_relate', 'graph_retract', 'ingest', 'index_rebuild']) {
		assert.ok(names.includes(write), `${write} is served with --allow-writes`);
	}

	assert.ok(!names.some(name => ['init', 'config_set', 'demo', 'schema', 'mcp', 'conversation'].includes(name)), `never served: ${names.join(', ')}`);
	const some = await connectMcp(t, {env: kb.env, cwd: repo, args: ['--allow-write', 'checkpoint_record']});
	const listed = (await some.client.listTools()).tools;
	assert.ok(listed.some(tool => tool.name === 'checkpoint_record') && !listed.some(tool => tool.name === 'graph_node'));
	const recordTool = listed.find(tool => tool.name === 'checkpoint_record')!;
	assert.ok(!('file' in (recordTool.inputSchema.properties ?? {})), '--file (which reads stdin) is withheld');
	assert.equal(recordTool.annotations?.readOnlyHint, false);

	const recorded = await some.client.callTool({name: 'checkpoint_record', arguments: {session: sessionOne, status: 'blocked', blocker: ['waiting for finance'], 'next-action': 'ask finance'}});
	assert.notEqual(recorded.isError, true, JSON.stringify(recorded.content));
	const shown = runCli(['checkpoint', 'show', sessionOne, '--format', 'json'], {env: kb.env, cwd: repo}).json<{checkpoint: {status: string; blockers: string[]; objective: string}}>();
	assert.deepEqual([shown.checkpoint.status, shown.checkpoint.blockers, shown.checkpoint.objective], ['blocked', ['waiting for finance'], 'CSV export'], 'the CLI reads back what the tool recorded, the objective inherited');
	assert.deepEqual((recorded.structuredContent as {checkpoint: unknown}).checkpoint, shown.checkpoint);

	const node = await all.client.callTool({name: 'graph_node', arguments: {id: 'decision:stream', kind: 'Decision', label: 'Stream the CSV'}});
	assert.notEqual(node.isError, true, JSON.stringify(node.content));
	assert.equal(kb.ok(['query', '--q', 'decision:stream', '--view', 'hits']).hits[0].node_id, 'decision:stream');

	const refused = runCli(['mcp', '--allow-write', 'sessions', '--list', '--format', 'json'], {env: kb.env});
	assert.equal(refused.code, 1);
	assert.equal(refused.error().code, 'invalid_flag_value', 'a read-only tool named in --allow-write is refused');
	assert.equal(runCli(['mcp', '--tools', 'sesions', '--list', '--format', 'json'], {env: kb.env}).error().hint, 'did you mean sessions? (engi mcp --list --allow-writes lists them)');
});

test('--tools continuity serves at most eight tools, and --tools takes names', async t => {
	const {kb, repo} = world(t);
	const continuity = await connectMcp(t, {env: kb.env, cwd: repo, args: ['--tools', 'continuity', '--allow-writes']});
	const names = (await continuity.client.listTools()).tools.map(tool => tool.name);
	assert.ok(names.length <= 8, names.join(', '));
	for (const name of ['unfinished', 'pickup', 'resume', 'checkpoint_record']) {
		assert.ok(names.includes(name), `${name} is in the continuity set`);
	}

	const named = await connectMcp(t, {env: kb.env, cwd: repo, args: ['--tools', 'query,project']});
	assert.deepEqual((await named.client.listTools()).tools.map(tool => tool.name).sort(), ['project', 'query']);
});

test('engi mcp ends with exit 0 when the client closes stdin, having printed nothing but the protocol', async t => {
	const {kb, repo} = world(t);
	const child = spawn(process.execPath, [cliPath, 'mcp'], {env: kb.env, cwd: repo, stdio: ['pipe', 'pipe', 'pipe']});
	let stdout = '';
	let stderr = '';
	child.stdout.on('data', (chunk: Buffer) => {
		stdout += chunk.toString();
	});
	child.stderr.on('data', (chunk: Buffer) => {
		stderr += chunk.toString();
	});
	const messages = [
		{jsonrpc: '2.0', id: 1, method: 'initialize', params: {protocolVersion: '2025-06-18', capabilities: {}, clientInfo: {name: 'raw', version: '1'}}},
		{jsonrpc: '2.0', method: 'notifications/initialized'},
		{jsonrpc: '2.0', id: 2, method: 'tools/call', params: {name: 'status', arguments: {}}},
	];
	child.stdin.end(messages.map(message => JSON.stringify(message)).join('\n') + '\n');
	const code = await new Promise<number | null>(resolve => child.on('exit', resolve));
	t.diagnostic(stderr);
	assert.equal(code, 0, stderr);
	assert.equal(stderr, '');
	const replies = stdout.trim().split('\n').map(line => JSON.parse(line) as {id: number; result: {structuredContent?: {schema: string}}});
	assert.deepEqual(replies.map(reply => reply.id), [1, 2], 'the call queued before stdin closed is answered before the server ends');
	assert.equal(replies[1]!.result.structuredContent?.schema, 'engi.status.v1');
	assert.ok(existsSync(kb.journal));
});
