import assert from 'node:assert/strict';
import {mkdirSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {runCli, sandboxEnv} from './helpers/cli.js';
import {hostileSessionId, writeHostileSession} from './helpers/hostile-session.js';
import {tempDir} from './helpers/temp.js';

test('checkpoint list --all-projects reads every project with sessions and checkpoints; without it, one project', {timeout: 60_000}, t => {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	const here = join(base, 'here');
	const there = join(base, 'there');
	for (const project of [here, there]) {
		mkdirSync(join(project, '.git'), {recursive: true});
	}

	writeHostileSession(env['HOME']!, there, new Date());
	const run = (args: string[]) => runCli([...args, '--format', 'json'], {env, cwd: here});
	assert.equal(run(['checkpoint', 'record', '--session', hostileSessionId, '--objective', 'over there']).code, 0);
	assert.equal(run(['checkpoint', 'record', '--session', 'aaaaaaaa-0000-4000-8000-00000000000a', '--source', 'claude', '--objective', 'right here', '--project', here]).code, 0);

	const one = run(['checkpoint', 'list']).json();
	assert.equal(one.project, here);
	assert.deepEqual(one.checkpoints.map((checkpoint: {objective: string}) => checkpoint.objective), ['right here']);
	assert.deepEqual(one.files.map((file: {project: string}) => file.project), [here]);

	const all = run(['checkpoint', 'list', '--all-projects']).json();
	assert.equal(all.project, null);
	assert.equal(all.path, null);
	assert.deepEqual(all.checkpoints.map((checkpoint: {objective: string; project: string}) => [checkpoint.objective, checkpoint.project]).sort(), [['over there', there], ['right here', here]]);
	assert.deepEqual(all.files.map((file: {project: string; count: number}) => [file.project, file.count]).sort(), [[here, 1], [there, 1]]);
	assert.match(runCli(['checkpoint', 'list', '--all-projects', '--format', 'human'], {env, cwd: here}).stdout, /^2 checkpoints in 2 projects\n/);
	assert.equal(runCli(['checkpoint', 'list', '--all-projects', '--project', here], {env, cwd: here}).error().code, 'conflicting_flags');
});
