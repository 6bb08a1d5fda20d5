// Writers that plan against the index and then wait for the journal lock, raced by another
// writer in between (the first stopped while it plans, ENGI_TEST_PAUSE_AT=write.planning): what
// each appends is decided against the journal as it is under the lock, so nothing is appended
// twice and no write is lost.
import assert from 'node:assert/strict';
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {requireProc, startCli, waitStopped} from '../helpers/faults.js';
import {makeKb, type KbSandbox} from '../helpers/kb.js';

function journalLines(kb: KbSandbox): Array<{id: string; op: string; payload: Record<string, unknown>}> {
	return readFileSync(kb.journal, 'utf8').trimEnd().split('\n').map(line => JSON.parse(line));
}

function stageNotes(kb: KbSandbox, count: number): void {
	const inbox = join(kb.root, '00-inbox', 'harvest');
	mkdirSync(inbox, {recursive: true});
	for (let index = 0; index < count; index++) {
		writeFileSync(join(inbox, `task-${index}.md`), ['---', `id: task:t${index}`, 'kind: Task', `label: Task number ${index}`, 'project: project:shop', '---', ''].join('\n'));
	}
}

test('an ingest stopped while it plans, raced by another that ingests the same notes, appends nothing again', {timeout: 60_000}, async t => {
	if (!requireProc(t)) {
		return;
	}

	const kb = makeKb(t);
	kb.ok(['graph', 'node', '--id', 'project:shop', '--kind', 'Project', '--label', 'shop']);
	stageNotes(kb, 3);
	const first = startCli(['ingest', '--root', kb.root, '--format', 'json'], {env: {...kb.env, ENGI_TEST_PAUSE_AT: 'write.planning'}});
	t.after(() => first.kill('SIGKILL'));
	await waitStopped(first.pid);
	// The other run appends the notes and applies them to the shared index the stopped one is reading.
	const second = kb.ok(['ingest', '--root', kb.root]);
	assert.equal(second.appended, 6);
	first.kill('SIGCONT');
	const result = await first.done;
	assert.equal(result.code, 0, result.stderr);
	const report = result.json();
	assert.equal(report.appended, 0, 'the notes were in the journal when it took the lock');
	assert.equal(report.unchanged.length, 3);
	const lines = journalLines(kb);
	assert.equal(lines.length, 1 + 3 * 2, 'the project, then each note and its edge once');
	assert.equal(lines.filter(line => 'reassert_of' in line.payload).length, 0, 'no note re-asserted as if it were a repeat');
	assert.equal(kb.ok(['status']).events, 7);
});

test('a relate stopped after it planned, raced by an assert and a retract of the same edge, still asserts it', {timeout: 60_000}, async t => {
	if (!requireProc(t)) {
		return;
	}

	const kb = makeKb(t);
	kb.ok(['graph', 'node', '--id', 'task:a', '--kind', 'Task', '--label', 'A']);
	kb.ok(['graph', 'node', '--id', 'project:shop', '--kind', 'Project', '--label', 'shop']);
	const edge = ['--from', 'task:a', '--edge', 'BELONGS_TO', '--to', 'project:shop'];
	const first = startCli(['graph', 'relate', ...edge, '--format', 'json'], {env: {...kb.env, ENGI_TEST_PAUSE_AT: 'write.before_lock'}});
	t.after(() => first.kill('SIGKILL'));
	await waitStopped(first.pid);
	kb.ok(['graph', 'relate', ...edge]);
	kb.ok(['graph', 'retract', ...edge]);
	first.kill('SIGCONT');
	const result = await first.done;
	assert.equal(result.code, 0, result.stderr);
	// It took the lock after the retract, so its assertion is the last word: the edge is open.
	const ops = journalLines(kb).map(line => line.op);
	assert.deepEqual(ops, ['node.upsert', 'node.upsert', 'edge.assert', 'edge.retract', 'edge.assert']);
	assert.equal(kb.ok(['status']).edges, 1, 'the edge holds');
});

