import assert from 'node:assert/strict';
import {appendFileSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {canonicalEventText, canonicalJson, eventId} from '../source/engine/journal/canonical.js';
import {sha256Hex} from '../source/lib/hash.js';
import {parseJournalLine} from '../source/engine/journal/parse-line.js';
import {prepareEvents, serializeEvent} from '../source/engine/journal/append.js';
import {scanJournal} from '../source/engine/journal/scan.js';
import {replayInMemory, isEdgeLive} from '../source/engine/graph/replay.js';
import {tempDir} from './helpers/temp.js';

test('canonical id vector: keys sorted at every depth, non-ASCII raw', () => {
	const text = canonicalEventText('node.upsert', {b: 1, a: {z: 1, y: '臺'}});
	assert.equal(text, '{"v":"engi/v1","op":"node.upsert","payload":{"a":{"y":"臺","z":1},"b":1}}');
	assert.equal(eventId('node.upsert', {b: 1, a: {z: 1, y: '臺'}}), sha256Hex(text));
	assert.match(eventId('node.upsert', {id: 'x'}), /^[0-9a-f]{64}$/);
});

test('payload observed_utc is excluded from the id; arrays keep their order; op is hashed', () => {
	assert.equal(eventId('node.upsert', {id: 'x', observed_utc: '2026-01-01T00:00:00Z'}), eventId('node.upsert', {id: 'x'}));
	assert.notEqual(canonicalJson({l: [2, 1]}), canonicalJson({l: [1, 2]}));
	assert.notEqual(eventId('edge.assert', {from: 'a', type: 'T', to: 'b'}), eventId('edge.retract', {from: 'a', type: 'T', to: 'b'}));
	// A nested observed_utc is content, not the volatile envelope field.
	assert.notEqual(eventId('node.upsert', {id: 'x', inner: {observed_utc: 'a'}}), eventId('node.upsert', {id: 'x', inner: {}}));
});

test('a rejected event writes nothing: validation happens before any line is built', () => {
	assert.throws(() => prepareEvents([{op: 'node.upsert', payload: {id: 'ok'}}, {op: 'edge.assert', payload: {from: 'a', to: 'b'}}], new Date()), {code: 'invalid_event'});
	assert.throws(() => prepareEvents([{op: 'node.upsert', payload: {id: '  '}}], new Date()), {code: 'invalid_event'});
});

test('serialized lines have the fixed key order and parse back', () => {
	const [event] = prepareEvents([{op: 'node.upsert', payload: {label: 'é', id: 'n'}}], new Date('2026-03-04T05:06:07.890Z'));
	const line = serializeEvent(event!);
	assert.match(line, /^\{"id":"[0-9a-f]{64}","observed_utc":"2026-03-04T05:06:07Z","op":"node.upsert","payload":\{"id":"n","label":"é"\}\}\n$/);
	const parsed = parseJournalLine(line.trim());
	assert.equal(parsed.kind, 'event');
});

test('line classification: blank, not JSON, not an event, bad payload, unknown op', () => {
	assert.equal(parseJournalLine('   ').kind, 'blank');
	assert.deepEqual(parseJournalLine('{"id":'), {kind: 'corrupt', reason: 'not_json'});
	assert.deepEqual(parseJournalLine('[1,2]'), {kind: 'corrupt', reason: 'not_an_event'});
	assert.deepEqual(parseJournalLine('{"id":"x","observed_utc":"2026-01-01T00:00:00.5Z","op":"node.upsert","payload":{"id":"n"}}'), {kind: 'corrupt', reason: 'not_an_event'});
	assert.deepEqual(parseJournalLine('{"id":"x","observed_utc":"2026-01-01T00:00:00Z","op":"edge.assert","payload":{"from":"a"}}'), {kind: 'corrupt', reason: 'invalid_payload'});
	const unknown = parseJournalLine('{"id":"x","observed_utc":"2026-01-01T00:00:00Z","op":"config.set","payload":{"key":"k"}}');
	assert.equal(unknown.kind, 'event');
	assert.equal(unknown.kind === 'event' && unknown.known, false);
});

test('scan reports corrupt lines with line numbers and an unterminated tail without applying it', t => {
	const path = join(tempDir(t), 'journal.jsonl');
	const good = (id: string) => serializeEvent(prepareEvents([{op: 'node.upsert', payload: {id}}], new Date('2026-01-01T00:00:00Z'))[0]!);
	writeFileSync(path, good('a') + 'not json\n' + '\n' + good('b'));
	appendFileSync(path, '{"id":"torn","obs');
	const scan = scanJournal(path);
	assert.deepEqual(scan.events.map(event => event.line), [1, 4]);
	assert.deepEqual(scan.corrupt.map(line => [line.line, line.reason]), [[2, 'not_json'], [5, 'torn_tail']]);
	assert.deepEqual(scan.unterminatedTail, {line: 5, parses: false});
	assert.equal(scan.endOffset, readFileSync(path).length - '{"id":"torn","obs'.length);
	// Scanning again from the watermark sees only the tail.
	const again = scanJournal(path, {offset: scan.endOffset, line: scan.nextLine});
	assert.equal(again.events.length, 0);
	assert.equal(again.unterminatedTail?.line, 5);
});

test('replay: upserts merge, retracts close earlier edges, duplicates apply once, as-of bounds observation and validity', () => {
	const at = (iso: string) => new Date(iso);
	const ev = (op: 'node.upsert' | 'edge.assert' | 'edge.retract', payload: Record<string, unknown>, when: string) => prepareEvents([{op, payload}], at(when))[0]!;
	const lines = [
		ev('node.upsert', {id: 't', kind: 'Task', status: 'open', label: 'T'}, '2026-01-01T00:00:00Z'),
		ev('node.upsert', {id: 'p', kind: 'Project'}, '2026-01-01T00:00:00Z'),
		ev('edge.assert', {from: 't', type: 'belongs_to', to: 'p', valid_until: '2026-06-01T00:00:00Z'}, '2026-01-02T00:00:00Z'),
		ev('node.upsert', {id: 't', status: 'done'}, '2026-02-01T00:00:00Z'),
		ev('edge.retract', {from: 't', type: 'BELONGS_TO', to: 'p'}, '2026-03-01T00:00:00Z'),
		ev('edge.assert', {from: 't', type: 'BELONGS_TO', to: 'p'}, '2026-04-01T00:00:00Z'),
	].map((event, index) => ({line: index + 1, event, known: true}));
	// A git union merge can duplicate a line: same id, applied once.
	const withDuplicate = [...lines, {line: 7, event: lines[0]!.event, known: true}];
	const now = replayInMemory(withDuplicate);
	assert.deepEqual(now.nodes.get('t'), {id: 't', kind: 'Task', status: 'done', label: 'T', observed_utc: '2026-02-01T00:00:00Z'});
	assert.equal(now.edges.length, 2);
	assert.equal(now.edges[0]!.type, 'BELONGS_TO');
	assert.equal(now.edges[0]!.retracted_utc, '2026-03-01T00:00:00Z');
	assert.equal(isEdgeLive(now.edges[0]!, '2026-02-15T00:00:00Z'), true);
	assert.equal(isEdgeLive(now.edges[0]!, '2026-03-15T00:00:00Z'), false);
	assert.equal(isEdgeLive(now.edges[1]!, '2026-03-15T00:00:00Z'), false, 'not yet observed');
	assert.equal(isEdgeLive(now.edges[1]!, '2026-04-15T00:00:00Z'), true);
	const early = replayInMemory(withDuplicate, '2026-01-15T00:00:00Z');
	assert.equal(early.nodes.get('t')?.['status'], 'open');
	assert.equal(early.edges.length, 1);
	assert.equal(early.edges[0]!.retracted_utc, null);
});
