import assert from 'node:assert/strict';
import test from 'node:test';
import type {SessionEvent} from '../../source/adapters/events.js';
import {asHostNotice, withoutStatedTitles} from '../../source/adapters/shared/host-text.js';

test('a name kept beside the transcript outranks the titles records state: only the title goes, every other fact of the record stays', () => {
	const events: SessionEvent[] = [
		{line: 4, kind: 'meta', session: {title: 'An older name', cwd: '/work/orchard', model: 'gpt-5'}},
		{line: 4, kind: 'meta', session: {title: 'Only a name'}},
		{line: 4, kind: 'user', text: 'Prune the pear trees', human: true},
	];
	assert.deepEqual(withoutStatedTitles(events), [
		{line: 4, kind: 'meta', session: {cwd: '/work/orchard', model: 'gpt-5'}},
		{line: 4, kind: 'user', text: 'Prune the pear trees', human: true},
	]);
	const untitled = events.slice(2);
	assert.equal(withoutStatedTitles(untitled), untitled, 'events without a stated title are given back as they are');
});

test('a request or reply that holds no conversation becomes the host\'s notice, text and place kept; other events stay', () => {
	assert.deepEqual(asHostNotice({line: 2, kind: 'user', text: 'Warmup', human: false, origin: 'host', uuid: 'u2'}), {line: 2, kind: 'system', text: 'Warmup', uuid: 'u2'});
	assert.deepEqual(asHostNotice({line: 3, kind: 'assistant', text: 'Ready.', message_id: 'm3'}), {line: 3, kind: 'system', text: 'Ready.'});
	const call: SessionEvent = {line: 4, kind: 'tool_call', tool: {name: 'Read', call_id: 'c4', input: {}}};
	assert.equal(asHostNotice(call), call);
});
