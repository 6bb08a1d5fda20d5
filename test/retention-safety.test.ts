import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {createHash} from 'node:crypto';
import {appendFileSync, copyFileSync, existsSync, linkSync, lstatSync, mkdirSync, readFileSync, readlinkSync, realpathSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test, {type TestContext} from 'node:test';
import {requireProc, sleep, startCli, waitStopped} from './helpers/faults.js';
import {makeKb, type KbSandbox} from './helpers/kb.js';
import {assertDeletionsRecorded, attestWithKnowledge, entriesUnder, journalNodes, longAgo, recordKnowledge} from './helpers/retention.js';
import {settle} from './fixtures/home.js';
import {copyStore, writeClaudeSession} from './helpers/stores.js';
import {runCli, sandboxEnv} from './helpers/cli.js';
import {tempDir} from './helpers/temp.js';
import {scanOpenFiles} from '../source/engine/retention/open-files.js';
import {prepareEvents, serializeEvent} from '../source/engine/journal/append.js';

const id = 'eeee0000-0000-4000-8000-000000000001';

type World = KbSandbox & {home: string; transcript: string};

/** One finished Claude session, last written long ago, attested (unless asked not to). */
function attestedSession(t: TestContext, options: {attest?: boolean} = {}): World {
	const kb = makeKb(t);
	const home = kb.env['HOME']!;
	const transcript = writeClaudeSession(join(home, '.claude', 'projects'), id, '/work/app', [
		{user: 'make the build reproducible', assistant: 'Pinned the toolchain and the lockfile.', at: '2025-01-02T09:00:00.000Z'},
	]);
	utimesSync(transcript, longAgo, longAgo);
	if (options.attest ?? true) {
		attestWithKnowledge(kb, 'claude', id);
	}

	return Object.assign(kb, {home, transcript});
}

const purge = (world: World, extra: readonly string[] = []) => world.run(['retention', 'purge', id, '--source', 'claude', ...extra, '--format', 'json']);

test('a file appended after attest is refused (source_changed): nothing deleted, the failure journaled', t => {
	const world = attestedSession(t);
	const before = entriesUnder(world.home);
	appendFileSync(world.transcript, `${JSON.stringify({type: 'assistant', sessionId: id, uuid: 'late', parentUuid: null, timestamp: '2025-01-02T09:05:00.000Z', message: {id: 'msg-late', role: 'assistant', content: [{type: 'text', text: 'One more thing: the cache key.'}]}})}\n`);
	utimesSync(world.transcript, longAgo, longAgo);
	const dry = purge(world).json();
	assert.deepEqual(dry.blockers.map((blocker: any) => blocker.code), ['source_changed']);
	const refused = purge(world, ['--execute']);
	assert.equal(refused.code, 2);
	assert.equal(refused.json().status, 'refused');
	assert.equal(refused.json().failure.code, 'source_changed');
	assert.ok(readFileSync(world.transcript, 'utf8').includes('One more thing'), 'the session is untouched');
	const [failure] = journalNodes(world.journal, 'SessionPurgeFailure');
	assert.equal(failure!['reason'], 'source_changed');
	assert.deepEqual(failure!['deleted_targets'], []);
	assertDeletionsRecorded(world, world.home, before);
	assert.equal(world.ok(['retention', 'plan', '--details']).sessions[0].blockers[0].code, 'source_changed');
});

test('a target swapped for a symlink, or for another inode with the same bytes, between plan and purge is refused', t => {
	const world = attestedSession(t, {attest: false});
	// A subagent inside the session's own directory: one of its targets, found by walking that directory.
	const subagent = join(world.home, '.claude', 'projects', '-work-app', id, 'subagents', 'agent-ffff0001.jsonl');
	mkdirSync(join(subagent, '..'), {recursive: true});
	writeFileSync(subagent, `${JSON.stringify({type: 'user', isSidechain: true, sessionId: id, uuid: 's1', parentUuid: null, timestamp: '2025-01-02T09:00:30.000Z', message: {role: 'user', content: 'look for the lockfile'}})}\n`);
	utimesSync(subagent, longAgo, longAgo);
	attestWithKnowledge(world, 'claude', id);
	const ready = purge(world).json();
	assert.equal(ready.eligible, true);
	assert.ok(ready.targets.some((target: any) => target.path === subagent));
	const elsewhere = join(world.base, 'elsewhere.jsonl');
	renameSync(subagent, elsewhere);
	symlinkSync(elsewhere, subagent);
	const before = entriesUnder(world.home);
	const viaLink = purge(world, ['--execute']);
	assert.equal(viaLink.code, 2);
	assert.equal(viaLink.json().status, 'refused');
	assert.match(viaLink.json().failure.detail, /symbolic link/);
	assert.equal(readlinkSync(subagent), elsewhere, 'the link is left as it is');
	assert.ok(existsSync(elsewhere) && existsSync(world.transcript), 'and so is everything else');

	// The same bytes under another inode are another file: the receipt pinned the first.
	rmSync(subagent);
	copyFileSync(elsewhere, subagent);
	utimesSync(subagent, longAgo, longAgo);
	const replaced = purge(world, ['--execute']).json();
	assert.equal(replaced.status, 'refused');
	assert.equal(replaced.failure.code, 'source_changed');
	assert.match(replaced.failure.detail, /replaced/);
	assert.ok(existsSync(subagent) && existsSync(world.transcript));
	assertDeletionsRecorded(world, world.home, before);

	// A transcript swapped for a link is not even a session any more: discovery does not follow links.
	renameSync(world.transcript, `${elsewhere}.main`);
	symlinkSync(`${elsewhere}.main`, world.transcript);
	assert.equal(purge(world, ['--execute']).error().code, 'session_not_found');
	assert.ok(existsSync(`${elsewhere}.main`));
});

test('a target swapped right before its unlink (after every earlier check) is refused by the last check', async t => {
	if (!requireProc(t)) {
		return;
	}

	for (const swap of ['symlink', 'inode'] as const) {
		const world = attestedSession(t);
		const before = entriesUnder(world.home);
		const running = startCli(['retention', 'purge', id, '--source', 'claude', '--execute', '--format', 'json'], {env: {...world.env, ENGI_TEST_PAUSE_AT: 'retention.before_unlink#1'}});
		await waitStopped(running.pid);
		const aside = join(world.base, 'aside.jsonl');
		renameSync(world.transcript, aside);
		if (swap === 'symlink') {
			symlinkSync(aside, world.transcript);
		} else {
			copyFileSync(aside, world.transcript);
		}

		running.kill('SIGCONT');
		const result = await running.done;
		assert.equal(result.code, 2, result.stderr);
		assert.equal(result.json().status, 'refused');
		assert.equal(result.json().failure.code, swap === 'symlink' ? 'target_is_symlink' : 'target_replaced');
		assert.ok(existsSync(world.transcript) && existsSync(aside), `${swap}: nothing deleted`);
		assertDeletionsRecorded(world, world.home, before);
	}
});

test('a file another process holds open blocks attest and purge (session_active) until it is closed', async t => {
	if (!requireProc(t)) {
		return;
	}

	const world = attestedSession(t, {attest: false});
	const holder = spawn(process.execPath, ['-e', `require('node:fs').openSync(${JSON.stringify(world.transcript)}, 'r'); process.stdout.write('open\\n'); setInterval(() => {}, 1000);`], {stdio: ['ignore', 'pipe', 'ignore']});
	t.after(() => holder.kill('SIGKILL'));
	await new Promise(resolve => holder.stdout.once('data', resolve));
	const before = entriesUnder(world.home);
	// Unattested, the summary finds it among open files by name; with --details, by its examined files.
	assert.equal(world.ok(['retention', 'plan']).blocker_codes.session_active, 1);
	assert.equal(world.ok(['retention', 'plan', '--details']).sessions[0].blockers[0].code, 'session_active');
	recordKnowledge(world, 'claude', id);
	const refusedAttest = world.run(['retention', 'attest', id, '--source', 'claude', '--knowledge-node', `dataset:claude-${id}`, '--session-closed', '--format', 'json']);
	assert.equal(refusedAttest.error().code, 'session_active');
	assert.match(refusedAttest.error().message, new RegExp(`pid ${holder.pid}`));
	holder.kill('SIGKILL');
	await new Promise(resolve => holder.once('exit', resolve));
	world.ok(['retention', 'attest', id, '--source', 'claude', '--knowledge-node', `dataset:claude-${id}`, '--session-closed']);

	const again = spawn(process.execPath, ['-e', `require('node:fs').openSync(${JSON.stringify(world.transcript)}, 'r'); process.stdout.write('open\\n'); setInterval(() => {}, 1000);`], {stdio: ['ignore', 'pipe', 'ignore']});
	t.after(() => again.kill('SIGKILL'));
	await new Promise(resolve => again.stdout.once('data', resolve));
	const plan = world.ok(['retention', 'plan', '--details']);
	assert.deepEqual(plan.sessions[0].blockers.map((blocker: any) => blocker.code), ['session_active']);
	const refused = purge(world, ['--execute']);
	assert.equal(refused.code, 2);
	assert.equal(refused.json().failure.code, 'session_active');
	assert.ok(existsSync(world.transcript));
	again.kill('SIGKILL');
	await new Promise(resolve => again.once('exit', resolve));
	await sleep(50);
	assert.equal(purge(world, ['--execute']).json().status, 'purged');
	assertDeletionsRecorded(world, world.home, before);
});

test('a hard link elsewhere is reported and its bytes are not counted as freed', t => {
	const world = attestedSession(t);
	const bytes = readFileSync(world.transcript).length;
	const backup = join(world.base, 'backup.jsonl');
	linkSync(world.transcript, backup);
	const before = entriesUnder(world.home);
	const result = purge(world, ['--execute']).json();
	assert.equal(result.status, 'purged');
	assert.deepEqual(result.other_hard_links, [{path: world.transcript, links: 1}]);
	assert.equal(result.hard_linked_bytes, bytes);
	assert.equal(result.freed_bytes, 0);
	assert.equal(readFileSync(backup).length, bytes, 'the other name keeps the bytes');
	const [receipt] = journalNodes(world.journal, 'SessionPurgeReceipt');
	assert.deepEqual(receipt!['other_hard_links'], [{path: world.transcript, links: 1}]);
	assert.equal(receipt!['freed_bytes'], 0);
	assertDeletionsRecorded(world, world.home, before);
});

test('a session file whose directory resolves outside the store is refused, and nothing there is touched', t => {
	const kb = makeKb(t);
	// Antigravity keeps a conversation's step database beside brain/; here that directory was moved away and linked back.
	const app = copyStore('antigravity/.gemini/antigravity-cli', join(kb.base, 'agy'));
	const outside = join(kb.base, 'outside-conversations');
	renameSync(join(app, 'conversations'), outside);
	symlinkSync(outside, join(app, 'conversations'));
	settle(app, longAgo);
	settle(outside, longAgo);
	const store = ['--source', 'antigravity', '--source-root', app, '--no-retention'];
	const plan = kb.ok(['retention', 'plan', ...store, '--details']);
	const [session] = plan.sessions;
	const problem = session.blockers.find((blocker: any) => blocker.code === 'assessment_error');
	assert.ok(problem, JSON.stringify(session.blockers));
	assert.match(problem.detail, /outside the store/);
	const before = entriesUnder(outside);
	const result = kb.run(['retention', 'purge', session.session_id, ...store, '--execute', '--format', 'json']);
	assert.equal(result.code, 2);
	assert.equal(result.json().status, 'refused');
	assert.deepEqual(entriesUnder(outside), before);
	assert.ok(existsSync(session.path));
});

test('an id with .. or an absolute path is refused before anything is read or created', t => {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	for (const bad of ['../../etc/passwd', '/etc/passwd', 'eeee0000-0000-4000-8000-000000000001/../x']) {
		for (const args of [
			['retention', 'purge', bad, '--execute'],
			['retention', 'attest', bad, '--source', 'claude', '--knowledge-node', 'x', '--session-closed'],
		]) {
			const result = runCli(['--root', join(base, 'no-such-kb'), ...args, '--format', 'json'], {env});
			assert.equal(result.code, 1);
			assert.equal(result.error().code, 'invalid_session_id', `${args.join(' ')}: ${result.stderr}`);
		}
	}

	assert.equal(existsSync(env['XDG_CACHE_HOME']!), false, 'no catalog was opened');
	assert.equal(existsSync(join(base, 'no-such-kb')), false);
});

test('open files are listed from /proc by the path the kernel gives them; where /proc is missing nothing can be said', async t => {
	if (!requireProc(t)) {
		return;
	}

	const directory = realpathSync(tempDir(t));
	const file = join(directory, 'held.jsonl');
	writeFileSync(file, 'x\n');
	const holder = spawn(process.execPath, ['-e', `require('node:fs').openSync(${JSON.stringify(file)}, 'r'); process.stdout.write('open\\n'); setInterval(() => {}, 1000);`], {stdio: ['ignore', 'pipe', 'ignore']});
	t.after(() => holder.kill('SIGKILL'));
	await new Promise(resolve => holder.stdout.once('data', resolve));
	const open = scanOpenFiles([directory], 'linux');
	assert.equal(open.available, true);
	assert.deepEqual(open.holders(file), [holder.pid]);
	assert.deepEqual(scanOpenFiles([join(directory, 'elsewhere')], 'linux').holders(file), [], 'only files under the directories asked about are kept');
	const mac = scanOpenFiles([directory], 'darwin');
	assert.equal(mac.available, false);
	assert.match(mac.reason!, /darwin/);
});


test('an interrupted attempt in the journal that names files outside the stores in scope is never finished', t => {
	const kb = makeKb(t);
	mkdirSync(join(kb.env['HOME']!, '.claude', 'projects'), {recursive: true});
	const victim = join(kb.base, 'precious', 'notes.jsonl');
	mkdirSync(join(victim, '..'), {recursive: true});
	writeFileSync(victim, 'keep me\n');
	const stats = lstatSync(victim);
	const pin = {path: victim, kind: 'file', bytes: stats.size, dev: stats.dev, ino: stats.ino, sha256: createHash('sha256').update('keep me\n').digest('hex')};
	// As a journal merged from elsewhere could hold them: a receipt pinning the file exactly, and an attempt never finished.
	const forged = prepareEvents(
		[
			{op: 'node.upsert', payload: {id: 'session-retention:claude:forged:0', kind: 'SessionRetentionReceipt', session_id: 'forged', source: 'claude', source_sha256: '0', source_bytes: pin.bytes, targets: [pin], knowledge_node_ids: []}},
			{op: 'node.upsert', payload: {id: 'session-purge-attempt:claude:forged:1', kind: 'SessionPurgeAttempt', session_id: 'forged', source: 'claude', receipt_id: 'session-retention:claude:forged:0', boundary: join(kb.base, 'precious'), targets: [{path: victim, kind: 'file'}], resumes: []}},
		],
		new Date(),
	);
	appendFileSync(kb.journal, forged.map(event => serializeEvent(event)).join(''));
	const sweep = kb.ok(['retention', 'sweep', '--details']);
	assert.equal(sweep.planned, 0);
	assert.equal(sweep.interrupted, 1, 'it is still reported');
	assert.equal(kb.run(['retention', 'purge', 'forged', '--source', 'claude', '--execute', '--format', 'json']).error().code, 'session_not_found');
	assert.equal(readFileSync(victim, 'utf8'), 'keep me\n');
});
