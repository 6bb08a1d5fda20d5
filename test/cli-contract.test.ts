import assert from 'node:assert/strict';
import test from 'node:test';
import {runCli, sandboxEnv} from './helpers/cli.js';
import {makeKb} from './helpers/kb.js';
import {tempDir} from './helpers/temp.js';

test('--version prints the package version; --help lists every command', t => {
	const env = sandboxEnv(tempDir(t));
	const version = runCli(['--version'], {env});
	assert.equal(version.code, 0);
	assert.match(version.stdout, /^\d+\.\d+\.\d+\n$/);
	const help = runCli(['--help'], {env});
	assert.equal(help.code, 0);
	for (const command of ['init', 'status', 'graph node', 'graph relate', 'project', 'doctor', 'schema', 'index rebuild', 'timeline']) {
		assert.match(help.stdout, new RegExp(`\\b${command}\\b`));
	}

	const commandHelp = runCli(['graph', 'relate', '--help'], {env});
	assert.match(commandHelp.stdout, /--allow-dangling/);
	assert.match(commandHelp.stdout, /\$ engi graph relate --from task:fts/);
});

test('usage errors: unknown command with a suggestion, unknown flag, bad value, conflicts, missing arguments', t => {
	const kb = makeKb(t);
	const cases: Array<[string[], string, RegExp?]> = [
		[['stauts'], 'unknown_command', /did you mean engi status/],
		[['graph'], 'missing_subcommand'],
		[['graph', 'nod'], 'unknown_command', /graph node/],
		[['status', '--bogus'], 'unknown_flag'],
		[['project', '--limti', '3'], 'unknown_flag', /--limit/],
		[['project', '--limit', '0'], 'invalid_flag_value'],
		[['project', '--limit', 'many'], 'invalid_flag_value'],
		[['project', '--view', 'everything'], 'invalid_flag_value'],
		[['project', '--view', 'full'], 'project_id_required'],
		[['graph', 'node', '--id', 'x', '--kind', 'Task', '--type', 'Task', '--label', 'l'], 'conflicting_flags'],
		[['graph', 'node', '--kind', 'Task', '--label', 'l'], 'missing_flag'],
		[['graph', 'node', '--id', 'x', '--label', 'l'], 'missing_flag'],
		[['graph', 'relate', '--from', 'a', '--edge', 'X', '--to', 'b', '--valid-from', 'yesterday'], 'invalid_flag_value'],
		[['init'], 'missing_argument'],
		[['status', 'extra'], 'unexpected_argument'],
		[['timeline', '--limit'], 'invalid_flag_value'],
	];
	for (const [args, code, hint] of cases) {
		const result = kb.run([...args, '--format', 'json']);
		assert.equal(result.code, 1, `${args.join(' ')} exits 1`);
		assert.equal(result.stdout, '', `${args.join(' ')} prints nothing on stdout`);
		const error = result.error();
		assert.equal(error.code, code, `${args.join(' ')}: ${error.message}`);
		assert.equal(typeof error.message, 'string');
		assert.ok('hint' in error);
		if (hint) {
			assert.match(`${error.message} ${error.hint}`, hint);
		}
	}
});

test('ENGI_FORMAT and --format choose the face; human errors are plain lines', t => {
	const kb = makeKb(t);
	const human = kb.run(['status', '--format', 'human']);
	assert.match(human.stdout, /^nodes\t0$/m);
	assert.doesNotMatch(human.stdout, /\u001B\[/, 'no ANSI when piped');
	const viaEnv = runCli(['status'], {env: {...kb.env, ENGI_FORMAT: 'human'}});
	assert.match(viaEnv.stdout, /^events\t0$/m);
	assert.equal(runCli(['status'], {env: kb.env}).json().schema, 'engi.status.v1', 'JSON when stdout is not a terminal');
	assert.equal(kb.run(['status', '--format', 'yaml']).error().code, 'invalid_flag_value');
	const error = kb.run(['stauts', '--format', 'human']);
	assert.equal(error.code, 1);
	assert.match(error.stderr, /^engi: unknown command: stauts\nhint: did you mean engi status\?/);
	assert.equal(runCli(['status'], {env: {...kb.env, ENGI_FORMAT: 'xml'}}).error().code, 'invalid_flag_value');
});

test('every command prints one JSON document whose schema matches engi schema', t => {
	const kb = makeKb(t);
	kb.ok(['graph', 'node', '--id', 'p', '--kind', 'Project', '--label', 'P']);
	const schemas = kb.ok(['schema']).schemas as Record<string, {$id: string; properties?: Record<string, unknown>}>;
	const documents: Record<string, unknown> = {
		status: kb.ok(['status']),
		timeline: kb.ok(['timeline']),
		project: kb.ok(['project']),
		doctor: kb.ok(['doctor']),
		'index rebuild': kb.ok(['index', 'rebuild']),
		'config get': kb.ok(['config', 'get', 'root', '--global']),
	};
	for (const [name, document] of Object.entries(documents)) {
		const schema = schemas[name];
		assert.ok(schema, `schema for ${name}`);
		assert.equal((document as {schema: string}).schema, schema.$id);
	}

	const one = kb.ok(['schema', 'graph node']);
	assert.deepEqual(Object.keys(one.schemas), ['graph node']);
	assert.equal(kb.run(['schema', 'nope', '--format', 'json']).error().code, 'unknown_command');
});
