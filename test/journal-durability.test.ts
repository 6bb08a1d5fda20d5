import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {repoRoot} from './helpers/cli.js';
import {requireProc, startCli, waitStopped} from './helpers/faults.js';
import {makeKb} from './helpers/kb.js';
import {prepareEvents, serializeEvent} from '../source/engine/journal/append.js';

function runWorker(root: string, worker: number, count: number): Promise<number> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'test/helpers/append-worker.ts'), root, String(worker), String(count)], {stdio: ['ignore', 'ignore', 'inherit']});
		child.on('error', reject);
		child.on('exit', code => resolve(code ?? -1));
	});
}

test('8 processes × 250 appends: 2,000 valid, distinct, untorn lines', {timeout: 240_000}, async t => {
	const kb = makeKb(t);
	const codes = await Promise.all(Array.from({length: 8}, (_, worker) => runWorker(kb.root, worker, 250)));
	assert.deepEqual(codes, Array.from({length: 8}, () => 0));
	const text = readFileSync(kb.journal, 'utf8');
	assert.ok(text.endsWith('\n'));
	const lines = text.slice(0, -1).split('\n');
	assert.equal(lines.length, 2000);
	const ids = new Set<string>();
	const payloadIds = new Set<string>();
	for (const line of lines) {
		const event = JSON.parse(line);
		ids.add(event.id);
		payloadIds.add(event.payload.id);
	}

	assert.equal(ids.size, 2000);
	assert.equal(payloadIds.size, 2000);
	const status = kb.ok(['status']);
	assert.deepEqual([status.events, status.nodes, status.corrupt_lines], [2000, 2000, 0]);
	assert.equal(existsSync(join(kb.root, '.engi', 'journal.lock')), false, 'the lock is released');
});

test('a lock left by a crashed holder is taken over once stale', {timeout: 60_000}, t => {
	const kb = makeKb(t);
	const lock = join(kb.root, '.engi', 'journal.lock');
	mkdirSync(lock);
	const old = new Date(Date.now() - 60_000);
	utimesSync(lock, old, old);
	const result = kb.run(['graph', 'node', '--id', 'n', '--kind', 'Task', '--label', 'after crash', '--format', 'json']);
	assert.equal(result.code, 0, result.stderr);
	assert.equal(kb.ok(['status']).nodes, 1);
});

test('a torn last line is reported by readers, quarantined verbatim by a writer, never lost', t => {
	const kb = makeKb(t);
	kb.ok(['graph', 'node', '--id', 'a', '--kind', 'Task', '--label', 'A']);
	const torn = '{"id":"deadbeef","observed_utc":"2026-0';
	appendFileSync(kb.journal, torn);
	const before = readFileSync(kb.journal);

	const status = kb.ok(['status']);
	assert.equal(status.corrupt_lines, 1);
	assert.match(status.warnings.join('\n'), /line 2 has no newline and does not parse/);
	const doctor = kb.run(['doctor', '--format', 'json']);
	assert.equal(doctor.code, 2);
	assert.deepEqual(readFileSync(kb.journal), before, 'readers never change the journal');
	assert.equal(existsSync(join(kb.root, '.engi', 'quarantine')), false);

	const write = kb.ok(['graph', 'node', '--id', 'b', '--kind', 'Task', '--label', 'B']);
	assert.deepEqual(write.quarantined, [{line: 2, reason: 'torn_tail'}]);
	const files = readdirSync(join(kb.root, '.engi', 'quarantine'));
	assert.equal(files.length, 1);
	assert.match(files[0]!, /^\d{4}-\d{2}-\d{2}\.jsonl$/);
	assert.equal(readFileSync(join(kb.root, '.engi', 'quarantine', files[0]!), 'utf8'), torn + '\n', 'moved verbatim');
	const lines = readFileSync(kb.journal, 'utf8').trim().split('\n').map(line => JSON.parse(line).payload.id);
	assert.deepEqual(lines, ['a', 'b'], 'the new line is not glued to the torn one');
	const after = kb.ok(['status']);
	assert.deepEqual([after.nodes, after.quarantined, after.corrupt_lines], [2, 1, 0]);
	assert.equal(kb.run(['doctor', '--format', 'json']).code, 1, 'a non-empty quarantine is a warning');
});

test('corrupt lines in the middle are quarantined by index rebuild; a valid unterminated line is kept', t => {
	const kb = makeKb(t);
	kb.ok(['graph', 'node', '--id', 'a', '--kind', 'Task', '--label', 'A']);
	const good = readFileSync(kb.journal, 'utf8');
	const valid = serializeEvent(prepareEvents([{op: 'node.upsert', payload: {id: 'c', kind: 'Task'}}], new Date())[0]!).trimEnd();
	writeFileSync(kb.journal, good + 'garbage line\n' + valid);
	const status = kb.ok(['status']);
	assert.equal(status.corrupt_lines, 1);
	assert.equal(status.nodes, 1, 'the unterminated line is not applied until mended');
	const rebuild = kb.ok(['index', 'rebuild']);
	assert.deepEqual(rebuild.quarantined, [{line: 2, reason: 'not_json'}]);
	assert.equal(rebuild.nodes, 2);
	assert.ok(readFileSync(kb.journal, 'utf8').endsWith('}\n'));
});

test('concurrent ingest runs that planned the same notes append each event once', {timeout: 120_000}, async t => {
	if (!requireProc(t)) {
		return;
	}

	const kb = makeKb(t);
	const inbox = join(kb.root, '00-inbox', 'harvest');
	mkdirSync(inbox, {recursive: true});
	kb.ok(['graph', 'node', '--id', 'project:shop', '--kind', 'Project', '--label', 'shop']);
	for (let index = 0; index < 20; index++) {
		writeFileSync(join(inbox, `task-${index}.md`), ['---', `id: task:t${index}`, 'kind: Task', `label: Task number ${index}`, 'project: project:shop', '---', ''].join('\n'));
	}

	// Every run plans against the same journal (nothing ingested yet): each is stopped while it
	// plans, however slowly it got there, and all go on at once to race for the lock.
	const runs = Array.from({length: 4}, () => startCli(['ingest', '--root', kb.root, '--format', 'json'], {env: {...kb.env, ENGI_TEST_PAUSE_AT: 'write.planning'}}));
	t.after(() => {
		for (const run of runs) {
			run.kill('SIGKILL');
		}
	});
	for (const run of runs) {
		await waitStopped(run.pid, 60_000);
	}

	for (const run of runs) {
		run.kill('SIGCONT');
	}

	const results = await Promise.all(runs.map(run => run.done));
	assert.deepEqual(results.map(result => result.code), [0, 0, 0, 0], results.map(result => result.stderr).join(''));
	const lines = readFileSync(kb.journal, 'utf8').trimEnd().split('\n');
	const ids = lines.map(line => JSON.parse(line).id as string);
	assert.equal(ids.length, new Set(ids).size, 'no event is in the journal twice');
	assert.equal(lines.length, 1 + 20 * 2, 'the project, then each note and its edge once');
	assert.equal(lines.filter(line => 'reassert_of' in JSON.parse(line).payload).length, 0, 'no note re-asserted as if it were a repeat');
	const reports = results.map(result => JSON.parse(result.stdout) as {appended: number; added: unknown[]; unchanged: string[]});
	assert.equal(reports.reduce((sum, report) => sum + report.appended, 0), 40);
	assert.deepEqual(reports.map(report => report.added.length + report.unchanged.length), [20, 20, 20, 20], 'each run accounts for every note, as added or already there');
	assert.equal(kb.ok(['status']).events, 41);
});
