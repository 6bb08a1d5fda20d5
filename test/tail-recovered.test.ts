import assert from 'node:assert/strict';
import test from 'node:test';
import type {SessionEvent} from '../source/adapters/events.js';
import {computeTail} from '../source/engine/continuity/tail.js';
import {reasonsFor} from '../source/engine/continuity/reasons.js';

/** The final turn of a session: a request, then what followed it. */
const turn = (...after: SessionEvent[]): SessionEvent[] => [{line: 1, kind: 'user', text: 'Ship the release notes', human: true}, ...after];
const codes = (events: SessionEvent[]) => reasonsFor(computeTail(events, false), undefined, false).map(reason => reason.code);

test('tail: an error or interruption the agent went on from, to a reply, leaves no interrupted turn; one it stopped at, or said nothing after, does', () => {
	const apiError: SessionEvent = {line: 2, kind: 'assistant', text: 'API Error: 529 overloaded', error: 'API Error: 529 overloaded'};
	const badCall: SessionEvent = {line: 2, kind: 'system', text: 'Error invalid tool call', error: 'invalid tool call'};
	const reply: SessionEvent = {line: 4, kind: 'assistant', text: 'The notes are in CHANGELOG.md.'};
	const call: SessionEvent = {line: 3, kind: 'tool_call', tool: {name: 'write_file', call_id: 'c1', input: {}}};
	const result: SessionEvent = {line: 3, kind: 'tool_result', result: {call_id: 'c1', is_error: false, output: 'ok'}};

	assert.deepEqual(codes(turn(apiError, call, result, reply)), [], 'a retried request that ended in a reply');
	assert.deepEqual(codes(turn(badCall, call, result, reply)), [], 'a bad call the agent corrected');
	assert.deepEqual(codes(turn(apiError)), ['interrupted_or_cancelled'], 'the turn stopped at the error');
	assert.deepEqual(codes(turn(apiError, call, result)), ['interrupted_or_cancelled'], 'work after it, but no word');
	assert.deepEqual(codes(turn(call, result, {line: 4, kind: 'system', text: 'Request cancelled', interrupted: true})), ['interrupted_or_cancelled'], 'cancelled at the end');
	assert.deepEqual(codes(turn(reply, {line: 5, kind: 'system', text: 'interrupted', interrupted: true})), ['interrupted_or_cancelled'], 'interrupted after a reply');
});
