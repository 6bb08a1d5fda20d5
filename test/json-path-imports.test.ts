import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {existsSync, readFileSync} from 'node:fs';
import {join, relative} from 'node:path';
import {fileURLToPath} from 'node:url';
import test from 'node:test';
import {repoRoot, runCli} from './helpers/cli.js';
import {makeKb} from './helpers/kb.js';
import {tempDir} from './helpers/temp.js';

const tracer = join(repoRoot, 'test/helpers/trace-imports.mjs');
const uiPackage = /node_modules\/(ink|react|react-reconciler|yoga-layout|@inkjs)\//;

/** Output files of the bundle whose inputs include ink or react (from esbuild's metafile). */
function uiChunks(): Set<string> {
	const meta = JSON.parse(readFileSync(join(repoRoot, 'build/meta.json'), 'utf8')) as {outputs: Record<string, {inputs: Record<string, unknown>}>};
	return new Set(Object.entries(meta.outputs).filter(([, output]) => Object.keys(output.inputs).some(input => uiPackage.test(input))).map(([file]) => file));
}

function loadedModules(traceFile: string): string[] {
	if (!existsSync(traceFile)) {
		return [];
	}

	return readFileSync(traceFile, 'utf8')
		.split('\n')
		.filter(Boolean)
		.map(url => (url.startsWith('file:') ? relative(repoRoot, fileURLToPath(url)) : url));
}

test('JSON-mode commands load no ink or react module and no bundle chunk containing them', t => {
	const kb = makeKb(t);
	kb.ok(['graph', 'node', '--id', 'p', '--kind', 'Project', '--label', 'P']);
	const chunks = uiChunks();
	for (const args of [['status'], ['project'], ['doctor'], ['timeline'], ['schema'], ['graph', 'node', '--id', 'q', '--kind', 'Task', '--label', 'Q']]) {
		const traceFile = join(tempDir(t), 'trace.txt');
		const result = runCli([...args, '--format', 'json'], {env: {...kb.env, ENGI_TRACE_FILE: traceFile}, nodeArgs: ['--import', tracer]});
		assert.equal(result.code, 0, result.stderr);
		const loaded = loadedModules(traceFile);
		assert.ok(loaded.some(file => file === 'build/cli.js'), 'the tracer saw the CLI load');
		assert.deepEqual(loaded.filter(file => uiPackage.test(file) || chunks.has(file)), [], `engi ${args.join(' ')} loaded UI code`);
	}
});

test('the tracer does detect ink and react when they are loaded (the check can fail)', t => {
	const traceFile = join(tempDir(t), 'trace.txt');
	const target = existsSync(join(repoRoot, 'build/tui.js')) ? join(repoRoot, 'build/tui.js') : 'ink';
	const result = spawnSync(process.execPath, ['--import', tracer, '--input-type=module', '-e', `await import(${JSON.stringify(target.startsWith('/') ? 'file://' + target : target)});`], {
		cwd: repoRoot,
		env: {...process.env, ENGI_TRACE_FILE: traceFile},
		encoding: 'utf8',
	});
	assert.equal(result.status, 0, result.stderr);
	const chunks = uiChunks();
	const loaded = loadedModules(traceFile);
	assert.ok(loaded.some(file => uiPackage.test(file) || chunks.has(file)), `expected UI modules among: ${loaded.slice(0, 20).join(', ')}`);
});
