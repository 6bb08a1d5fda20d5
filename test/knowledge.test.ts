import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {appendFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {makeKb, type KbSandbox} from './helpers/kb.js';

function note(kb: KbSandbox, name: string, text: string): string {
	const path = join(kb.root, '00-inbox', 'harvest', name);
	mkdirSync(join(kb.root, '00-inbox', 'harvest'), {recursive: true});
	writeFileSync(path, text);
	return path;
}

function seed(kb: KbSandbox) {
	kb.ok(['graph', 'node', '--id', 'project:engi', '--kind', 'Project', '--label', 'engi CLI']);
	kb.ok(['graph', 'node', '--id', 'project:web', '--kind', 'Project', '--label', 'web shop']);
	kb.ok(['graph', 'node', '--id', 'task:fts', '--kind', 'Task', '--label', 'Add FTS5 search for the journal', '--status', 'open', '--next-action', 'write the segmenter']);
	kb.ok(['graph', 'node', '--id', 'task:both', '--kind', 'Task', '--label', 'Shared search widget', '--status', 'open']);
	kb.ok(['graph', 'node', '--id', 'decision:sqlite', '--kind', 'Decision', '--label', 'Use SQLite FTS5 rather than MiniSearch files', '--body', 'cold start matters more than index size']);
	kb.ok(['graph', 'relate', '--from', 'task:fts', '--edge', 'BELONGS_TO', '--to', 'project:engi']);
	kb.ok(['graph', 'relate', '--from', 'task:both', '--edge', 'BELONGS_TO', '--to', 'project:engi']);
	kb.ok(['graph', 'relate', '--from', 'task:both', '--edge', 'BELONGS_TO', '--to', 'project:web']);
	kb.ok(['graph', 'relate', '--from', 'decision:sqlite', '--edge', 'SUPPORTS', '--to', 'task:fts']);
	kb.ok(['graph', 'relate', '--from', 'task:fts', '--edge', 'FOLLOWS_UP', '--to', 'task:ghost', '--allow-dangling']);
}

test('query: hits, context with projects, decisions and authority gaps, evidence with hashes and history', t => {
	const kb = makeKb(t);
	seed(kb);
	const hits = kb.ok(['query', '--q', 'fts5 search', '--view', 'hits']);
	assert.equal(hits.schema, 'engi.query.v1');
	assert.equal(hits.state, 'ok');
	assert.deepEqual(hits.hits.map((hit: {node_id: string}) => hit.node_id), ['task:fts'], 'every word must match');
	const literal = kb.ok(['query', '--q', 'task:both', '--view', 'hits']);
	assert.deepEqual([literal.hits[0].node_id, literal.hits[0].score, literal.hits[0].why.split(':')[0]], ['task:both', 1, 'literal_match']);
	const context = kb.ok(['query', '--q', 'search']);
	const byId = Object.fromEntries(context.rows.map((row: {node_id: string}) => [row.node_id, row]));
	assert.deepEqual(byId['task:fts'].linked_projects.map((project: {id: string}) => project.id), ['project:engi']);
	assert.deepEqual(byId['task:fts'].decisions, [{id: 'decision:sqlite', label: 'Use SQLite FTS5 rather than MiniSearch files', edge: 'SUPPORTS'}]);
	assert.deepEqual(byId['task:fts'].authority_gaps.map((gap: {kind: string}) => gap.kind), ['dangling_link']);
	assert.deepEqual(byId['task:both'].authority_gaps.map((gap: {kind: string}) => gap.kind), ['ambiguous_project']);
	assert.deepEqual(context.expand.slice(0, 6), ['engi', 'query', '--q', 'search', '--view', 'evidence']);
	assert.ok(context.expand.includes('--as-of') && context.expand.includes('--limit'));
	const evidence = kb.run(context.expand.slice(1).concat(['--format', 'json'])).json();
	assert.equal(evidence.view, 'evidence');
	const fts = evidence.candidates.find((candidate: {id: string}) => candidate.id === 'task:fts');
	assert.match(fts.node_sha256, /^[0-9a-f]{64}$/);
	assert.deepEqual(fts.history.map((entry: {line: number; op: string}) => [entry.line, entry.op]), [
		[3, 'node.upsert'],
		[6, 'edge.assert'],
		[9, 'edge.assert'],
		[10, 'edge.assert'],
	]);
});

test('query: as-of, include-expired, paging, clamped limits and states', t => {
	const kb = makeKb(t);
	seed(kb);
	const past = '2001-01-01T00:00:00Z';
	assert.equal(kb.ok(['query', '--q', 'search', '--as-of', past]).state, 'empty', 'nothing had been observed then');
	kb.ok(['graph', 'relate', '--from', 'task:fts', '--edge', 'BELONGS_TO', '--to', 'project:web', '--valid-until', '2002-01-01T00:00:00Z', '--valid-from', '2001-06-01T00:00:00Z']);
	const now = kb.ok(['query', '--q', 'task:fts']).rows[0];
	assert.deepEqual(now.linked_projects.map((project: {id: string}) => project.id), ['project:engi'], 'an expired membership is not live');
	const expired = kb.ok(['query', '--q', 'task:fts', '--include-expired']).rows[0];
	assert.deepEqual(expired.linked_projects.map((project: {id: string}) => project.id).sort(), ['project:engi', 'project:web']);
	const first = kb.ok(['query', '--q', 'search', '--view', 'hits', '--limit', '1']);
	assert.deepEqual([first.hits.length, first.next_offset, first.total], [1, 1, 2]);
	const second = kb.ok(['query', '--q', 'search', '--view', 'hits', '--limit', '1', '--offset', '1']);
	assert.notEqual(second.hits[0].node_id, first.hits[0].node_id);
	assert.equal(second.next_offset, null);
	const clamped = kb.ok(['query', '--q', 'search', '--limit', '500']);
	assert.deepEqual([clamped.limit, clamped.truncated], [100, true]);
	const fuzzy = kb.ok(['query', '--q', 'segment', '--view', 'hits']);
	assert.deepEqual(fuzzy.hits.map((hit: {node_id: string; why: string}) => [hit.node_id, hit.why.split(':')[0]]), [['task:fts', 'prefix_or_fuzzy_match']], 'a prefix finds "segmenter"');
	appendFileSync(kb.journal, 'not json\n');
	kb.ok(['graph', 'node', '--id', 'task:later', '--kind', 'Task', '--label', 'later']);
	const degraded = kb.ok(['query', '--q', 'search']);
	assert.equal(degraded.state, 'degraded');
	assert.deepEqual(degraded.reasons.map((reason: {code: string; count: number | null}) => [reason.code, reason.count]), [['quarantined_lines', 1]]);
});

test('query: only with --local-scan, a bounded look at file names in Documents and Downloads', t => {
	const kb = makeKb(t);
	const documents = join(kb.env['HOME']!, 'Documents', 'reports');
	mkdirSync(documents, {recursive: true});
	writeFileSync(join(documents, 'Quarterly-Budget-2026.pdf'), 'not read');
	const deep = join(kb.env['HOME']!, 'Documents', 'a', 'b', 'c');
	mkdirSync(deep, {recursive: true});
	writeFileSync(join(deep, 'budget-2026-deep.pdf'), 'below the depth limit');
	mkdirSync(join(kb.env['HOME']!, 'Downloads'), {recursive: true});
	writeFileSync(join(kb.env['HOME']!, 'Downloads', 'budget-notes.txt'), 'not read');
	const byDefault = kb.run(['query', '--q', 'budget 2026', '--format', 'json']);
	assert.equal(byDefault.json().unindexed_local_candidates, null, 'personal file names are not looked at unless asked');
	assert.doesNotMatch(byDefault.stdout + kb.run(['query', '--q', 'budget 2026', '--format', 'human']).stdout, /Quarterly|budget-notes|Documents/);
	const result = kb.ok(['query', '--q', 'budget 2026', '--local-scan']);
	assert.equal(result.state, 'empty');
	assert.deepEqual(result.unindexed_local_candidates.paths, [join(documents, 'Quarterly-Budget-2026.pdf')], 'a name four levels down is beyond the depth limit');
	assert.deepEqual(result.unindexed_local_candidates.limits, {max_depth: 3, max_entries: 5000, max_results: 25, scanned: 6, truncated: false});
	const crowded = join(kb.env['HOME']!, 'Downloads', 'crowded');
	mkdirSync(crowded);
	for (let index = 0; index < 5100; index++) {
		writeFileSync(join(crowded, `file-${String(index).padStart(4, '0')}`), '');
	}

	const capped = kb.ok(['query', '--q', 'budget 2026', '--local-scan']).unindexed_local_candidates.limits;
	assert.deepEqual([capped.scanned, capped.truncated], [5000, true], 'the scan stops at the entry cap and says so');
	assert.match(kb.run(['query', '--help']).stdout, /--local-scan/);
	assert.equal(kb.run(['query', '--format', 'json']).error().code, 'missing_flag');
});

test('harvest --check and ingest: validation, provenance, idempotence, secrets refused or redacted', t => {
	const kb = makeKb(t);
	kb.ok(['graph', 'node', '--id', 'project:engi', '--kind', 'Project', '--label', 'engi']);
	note(kb, 'a-task.md', ['---', 'id: task:harvest', 'kind: Task', 'label: Write the harvester', 'project: project:engi', 'status: open', 'next_action: parse frontmatter', 'blockers: [yaml edge cases]', 'links:', '  - FOLLOWS_UP task:other', '---', 'The body explains the plan.', ''].join('\n'));
	note(kb, 'b-other.md', ['---', 'id: task:other', 'kind: Task', 'label: The other task', '---', ''].join('\n'));
	note(kb, 'c-bad.md', ['---', 'id: task:bad', 'kind: Task', '---', 'no label'].join('\n'));
	note(kb, 'd-yaml.md', ['---', 'id: [unclosed', '---'].join('\n'));
	note(kb, 'e-secret.md', ['---', 'id: task:creds', 'kind: Task', 'label: Rotate keys', '---', 'old key AKIAIOSFODNN7EXAMPLE must go', ''].join('\n'));
	note(kb, 'f-unknown-project.md', ['---', 'id: task:orphan', 'kind: Task', 'label: Orphan', 'project: project:nope', '---', ''].join('\n'));
	const journalBefore = readFileSync(kb.journal, 'utf8');
	const check = kb.run(['harvest', '--check', '--format', 'json']);
	assert.equal(check.code, 2, 'invalid notes need inspection');
	const checked = check.json();
	assert.deepEqual(checked.counts, {new: 2, changed: 0, unchanged: 0, invalid: 3, secrets: 1, skipped: 0});
	assert.match(checked.files.find((file: {path: string}) => file.path.endsWith('f-unknown-project.md')).reasons[0].message, /missing graph endpoint: --to project:nope/);
	const byPath = Object.fromEntries(checked.files.map((file: {path: string}) => [file.path, file]));
	assert.deepEqual(byPath['00-inbox/harvest/c-bad.md'].reasons, [{line: 1, message: 'label: is required'}]);
	assert.deepEqual(byPath['00-inbox/harvest/e-secret.md'].secrets, [{line: 6, pattern: 'aws_access_key_id'}]);
	assert.doesNotMatch(check.stdout, /AKIAIOSFODNN7EXAMPLE/, 'the secret is never echoed');
	assert.equal(readFileSync(kb.journal, 'utf8'), journalBefore, 'harvest --check writes nothing');

	const ingest = kb.run(['ingest', '--format', 'json']);
	assert.equal(ingest.code, 2);
	const ingested = ingest.json();
	assert.deepEqual(ingested.added.map((file: {node: string}) => file.node).sort(), ['task:harvest', 'task:other']);
	assert.deepEqual(ingested.refused.map((file: {path: string}) => file.path), ['00-inbox/harvest/e-secret.md']);
	assert.deepEqual(ingested.invalid.map((file: {path: string}) => file.path).sort(), ['00-inbox/harvest/c-bad.md', '00-inbox/harvest/d-yaml.md', '00-inbox/harvest/f-unknown-project.md']);
	assert.doesNotMatch(readFileSync(kb.journal, 'utf8'), /AKIAIOSFODNN7EXAMPLE|task:orphan/, 'refused and invalid notes append nothing');
	const evidence = kb.ok(['query', '--q', 'task:harvest', '--view', 'evidence']).candidates[0];
	assert.equal(evidence.node.provenance, '00-inbox/harvest/a-task.md:1');
	assert.deepEqual(evidence.node.blockers, ['yaml edge cases']);
	assert.equal(evidence.node.body, 'The body explains the plan.');
	const edges = evidence.history.filter((entry: {op: string}) => entry.op === 'edge.assert').map((entry: {payload: {type: string; provenance: string}}) => [entry.payload.type, entry.payload.provenance]);
	assert.deepEqual(edges, [
		['BELONGS_TO', '00-inbox/harvest/a-task.md:5'],
		['FOLLOWS_UP', '00-inbox/harvest/a-task.md:10'],
	]);

	const size = readFileSync(kb.journal).length;
	const again = kb.run(['ingest', '--format', 'json']).json();
	assert.equal(again.appended, 0);
	assert.deepEqual(again.unchanged.sort(), ['00-inbox/harvest/a-task.md', '00-inbox/harvest/b-other.md']);
	assert.equal(readFileSync(kb.journal).length, size, 'an unchanged note is skipped by its hash');
	note(kb, 'b-other.md', ['---', 'id: task:other', 'kind: Task', 'label: The other task, renamed', '---', ''].join('\n'));
	assert.deepEqual(kb.run(['ingest', '--format', 'json']).json().added, [{path: '00-inbox/harvest/b-other.md', node: 'task:other', events: 1, status: 'changed'}]);

	const redacted = kb.run(['ingest', '--redact', '--format', 'json']).json();
	assert.deepEqual(redacted.redacted, [{path: '00-inbox/harvest/e-secret.md', secrets: [{line: 6, pattern: 'aws_access_key_id'}]}]);
	const journal = readFileSync(kb.journal, 'utf8');
	assert.doesNotMatch(journal, /AKIAIOSFODNN7EXAMPLE/);
	assert.match(journal, /\[redacted:aws_access_key_id\]/);
	assert.deepEqual(kb.ok(['query', '--q', 'task:creds', '--view', 'evidence']).candidates[0].node.redacted, [{line: 6, pattern: 'aws_access_key_id'}]);

	// The redacted note is known by the hash of what was staged: later runs, with or without --redact, leave it be.
	const redactedSize = readFileSync(kb.journal).length;
	for (const args of [['ingest'], ['ingest', '--redact']]) {
		const later = kb.run([...args, '--format', 'json']);
		assert.equal(later.code, 2, 'c-bad.md and friends are still invalid');
		assert.deepEqual([later.json().refused, later.json().appended], [[], 0], args.join(' '));
		assert.ok(later.json().unchanged.includes('00-inbox/harvest/e-secret.md'), args.join(' '));
	}

	assert.equal(kb.run(['harvest', '--check', '--format', 'json']).json().files.find((file: {path: string}) => file.path.endsWith('e-secret.md')).status, 'unchanged');
	assert.equal(readFileSync(kb.journal).length, redactedSize);
});

test('harvest and ingest skip odd inbox entries with a reason and never follow a symlink out of the inbox', t => {
	const kb = makeKb(t);
	const inbox = join(kb.root, '00-inbox', 'harvest');
	const page = (id: string, label: string) => ['---', `id: ${id}`, 'kind: Task', `label: ${label}`, '---', ''].join('\n');
	note(kb, 'good.md', page('task:good', 'A good note'));
	mkdirSync(join(inbox, 'folder.md'));
	writeFileSync(join(inbox, 'folder.md', 'inner.md'), page('task:inner', 'Inside a directory named like a note'));
	mkdirSync(join(inbox, 'sub'));
	writeFileSync(join(inbox, 'sub', 'real.txt'), page('task:linked', 'Read through a link inside the inbox'));
	symlinkSync(join(inbox, 'sub', 'real.txt'), join(inbox, 'linked.md'));
	symlinkSync('loop.md', join(inbox, 'loop.md'));
	symlinkSync('ping.md', join(inbox, 'pong.md'));
	symlinkSync('pong.md', join(inbox, 'ping.md'));
	symlinkSync(join(inbox, 'missing.md'), join(inbox, 'dangling.md'));
	const outside = join(kb.base, 'private.md');
	writeFileSync(outside, page('task:private', 'PRIVATE-OUTSIDE-LABEL'));
	symlinkSync(outside, join(inbox, 'outside.md'));
	symlinkSync(kb.base, join(inbox, 'up'));
	symlinkSync(join(inbox, 'sub'), join(inbox, 'again'));
	const fifo = spawnSync('mkfifo', [join(inbox, 'pipe.md')]).status === 0;

	const expected = [
		{path: '00-inbox/harvest/again', reason: 'symlink_to_directory'},
		{path: '00-inbox/harvest/dangling.md', reason: 'symlink_unresolvable'},
		{path: '00-inbox/harvest/folder.md', reason: 'directory'},
		{path: '00-inbox/harvest/loop.md', reason: 'symlink_unresolvable'},
		{path: '00-inbox/harvest/outside.md', reason: 'symlink_outside_inbox'},
		{path: '00-inbox/harvest/ping.md', reason: 'symlink_unresolvable'},
		...(fifo ? [{path: '00-inbox/harvest/pipe.md', reason: 'not_a_regular_file'}] : []),
		{path: '00-inbox/harvest/pong.md', reason: 'symlink_unresolvable'},
		{path: '00-inbox/harvest/up', reason: 'symlink_outside_inbox'},
	];
	const check = kb.run(['harvest', '--check', '--format', 'json']);
	assert.equal(check.code, 2, 'skipped entries need a look');
	const checked = check.json();
	assert.deepEqual(checked.skipped, expected);
	assert.equal(checked.counts.skipped, expected.length);
	assert.deepEqual(checked.files.map((file: {path: string; status: string}) => [file.path, file.status]), [
		['00-inbox/harvest/folder.md/inner.md', 'new'],
		['00-inbox/harvest/good.md', 'new'],
		['00-inbox/harvest/linked.md', 'new'],
	]);

	const ingest = kb.run(['ingest', '--format', 'json']);
	assert.equal(ingest.code, 2);
	const ingested = ingest.json();
	assert.deepEqual(ingested.added.map((file: {node: string}) => file.node).sort(), ['task:good', 'task:inner', 'task:linked']);
	assert.deepEqual(ingested.skipped, expected);
	assert.doesNotMatch(readFileSync(kb.journal, 'utf8'), /PRIVATE-OUTSIDE-LABEL|task:private/, 'a note outside the inbox is never read');
	assert.doesNotMatch(check.stdout + ingest.stdout, /PRIVATE-OUTSIDE-LABEL/);
	const human = kb.run(['harvest', '--check', '--format', 'human']);
	assert.match(human.stdout, /skipped\t00-inbox\/harvest\/outside\.md\tsymlink_outside_inbox/);
});
