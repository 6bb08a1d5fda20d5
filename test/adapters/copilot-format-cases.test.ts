import assert from 'node:assert/strict';
import test from 'node:test';
import {fileURLToPath} from 'node:url';
import {copilotAdapter} from '../../source/adapters/copilot/index.js';
import {readStore} from '../helpers/adapters.js';

/**
 * Copilot CLI event shapes from github/copilot-sdk `nodejs/src/generated/session-events.ts`
 * (the "Union of all session event variants emitted by the Copilot CLI runtime"), written with
 * invented content.
 */
const store = fileURLToPath(new URL('../fixtures/format-cases/copilot', import.meta.url));
const id = '3c9e1f20-5b7a-4d1e-9a42-6f0b8c2d7e11';
const session = () => {
	const found = readStore(copilotAdapter, store).find(read => read.summary.id === id);
	assert.ok(found, `session ${id} is read`);
	return found;
};

test('copilot format: a user.message labelled crossSession came from another session, not from a person', () => {
	const read = session();
	const relayed = read.events.find(event => event.line === 3);
	assert.equal(relayed?.kind, 'user');
	assert.equal(relayed?.human, false, 'crossSession {origin:"authenticated-cross-session"} is non-human input');
	assert.equal(read.summary.title, 'Make the importer reject negative balances.');
	assert.equal(read.summary.human_turns, 1);
});

test('copilot format: the exit code of result.contents shell_exit / terminal blocks is read', () => {
	const results = session().events.filter(event => event.kind === 'tool_result');
	assert.deepEqual(
		results.map(event => [event.result?.call_id, event.result?.is_error, event.result?.exit_code]),
		[
			['call_a1', true, 2],
			['call_a2', true, 1],
			['call_a3', false, 0],
		],
	);
	assert.equal(results[0]?.result?.output, 'import:check found 3 rows with a negative balance', 'the output stays result.content');
});

test('copilot format: tool_search.activated is a known event type, not a skipped line', () => {
	const read = session();
	assert.equal(read.loaded.skipped, 0);
	assert.deepEqual(read.loaded.rows.find(row => row.line === 2)?.events, []);
});

test('copilot format: an error shutdown carries its errorReason', () => {
	const shutdown = session().events.find(event => event.line === 19);
	assert.equal(shutdown?.kind, 'system');
	assert.match(shutdown?.text ?? '', /Lost connection to the model provider/);
	assert.equal(shutdown?.error, 'Lost connection to the model provider');
});
