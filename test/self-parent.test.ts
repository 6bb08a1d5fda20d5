import assert from 'node:assert/strict';
import {mkdirSync, utimesSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {runCli, sandboxEnv} from './helpers/cli.js';
import {tempDir} from './helpers/temp.js';

/**
 * A session is never its own parent, whatever its store says: a Codex rollout whose session_meta
 * names its own id as its parent thread (a store another tool rewrote, a damaged
 * header) is listed as a session of its own and judged as a candidate, not folded into itself
 * and lost. The rule lives in the catalog's summary, once for every source.
 */
const id = '019b2f40-6c00-7d00-8e00-0000000000b3';

test('a session whose store names itself as its parent is listed, and unfinished offers it', t => {
	const env = sandboxEnv(tempDir(t));
	const directory = join(env['HOME']!, '.codex', 'sessions', '2026', '11', '30');
	mkdirSync(directory, {recursive: true});
	const file = join(directory, `rollout-2026-11-30T09-00-00-${id}.jsonl`);
	const lines = [
		{timestamp: '2026-11-30T09:00:00.000Z', type: 'session_meta', payload: {id, parent_thread_id: id, timestamp: '2026-11-30T09:00:00.000Z', cwd: '/work/orchard', originator: 'codex_cli_rs', cli_version: '0.98.0', source: 'cli'}},
		{timestamp: '2026-11-30T09:00:01.000Z', type: 'response_item', payload: {type: 'message', role: 'user', content: [{type: 'input_text', text: 'Prune the apple rows by the north fence'}]}},
		{timestamp: '2026-11-30T09:00:01.000Z', type: 'event_msg', payload: {type: 'user_message', message: 'Prune the apple rows by the north fence', kind: 'plain'}},
	];
	writeFileSync(file, lines.map(line => JSON.stringify(line)).join('\n') + '\n');
	utimesSync(file, new Date('2026-11-30T09:05:00Z'), new Date('2026-11-30T09:05:00Z'));
	const run = (args: string[]) => {
		const result = runCli([...args, '--format', 'json'], {env});
		assert.equal(result.code, 0, result.stderr);
		return result.json() as Record<string, any>;
	};

	const listed = run(['sessions', '--all-projects', '--source', 'codex']).sessions as Array<{id: string; parent_id: string | null}>;
	assert.deepEqual(listed.map(session => [session.id, session.parent_id]), [[id, null]]);
	const candidates = run(['unfinished', '--all-projects', '--since', '2020-01-01', '--source', 'codex']).candidates as Array<{id: string}>;
	assert.deepEqual(candidates.map(candidate => candidate.id), [id], 'its unanswered request is open work');
});

test('a Codex rollout naming itself as the thread it was forked from copies nothing: its turns are its own', t => {
	const env = sandboxEnv(tempDir(t));
	const self = '019b2f40-6c00-7d00-8e00-0000000000b4';
	const directory = join(env['HOME']!, '.codex', 'sessions', '2026', '11', '30');
	mkdirSync(directory, {recursive: true});
	const lines = [
		{timestamp: '2026-11-30T10:00:00.000Z', type: 'session_meta', payload: {id: self, forked_from_id: self, timestamp: '2026-11-30T10:00:00.000Z', cwd: '/work/orchard', originator: 'codex_cli_rs', cli_version: '0.98.0', source: 'cli'}},
		{timestamp: '2026-11-30T10:00:01.000Z', type: 'response_item', payload: {type: 'message', role: 'user', content: [{type: 'input_text', text: 'Graft the pear scions onto the quince stock'}]}},
		{timestamp: '2026-11-30T10:00:01.000Z', type: 'event_msg', payload: {type: 'user_message', message: 'Graft the pear scions onto the quince stock', kind: 'plain'}},
	];
	writeFileSync(join(directory, `rollout-2026-11-30T10-00-00-${self}.jsonl`), lines.map(line => JSON.stringify(line)).join('\n') + '\n');
	const result = runCli(['sessions', '--all-projects', '--source', 'codex', '--format', 'json'], {env});
	assert.equal(result.code, 0, result.stderr);
	const listed = result.json().sessions as Array<{id: string; parent_id: string | null; human_turns: number; title: string | null}>;
	assert.deepEqual(listed.map(session => [session.id, session.parent_id, session.human_turns, session.title]), [[self, null, 1, 'Graft the pear scions onto the quince stock']]);
});
