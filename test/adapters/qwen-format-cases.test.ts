import assert from 'node:assert/strict';
import {join} from 'node:path';
import test from 'node:test';
import {qwenAdapter} from '../../source/adapters/qwen/index.js';
import {wholeUnit} from '../../source/adapters/types.js';
import {readUnit} from '../helpers/adapters.js';

/**
 * Qwen Code format features found in qwen-code's own source (packages/core/src/config/storage.ts).
 * Every fixture line is invented; only the layout and record shapes are the tool's.
 */
const cases = join(import.meta.dirname, '..', 'fixtures', 'format-cases', 'qwen');

test('qwen format: QWEN_RUNTIME_DIR relocates the projects store, and its chats are found', () => {
	const runtime = join(cases, 'runtime');
	const roots = qwenAdapter.defaultRoots({env: {QWEN_RUNTIME_DIR: runtime}, home: '/home/ada', platform: 'linux'});
	assert.deepEqual(roots, [join(runtime, 'projects'), '/home/ada/.qwen/projects'], 'the runtime dir first; the default store stays listed for runs without it');
	assert.deepEqual(
		qwenAdapter.defaultRoots({env: {QWEN_RUNTIME_DIR: '~/qwen-runtime', QWEN_HOME: '/srv/qwen'}, home: '/home/ada', platform: 'darwin'}),
		['/home/ada/qwen-runtime/projects', '/srv/qwen/projects', '/home/ada/.qwen/projects'],
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
