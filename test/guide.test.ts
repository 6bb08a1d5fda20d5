/**
 * `engi guide` (issue 18): the section an agent reads in AGENTS.md or SKILL.md. Every command it
 * teaches must run as written and print the document it says, and `--write` must merge it into a
 * file someone else owns without touching anything outside its markers.
 */
import assert from 'node:assert/strict';
import {lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {schemaName} from '../source/cli/define.js';
import {guideMarkers, guideSteps} from '../source/commands/guide.js';
import {runCli} from './helpers/cli.js';
import {makeKb} from './helpers/kb.js';
import {writeClaudeSession} from './helpers/stores.js';

const session = 'c0de0000-0000-4000-8000-0000000000a1';

/** The words of a guide line, with its placeholders filled in (it has no other quoting). */
function argvOf(line: string, values: {id: string; text: string}): string[] {
	const words = [...line.matchAll(/"([^"]*)"|(\S+)/g)].map(match => match[1] ?? match[2]!);
	assert.equal(words.shift(), 'engi');
	return words.map(word => word.replaceAll('<id>', values.id).replaceAll('<text>', values.text));
}

test('every command the guide teaches runs as written and prints the document the guide names, with the fields it lists', t => {
	const kb = makeKb(t);
	const repo = join(kb.base, 'repo');
	mkdirSync(join(repo, '.git'), {recursive: true});
	writeClaudeSession(join(kb.env['HOME']!, '.claude', 'projects'), session, repo, [
		{user: 'add a CSV export to the orders page', assistant: 'Added the export button.', at: new Date(Date.now() - 3_600_000).toISOString()},
		{user: 'now include the refund column', at: new Date(Date.now() - 3_000_000).toISOString()},
	]);
	kb.ok(['graph', 'node', '--id', 'task:csv', '--kind', 'Task', '--label', 'CSV export of orders', '--status', 'open']);
	const guide = runCli(['guide', '--format', 'json'], {env: kb.env}).json<{markdown: string; written: null}>();
	assert.equal(guide.written, null);
	const lines = guide.markdown.split('\n');
	for (const step of guideSteps) {
		const at = lines.findIndex(line => line.includes(`\`${step.line}\``));
		assert.ok(at >= 0, `the guide shows ${step.line}`);
		const result = runCli(argvOf(step.line, {id: session, text: 'csv export'}), {env: kb.env, cwd: repo});
		assert.equal(result.code, 0, `${step.line}: ${result.stderr}`);
		const document = result.json<Record<string, unknown>>();
		assert.equal(document['schema'], schemaName(step.command));
		const shape = lines[at + 1]!;
		assert.ok(shape.includes(`(\`${schemaName(step.command)}\`)`), shape);
		const fields = [...shape.matchAll(/[{,] ?([a-z_]+)(?=[[\]:,}])/g)].map(match => match[1]!);
		for (const field of Object.keys(document)) {
			assert.ok(fields.includes(field), `${step.command}: the guide lists ${field} (${shape})`);
		}
	}

	assert.equal(runCli(['checkpoint', 'show', session, '--format', 'json'], {env: kb.env, cwd: repo}).json<{checkpoint: {next_action: string}}>().checkpoint.next_action, 'csv export', 'the checkpoint step recorded');
});

test('--write creates, appends to, updates and leaves alone a file, touching nothing outside its markers', t => {
	const kb = makeKb(t);
	const guide = (file: string) => runCli(['guide', '--write', file, '--format', 'json'], {env: kb.env, cwd: kb.base});
	const section = runCli(['guide', '--format', 'json'], {env: kb.env}).json<{markdown: string}>().markdown;
	const block = `${guideMarkers.begin}\n${section}\n${guideMarkers.end}`;

	const fresh = join(kb.base, 'SKILL.md');
	assert.deepEqual(guide('SKILL.md').json<{written: unknown}>().written, {path: fresh, action: 'created'}, 'a relative path is the working directory\'s');
	assert.equal(readFileSync(fresh, 'utf8'), `${block}\n`);
	assert.equal(statSync(fresh).mode & 0o777, 0o600);

	const agents = join(kb.base, 'AGENTS.md');
	writeFileSync(agents, '# Project rules\n\nRun the tests before committing.\n', {mode: 0o644});
	assert.equal(guide(agents).json<{written: {action: string}}>().written.action, 'appended');
	assert.equal(readFileSync(agents, 'utf8'), `# Project rules\n\nRun the tests before committing.\n\n${block}\n`);
	assert.equal(statSync(agents).mode & 0o777, 0o644, 'a file engi rewrites keeps its mode');
	assert.equal(guide(agents).json<{written: {action: string}}>().written.action, 'unchanged', 'a second run changes nothing');

	writeFileSync(agents, `# Project rules\n\n${guideMarkers.begin}\nan old guide\n${guideMarkers.end}\n\n## After\nkept\n`);
	assert.equal(guide(agents).json<{written: {action: string}}>().written.action, 'updated');
	assert.equal(readFileSync(agents, 'utf8'), `# Project rules\n\n${block}\n\n## After\nkept\n`);

	const link = join(kb.base, 'CLAUDE.md');
	symlinkSync('AGENTS.md', link);
	assert.deepEqual(guide(link).json<{written: unknown}>().written, {path: agents, action: 'unchanged'}, 'a symlink is written through to its target');
	assert.ok(lstatSync(link).isSymbolicLink());
});

test('--write refuses markers that do not pair up, naming the line, and writes nothing', t => {
	const kb = makeKb(t);
	const file = join(kb.base, 'AGENTS.md');
	const cases: Array<[string, number]> = [
		[`intro\n${guideMarkers.begin}\nhalf a section\n`, 2],
		[`intro\n\n${guideMarkers.end}\n${guideMarkers.begin}\n`, 3],
		[`${guideMarkers.begin}\na\n${guideMarkers.end}\n${guideMarkers.begin}\nb\n${guideMarkers.end}\n`, 4],
	];
	for (const [text, line] of cases) {
		writeFileSync(file, text);
		const result = runCli(['guide', '--write', file, '--format', 'json'], {env: kb.env});
		assert.equal(result.code, 1);
		assert.equal(result.error().code, 'section_markers_malformed');
		assert.match(result.error().message, new RegExp(`AGENTS\\.md:${line}:`));
		assert.equal(readFileSync(file, 'utf8'), text, 'nothing was written');
	}

	const missing = runCli(['guide', '--write', join(kb.base, 'no-such-dir', 'AGENTS.md'), '--format', 'json'], {env: kb.env});
	assert.equal(missing.code, 1);
	assert.match(missing.error().message, /no-such-dir/);
});
