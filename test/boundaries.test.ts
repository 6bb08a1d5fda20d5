// The layers of docs/architecture.md, checked over the real import graph of source/: adapters
// reach only lib/ and adapter code, lib/ only itself, the engine never a face, only the dashboard
// imports ink or react, and no module imports itself back. A control runs the same check on a
// small tree that breaks each rule, so a checker that saw nothing would fail here too.
import assert from 'node:assert/strict';
import {mkdirSync, writeFileSync} from 'node:fs';
import {dirname, join} from 'node:path';
import test from 'node:test';
import {repoRoot} from './helpers/cli.js';
import {boundaryViolations, importCycles, readImportGraph} from './helpers/import-graph.js';
import {tempDir} from './helpers/temp.js';

test('source/ keeps its layers: no arrow from adapters or lib into the engine, none from the engine to a face, ink and react only in the dashboard', () => {
	const graph = readImportGraph(join(repoRoot, 'source'));
	assert.ok(graph.modules.length > 200, `read ${graph.modules.length} modules`);
	assert.ok(graph.edges.some(edge => edge.from.startsWith('adapters/') && edge.to.startsWith('lib/')), 'adapters do reach lib/ (the graph is read)');
	assert.ok(graph.edges.some(edge => edge.dynamic && edge.internal), 'lazy import() calls are in the graph');
	assert.deepEqual(boundaryViolations(graph), []);
});

test('source/ has no import circle, lazy import() calls included', () => {
	assert.deepEqual(importCycles(readImportGraph(join(repoRoot, 'source'))), []);
});

test('the checker finds every kind of bad arrow and a circle in a tree made to have them (the check can fail)', t => {
	const root = tempDir(t);
	const files: Record<string, string> = {
		'lib/hash.ts': `import {Database} from '../engine/db.js';\nexport const hash = 1;`,
		'lib/ok.ts': `export * from './hash.js';`,
		'adapters/types.ts': `export type Unit = {key: string};`,
		'adapters/index.ts': `export {read} from './foo/read.js';\nexport {parse} from './bar/parse.js';`,
		'adapters/shared/text.ts': `import {hash} from '../../lib/hash.js';\nimport type {Unit} from '../types.js';\nexport const text = (unit: Unit) => hash + unit.key.length;`,
		'adapters/bar/parse.ts': `import {text} from '../shared/text.js';\nexport const parse = text;`,
		'adapters/foo/read.ts': [
			`import {parse} from '../bar/parse.js';`,
			`import {Database} from '../../engine/db.js';`,
			`// import('../../engine/not-an-import.js') in a comment is no import`,
			`export async function read() { return [parse, Database, await import('../../engine/lazy.js')]; }`,
		].join('\n'),
		'engine/db.ts': [
			`import type {Props} from '../cli/props.js';`,
			`import {View} from '../screens/view.js';`,
			`export class Database { props?: Props; view = View; }`,
		].join('\n'),
		'engine/lazy.ts': `import {render} from 'ink';\nimport {cycle} from './cycle.js';\nexport const lazy = [render, cycle];`,
		'engine/cycle.ts': `export async function cycle() { return import('./lazy.js'); }`,
		'engine/types-a.ts': `import type {B} from './types-b.js';\nexport type A = {b?: B};`,
		'engine/types-b.ts': `import {type A} from './types-a.js';\nexport type B = {a?: A; c?: typeof import('./cycle.js')};`,
		'cli/props.ts': `export type Props = {name: string};`,
		'screens/view.tsx': `import {Text} from 'ink';\nexport const View = () => <Text>hi</Text>;`,
		'commands/widget.tsx': `import {Database} from '../engine/db.js';\nexport const Widget = () => <b>{String(Database)}</b>;`,
	};
	for (const [path, text] of Object.entries(files)) {
		mkdirSync(dirname(join(root, path)), {recursive: true});
		writeFileSync(join(root, path), text);
	}

	const graph = readImportGraph(root);
	assert.deepEqual(boundaryViolations(graph).sort(), [
		'adapters/foo/read.ts -> adapters/bar/parse.ts: adapters import only lib/, their own folder, adapters/shared/ and the adapters\' top-level modules',
		'adapters/foo/read.ts -> engine/db.ts: adapters import only lib/, their own folder, adapters/shared/ and the adapters\' top-level modules',
		'adapters/foo/read.ts -> engine/lazy.ts: adapters import only lib/, their own folder, adapters/shared/ and the adapters\' top-level modules',
		'commands/widget.tsx: only tui.tsx and screens/ hold JSX (it imports react)',
		'engine/db.ts -> cli/props.ts: the engine never imports a face (cli, commands, output, screens, mcp)',
		'engine/db.ts -> screens/view.tsx: the engine never imports a face (cli, commands, output, screens, mcp)',
		'engine/lazy.ts -> ink: only tui.tsx and screens/ import ink or react',
		'lib/hash.ts -> engine/db.ts: lib/ imports nothing of ours but lib/',
	]);
	// The lazy import() closes a circle; the type-only one (types-a ⇄ types-b) runs no code and does not count.
	assert.deepEqual(importCycles(graph), [['engine/cycle.ts', 'engine/lazy.ts']]);
	assert.deepEqual(
		graph.edges.filter(edge => edge.from === 'engine/types-b.ts').map(edge => [edge.to, edge.typeOnly, edge.dynamic]),
		[['engine/types-a.ts', true, false], ['engine/cycle.ts', true, true]],
		'inline `type` specifiers and typeof import() are type-only',
	);
});
