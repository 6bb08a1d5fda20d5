import assert from 'node:assert/strict';
import {join} from 'node:path';
import test from 'node:test';
import {qwenAdapter} from '../../source/adapters/qwen/index.js';

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
