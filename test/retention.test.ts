import assert from 'node:assert/strict';
import {appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, utimesSync} from 'node:fs';
import {dirname, join} from 'node:path';
import test from 'node:test';
import {buildFixtureHome, settle} from './fixtures/home.js';
import {requireProc, sleep, startCli, waitStopped} from './helpers/faults.js';
import {makeKb, type KbSandbox} from './helpers/kb.js';
import {assertDeletionsRecorded, attestWithKnowledge, entriesUnder, journalNodes, longAgo, recordKnowledge} from './helpers/retention.js';
import {copyStore, writeClaudeSession} from './helpers/stores.js';

const claudeParent = '22222222-2222-4222-8222-222222222222';
const codexParent = '0195a1c2-0a00-7a00-8a00-00000000000a';
const codexChild = '0195a1c2-0b00-7b00-8b00-00000000000b';
const codexFork = '0195a1c2-0c00-7c00-8c00-00000000000c';

/** A knowledge base beside a HOME holding every source's fixture store, every file last written long ago. */
function fixtureWorld(t: test.TestContext): KbSandbox & {home: string} {
	const kb = makeKb(t);
	buildFixtureHome(kb.env);
	for (const directory of [kb.env['HOME']!, kb.env['XDG_CONFIG_HOME']!, kb.env['XDG_DATA_HOME']!]) {
		settle(directory, longAgo);
	}

	return Object.assign(kb, {home: kb.env['HOME']!});
}

function sweep(kb: KbSandbox, args: readonly string[] = []) {
	const dry = kb.ok(['retention', 'sweep', ...args]);
	const executed = kb.run(['retention', 'sweep', ...args, '--execute', '--plan', dry.plan_sha256, '--details', '--format', 'json']);
	assert.ok([0, 2].includes(executed.code), executed.stderr);
	return {dry, executed: executed.json()};
}

test('plan judges every store: database sessions are not separable, the rest are by blocker; nothing is written to the stores', t => {
	const kb = fixtureWorld(t);
	const before = entriesUnder(kb.base).filter(path => !path.startsWith(join(kb.base, 'cache')) && !path.startsWith(kb.root));
	const plan = kb.ok(['retention', 'plan', '--no-retention', '--details', '--limit', '500']);
	assert.equal(plan.sessions.length, plan.total);
	assert.equal(plan.total, plan.eligible + plan.compactable + plan.blocked);
	const bySource = Object.fromEntries(plan.by_source.map((row: any) => [row.source, row]));
	for (const source of ['cursor', 'vscode']) {
		assert.ok(bySource[source].total > 0, `${source} has fixture sessions`);
		assert.equal(bySource[source].blocked, bySource[source].total, `${source} sessions live in its state: never retired`);
	}

	const sessionsOf = (source: string) => plan.sessions.filter((session: any) => session.source === source);
	for (const session of [...sessionsOf('cursor'), ...sessionsOf('vscode')]) {
		assert.ok(session.blockers.some((blocker: any) => blocker.code === 'source_not_separable'), `${session.source} ${session.session_id}`);
	}

	// OpenCode: sessions in its database are not separable, those of the legacy JSON tree are.
	const opencode = sessionsOf('opencode');
	const notSeparable = (session: any) => session.blockers.some((blocker: any) => blocker.code === 'source_not_separable');
	assert.ok(opencode.some((session: any) => session.path.endsWith('.db') && notSeparable(session)), 'database sessions are not separable');
	const storage = opencode.filter((session: any) => !session.path.endsWith('.db'));
	assert.ok(storage.length > 0 && !storage.some(notSeparable), 'sessions of the JSON tree are separable');
	for (const source of ['claude', 'codex', 'gemini', 'qwen', 'grok', 'copilot', 'antigravity']) {
		assert.ok(sessionsOf(source).some((session: any) => session.status === 'compactable'), `${source} has a compactable session`);
	}

	// A Claude session's subagents live in its own directory and go with it, children first.
	const claude = sessionsOf('claude').find((session: any) => session.session_id === claudeParent);
	assert.equal(claude.nested, 1);
	assert.deepEqual(
		claude.targets.map((target: any) => `${target.kind} ${target.path.slice(kb.home.length)}`),
		[
			`file /.claude/projects/-work-app/${claudeParent}/subagents/agent-bbbb2222.jsonl`,
			`file /.claude/projects/-work-app/${claudeParent}/subagents/agent-bbbb2222.meta.json`,
			`file /.claude/projects/-work-app/${claudeParent}.jsonl`,
			`directory /.claude/projects/-work-app/${claudeParent}/subagents`,
			`directory /.claude/projects/-work-app/${claudeParent}`,
		],
	);
	assert.equal(claude.bytes, claude.targets.reduce((sum: number, target: any) => sum + target.bytes, 0));
	// A Codex child thread is its own session, retired before its parent.
	const codex = sessionsOf('codex').find((session: any) => session.session_id === codexParent);
	assert.deepEqual(codex.children, [codexChild, codexFork]);
	const order = plan.sessions.map((session: any) => session.session_id);
	assert.ok(order.indexOf(codexChild) < order.indexOf(codexParent), 'children come before their parent');
	assert.ok(plan.blocker_codes.unfinished_candidate > 0, 'the fixtures hold sessions whose work looks unfinished');
	assert.equal(plan.blocker_codes.attestation_missing, plan.sessions.filter((session: any) => session.blockers.some((blocker: any) => blocker.code === 'attestation_missing')).length);

	const after = entriesUnder(kb.base).filter(path => !path.startsWith(join(kb.base, 'cache')) && !path.startsWith(kb.root));
	assert.deepEqual(after, before, 'a plan reads only');
	const human = kb.run(['retention', 'plan', '--no-retention', '--format', 'human']);
	assert.equal(human.code, 0);
	assert.match(human.stdout, /^source\ttotal\teligible\tcompactable\tblocked\tbytes$/m);
	assert.match(human.stdout, /^source_not_separable\t\d+$/m);
});

