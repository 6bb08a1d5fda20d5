import assert from 'node:assert/strict';
import {join} from 'node:path';
import test from 'node:test';
import {geminiAdapter} from '../../source/adapters/gemini/index.js';
import {looseUnit, readUnit} from '../helpers/adapters.js';

/**
 * Gemini CLI format features found in gemini-cli's own recorder (packages/core/src/services/
 * chatRecordingService.ts) and in other projects' readers of its chats. Every fixture line is
 * invented; only the record shapes are the CLI's.
 */
const cases = join(import.meta.dirname, '..', 'fixtures', 'format-cases', 'gemini');
const read = (name: string) => readUnit(geminiAdapter, looseUnit(join(cases, name)));

test('gemini format: a tool call whose result holds its siblings\' responses gets only its own output and error', () => {
	const chat = read('session-2026-11-22T10-00-b8d5f3a1.jsonl');
	const results = chat.events.filter(event => event.kind === 'tool_result');
	assert.deepEqual(
		results.map(event => [event.result?.call_id, event.result?.is_error, event.result?.output]),
		[
			['read_file-1', false, '{"name":"a"}'],
			['write_file-2', true, "EACCES: permission denied, open '/work/kit/dist/a.json'"],
		],
	);
});
