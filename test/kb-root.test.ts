import assert from 'node:assert/strict';
import {existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {runCli, sandboxEnv} from './helpers/cli.js';
import {tempDir} from './helpers/temp.js';

function listTree(directory: string): string[] {
	if (!existsSync(directory)) {
		return [];
	}

	return readdirSync(directory, {recursive: true, encoding: 'utf8'}).sort();
}

test('init creates the layout, registers the root, and is idempotent', t => {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	const root = join(base, 'kb');
	const first = runCli(['init', root], {env});
	assert.equal(first.code, 0, first.stderr);
	const created = first.json();
	assert.equal(created.schema, 'engi.init.v1');
	for (const path of ['00-inbox/harvest', '01-raw', '02-wiki', '03-output/artifacts', '.engi', '.engi/journal.jsonl', '.gitignore', '.gitattributes']) {
		assert.ok(existsSync(join(root, path)), path);
		assert.ok(created.created.includes(path), `${path} reported as created`);
	}

	assert.match(readFileSync(join(root, '.gitattributes'), 'utf8'), /^\.engi\/journal\.jsonl merge=union$/m);
	assert.match(readFileSync(join(root, '.gitignore'), 'utf8'), /^\.engi\/index\.sqlite$/m);
	assert.equal(JSON.parse(readFileSync(join(base, 'config', 'engi', 'config.json'), 'utf8')).root, root);
	const before = listTree(root);
	const second = runCli(['init', root], {env});
	assert.equal(second.code, 0);
	assert.deepEqual(second.json().created, []);
	assert.deepEqual(listTree(root), before);
});

test('init refuses a relative path and a non-empty foreign directory unless --force', t => {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	const relative = runCli(['init', 'kb'], {env});
	assert.equal(relative.code, 1);
	assert.equal(relative.error().code, 'path_not_absolute');
	const foreign = join(base, 'notes');
	mkdirSync(foreign);
	writeFileSync(join(foreign, 'todo.txt'), 'mine');
	const refused = runCli(['init', foreign], {env});
	assert.equal(refused.code, 1);
	assert.equal(refused.error().code, 'directory_not_empty');
	assert.deepEqual(readdirSync(foreign), ['todo.txt'], 'nothing was created');
	const forced = runCli(['init', foreign, '--force', '--no-register'], {env});
	assert.equal(forced.code, 0, forced.stderr);
	assert.equal(forced.json().registered, false);
	assert.equal(readFileSync(join(foreign, 'todo.txt'), 'utf8'), 'mine');
	assert.equal(existsSync(join(base, 'config', 'engi', 'config.json')), false, '--no-register leaves the config alone');
});

test('root resolution order: --root, then ENGI_ROOT, then the registered root', t => {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	const roots = ['flag', 'env', 'config'].map(name => join(base, name));
	for (const root of roots) {
		assert.equal(runCli(['init', root, '--no-register'], {env}).code, 0);
	}

	mkdirSync(join(base, 'config', 'engi'), {recursive: true});
	writeFileSync(join(base, 'config', 'engi', 'config.json'), JSON.stringify({root: roots[2]}));
	const status = (extra: string[], extraEnv: Record<string, string> = {}) => runCli(['status', ...extra], {env: {...env, ...extraEnv}}).json().root;
	assert.equal(status(['--root', roots[0]!], {ENGI_ROOT: roots[1]!}), roots[0]);
	assert.equal(status([], {ENGI_ROOT: roots[1]!}), roots[1]);
	assert.equal(status([]), roots[2]);
	assert.equal(status([], {ENGI_ROOT: '   '}), roots[2], 'a blank ENGI_ROOT is ignored');
	// A config written with a byte-order mark still reads.
	writeFileSync(join(base, 'config', 'engi', 'config.json'), '\uFEFF' + JSON.stringify({root: roots[1]}));
	assert.equal(status([]), roots[1]);
});

test('root resolution errors are distinct and never fall back to the working directory', t => {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	const cwd = join(base, 'work');
	mkdirSync(cwd);
	const fail = (extraEnv: Record<string, string | undefined>, configText?: string | 'directory') => {
		const configDir = join(base, 'config', 'engi');
		mkdirSync(configDir, {recursive: true});
		const configPath = join(configDir, 'config.json');
		if (configText === 'directory') {
			mkdirSync(configPath, {recursive: true});
		} else if (configText !== undefined) {
			writeFileSync(configPath, configText);
		}

		const result = runCli(['status'], {env: sandboxEnv(base, extraEnv), cwd});
		assert.equal(result.code, 1, result.stdout);
		return result.error().code;
	};

	assert.equal(fail({}), 'root_not_configured');
	assert.equal(fail({ENGI_ROOT: 'relative/kb'}), 'engi_root_relative');
	assert.equal(fail({}, '{"root": '), 'config_malformed');
	assert.equal(fail({}, '["not", "an", "object"]'), 'config_malformed');
	assert.equal(fail({}, '{"root": 42}'), 'config_malformed');
	assert.equal(fail({}, '{"root": "kb"}'), 'config_root_relative');
	assert.equal(fail({HOME: 'home', XDG_CONFIG_HOME: undefined}), 'home_relative');
	assert.equal(fail({XDG_CONFIG_HOME: 'cfg'}), 'xdg_relative');
	const unreadable = join(base, 'other');
	mkdirSync(join(unreadable, 'engi', 'config.json'), {recursive: true});
	const result = runCli(['status'], {env: sandboxEnv(base, {XDG_CONFIG_HOME: unreadable}), cwd});
	assert.equal(result.error().code, 'config_unreadable');
	assert.deepEqual(readdirSync(cwd), [], 'nothing was created in the working directory');
	void env;
});

test('read-only commands on a root without a knowledge base fail clearly and create nothing', t => {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	const root = join(base, 'empty');
	mkdirSync(root);
	for (const args of [['status'], ['project'], ['timeline'], ['project', 'x', '--view', 'full']]) {
		const result = runCli([...args, '--root', root], {env});
		assert.equal(result.code, 1, args.join(' '));
		assert.equal(result.error().code, 'kb_not_initialized');
		assert.deepEqual(readdirSync(root), [], `${args.join(' ')} created nothing`);
	}

	// doctor still checks what it can (the session catalog) and says, as a failed check, that there is no knowledge base.
	const doctor = runCli(['doctor', '--root', root], {env});
	assert.equal(doctor.code, 1);
	const checks = doctor.json().checks as Array<{name: string; ok: boolean}>;
	assert.equal(checks.find(check => check.name === 'knowledge-base')?.ok, false);
	assert.deepEqual(readdirSync(root), [], 'doctor created nothing');

	const missing = join(base, 'missing');
	assert.equal(runCli(['status', '--root', missing], {env}).error().code, 'kb_not_initialized');
	assert.equal(existsSync(missing), false);
	assert.equal(existsSync(join(base, 'config')), false, 'no config directory was created either');
});

test('config get/set: global root and per-knowledge-base format', t => {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	const root = join(base, 'kb');
	assert.equal(runCli(['init', root, '--no-register'], {env}).code, 0);
	assert.equal(runCli(['config', 'get', 'root', '--global'], {env}).json().value, null);
	const set = runCli(['config', 'set', 'root', root, '--global'], {env});
	assert.equal(set.code, 0, set.stderr);
	assert.equal(runCli(['config', 'get', 'root', '--global'], {env}).json().value, root);
	assert.equal(runCli(['config', 'set', 'root', 'rel', '--global'], {env}).error().code, 'path_not_absolute');
	assert.equal(runCli(['config', 'set', 'colour', 'x', '--global'], {env}).error().code, 'unknown_config_key');
	assert.equal(runCli(['config', 'set', 'root', root], {env}).error().code, 'config_key_scope');
	assert.equal(runCli(['config', 'set', 'format', 'yaml'], {env}).error().code, 'invalid_config_value');
	const local = runCli(['config', 'set', 'format', 'human'], {env});
	assert.equal(local.code, 0, local.stderr);
	assert.equal(local.json().path, join(root, '.engi', 'config.json'));
	// A global format default changes the face when no flag or ENGI_FORMAT is given.
	assert.equal(runCli(['config', 'set', 'format', 'human', '--global'], {env}).code, 0);
	assert.match(runCli(['status'], {env}).stdout, /^root\t/m);
	assert.equal(runCli(['status'], {env: {...env, ENGI_FORMAT: 'json'}}).json().schema, 'engi.status.v1');
});