test('a sweep retires every separable store, children first, and deletes nothing a receipt does not name', t => {
	const kb = fixtureWorld(t);
	const before = entriesUnder(kb.home);
	const planBefore = kb.ok(['retention', 'plan', '--no-retention']);
	const {dry, executed} = sweep(kb, ['--no-retention']);
	assert.equal(dry.planned, planBefore.eligible + planBefore.compactable);
	assert.equal(executed.failed, 0, JSON.stringify(executed.items.filter((item: any) => item.failure)));
	assert.equal(executed.removed, dry.planned);
	const gone = assertDeletionsRecorded(kb, kb.home, before);
	assert.ok(gone.length > 0);
	for (const item of executed.items) {
		for (const target of item.targets) {
			assert.equal(existsSync(target.path), false, `${item.source} ${item.session_id}: ${target.path} is gone`);
		}

		assert.ok(existsSync(item.compact_path), `${item.source} ${item.session_id} keeps a compact copy`);
	}

	const sources = new Set(executed.items.map((item: any) => item.source));
	// OpenCode's JSON-tree sessions in this store either look unfinished or are copies of database sessions.
	assert.deepEqual([...sources].sort(), ['antigravity', 'claude', 'codex', 'copilot', 'gemini', 'grok', 'qwen']);
	// The databases of OpenCode, Cursor and VS Code are exactly as they were.
	for (const path of before.filter(path => /\.(db|vscdb)$/.test(path) && !path.includes('/brain/') && !path.includes('/conversations/'))) {
		assert.ok(existsSync(path), `${path} is untouched`);
	}

	const retired = executed.items.map((item: any) => item.session_id);
	assert.ok(retired.indexOf(codexChild) < retired.indexOf(codexParent), 'the child thread went first');
	const after = kb.ok(['retention', 'plan', '--no-retention']);
	assert.equal(after.eligible + after.compactable, 0, 'only blocked sessions are left');
	assert.equal(after.total, planBefore.blocked);
	// Idempotent: nothing left to do, nothing written.
	const journal = readFileSync(kb.journal, 'utf8');
	const again = sweep(kb, ['--no-retention']);
	assert.equal(again.dry.planned, 0);
	assert.equal(again.executed.removed, 0);
	assert.equal(readFileSync(kb.journal, 'utf8'), journal);
	const sessions = kb.ok(['sessions', '--all-projects', '--source', 'codex']);
	assert.ok(!sessions.sessions.some((session: any) => session.id === codexParent), 'a purged session is gone from the listing');
});

