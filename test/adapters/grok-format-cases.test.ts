import assert from 'node:assert/strict';
import {join} from 'node:path';
import test from 'node:test';
import {grokAdapter} from '../../source/adapters/grok/index.js';
import {wholeUnit} from '../../source/adapters/types.js';
import {readUnit} from '../helpers/adapters.js';

/**
 * Grok Build format features found in other projects' readers of its `updates.jsonl` and their
 * tests. Every fixture line is invented; only the layout and record shapes are the tool's.
 */
const cases = join(import.meta.dirname, '..', 'fixtures', 'format-cases', 'grok');

test('grok format: turn_completed ends each turn; one the person stopped (stop_reason "cancelled") is an interruption, and neither is a skipped line', () => {
	const [unit] = grokAdapter.discover(join(cases, 'sessions'));
	assert.ok(unit);
	const {loaded, events, summary} = readUnit(grokAdapter, wholeUnit(unit));
	assert.equal(loaded.skipped, 0, 'a turn_completed update is a record Grok writes after every turn');
	assert.equal(summary.human_turns, 2);
	const stopped = events.filter(event => event.interrupted);
	assert.deepEqual(stopped.map(event => [event.line, event.kind]), [[6, 'system']], 'the cancelled turn, not the one that ended');
	assert.equal(events.some(event => event.line === 3 && event.kind !== 'meta'), false, 'a turn that ended normally adds nothing to read');
});

test('grok format: an update is timed by params._meta.agentTimestampMs (milliseconds) where the envelope only has seconds', () => {
	const [unit] = grokAdapter.discover(join(cases, 'agent-timestamps'));
	assert.ok(unit);
	const {loaded, events} = readUnit(grokAdapter, wholeUnit(unit));
	assert.equal(loaded.skipped, 0);
	const user = events.find(event => event.kind === 'user');
	assert.equal(user?.timestamp, '2026-12-02T09:00:00.120Z', 'the agent stamp, not the envelope second');
	const reply = events.find(event => event.kind === 'assistant');
	assert.equal(reply?.timestamp, '2026-12-02T09:00:00.480Z', 'a reply merged from chunks is timed by its first chunk');
});
