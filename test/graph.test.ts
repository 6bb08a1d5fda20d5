import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import test from 'node:test';
import {makeKb} from './helpers/kb.js';

test('graph node/relate/retract write validated events; the brief follows them', t => {
	const kb = makeKb(t);
	const project = kb.ok(['graph', 'node', '--id', 'project:engi', '--kind', 'project', '--label', 'engi CLI', '--path', '/src/engi']);
	assert.equal(project.payload.kind, 'Project', 'core kinds are written in canonical spelling');
	kb.ok(['graph', 'node', '--id', 'task:a', '--kind', 'Task', '--label', 'Write A', '--status', 'open', '--next-action', 'start', '--blocker', 'x,y', '--blocker', 'z']);
	kb.ok(['graph', 'node', '--id', 'task:b', '--kind', 'Task', '--label', 'Write B', '--status', 'Done']);
	kb.ok(['graph', 'node', '--id', 'task:c', '--kind', 'Task', '--label', 'Loose end']);
	const relate = kb.ok(['graph', 'relate', '--from', 'task:a', '--edge', 'belongs_to', '--to', 'project:engi']);
	assert.equal(relate.payload.type, 'BELONGS_TO');
	kb.ok(['graph', 'relate', '--from', 'task:b', '--type', 'BELONGS_TO', '--to', 'project:engi']);

	const brief = kb.ok(['project']);
	assert.equal(brief.view, 'brief');
	assert.equal(brief.total, 2);
	assert.equal(brief.excluded_terminal, 1);
	assert.deepEqual(brief.projects, {'project:engi': 'engi CLI'});
	assert.deepEqual(brief.fields, ['id', 'projects', 'status', 'label', 'updated', 'next_action', 'blockers']);
	assert.deepEqual(
		brief.rows.map((row: unknown[]) => [row[0], row[1], row[2], row[5], row[6]]),
		[
			['task:a', ['project:engi'], 'open', 'start', ['x', 'y', 'z']],
			['task:c', [], 'unknown', null, []],
		],
		'sorted by the JSON text of projects, then id; unknown status and unassigned tasks kept',
	);

	for (const name of ['project:engi', 'engi', 'engi cli', '/src/engi/', 'ENGI']) {
		assert.equal(kb.ok(['project', name]).project, 'project:engi', `resolves ${name}`);
	}

	kb.ok(['graph', 'retract', '--from', 'task:a', '--edge', 'BELONGS_TO', '--to', 'project:engi']);
	assert.equal(kb.ok(['project', 'engi']).total, 0, 'a retracted membership no longer counts');
	const lines = readFileSync(kb.journal, 'utf8').trim().split('\n').map(line => JSON.parse(line));
	assert.deepEqual(lines.map(line => line.op), ['node.upsert', 'node.upsert', 'node.upsert', 'node.upsert', 'edge.assert', 'edge.assert', 'edge.retract']);
	for (const line of lines) {
		assert.deepEqual(Object.keys(line), ['id', 'observed_utc', 'op', 'payload']);
		assert.match(line.observed_utc, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
	}
});

test('relate preflight: endpoints, adjacency, locations and custom kinds', t => {
	const kb = makeKb(t);
	kb.ok(['graph', 'node', '--id', 'p', '--kind', 'Project', '--label', 'P']);
	kb.ok(['graph', 'node', '--id', 'd', '--kind', 'Dataset', '--label', 'D']);
	kb.ok(['graph', 'node', '--id', 'task', '--kind', 'Task', '--label', 'T']);
	const before = readFileSync(kb.journal, 'utf8');
	const fail = (args: string[]) => {
		const result = kb.run(['graph', 'relate', ...args, '--format', 'json']);
		assert.equal(result.code, 1, args.join(' '));
		return result.error().code;
	};

	assert.equal(fail(['--from', 'ghost', '--edge', 'BELONGS_TO', '--to', 'p']), 'missing_endpoint');
	assert.equal(fail(['--from', 'task', '--edge', 'SUPPORTS', '--to', 'p']), 'edge_not_allowed');
	assert.equal(fail(['--from', 'task', '--edge', 'BELONGS_TO', '--to', '/tmp/file']), 'location_target_not_allowed');
	assert.equal(fail(['--from', 'task', '--edge', 'LOCATED_AT', '--to', 'https://example.com/x']), 'edge_not_allowed');
	assert.equal(fail(['--from', 'task', '--edge', 'DEPENDS_ON', '--to', 'p']), 'custom_edge_needs_provenance');
	assert.equal(kb.run(['graph', 'node', '--id', 'w', '--kind', 'Wiki', '--label', 'W', '--format', 'json']).error().code, 'custom_kind_needs_provenance');
	assert.equal(readFileSync(kb.journal, 'utf8'), before, 'rejected writes leave the journal byte-identical');

	kb.ok(['graph', 'relate', '--from', 'd', '--edge', 'LOCATED_AT', '--to', 'https://example.com/data.csv']);
	kb.ok(['graph', 'relate', '--from', 'task', '--edge', 'DEPENDS_ON', '--to', 'p', '--provenance', 'review 2026-11']);
	kb.ok(['graph', 'relate', '--from', 'ghost', '--edge', 'BELONGS_TO', '--to', 'p', '--allow-dangling']);
	kb.ok(['graph', 'node', '--id', 'w', '--kind', 'Wiki', '--label', 'W', '--provenance', 'wiki sync']);
	const doctor = kb.run(['doctor', '--format', 'json']);
	assert.equal(doctor.code, 2, 'the dangling edge is corruption doctor reports');
	assert.match(JSON.stringify(doctor.json().checks), /ghost -BELONGS_TO-> p/);
});

test('project evidence cites journal lines and event ids; full renders a page', t => {
	const kb = makeKb(t);
	kb.ok(['graph', 'node', '--id', 'project:x', '--kind', 'Project', '--label', 'X']);
	const task = kb.ok(['graph', 'node', '--id', 'task:1', '--kind', 'Task', '--label', 'One', '--status', 'done']);
	const edge = kb.ok(['graph', 'relate', '--from', 'task:1', '--edge', 'BELONGS_TO', '--to', 'project:x']);
	const evidence = kb.ok(['project', 'x', '--view', 'evidence']);
	assert.equal(evidence.tasks.length, 1, 'terminal tasks are included');
	assert.deepEqual(
		evidence.tasks[0].history.map((entry: {line: number; event: string; op: string}) => [entry.line, entry.event, entry.op]),
		[
			[2, task.id, 'node.upsert'],
			[3, edge.id, 'edge.assert'],
		],
	);
	assert.equal(evidence.project_node.node.label, 'X');
	const full = kb.ok(['project', 'project:x', '--view', 'full']);
	assert.match(full.render, /^# X$/m);
	assert.match(full.render, /- \[done\] One \(task:1\)/);
	assert.equal(kb.run(['project', 'nope', '--format', 'json']).error().code, 'unknown_project');
	kb.ok(['graph', 'node', '--id', 'project:y', '--kind', 'Project', '--label', 'Shared']);
	kb.ok(['graph', 'node', '--id', 'project:z', '--kind', 'Project', '--label', 'Shared']);
	const ambiguous = kb.run(['project', 'shared', '--format', 'json']).error();
	assert.equal(ambiguous.code, 'ambiguous_project');
	assert.deepEqual(ambiguous['candidates'], ['project:y', 'project:z']);
	assert.equal(kb.ok(['project', 'X']).project, 'project:x', 'an id match outranks a label match');
});

test('paging: limit/offset and next_offset', t => {
	const kb = makeKb(t);
	for (const n of [1, 2, 3, 4, 5]) {
		kb.ok(['graph', 'node', '--id', `task:${n}`, '--kind', 'Task', '--label', `T${n}`]);
	}

	const first = kb.ok(['project', '--limit', '2']);
	assert.deepEqual([first.rows.length, first.next_offset], [2, 2]);
	const last = kb.ok(['project', '--limit', '2', '--offset', '4']);
	assert.deepEqual([last.rows.length, last.next_offset], [1, null]);
	const timeline = kb.ok(['timeline', '--limit', '3', '--offset', '3']);
	assert.deepEqual(timeline.entries.map((entry: {line: number}) => entry.line), [4, 5]);
	assert.equal(timeline.next_offset, null);
	const year = new Date().toISOString().slice(0, 4);
	assert.equal(kb.ok(['timeline', year]).total, 5);
	assert.equal(kb.ok(['timeline', '1999']).total, 0);
});

test('repeating a fact that already holds appends nothing; re-asserting after a change does apply', t => {
	const kb = makeKb(t);
	kb.ok(['graph', 'node', '--id', 'p', '--kind', 'Project', '--label', 'P']);
	const open = ['graph', 'node', '--id', 't', '--kind', 'Task', '--label', 'T', '--status', 'open'];
	assert.equal(kb.ok(open).appended, true);
	const size = readFileSync(kb.journal).length;
	const again = kb.ok(open);
	assert.equal(again.appended, false);
	assert.equal(readFileSync(kb.journal).length, size, 'nothing appended');
	kb.ok(['graph', 'node', '--id', 't', '--kind', 'Task', '--label', 'T', '--status', 'done']);
	const reopened = kb.ok(open);
	assert.equal(reopened.appended, true, 'going back to an earlier value is a new event');
	assert.notEqual(reopened.id, again.id);
	assert.equal(reopened.payload.reassert_of, again.id);
	assert.equal(kb.ok(['project']).rows[0][2], 'open');

	const relate = ['graph', 'relate', '--from', 't', '--edge', 'BELONGS_TO', '--to', 'p'];
	kb.ok(relate);
	assert.equal(kb.ok(relate).appended, false);
	kb.ok(['graph', 'retract', '--from', 't', '--edge', 'BELONGS_TO', '--to', 'p']);
	assert.equal(kb.ok(['graph', 'retract', '--from', 't', '--edge', 'BELONGS_TO', '--to', 'p']).appended, false, 'nothing left to retract');
	assert.deepEqual(kb.ok(['project']).rows[0][1], []);
	assert.equal(kb.ok(relate).appended, true);
	assert.deepEqual(kb.ok(['project']).rows[0][1], ['p'], 'the re-asserted membership is live again');
	const evidence = kb.ok(['project', 'p', '--view', 'evidence']);
	assert.equal('reassert_of' in evidence.tasks[0].node, false, 'the marker is not a node property');
});