test('a session of OpenCode\'s JSON tree goes with its message and part directories, and nothing of the other sessions', t => {
	const kb = makeKb(t);
	const storage = copyStore('opencode/storage', join(kb.base, 'opencode', 'storage'));
	settle(storage, longAgo);
	const id = 'ses_4f8e3b60aff9Wd2Lk8Pq5Tn1Zc';
	// Its last request has no reply; a completed checkpoint says the work is done all the same.
	const repo = join(kb.base, 'repo');
	mkdirSync(join(repo, '.git'), {recursive: true});
	const store = ['--source', 'opencode', '--source-root', storage];
	const done = kb.run(['checkpoint', 'record', '--session', id, '--source', 'opencode', '--status', 'completed', '--objective', 'answered elsewhere', '--project', '.'], {cwd: repo});
	assert.equal(done.code, 0, done.stderr);
	const before = entriesUnder(storage);
	const dry = kb.run(['retention', 'sweep', ...store, '--no-retention', '--format', 'json'], {cwd: repo}).json();
	const executed = kb.run(['retention', 'sweep', ...store, '--no-retention', '--execute', '--plan', dry.plan_sha256, '--details', '--format', 'json'], {cwd: repo}).json();
	assert.deepEqual(executed.items.map((item: any) => [item.session_id, item.status]), [[id, 'compacted']]);
	assert.deepEqual(
		executed.items[0].targets.map((target: any) => `${target.kind} ${target.path.slice(storage.length)}`),
		[
			'file /message/ses_4f8e3b60aff9Wd2Lk8Pq5Tn1Zc/msg_1a1fd36f600000Rt5Yu8Io3Pa6Sd.json',
			'file /part/msg_1a1fd36f600000Rt5Yu8Io3Pa6Sd/prt_1a1fd36f600001Fg2Hj5Kl8Zx1Cv.json',
			'file /session/a3f9c1d27be04e6b8d15c0f2e9a47b31d6c8e025/ses_4f8e3b60aff9Wd2Lk8Pq5Tn1Zc.json',
			'directory /message/ses_4f8e3b60aff9Wd2Lk8Pq5Tn1Zc',
			'directory /part/msg_1a1fd36f600000Rt5Yu8Io3Pa6Sd',
		],
	);
	const gone = assertDeletionsRecorded(kb, storage, before);
	assert.equal(gone.length, 5);
	assert.ok(existsSync(join(storage, 'session', 'a3f9c1d27be04e6b8d15c0f2e9a47b31d6c8e025')), 'the project\'s session directory is shared and stays');
});

