import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {existsSync, mkdirSync, readFileSync} from 'node:fs';
import {join, relative} from 'node:path';
import {fileURLToPath} from 'node:url';
import test from 'node:test';
import {repoRoot, runCli} from './helpers/cli.js';
import {makeKb} from './helpers/kb.js';
import {buildFixtureHome} from './fixtures/home.js';
import {tempDir} from './helpers/temp.js';

const tracer = join(repoRoot, 'test/helpers/trace-imports.mjs');
const uiPackage = /node_modules\/(ink|react|react-reconciler|yoga-layout|@inkjs)\//;

const mcpPackage = /node_modules\/@modelcontextprotocol\//;
const sdkBundle = 'build/mcp-sdk.js';

/** Output files of the bundle with an input the pattern matches (from esbuild's metafile). */
function chunksWith(pattern: RegExp): Set<string> {
	const meta = JSON.parse(readFileSync(join(repoRoot, 'build/meta.json'), 'utf8')) as {outputs: Record<string, {inputs: Record<string, unknown>}>};
	return new Set(Object.entries(meta.outputs).filter(([, output]) => Object.keys(output.inputs).some(input => pattern.test(input))).map(([file]) => file));
}

const uiChunks = () => chunksWith(uiPackage);
/** execa is bundled; only a command that runs a subprocess loads its chunk. */
const execaChunks = () => chunksWith(/node_modules\/execa\//);

function loadedModules(traceFile: string): string[] {
	if (!existsSync(traceFile)) {
		return [];
	}

	return readFileSync(traceFile, 'utf8')
		.split('\n')
		.filter(Boolean)
		.map(url => (url.startsWith('file:') ? relative(repoRoot, fileURLToPath(url)) : url));
}

const heavyPackage = /node_modules\/(js-tiktoken|nodejieba)\//;
/** The exact tokenizer: the chunk that reads the rank table the build wrote (build/o200k.bin). */
const tokenizerChunks = () => chunksWith(/^source\/engine\/tokens-table\.ts$/);

test('JSON-mode commands load no ink or react module and no bundle chunk containing them', t => {
	const kb = makeKb(t);
	buildFixtureHome(kb.env);
	kb.ok(['graph', 'node', '--id', 'p', '--kind', 'Project', '--label', 'P']);
	const hooked = join(kb.base, 'hooked');
	mkdirSync(join(hooked, '.git'), {recursive: true});
	const chunks = uiChunks();
	const subprocessChunks = execaChunks();
	assert.ok(subprocessChunks.size > 0, 'execa is in a chunk of its own');
	const commands = [
		['status'],
		['project'],
		['doctor'],
		['timeline'],
		['schema'],
		['query', '--q', 'p'],
		['trace', '--q', 'p'],
		['graph', 'node', '--id', 'q', '--kind', 'Task', '--label', 'Q'],
		['sessions', '--all-projects'],
		['read', '11111111-1111-4111-8111-111111111111', '--view', 'context'],
		['unfinished', '--all-projects', '--since', '2020-01-01'],
		['resume', '11111111-1111-4111-8111-111111111111'],
		['pickup', '11111111-1111-4111-8111-111111111111'],
		['standup'],
		['checkpoint', 'list'],
		['candidates', 'harvest', '--all-projects', '--since', '2020-01-01', '--consent'],
		['candidates', 'list'],
		['candidates', 'evidence', 'claude-11111111-1111-4111-8111-111111111111'],
		['mcp', '--list'],
		['guide'],
		['hook', 'pending'],
		['hook', 'run', '--event', 'stop', '--print', '--cwd', hooked, '--session-id', 'c0de0000-0000-4000-8000-0000000000d1'],
	];
	assert.equal(chunksWith(mcpPackage).size, 0, 'the MCP SDK is bundled on its own (build/mcp-sdk.js, with its own zod), not split with the commands');
	const tokenizer = tokenizerChunks();
	assert.ok(tokenizer.size > 0, 'the rank table\'s reader is in a chunk of its own');
	for (const args of commands) {
		const traceFile = join(tempDir(t), 'trace.txt');
		const result = runCli([...args, '--format', 'json'], {env: {...kb.env, ENGI_TRACE_FILE: traceFile, ENGI_CODE_CACHE: 'off'}, nodeArgs: ['--import', tracer]});
		assert.equal(result.code, 0, result.stderr);
		const loaded = loadedModules(traceFile);
		assert.ok(loaded.some(file => file === 'build/cli.js'), 'the tracer saw the CLI load');
		assert.deepEqual(loaded.filter(file => uiPackage.test(file) || chunks.has(file)), [], `engi ${args.join(' ')} loaded UI code`);
		assert.deepEqual(loaded.filter(file => heavyPackage.test(file) || tokenizer.has(file)), [], `engi ${args.join(' ')} loaded the tokenizer or jieba without needing them`);
		assert.deepEqual(loaded.filter(file => subprocessChunks.has(file)), [], `engi ${args.join(' ')} loaded execa without running anything`);
		assert.deepEqual(loaded.filter(file => mcpPackage.test(file) || file === sdkBundle), [], `engi ${args.join(' ')} loaded the MCP SDK`);
	}

	// The control: running a distiller does load it.
	const traceFile = join(tempDir(t), 'trace.txt');
	const distill = runCli(['candidates', 'distill', 'claude-11111111-1111-4111-8111-111111111111', '--with', 'true', '--format', 'json'], {env: {...kb.env, ENGI_TRACE_FILE: traceFile, ENGI_CODE_CACHE: 'off'}, nodeArgs: ['--import', tracer]});
	assert.equal(distill.error().code, 'distiller_invalid_json', distill.stderr);
	assert.ok(loadedModules(traceFile).some(file => subprocessChunks.has(file)), 'engi candidates distill loaded execa');
});

test('engi mcp does load the MCP SDK (the check above can fail), but no command until a tool is called', t => {
	const kb = makeKb(t);
	const traceFile = join(tempDir(t), 'trace.txt');
	const result = runCli(['mcp'], {env: {...kb.env, ENGI_TRACE_FILE: traceFile, ENGI_CODE_CACHE: 'off'}, nodeArgs: ['--import', tracer], input: ''});
	assert.equal(result.code, 0, result.stderr);
	const loaded = loadedModules(traceFile);
	assert.ok(loaded.includes(sdkBundle), 'engi mcp loaded build/mcp-sdk.js');
	const meta = JSON.parse(readFileSync(join(repoRoot, 'build/meta.json'), 'utf8')) as {outputs: Record<string, {entryPoint?: string}>};
	const commandChunks = Object.entries(meta.outputs).filter(([, output]) => /^source\/commands\/(standup|sessions|query)\.ts$/.test(output.entryPoint ?? '')).map(([file]) => file);
	assert.equal(commandChunks.length, 3);
	assert.deepEqual(loaded.filter(file => commandChunks.includes(file)), [], 'tools/list comes from build/mcp-tools.json, not from loading every command');
});

test('the tracer does detect ink and react when they are loaded (the check can fail)', t => {
	const traceFile = join(tempDir(t), 'trace.txt');
	const target = join(repoRoot, 'build/tui.mjs');
	const result = spawnSync(process.execPath, ['--import', tracer, '--input-type=module', '-e', `await import(${JSON.stringify('file://' + target)});`], {
		cwd: repoRoot,
		env: {...process.env, ENGI_TRACE_FILE: traceFile, ENGI_CODE_CACHE: 'off'},
		encoding: 'utf8',
	});
	assert.equal(result.status, 0, result.stderr);
	const chunks = uiChunks();
	const loaded = loadedModules(traceFile);
	assert.ok(loaded.some(file => uiPackage.test(file) || chunks.has(file)), `expected UI modules among: ${loaded.slice(0, 20).join(', ')}`);
});

test('--exact-tokens does load the tokenizer (the check above can fail)', t => {
	const kb = makeKb(t);
	buildFixtureHome(kb.env);
	const traceFile = join(tempDir(t), 'trace.txt');
	const result = runCli(['resume', '11111111-1111-4111-8111-111111111111', '--exact-tokens', '--format', 'json'], {env: {...kb.env, ENGI_TRACE_FILE: traceFile, ENGI_CODE_CACHE: 'off'}, nodeArgs: ['--import', tracer]});
	assert.equal(result.code, 0, result.stderr);
	assert.equal(result.json().tokens_exact, true);
	const tokenizer = tokenizerChunks();
	assert.ok(loadedModules(traceFile).some(file => tokenizer.has(file)));
});

test('retention plan loads no bundle chunk holding the sweep, purge, attest or compaction engine', t => {
	const kb = makeKb(t);
	buildFixtureHome(kb.env);
	const meta = JSON.parse(readFileSync(join(repoRoot, 'build/meta.json'), 'utf8')) as {outputs: Record<string, {inputs: Record<string, unknown>}>};
	const writers = /^source\/engine\/retention\/(sweep|purge|attest|compact|run-purge|delete)\.ts$/;
	const chunks = new Set(Object.entries(meta.outputs).filter(([, output]) => Object.keys(output.inputs).some(input => writers.test(input))).map(([file]) => file));
	assert.ok(chunks.size > 0, 'the bundle holds the retention writers somewhere');
	const traceFile = join(tempDir(t), 'trace.txt');
	const result = runCli(['retention', 'plan', '--format', 'json'], {env: {...kb.env, ENGI_TRACE_FILE: traceFile, ENGI_CODE_CACHE: 'off'}, nodeArgs: ['--import', tracer]});
	assert.equal(result.code, 0, result.stderr);
	const loaded = loadedModules(traceFile);
	assert.ok(loaded.includes('build/cli.js'));
	assert.deepEqual(loaded.filter(file => chunks.has(file)), [], 'the plan reads; it needs none of the code that writes');
});

/**
 * Off a terminal, engi runs one script (build/chunks/main.cjs, see source/start/cached-main.ts)
 * instead of the modules the checks above trace (they set ENGI_CODE_CACHE=off). What the script
 * holds is fixed when it is built: the dashboard, the MCP SDK and the tokenizer and jieba
 * packages stay outside it, loaded only by an import or require a test can see.
 */
const requireTracer = join(repoRoot, 'test/helpers/trace-requires.cjs');

test('the script a call off the terminal runs holds no UI, MCP SDK, tokenizer or jieba package, and its JSON calls load none of them nor any module', t => {
	const meta = JSON.parse(readFileSync(join(repoRoot, 'build/meta-cjs.json'), 'utf8')) as {outputs: Record<string, {inputs: Record<string, unknown>}>};
	const inputs = Object.values(meta.outputs).flatMap(output => Object.keys(output.inputs));
	assert.ok(inputs.includes('source/main.ts') && inputs.includes('source/engine/catalog/search.ts'), 'the script holds the commands');
	assert.deepEqual(inputs.filter(input => uiPackage.test(input) || mcpPackage.test(input) || heavyPackage.test(input) || input === 'source/tui.tsx'), []);

	const kb = makeKb(t);
	buildFixtureHome(kb.env);
	for (const args of [['sessions', '--all-projects'], ['unfinished', '--all-projects', '--since', '2020-01-01'], ['read', '11111111-1111-4111-8111-111111111111', '--view', 'context'], ['standup'], ['query', '--q', 'p'], ['sessions', '--all-projects', '--q', 'migration']]) {
		const traceFile = join(tempDir(t), 'trace.txt');
		const result = runCli([...args, '--format', 'json'], {env: {...kb.env, ENGI_TRACE_FILE: traceFile}, nodeArgs: ['--import', tracer, '--require', requireTracer]});
		assert.equal(result.code, 0, result.stderr);
		const loaded = loadedModules(traceFile);
		assert.ok(loaded.includes('build/cli.js'), 'the tracer saw the CLI load');
		assert.deepEqual(loaded.filter(file => file.startsWith('build/') && file !== 'build/cli.js'), [], `engi ${args.join(' ')} ran the script alone, no module of the split build`);
		assert.deepEqual(loaded.filter(file => uiPackage.test(file) || mcpPackage.test(file) || heavyPackage.test(file)), [], `engi ${args.join(' ')} loaded a package it does not need`);
	}

	// The control: the script's dynamic imports are traced (engi mcp loads the SDK's bundle).
	const traceFile = join(tempDir(t), 'trace.txt');
	const mcp = runCli(['mcp'], {env: {...kb.env, ENGI_TRACE_FILE: traceFile}, nodeArgs: ['--import', tracer, '--require', requireTracer], input: ''});
	assert.equal(mcp.code, 0, mcp.stderr);
	assert.ok(loadedModules(traceFile).includes(sdkBundle), 'engi mcp, through the script, loaded build/mcp-sdk.js');
});
