import assert from 'node:assert/strict';
import {join} from 'node:path';
import test from 'node:test';
import {runCli, sandboxEnv} from './helpers/cli.js';
import {buildFixtureHome} from './fixtures/home.js';
import {makeKb} from './helpers/kb.js';
import {copyStore} from './helpers/stores.js';
import {tempDir} from './helpers/temp.js';

function fixtureSandbox(t: Parameters<typeof tempDir>[0]) {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	buildFixtureHome(env);
	return {base, env, run: (args: string[]) => runCli([...args, '--format', 'json'], {env})};
}

const sourcesOf = (sessions: Array<{source: string}>) => [...new Set(sessions.map(session => session.source))].sort();

test('--source repeats (or takes a comma list): every store named is read, no other', t => {
	const {run} = fixtureSandbox(t);
	const all = ['sessions', '--all-projects', '--limit', '500'];
	const repeated = run([...all, '--source', 'claude', '--source', 'codex']).json();
	assert.deepEqual(sourcesOf(repeated.sessions), ['claude', 'codex']);
	assert.deepEqual(repeated.scope.sources.map((entry: {source: string}) => entry.source), ['claude', 'codex']);
	assert.deepEqual(run([...all, '--source', 'claude,codex']).json().sessions, repeated.sessions);
	const unfinished = run(['unfinished', '--all-projects', '--since', '2020-01-01', '--limit', '500', '--source', 'grok', '--source', 'qwen']).json();
	assert.deepEqual(sourcesOf(unfinished.candidates), ['grok', 'qwen']);
	const standup = run(['standup', '--since', '2020-01-01', '--source', 'gemini', '--source', 'copilot']).json();
	assert.deepEqual(sourcesOf(standup.projects.flatMap((entry: {candidates: Array<{source: string}>}) => entry.candidates)), ['copilot', 'gemini']);
	assert.equal(run([...all, '--source', 'claude', '--source', 'nope']).error().code, 'invalid_flag_value');
});

test('--source-root pairs with --source in order, one each; anything else is refused', t => {
	const {base, run} = fixtureSandbox(t);
	const claude = copyStore('claude', join(base, 'backup', 'claude'));
	const codex = copyStore('codex', join(base, 'backup', 'codex'));
	const paired = run(['sessions', '--all-projects', '--limit', '500', '--source', 'claude', '--source-root', claude, '--source', 'codex', '--source-root', codex]).json();
	assert.deepEqual(
		paired.scope.sources.map((entry: {source: string; roots: string[]}) => [entry.source, entry.roots.every(root => root.startsWith(join(base, 'backup', entry.source)))]),
		[['claude', true], ['codex', true]],
	);
	assert.ok(paired.sessions.every((session: {path: string}) => session.path.startsWith(join(base, 'backup'))), 'only the named store directories are read');
	assert.deepEqual(sourcesOf(paired.sessions), ['claude', 'codex']);

	const searched = run(['sessions', '--all-projects', '--source', 'codex', '--source-root', codex, '--source', 'claude', '--source-root', claude, '--q', 'retry']).json();
	for (const session of searched.sessions as Array<{source: string; expand: string}>) {
		assert.match(session.expand, new RegExp(`--source ${session.source} --source-root ${session.source === 'claude' ? claude : codex} --lines`), 'an expansion reads the same store');
	}

	const pickup = run(['pickup', '0195a1c2-0a00-7a00-8a00-00000000000a', '--source', 'claude', '--source-root', claude, '--source', 'codex', '--source-root', codex]).json();
	assert.equal(pickup.resume_command, `engi resume 0195a1c2-0a00-7a00-8a00-00000000000a --source codex --source-root ${codex}`);

	const refusals: Array<[string[], string]> = [
		[['--source', 'claude', '--source-root', claude, '--source-root', codex], 'source_root_unpaired'],
		[['--source', 'claude', '--source', 'codex', '--source-root', claude], 'source_root_unpaired'],
		[['--source', 'claude,codex', '--source-root', claude], 'source_root_unpaired'],
		[['--source-root', claude], 'source_root_needs_source'],
	];
	for (const [flags, code] of refusals) {
		const result = run(['sessions', '--all-projects', ...flags]);
		assert.equal(result.code, 1, flags.join(' '));
		assert.equal(result.error().code, code, flags.join(' '));
	}
});

test('a value flag that takes one value, given twice, is refused instead of keeping the last', t => {
	const {run} = fixtureSandbox(t);
	const cases: string[][] = [
		['sessions', '--project', '/a', '--project', '/b'],
		['sessions', '--limit', '1', '--limit', '2'],
		['unfinished', '--since', '1d', '--since', '2d'],
		['checkpoint', 'record', '--session', 'x', '--source', 'claude', '--source', 'codex', '--objective', 'o'],
		['read', '0195a1c2-0a00-7a00-8a00-00000000000a', '--view', 'events', '--view', 'index'],
		['resume', '--budget', '100', '--budget=200'],
	];
	for (const args of cases) {
		const result = run(args);
		assert.equal(result.code, 1, args.join(' '));
		assert.equal(result.error().code, 'repeated_flag', args.join(' '));
		assert.match(result.error().message, /was given more than once/);
	}

	assert.equal(run(['sessions', '--all-projects', '--all-projects', '--limit', '1']).code, 0, 'a repeated switch means the same');
	assert.equal(run(['resume', '0195a1c2-0a00-7a00-8a00-00000000000a', '--since', '1d']).error().code, 'conflicting_flags', '--since chooses among candidates; an id needs none');
});

test('engi config set format: the knowledge base\'s setting is read, and wins over the user-wide one', t => {
	const kb = makeKb(t);
	const plain = (args: string[], env = kb.env) => runCli(args, {env});
	assert.equal(plain(['status']).json().schema, 'engi.status.v1', 'JSON when piped and nothing is configured');
	assert.equal(kb.ok(['config', 'set', 'format', 'human']).path, join(kb.root, '.engi', 'config.json'));
	assert.match(plain(['status']).stdout, /^nodes\t0$/m, 'the knowledge base\'s format applies');
	assert.match(plain(['sessions', '--all-projects']).stdout, /^0 sessions/, 'to every command run with that knowledge base');
	assert.equal(plain(['status', '--format', 'json']).json().schema, 'engi.status.v1', '--format still wins');
	assert.equal(plain(['status'], {...kb.env, ENGI_FORMAT: 'json'}).json().schema, 'engi.status.v1', 'ENGI_FORMAT still wins');
	kb.ok(['config', 'set', 'format', 'json', '--global']);
	assert.match(plain(['status']).stdout, /^nodes\t0$/m, 'the knowledge base\'s setting is more specific than the user\'s');
	kb.ok(['config', 'set', 'format', 'json']);
	kb.ok(['config', 'set', 'format', 'human', '--global']);
	assert.equal(plain(['status']).json().schema, 'engi.status.v1');
	const other = join(kb.base, 'other');
	assert.equal(runCli(['init', other, '--no-register', '--format', 'json'], {env: kb.env}).code, 0);
	assert.match(plain(['status', '--root', other]).stdout, /^nodes\t0$/m, 'a knowledge base without its own setting takes the user-wide one');
	assert.equal(plain(['config', 'get', 'format']).json().value, 'json', 'a json setting prints JSON');
});