test('attest refuses without --session-closed, a conversation node, or knowledge linked to it; attesting again changes nothing', t => {
	const kb = fixtureWorld(t);
	const attest = (args: readonly string[]) => kb.run(['retention', 'attest', claudeParent, '--source', 'claude', ...args, '--format', 'json']);
	assert.equal(attest(['--knowledge-node', 'dataset:x']).error().code, 'session_not_closed');
	assert.equal(attest(['--knowledge-node', 'dataset:x', '--session-closed']).error().code, 'conversation_node_missing');
	kb.ok(['graph', 'node', '--id', `conversation:claude:${claudeParent}`, '--kind', 'Conversation', '--label', 'the session']);
	assert.equal(attest(['--knowledge-node', 'dataset:x', '--session-closed']).error().code, 'knowledge_node_missing');
	kb.ok(['graph', 'node', '--id', 'dataset:x', '--kind', 'Dataset', '--label', 'findings']);
	assert.equal(attest(['--knowledge-node', 'dataset:x', '--session-closed']).error().code, 'knowledge_provenance_missing');
	kb.ok(['graph', 'relate', '--from', 'dataset:x', '--edge', 'DERIVED_FROM', '--to', `conversation:claude:${claudeParent}`]);
	const first = attest(['--knowledge-node', 'dataset:x', '--session-closed']);
	assert.equal(first.code, 0, first.stderr);
	const receipt = first.json();
	assert.equal(receipt.appended, true);
	assert.match(receipt.id, /^session-retention:claude:22222222-2222-4222-8222-222222222222:[0-9a-f]{16}$/);
	assert.equal(receipt.targets.length, 5);
	assert.ok(receipt.targets.filter((target: any) => target.kind === 'file').every((target: any) => /^[0-9a-f]{64}$/.test(target.sha256)));
	const stored = journalNodes(kb.journal, 'SessionRetentionReceipt');
	assert.equal(stored.length, 1);
	assert.equal(stored[0]!['source_sha256'], receipt.source_sha256);
	assert.deepEqual(stored[0]!['knowledge_node_ids'], ['dataset:x']);
	const again = attest(['--knowledge-node', 'dataset:x', '--session-closed']).json();
	assert.equal(again.appended, false);
	assert.equal(again.id, receipt.id);
	// A retracted edge is no provenance: the plan says so.
	kb.ok(['graph', 'retract', '--from', 'dataset:x', '--edge', 'DERIVED_FROM', '--to', `conversation:claude:${claudeParent}`]);
	const plan = kb.ok(['retention', 'plan', '--no-retention', '--details', '--source', 'claude']);
	const session = plan.sessions.find((entry: any) => entry.session_id === claudeParent);
	assert.deepEqual(session.blockers.map((blocker: any) => blocker.code), ['knowledge_provenance_missing']);
	// A subagent inside its parent's directory goes with the parent, never alone.
	const nested = kb.run(['retention', 'attest', 'agent-bbbb2222', '--source', 'claude', '--knowledge-node', 'dataset:x', '--session-closed', '--format', 'json']).error();
	assert.equal(nested.code, 'session_nested');
	assert.match(nested.message, new RegExp(claudeParent));
	// Sessions inside another program's database are never attested.
	const cursor = kb.ok(['sessions', '--all-projects', '--source', 'cursor']).sessions[0].id;
	recordKnowledge(kb, 'cursor', cursor);
	assert.equal(kb.run(['retention', 'attest', cursor, '--source', 'cursor', '--knowledge-node', `dataset:cursor-${cursor}`, '--session-closed', '--format', 'json']).error().code, 'source_not_separable');
});

test('purge: a dry run names exactly the targets; --execute deletes them with an attempt and a receipt; read then says the session was retired', t => {
	const kb = fixtureWorld(t);
	const before = entriesUnder(kb.home);
	const dry = kb.ok(['retention', 'purge', claudeParent, '--source', 'claude']);
	assert.equal(dry.status, 'dry_run');
	assert.equal(dry.eligible, false);
	assert.ok(dry.blockers.some((blocker: any) => blocker.code === 'attestation_missing'));
	attestWithKnowledge(kb, 'claude', claudeParent);
	const ready = kb.ok(['retention', 'purge', claudeParent, '--source', 'claude']);
	assert.equal(ready.eligible, true);
	assert.deepEqual(entriesUnder(kb.home), before, 'a dry run deletes nothing');
	const executed = kb.ok(['retention', 'purge', claudeParent, '--source', 'claude', '--execute']);
	assert.equal(executed.status, 'purged');
	assert.deepEqual(executed.deleted_targets, ready.targets.map((target: any) => target.path));
	assert.equal(executed.freed_bytes, ready.targets.reduce((sum: number, target: any) => sum + target.bytes, 0));
	const gone = assertDeletionsRecorded(kb, kb.home, before);
	assert.deepEqual(gone.sort(), [...executed.deleted_targets].sort(), 'nothing but the targets went');
	const [attempt] = journalNodes(kb.journal, 'SessionPurgeAttempt');
	const [receipt] = journalNodes(kb.journal, 'SessionPurgeReceipt');
	assert.equal(attempt!['id'], executed.attempt_id);
	assert.equal(receipt!['attempt_id'], attempt!['id']);
	const read = kb.run(['read', claudeParent, '--format', 'json']);
	assert.equal(read.code, 1);
	assert.equal(read.error().code, 'session_retired');
	assert.equal(read.error()['compact_path'], null);
	assert.ok(!kb.ok(['sessions', '--all-projects', '--source', 'claude']).sessions.some((session: any) => session.id === claudeParent));
	const again = kb.run(['retention', 'purge', claudeParent, '--source', 'claude', '--execute', '--format', 'json']);
	assert.equal(again.code, 0);
	assert.equal(again.json().status, 'already_cleaned');
	const log = kb.ok(['retention', 'log']);
	assert.deepEqual(log.entries.map((entry: any) => [entry.kind, entry.outcome]), [
		['receipt', null],
		['attempt', 'purged'],
	]);
	assert.equal(log.interrupted, 0);
});