test('a relate stopped after it planned is checked again against an endpoint changed meanwhile, and refused', {timeout: 60_000}, async t => {
	if (!requireProc(t)) {
		return;
	}

	const kb = makeKb(t);
	kb.ok(['graph', 'node', '--id', 'task:a', '--kind', 'Task', '--label', 'A']);
	kb.ok(['graph', 'node', '--id', 'shop', '--kind', 'Project', '--label', 'shop']);
	const first = startCli(['graph', 'relate', '--from', 'task:a', '--edge', 'BELONGS_TO', '--to', 'shop', '--format', 'json'], {env: {...kb.env, ENGI_TEST_PAUSE_AT: 'write.before_lock'}});
	t.after(() => first.kill('SIGKILL'));
	await waitStopped(first.pid);
	// A task belongs to a project, not to another task.
	kb.ok(['graph', 'node', '--id', 'shop', '--kind', 'Task', '--label', 'shop']);
	first.kill('SIGCONT');
	const result = await first.done;
	assert.equal(result.code, 1, result.stdout + result.stderr);
	assert.equal(result.error().code, 'edge_not_allowed', 'as if the endpoint had been a task when it was asked');
	assert.deepEqual(journalLines(kb).map(line => line.op), ['node.upsert', 'node.upsert', 'node.upsert'], 'nothing appended');
});

test('a wiki sync stopped while it plans does not block another: held pages are written after the append, not inside the plan\'s read', {timeout: 60_000}, async t => {
	if (!requireProc(t)) {
		return;
	}

	const kb = makeKb(t);
	const wiki = join(kb.root, '02-wiki');
	mkdirSync(wiki, {recursive: true});
	writeFileSync(join(wiki, 'caching.md'), ['---', 'id: wiki:caching', 'title: Caching', '---', '# Caching', ''].join('\n'));
	writeFileSync(join(wiki, 'retries.md'), ['# Retries', '<<<<<<< HEAD', 'ours', '=======', 'theirs', '>>>>>>> branch', ''].join('\n'));
	const first = startCli(['wiki', 'sync', '--format', 'json'], {env: {...kb.env, ENGI_TEST_PAUSE_AT: 'write.planning'}});
	t.after(() => first.kill('SIGKILL'));
	await waitStopped(first.pid);
	// It used to write the held pages inside its read transaction, holding the index's write lock while stopped.
	const second = kb.run(['wiki', 'sync', '--format', 'json']);
	assert.equal(second.code, 2, second.stderr);
	assert.deepEqual(second.json().held.map((page: {path: string}) => page.path), ['retries.md']);
	first.kill('SIGCONT');
	const result = await first.done;
	assert.equal(result.code, 2, result.stderr);
	assert.equal(result.json().appended, 0, 'the other sync had appended the page');
	assert.equal(journalLines(kb).filter(line => line.payload['id'] === 'wiki:caching').length, 1);
});

test('a dream stopped while it plans does not block another: derived state is saved outside the plan\'s read', {timeout: 60_000}, async t => {
	if (!requireProc(t)) {
		return;
	}

	const kb = makeKb(t);
	kb.ok(['graph', 'node', '--id', 'note:standup', '--kind', 'Note', '--provenance', 'test', '--label', 'Standup with [[Ana Silva]] about the [[Release]] plan']);
	const first = startCli(['dream', '--format', 'json'], {env: {...kb.env, ENGI_TEST_PAUSE_AT: 'write.planning#1'}});
	t.after(() => first.kill('SIGKILL'));
	await waitStopped(first.pid);
	// It used to save each node's decay inside its read transaction, holding the index's write lock while stopped.
	const second = kb.run(['dream', '--format', 'json']);
	assert.equal(second.code, 0, second.stderr);
	first.kill('SIGCONT');
	const result = await first.done;
	assert.equal(result.code, 0, result.stderr);
	assert.equal(journalLines(kb).filter(line => line.payload['id'] === 'entity:release').length, 1, 'the entity is appended once');
});
