import assert from 'node:assert/strict';
import {appendFileSync, existsSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import Database from 'better-sqlite3';
import {makeKb, type KbSandbox} from './helpers/kb.js';
import {prepareEvents, serializeEvent} from '../source/engine/journal/append.js';

function dump(kb: KbSandbox): string {
	const db = new Database(join(kb.root, '.engi', 'index.sqlite'), {readonly: true});
	try {
		return JSON.stringify({
			events: db.prepare('SELECT * FROM events ORDER BY line').all(),
			nodes: db.prepare('SELECT * FROM nodes ORDER BY id').all(),
			edges: db.prepare('SELECT * FROM edges ORDER BY seq').all(),
			corrupt: db.prepare('SELECT * FROM corrupt ORDER BY line').all(),
		});
	} finally {
		db.close();
	}
}

function seed(kb: KbSandbox, afterEach?: () => void) {
	const steps: string[][] = [
		['graph', 'node', '--id', 'project:a', '--kind', 'Project', '--label', 'A'],
		['graph', 'node', '--id', 'task:1', '--kind', 'Task', '--label', 'one', '--status', 'open'],
		['graph', 'relate', '--from', 'task:1', '--edge', 'BELONGS_TO', '--to', 'project:a'],
		['graph', 'node', '--id', 'task:1', '--kind', 'Task', '--label', 'one', '--status', 'blocked', '--blocker', 'review'],
		['graph', 'node', '--id', 'task:2', '--kind', 'Task', '--label', '二', '--status', 'done'],
		['graph', 'relate', '--from', 'task:2', '--edge', 'BELONGS_TO', '--to', 'project:a'],
		['graph', 'retract', '--from', 'task:1', '--edge', 'BELONGS_TO', '--to', 'project:a'],
		['graph', 'relate', '--from', 'task:1', '--edge', 'BELONGS_TO', '--to', 'project:a'],
	];
	for (const step of steps) {
		kb.ok(step);
		afterEach?.();
	}
}

test('incremental refresh after each append equals a full rebuild', t => {
	const kb = makeKb(t);
	const refreshes: string[] = [];
	seed(kb, () => refreshes.push(kb.ok(['status']).index.refresh));
	assert.ok(refreshes.every(kind => kind === 'applied' || kind === 'fresh'), `refreshes were incremental: ${refreshes.join(',')}`);
	// A line duplicated by a git union merge is recorded but applied once.
	appendFileSync(kb.journal, readFileSync(kb.journal, 'utf8').split('\n')[1] + '\n');
	assert.equal(kb.ok(['status']).index.refresh, 'applied');
	const incremental = dump(kb);
	const evidenceBefore = kb.run(['project', 'a', '--view', 'evidence', '--format', 'json']).stdout;
	kb.ok(['index', 'rebuild']);
	assert.equal(dump(kb), incremental);
	assert.equal(kb.run(['project', 'a', '--view', 'evidence', '--format', 'json']).stdout, evidenceBefore);
	const status = kb.ok(['status']);
	assert.equal(status.index.refresh, 'fresh', 'nothing changed, nothing reread');
	assert.equal(status.events, 8, 'the duplicate line is not a second event');
});

test('rebuild twice, and after deleting the index, gives byte-identical evidence', t => {
	const kb = makeKb(t);
	seed(kb);
	const outputs: string[] = [];
	for (let round = 0; round < 2; round++) {
		kb.ok(['index', 'rebuild']);
		outputs.push(kb.run(['project', 'a', '--view', 'evidence', '--format', 'json']).stdout);
	}

	for (const suffix of ['', '-wal', '-shm']) {
		rmSync(join(kb.root, '.engi', `index.sqlite${suffix}`), {force: true});
	}

	const rebuilt = kb.ok(['status']);
	assert.equal(rebuilt.index.refresh, 'rebuilt');
	outputs.push(kb.run(['project', 'a', '--view', 'evidence', '--format', 'json']).stdout);
	assert.equal(outputs[0], outputs[1]);
	assert.equal(outputs[0], outputs[2]);
	const evidence = JSON.parse(outputs[0]!);
	assert.deepEqual(evidence.tasks.map((task: {id: string; status: string}) => [task.id, task.status]), [
		['task:1', 'blocked'],
		['task:2', 'done'],
	]);
});

test('a rewritten journal (not just grown) triggers a rebuild, not a wrong incremental apply', t => {
	const kb = makeKb(t);
	seed(kb);
	kb.ok(['status']);
	const lines = readFileSync(kb.journal, 'utf8').trim().split('\n');
	// Same size class, different content: drop the first line and append a new event.
	const extra = serializeEvent(prepareEvents([{op: 'node.upsert', payload: {id: 'task:9', kind: 'Task', label: 'nine'}}], new Date())[0]!);
	writeFileSync(kb.journal, lines.slice(1).join('\n') + '\n' + extra);
	const status = kb.ok(['status']);
	assert.equal(status.index.refresh, 'rebuilt');
	assert.equal(status.events, 8);
	assert.ok(!existsSync(join(kb.root, '.engi', 'quarantine')));
});