test('a parent waits for its child sessions; a refused purge is journaled as an attempt and a failure', t => {
	const kb = fixtureWorld(t);
	attestWithKnowledge(kb, 'codex', codexParent);
	const refused = kb.run(['retention', 'purge', codexParent, '--source', 'codex', '--no-retention', '--execute', '--format', 'json']);
	assert.equal(refused.code, 2);
	assert.equal(refused.json().status, 'refused');
	assert.equal(refused.json().failure.code, 'child_sessions_present');
	assert.equal(refused.json().deleted_targets.length, 0);
	assert.ok(existsSync(refused.json().targets[0].path));
	assert.equal(journalNodes(kb.journal, 'SessionPurgeFailure')[0]!['reason'], 'child_sessions_present');
	for (const child of [codexChild, codexFork]) {
		attestWithKnowledge(kb, 'codex', child);
		assert.equal(kb.ok(['retention', 'purge', child, '--source', 'codex', '--no-retention', '--execute']).status, 'purged');
	}

	assert.equal(kb.ok(['retention', 'purge', codexParent, '--source', 'codex', '--no-retention', '--execute']).status, 'purged');
	const log = kb.ok(['retention', 'log']);
	assert.deepEqual(log.entries.filter((entry: any) => entry.kind === 'attempt').map((entry: any) => [entry.session_id, entry.outcome]), [
		[codexParent, 'purged'],
		[codexFork, 'purged'],
		[codexChild, 'purged'],
		[codexParent, 'failed'],
	]);
	assert.match(log.entries.at(-1).id, /:1$/);
	assert.match(log.entries.find((entry: any) => entry.kind === 'attempt' && entry.session_id === codexParent).id, /:2$/);
});

