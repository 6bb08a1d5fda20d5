import assert from 'node:assert/strict';
import {join} from 'node:path';
import test from 'node:test';
import {qwenAdapter} from '../../source/adapters/qwen/index.js';
import {wholeUnit} from '../../source/adapters/types.js';
import {readUnit} from '../helpers/adapters.js';
import {searchableText} from '../../source/engine/search/session-text.js';

/**
 * Qwen Code format features found in qwen-code's own source (packages/core/src/config/storage.ts,
 * packages/vscode-ide-companion/src/services/qwenSessionReader.ts) and in other projects' readers
 * of its chats (franken_agent_detection src/connectors/qwen.rs).
 * Every fixture line is invented; only the layout and record shapes are the tool's.
 */
const cases = join(import.meta.dirname, '..', 'fixtures', 'format-cases', 'qwen');

test('qwen format: QWEN_RUNTIME_DIR relocates the projects store, and its chats are found', () => {
	const runtime = join(cases, 'runtime');
	const roots = qwenAdapter.defaultRoots({env: {QWEN_RUNTIME_DIR: runtime}, home: '/home/ada', platform: 'linux'});
	assert.deepEqual(roots, [join(runtime, 'projects'), '/home/ada/.qwen/projects', '/home/ada/.qwen/tmp'], 'the runtime dir first; the default store stays listed for runs without it, and the legacy store last');
	assert.deepEqual(
		qwenAdapter.defaultRoots({env: {QWEN_RUNTIME_DIR: '~/qwen-runtime', QWEN_HOME: '/srv/qwen'}, home: '/home/ada', platform: 'darwin'}),
		['/home/ada/qwen-runtime/projects', '/srv/qwen/projects', '/home/ada/.qwen/projects', '/home/ada/.qwen/tmp'],
	);
	const found = roots.flatMap(root => qwenAdapter.discover(root)).map(unit => unit.idHint);
	assert.deepEqual(found, ['3e1f5a7c-9b2d-4c6e-8f0a-1b3c5d7e9f2a']);
});

test('qwen format: a chat the CLI archived (chats/archive/<id>.jsonl) is still a session', () => {
	// qwen-code's SessionService moves an archived chat to getChatsDir()/archive and lists it from
	// there (packages/core/src/services/sessionService.ts: getArchiveChatsDir; agent-sessions
	// QwenSessionDiscovery.swift reads both places). Sidecars beside it are not chats.
	const root = join(cases, 'archived', 'projects');
	const units = qwenAdapter.discover(root);
	assert.deepEqual(units.map(unit => unit.idHint).sort(), ['0b9d7f5e-3c1a-4e2b-8d6f-4a2c0e8b6d24', '7a2c4e6f-1b3d-4f5a-9c8e-2d4f6a8b0c13']);
	const archived = units.find(unit => unit.idHint === '0b9d7f5e-3c1a-4e2b-8d6f-4a2c0e8b6d24');
	assert.ok(archived);
	const session = readUnit(qwenAdapter, wholeUnit(archived));
	assert.equal(session.summary.title, 'Why does the cone chart skip cone 6?');
	assert.equal(session.summary.project, '/work/kiln');
});

test('qwen format: chats of releases before the JSONL store (~/.qwen/tmp/<project hash>/chats/session-*.json, one document, assistant messages typed "qwen") are listed and read', () => {
	const home = join(cases, 'legacy-home');
	const roots = qwenAdapter.defaultRoots({env: {}, home, platform: 'linux'});
	assert.ok(roots.includes(join(home, '.qwen', 'tmp')), 'the legacy store is a default root');
	const units = roots.flatMap(root => qwenAdapter.discover(root)).map(wholeUnit);
	assert.equal(units.length, 1);
	const {loaded, events, summary} = readUnit(qwenAdapter, units[0]!);
	assert.equal(loaded.skipped, 0);
	assert.equal(summary.title, 'Why does the tide table parser drop the last row?');
	const meta = events.filter(event => event.kind === 'meta').map(event => event.session);
	assert.equal(meta[0]?.id, '5c1d9e2a-7b4f-4e3a-9d12-6f8a0b2c4e71');
	assert.equal(meta[0]?.started, '2025-09-14T10:20:03.118Z');
	assert.equal(meta[0]?.modified, '2025-09-14T10:21:40.902Z');
	assert.ok(meta.some(session => session?.model === 'qwen3-coder-plus'));
	const user = events.find(event => event.kind === 'user');
	assert.equal(user?.text, 'Why does the tide table parser drop the last row?');
	assert.equal(user?.human, true);
	assert.deepEqual(events.filter(event => event.kind === 'assistant').map(event => event.text), ['Let me look at the loop bounds.', 'The range stops one short: use range(len(rows)).']);
	const call = events.find(event => event.kind === 'tool_call');
	assert.deepEqual(call?.tool, {name: 'read_file', call_id: 'read_file-1757845209544-3e7b', input: {absolute_path: '/work/tides/parse.py'}});
	const result = events.find(event => event.kind === 'tool_result');
	assert.equal(result?.result?.call_id, 'read_file-1757845209544-3e7b');
	assert.equal(result?.result?.is_error, false);
	assert.match(result?.result?.output ?? '', /range\(len\(rows\) - 1\)/);
});

test('qwen format: the records /branch copied from the parent (forkedFrom) are not the branch\'s own; its own later turns are', () => {
	// qwen-code's SessionService.forkSession (packages/core/src/services/sessionService.ts) writes the
	// parent's active chain into the new file, each record with its uuid, timestamp and message
	// kept, a new sessionId and parentUuid, and forkedFrom {sessionId, messageUuid}; the branch's
	// own records follow, without forkedFrom.
	const [unit] = qwenAdapter.discover(join(cases, 'branched', 'projects'));
	assert.ok(unit);
	const {events, loaded, summary} = readUnit(qwenAdapter, wholeUnit(unit));
	assert.equal(summary.id, '9d1f3b5a-7c2e-4e8a-b6d0-2a4c6e8f0b17');
	assert.equal(summary.parent_id, '5c8e0a2b-4d6f-4a1c-9e3b-7f5d1b9c3e60');
	assert.equal(summary.title, 'Redo it for a queen-size quilt', "the parent's first request is not the branch's title");
	assert.deepEqual([summary.human_turns, summary.assistant_messages, summary.tool_calls], [1, 1, 0], 'only the turn typed in the branch counts');
	assert.equal(summary.started, '2026-10-07T14:00:00.000Z', 'the branch started when it was made, not when its parent did');
	const copied = events.filter(event => event.line <= 5 && event.kind !== 'meta');
	assert.deepEqual(copied.map(event => event.kind), ['system'], 'the copied records are one notice');
	assert.ok(!events.some(event => event.kind === 'tool_result'), "the parent's failed call is not the branch's failure");
	assert.doesNotMatch(loaded.rows.map(row => searchableText(row.events)).join('\n'), /hexagon|yardage/i, "the parent's records are not searched as the branch's");
	assert.ok(events.some(event => event.uuid === 'a81c0e4f-1d2b-4c3a-9e5f-000000000005'), 'a copied record keeps its place in the tree the branch continues');
});
