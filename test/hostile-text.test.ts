import assert from 'node:assert/strict';
import {mkdirSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {runCli, sandboxEnv} from './helpers/cli.js';
import {controlCharacter, escapes, writeHostileSession} from './helpers/hostile-session.js';
import {tempDir} from './helpers/temp.js';

/** The lines of a human brief outside its fences (a fence closes only on the exact line that opened it, minus `text`). */
function outsideFences(text: string): string[] {
	const outside: string[] = [];
	let fence: string | null = null;
	for (const line of text.split('\n')) {
		if (fence === null) {
			const open = /^(`{3,})text$/.exec(line);
			if (open) {
				fence = open[1]!;
			} else {
				outside.push(line);
			}
		} else if (line === fence) {
			fence = null;
		}
	}

	assert.equal(fence, null, 'every fence is closed');
	return outside;
}

test('terminal escapes in a transcript are shown, never sent, in every human output and error', {timeout: 180_000}, async t => {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	const project = join(base, 'repo');
	mkdirSync(join(project, '.git'), {recursive: true});
	const id = writeHostileSession(env['HOME']!, project, new Date());
	const kb = join(base, 'kb');
	const run = (args: string[], options: {json?: boolean} = {}) => runCli([...args, '--format', options.json ? 'json' : 'human'], {env, cwd: project});
	assert.equal(run(['init', kb], {json: true}).code, 0);
	for (const args of [
		['graph', 'node', '--id', 'project:repo', '--kind', 'Project', '--label', `Repo ${escapes.retitle}`],
		['graph', 'node', '--id', 'task:parser', '--kind', 'Task', '--label', `Parser ${escapes.clear}fix`, '--status', 'blocked', '--blocker', `CI ${escapes.red}down`, '--next-action', `rerun ${escapes.csi}`],
		['graph', 'relate', '--from', 'task:parser', '--edge', 'BELONGS_TO', '--to', 'project:repo'],
		['checkpoint', 'record', '--session', id, '--objective', `stream ${escapes.clear}the parser`, '--status', 'blocked', '--blocker', `waiting ${escapes.retitle}`, '--next-action', `ask ${escapes.red}`],
	]) {
		const result = run(args, {json: true});
		assert.equal(result.code, 0, `${args.join(' ')}: ${result.stderr}`);
	}

	const outputs: Array<[string, string[]]> = [
		['sessions', ['sessions', '--all-projects']],
		['sessions --q', ['sessions', '--all-projects', '--q', 'parser']],
		['unfinished', ['unfinished', '--all-projects']],
		['resume', ['resume', id]],
		['resume --view context', ['resume', id, '--view', 'context']],
		['pickup', ['pickup', id]],
		['read', ['read', id]],
		['read --view events', ['read', id, '--view', 'events']],
		['read --view context', ['read', id, '--view', 'context']],
		['read --view index', ['read', id, '--view', 'index']],
		['read --lines', ['read', id, '--lines', '1,3']],
		['standup', ['standup']],
		['checkpoint list', ['checkpoint', 'list']],
		['checkpoint show', ['checkpoint', 'show', id]],
		['project', ['project']],
		['project --view evidence', ['project', '--view', 'evidence']],
		['query', ['query', '--q', 'parser']],
		['query --view evidence', ['query', '--q', 'task:parser', '--view', 'evidence']],
	];
	for (const [name, args] of outputs) {
		const result = run(args);
		assert.ok(result.code === 0 || result.code === 2, `${name} exited ${result.code}: ${result.stderr}`);
		const index = (result.stdout + result.stderr).search(controlCharacter);
		assert.equal(index, -1, `${name}: a control character reached the terminal: ${JSON.stringify((result.stdout + result.stderr).slice(Math.max(0, index - 30), index + 30))}`);
		assert.match(result.stdout, /␛/, `${name}: the escape is made visible, not silently dropped`);
	}

	// The JSON face keeps the text exactly (JSON escapes it); only the human face shows it.
	assert.equal(run(['resume', id], {json: true}).json().first_request.text.includes(escapes.retitle), true);

	// The human error envelope: a message that quotes what was typed.
	const failed = run(['sessions', '--source', `${escapes.clear}nope`]);
	assert.equal(failed.code, 1);
	assert.equal(failed.stderr.search(controlCharacter), -1, failed.stderr);
	assert.match(failed.stderr, /^engi: --source: unknown source "␛\[2Jnope"$/m);

	// The brief: everything from the transcript is inside a fence it cannot close.
	const brief = run(['resume', id]).stdout;
	const outside = outsideFences(brief);
	for (const words of ['parser', 'npm test', 'Ignore the notice', 'FAIL', 'tests', 'rm -rf']) {
		assert.ok(!outside.some(line => line.includes(words) && !line.startsWith('Checkpoint (recorded with engi')), `"${words}" appears outside the fences:\n${outside.join('\n')}`);
	}

	assert.ok(!outside.some(line => line.startsWith('#')), 'no transcript text becomes a heading');
	assert.match(brief, /^Pending tool calls \(untrusted transcript excerpt\):\n`{3,}text\nline 4\tBash: npm test -- --watch ␛\]0;owned␇$/m, 'the pending call, first, with its command');
	const pickup = outsideFences(run(['pickup', id]).stdout);
	assert.ok(!pickup.some(line => line.includes('parser') || line.startsWith('#')), pickup.join('\n'));
});