test('the retention window, a session being written, an open checkpoint and unfinished work each block', t => {
	const kb = makeKb(t);
	const repo = join(kb.base, 'repo');
	mkdirSync(join(repo, '.git'), {recursive: true});
	const projects = join(kb.env['HOME']!, '.claude', 'projects');
	const ids = {recent: 'aaaa0000-0000-4000-8000-000000000001', writing: 'aaaa0000-0000-4000-8000-000000000002', checkpoint: 'aaaa0000-0000-4000-8000-000000000003', unanswered: 'aaaa0000-0000-4000-8000-000000000004', old: 'aaaa0000-0000-4000-8000-000000000005'};
	const day = 24 * 60 * 60 * 1000;
	const at = (ms: number) => new Date(ms).toISOString();
	const now = Date.now();
	const paths = {
		recent: writeClaudeSession(projects, ids.recent, repo, [{user: 'rename the module', assistant: 'Renamed it.', at: at(now - 2 * day)}]),
		writing: writeClaudeSession(projects, ids.writing, repo, [{user: 'rename the module', assistant: 'Renamed it.', at: at(now - 30 * day)}]),
		checkpoint: writeClaudeSession(projects, ids.checkpoint, repo, [{user: 'migrate the schema', assistant: 'Started the migration.', at: at(now - 30 * day)}]),
		unanswered: writeClaudeSession(projects, ids.unanswered, repo, [{user: 'and now the tests?', at: at(now - 30 * day)}]),
		old: writeClaudeSession(projects, ids.old, repo, [{user: 'fix the typo', assistant: 'Fixed.', at: at(now - 30 * day)}]),
	};
	for (const [name, path] of Object.entries(paths)) {
		const when = name === 'writing' ? new Date() : name === 'recent' ? new Date(now - 2 * day) : new Date(now - 30 * day);
		utimesSync(path, when, when);
	}

	assert.equal(kb.run(['checkpoint', 'record', '--session', ids.checkpoint, '--status', 'active', '--objective', 'finish the migration', '--next-action', 'run the down migration'], {cwd: repo}).code, 0);
	const plan = kb.ok(['retention', 'plan', '--details', '--source', 'claude']);
	assert.equal(plan.retention_days, 7);
	const codes = (id: string) => plan.sessions.find((session: any) => session.session_id === id).blockers.map((blocker: any) => blocker.code);
	assert.ok(codes(ids.recent).includes('inside_retention_window'));
	assert.ok(codes(ids.writing).includes('session_active'));
	assert.ok(codes(ids.writing).includes('inside_retention_window'));
	assert.ok(codes(ids.checkpoint).includes('checkpoint_open'));
	assert.ok(codes(ids.unanswered).includes('unfinished_candidate'));
	assert.deepEqual(codes(ids.old), ['attestation_missing']);
	assert.equal(plan.compactable, 1);
	// A wider window keeps the recent one too; --no-retention lets it go.
	assert.ok(kb.ok(['retention', 'plan', '--details', '--source', 'claude', '--retention-days', '60']).sessions.every((session: any) => session.blockers.some((blocker: any) => blocker.code === 'inside_retention_window')));
	const open = kb.ok(['retention', 'plan', '--details', '--source', 'claude', '--no-retention']);
	assert.deepEqual(open.sessions.find((session: any) => session.session_id === ids.recent).blockers.map((blocker: any) => blocker.code), ['attestation_missing']);
	assert.equal(kb.run(['retention', 'plan', '--retention-days', '3', '--no-retention', '--format', 'json']).error().code, 'conflicting_flags');
});

test('compaction keeps the user and assistant text, secrets masked, as a CompactTranscript the session is then retired on; harvest and ingest leave the copies alone', t => {
	const kb = makeKb(t);
	const projects = join(kb.env['HOME']!, '.claude', 'projects');
	const token = `ghp_${'Q1'.repeat(18)}`;
	const id = 'cccc0000-0000-4000-8000-000000000001';
	const path = writeClaudeSession(projects, id, '/work/app', [
		{user: `deploy with the token ${token} please`, assistant: 'Deployed the release.', at: '2025-01-02T09:00:00.000Z'},
		{user: 'thanks', assistant: 'You are welcome.', at: '2025-01-02T09:01:00.000Z'},
	]);
	utimesSync(path, longAgo, longAgo);
	const {executed} = sweep(kb);
	assert.equal(executed.compacted, 1);
	const [item] = executed.items;
	assert.equal(item.compact_path, join(kb.root, '00-inbox', 'harvest', 'compact', 'claude', `${id}.jsonl`));
	assert.equal(existsSync(path), false);
	const rows = readFileSync(item.compact_path, 'utf8').trimEnd().split('\n').map(line => JSON.parse(line));
	assert.deepEqual(rows.map(row => [row.line, row.role, row.content]), [
		[1, 'user', 'deploy with the token [redacted:github_token] please'],
		[2, 'assistant', 'Deployed the release.'],
		[3, 'user', 'thanks'],
		[4, 'assistant', 'You are welcome.'],
	]);
	assert.equal(readFileSync(item.compact_path, 'utf8').includes(token), false, 'the secret is not in the copy');
	assert.deepEqual(readdirSync(dirname(item.compact_path)), [`${id}.jsonl`], 'no temporary file is left beside the copy');
	const [compact] = journalNodes(kb.journal, 'CompactTranscript');
	assert.equal(compact!['path'], join('00-inbox', 'harvest', 'compact', 'claude', `${id}.jsonl`));
	assert.equal(compact!['messages'], 4);
	assert.equal(compact!['bytes'], readFileSync(item.compact_path).length);
	const [receipt] = journalNodes(kb.journal, 'SessionRetentionReceipt');
	assert.deepEqual(receipt!['knowledge_node_ids'], [compact!['id']]);
	assert.equal(receipt!['provenance'], 'engi retention sweep (compact)');
	assert.ok(journalNodes(kb.journal, 'Conversation').some(node => node['id'] === `conversation:claude:${id}`));
	const edges = readFileSync(kb.journal, 'utf8').split('\n').filter(Boolean).map(line => JSON.parse(line)).filter(event => event.op === 'edge.assert');
	assert.deepEqual(edges.map(edge => [edge.payload.from, edge.payload.type, edge.payload.to]), [[compact!['id'], 'DERIVED_FROM', `conversation:claude:${id}`]]);
	const read = kb.run(['read', id, '--format', 'json']).error();
	assert.equal(read.code, 'session_retired');
	assert.equal(read['compact_path'], item.compact_path);
	const harvest = kb.run(['harvest', '--check', '--format', 'json']);
	assert.equal(harvest.code, 0, harvest.stdout);
	assert.deepEqual([harvest.json().files, harvest.json().skipped], [[], []]);
	const ingest = kb.run(['ingest', '--format', 'json']);
	assert.equal(ingest.code, 0);
	assert.equal(ingest.json().appended, 0);
});

