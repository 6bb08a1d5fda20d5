import assert from 'node:assert/strict';
import {mkdirSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {runCli, sandboxEnv} from './helpers/cli.js';
import {buildFixtureHome} from './fixtures/home.js';
import {tempDir} from './helpers/temp.js';

function world(t: Parameters<typeof tempDir>[0]) {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	buildFixtureHome(env);
	const kb = join(base, 'kb');
	const cwd = join(base, 'elsewhere');
	mkdirSync(cwd, {recursive: true});
	const run = (args: readonly string[]) => runCli(args, {env, cwd});
	assert.equal(run(['init', kb, '--format', 'json']).code, 0);
	for (const args of [
		['graph', 'node', '--id', 'project:shop', '--kind', 'Project', '--label', 'Web shop'],
		['graph', 'node', '--id', 'task:csv', '--kind', 'Task', '--label', 'CSV export of orders', '--status', 'blocked', '--blocker', 'refund column unconfirmed'],
		['graph', 'relate', '--from', 'task:csv', '--edge', 'BELONGS_TO', '--to', 'project:shop'],
	]) {
		assert.equal(run([...args, '--format', 'json']).code, 0);
	}

	const human = (args: readonly string[]) => {
		const result = run([...args, '--format', 'human']);
		assert.ok(result.code === 0 || result.code === 2, `engi ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
		return result.stdout;
	};

	return {env, cwd, run, human};
}

/** Splits a printed command line back into arguments (the commands engi prints here need no quoting). */
const argsOf = (line: string) => line.replace(/^next: engi /, '').split(' ');

test('paged human output ends with the exact command for the next page, and that command prints it', {timeout: 120_000}, t => {
	const {human, run} = world(t);
	const first = human(['sessions', '--all-projects', '--limit', '5']);
	const next = first.trimEnd().split('\n').at(-1)!;
	assert.equal(next, 'next: engi sessions --all-projects --limit 5 --offset 5');
	const second = run([...argsOf(next), '--format', 'json']).json();
	assert.equal(second.offset, 5);
	assert.equal(second.sessions.length, 5);
	assert.doesNotMatch(first, /next_offset=/);

	// A screen command's text is only printed when asked for, so its next page asks again.
	assert.match(human(['unfinished', '--all-projects', '--since', '2026-11-01', '--limit', '4']), /^next: engi unfinished --since 2026-11-01 --all-projects --limit 4 --offset 4 --format human$/m);
	assert.match(human(['read', '11111111-1111-4111-8111-111111111111', '--view', 'context', '--limit', '3']), /^next: engi read 11111111-1111-4111-8111-111111111111 --view context --limit 3 --offset \d+$/m);
	assert.match(human(['resume', '11111111-1111-4111-8111-111111111111', '--view', 'index', '--limit', '3']), /^next: engi resume 11111111-1111-4111-8111-111111111111 --view index --limit 3 --offset \d+$/m);
});

test('read, resume and project views are text, never raw JSON; --lines and a past-the-end --offset say what they show', {timeout: 120_000}, t => {
	const {human} = world(t);
	const id = '11111111-1111-4111-8111-111111111111';
	const raw = /^\s*(\{|\[\s*$|"[^"]+": )/m;
	for (const args of [
		['read', id, '--view', 'context'],
		['read', id, '--view', 'events'],
		['read', id, '--view', 'index'],
		['read', id, '--lines', '13,15'],
		['resume', id, '--view', 'context'],
		['resume', id, '--view', 'events'],
		['resume', id, '--view', 'dialogue'],
		['project', '--view', 'evidence'],
		['query', '--q', 'task:csv', '--view', 'evidence'],
	]) {
		const text = human(args);
		assert.doesNotMatch(text, raw, `engi ${args.join(' ')} printed JSON:\n${text}`);
	}

	const context = human(['read', id, '--view', 'context', '--limit', '30']);
	assert.match(context, /^\[13\] call Bash: .*npm test/m);
	assert.match(context, /^\[14\] result \(of line 13, error, exit 1\): Exit code 1$/m);
	const lines = human(['read', id, '--lines', '13,15']);
	assert.match(lines.split('\n')[0]!, /^claude 11111111-1111-4111-8111-111111111111 \(events\) lines 13, 15 of 22$/);
	assert.match(lines, /^── line 13\n {2}parentUuid: u6$/m);
	assert.match(lines, /^── line 15$/m);
	const past = human(['read', id, '--offset', '100']);
	assert.match(past, /^claude 11111111-1111-4111-8111-111111111111 \(dialogue\): --offset 100 is past the end; the session has 22 lines$/m);
	assert.match(past, /^last page: engi read 11111111-1111-4111-8111-111111111111 --offset 2$/m);
	assert.match(human(['read', id, '--offset', '5', '--limit', '3']), /^claude 11111111-1111-4111-8111-111111111111 \(dialogue\) lines 6…\d+ of 22$/m);
	const evidence = human(['project', '--view', 'evidence']);
	assert.match(evidence, /^\(unassigned\)|^project:shop \| \[blocked\] CSV export of orders \| task:csv/m);
	assert.match(evidence, /^ {2}journal line \d+ \S+ node\.upsert /m);
});

test('empty results say what to try; counts agree with their nouns', {timeout: 120_000}, t => {
	const {human} = world(t);
	assert.match(human(['sessions']), /^0 sessions \(project .*\)\ntry --all-projects$/m);
	assert.match(human(['unfinished']), /^try --all-projects or --since 2w$/m);
	assert.match(human(['unfinished', '--since', '1h']), /^try --all-projects or a wider --since \(e\.g\. --since 4w\)$/m);
	assert.match(human(['unfinished', '--all-projects', '--since', '1h']), /^try a wider --since/m);
	assert.match(human(['standup', '--since', '1h']), /Nothing unfinished and no open checkpoint since .*; try a wider --since/);
	assert.match(human(['query', '--q', 'zzzqqq']), /: 0 matches for "zzzqqq".*\ntry fewer or other words/);
	assert.match(human(['query', '--q', 'task:csv']), /: 1 match for "task:csv"/);
	assert.match(human(['checkpoint', 'list']), /^0 checkpoints in .*\nrecord one with engi checkpoint record/m);
	const one = human(['standup', '--since', '2026-11-01', '--project', '/work/app']);
	assert.match(one, /^2 unfinished sessions \(2 high confidence\) in 1 project; /m);
	// One fixture session is corrupt: its text is not searched, and the answer says so first.
	assert.match(human(['sessions', '--all-projects', '--q', 'CRLF']), /^degraded \(session_unreadable: 1 session\(s\) in scope could not be parsed and were not searched .*\): 1 session /m);
});

test('standup takes --all-projects and --project as the dashboard does; --project narrows it', {timeout: 120_000}, t => {
	const {run} = world(t);
	const all = run(['standup', '--since', '2026-11-01', '--all-projects', '--format', 'json']);
	assert.equal(all.code, 0, all.stderr);
	assert.equal(all.json().project, null);
	const one = run(['standup', '--since', '2026-11-01', '--project', '/work/app', '--format', 'json']).json();
	assert.equal(one.project, '/work/app');
	assert.deepEqual(one.projects.map((project: {project: string}) => project.project), ['/work/app']);
	assert.equal(one.totals.candidates, 2);
	assert.ok(all.json().totals.candidates > one.totals.candidates);
	assert.equal(run(['standup', '--project', '/work/app', '--all-projects']).error().code, 'conflicting_flags');
});

test('engi graph --help lists its subcommands instead of an error, piped or not', t => {
	const {run} = world(t);
	for (const group of ['graph', 'checkpoint', 'index']) {
		const help = run([group, '--help']);
		assert.equal(help.code, 0, help.stderr);
		assert.equal(help.stderr, '');
		assert.match(help.stdout, new RegExp(`Usage\\n\\s+\\$ engi ${group} <command>`));
		assert.match(help.stdout, new RegExp(`${group} \\w+`));
	}

	assert.match(run(['graph', 'node', '--help']).stdout, /record \(or update\) a node/);
	assert.equal(run(['query', '--format', 'json']).error().code, 'missing_flag', 'printing a query still needs --q');
});
