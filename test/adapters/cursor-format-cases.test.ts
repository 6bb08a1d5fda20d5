import assert from 'node:assert/strict';
import {join} from 'node:path';
import test from 'node:test';
import {fileURLToPath} from 'node:url';
import {cursorAdapter} from '../../source/adapters/cursor/index.js';
import {looseUnit, readUnit} from '../helpers/adapters.js';

/**
 * Cursor agent-transcript shapes (formats.md §8), written with invented content. Content block
 * types drift between Cursor builds (agent-sessions `stage0/agents/cursor/schema_drift.jsonl`
 * has a `custom_block` with visible text, which its parser shows as text).
 */
const root = fileURLToPath(new URL('../fixtures/format-cases/cursor/projects', import.meta.url));
const id = '9b1d2e30-4c5f-4a6b-8d7e-1f2a3b4c5d61';
const transcript = join(root, 'home-dev-ledger', 'agent-transcripts', id, `${id}.jsonl`);

test('cursor format: an assistant block of an unknown type keeps its visible text', () => {
	const read = readUnit(cursorAdapter, looseUnit(transcript, {idHint: id}));
	assert.deepEqual(
		read.events.filter(event => event.kind === 'assistant').map(event => [event.line, event.text]),
		[
			[2, 'The import loop stops one row early because it uses length - 1.'],
			[3, 'Changing the bound to length fixes it.'],
		],
	);
	assert.ok(!read.events.some(event => event.text?.includes('off by one')), 'thinking is still never shown');
	assert.equal(read.summary.title, 'Why does the ledger import skip the last row?');
});
