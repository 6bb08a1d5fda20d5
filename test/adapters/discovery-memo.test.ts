import assert from 'node:assert/strict';
import {cpSync, rmSync, writeFileSync} from 'node:fs';
import {dirname, join} from 'node:path';
import test from 'node:test';
import {antigravityAdapter} from '../../source/adapters/antigravity/index.js';
import {copilotAdapter} from '../../source/adapters/copilot/index.js';
import {grokAdapter} from '../../source/adapters/grok/index.js';
import type {DiscoveryMemo, SourceAdapter} from '../../source/adapters/types.js';
import {fixtureStores} from '../helpers/adapters.js';
import {tempDir} from '../helpers/temp.js';

/** An in-memory memo that counts what it was asked and what it answered. */
function countingMemo() {
	const values = new Map<string, {stamp: string; value: string}>();
	const counts = {gets: 0, hits: 0, sets: 0};
	const memo: DiscoveryMemo = {
		get(key, stamp) {
			counts.gets++;
			const entry = values.get(key);
			if (entry?.stamp !== stamp) {
				return undefined;
			}

			counts.hits++;
			return JSON.parse(entry.value) as unknown;
		},
		set(key, stamp, value) {
			counts.sets++;
			values.set(key, {stamp, value: JSON.stringify(value)});
		},
	};
	return {memo, counts};
}

const cases: Array<{adapter: SourceAdapter; store: string; root: (copy: string) => string; sidecar: (copy: string) => string}> = [
	{
		adapter: grokAdapter,
		store: 'grok',
		root: copy => join(copy, 'sessions'),
		// The parent a summary names is a fact discovery takes from it.
		sidecar: copy => join(copy, 'sessions', '%2Fwork%2Fshop', '019a7c10-0a00-7000-8000-00000000000a', 'summary.json'),
	},
	{
		adapter: copilotAdapter,
		store: 'copilot',
		root: copy => join(copy, 'session-state'),
		sidecar: () => '',
	},
	{
		adapter: antigravityAdapter,
		store: 'antigravity',
		root: copy => join(copy, '.gemini', 'antigravity-cli', 'brain'),
		sidecar: () => '',
	},
];

for (const {adapter, store, root, sidecar} of cases) {
	test(`${adapter.id}: discovery with the catalog's memo lists exactly what it lists without, and reuses facts only while a unit's files are unchanged`, t => {
		const copy = tempDir(t);
		cpSync(join(fixtureStores, store), copy, {recursive: true});
		const plain = adapter.discover(root(copy));
		assert.ok(plain.length > 0);
		const {memo, counts} = countingMemo();
		assert.deepEqual(adapter.discover(root(copy), memo), plain, 'first call, memo empty');
		assert.deepEqual([counts.hits, counts.sets], [0, 1], 'the facts of the whole root were remembered in one entry');
		assert.deepEqual(adapter.discover(root(copy), memo), plain, 'second call, from the memo');
		assert.deepEqual([counts.hits, counts.sets], [1, 1], 'read back, and nothing to write');

		const summary = sidecar(copy);
		if (summary) {
			// A changed summary changes the fingerprint, so its facts are worked out again.
			writeFileSync(summary, JSON.stringify({id: '019a7c10-0a00-7000-8000-00000000000a', parent_session_id: '019a7c10-0e00-7000-8000-00000000000e', info: {cwd: '/work/shop'}}));
			const changed = adapter.discover(root(copy), memo).find(unit => unit.idHint === '019a7c10-0a00-7000-8000-00000000000a');
			assert.equal(changed?.parentIdHint, '019a7c10-0e00-7000-8000-00000000000e');
			assert.deepEqual(changed, adapter.discover(root(copy)).find(unit => unit.idHint === '019a7c10-0a00-7000-8000-00000000000a'));
			assert.equal(counts.sets, 2, 'the changed facts were written back');
		}

		// A unit that is gone is forgotten: the book is written without it.
		const gone = plain[0]!;
		rmSync(adapter.id === 'grok' ? dirname(gone.path) : gone.path.replace(/\/\.system_generated\/.*$/, ''), {recursive: true});
		const before = counts.sets;
		const after = adapter.discover(root(copy), memo);
		assert.equal(after.length, plain.length - 1);
		assert.equal(counts.sets, before + 1);
		assert.deepEqual(adapter.discover(root(copy), memo), after);
		assert.equal(counts.sets, before + 1, 'and then left alone');
	});
}