test('an execution refuses a plan that changed since the dry run, and deletes nothing', t => {
	const kb = makeKb(t);
	const projects = join(kb.env['HOME']!, '.claude', 'projects');
	const path = writeClaudeSession(projects, 'dddd0000-0000-4000-8000-000000000001', '/work/app', [{user: 'tidy up', assistant: 'Tidied.', at: '2025-01-02T09:00:00.000Z'}]);
	utimesSync(path, longAgo, longAgo);
	const dry = kb.ok(['retention', 'sweep', '--details']);
	assert.equal(dry.planned, 1);
	assert.equal(dry.items[0].status, 'compactable');
	appendFileSync(path, '\n');
	utimesSync(path, longAgo, longAgo);
	const refused = kb.run(['retention', 'sweep', '--execute', '--plan', dry.plan_sha256, '--format', 'json']);
	assert.equal(refused.code, 2);
	assert.equal(refused.error().code, 'plan_changed');
	assert.notEqual(refused.error()['plan_sha256'], dry.plan_sha256);
	assert.ok(existsSync(path));
	assert.equal(journalNodes(kb.journal, 'SessionPurgeAttempt').length, 0);
	assert.equal(kb.run(['retention', 'sweep', '--execute', '--format', 'json']).error().code, 'plan_required');
});

test('a sweep that runs longer than a second reports its progress on stderr, one JSON line each, apart from its result', async t => {
	if (!requireProc(t)) {
		return;
	}

	const kb = makeKb(t);
	const projects = join(kb.env['HOME']!, '.claude', 'projects');
	for (const n of [1, 2]) {
		utimesSync(writeClaudeSession(projects, `bbbb0000-0000-4000-8000-00000000000${n}`, '/work/app', [{user: 'tidy up', assistant: 'Tidied.', at: '2025-01-02T09:00:00.000Z'}]), longAgo, longAgo);
	}

	const dry = kb.ok(['retention', 'sweep']);
	// Held at the first item for over a second, as a long sweep would be.
	const running = startCli(['retention', 'sweep', '--execute', '--plan', dry.plan_sha256, '--format', 'json'], {env: {...kb.env, ENGI_TEST_PAUSE_AT: 'retention.compact_written#1'}});
	await waitStopped(running.pid);
	await sleep(1200);
	running.kill('SIGCONT');
	const result = await running.done;
	assert.equal(result.code, 0, result.stderr);
	assert.equal(result.json().removed, 2);
	const progress = result.stderr.trim().split('\n').map(line => JSON.parse(line).progress);
	assert.ok(progress.length >= 1, result.stderr);
	assert.deepEqual(progress.at(-1), {done: 2, total: 2, session_id: 'bbbb0000-0000-4000-8000-000000000002', source: 'claude', status: 'compacted'});
});
