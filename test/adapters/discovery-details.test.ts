import assert from 'node:assert/strict';
import {cpSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {antigravityAdapter} from '../../source/adapters/antigravity/index.js';
import {copilotAdapter} from '../../source/adapters/copilot/index.js';
import {grokAdapter} from '../../source/adapters/grok/index.js';
import {wholeUnit, type DiscoveredUnit, type SourceAdapter} from '../../source/adapters/types.js';
import {fixtureStores} from '../helpers/adapters.js';
import {tempDir} from '../helpers/temp.js';

const grokMain = '019a7c10-0a00-7000-8000-00000000000a';
const copilotSession = '7d2b9c40-1a2b-4c3d-8e4f-5a6b7c8d9e02';
const antigravitySession = '3b8f6c2e-1d4a-4e9b-a7c5-0f2e8d6b4a19';

/**
 * Stores whose units take files and hints from a sidecar: each case changes the sidecar after the
 * listing and before the unit is read, and what the read sees must be the sidecar as it is then.
 */
const cases: Array<{adapter: SourceAdapter; store: string; root: (copy: string) => string; id: string; change: (copy: string) => void; check: (unit: DiscoveredUnit, copy: string) => void}> = [
	{
		adapter: grokAdapter,
		store: 'grok',
		root: copy => join(copy, 'sessions'),
		id: grokMain,
		change: copy => writeFileSync(join(copy, 'sessions', '%2Fwork%2Fshop', grokMain, 'summary.json'), JSON.stringify({id: grokMain, parent_session_id: '019a7c10-0e00-7000-8000-00000000000e', info: {cwd: '/work/shop'}})),
		check: unit => assert.equal(unit.parentIdHint, '019a7c10-0e00-7000-8000-00000000000e', 'the parent the summary names now'),
	},
	{
		adapter: copilotAdapter,
		store: 'copilot',
		root: copy => join(copy, 'session-state'),
		id: copilotSession,
		change: copy => writeFileSync(join(copy, 'session-state', copilotSession, 'workspace.yaml'), 'id: x\ncwd: /work/moved\n'),
		check: (unit, copy) => {
			assert.equal(unit.projectHint, '/work/moved', 'the cwd the new workspace.yaml names');
			assert.deepEqual(unit.paths, [join(copy, 'session-state', copilotSession, 'events.jsonl'), join(copy, 'session-state', copilotSession, 'workspace.yaml')]);
		},
	},
	{
		adapter: antigravityAdapter,
		store: 'antigravity',
		root: copy => join(copy, '.gemini', 'antigravity-cli', 'brain'),
		id: antigravitySession,
		change: copy => writeFileSync(join(copy, '.gemini', 'antigravity-cli', 'conversations', `${antigravitySession}.db`), ''),
		check: (unit, copy) => assert.ok(unit.paths.includes(join(copy, '.gemini', 'antigravity-cli', 'conversations', `${antigravitySession}.db`)), 'the step database that exists now'),
	},
];

const details = (unit: DiscoveredUnit) => ({paths: unit.paths, parentIdHint: unit.parentIdHint, projectHint: unit.projectHint});

for (const {adapter, store, root, id, change, check} of cases) {
	test(`${adapter.id}: a listing reads no sidecar; the unit's files and hints are worked out when it is read`, t => {
		const copy = tempDir(t);
		// Antigravity's starts without its step database, so the change adds it.
		cpSync(join(fixtureStores, store), copy, {recursive: true, filter: source => adapter.id !== 'antigravity' || !source.endsWith('.db')});

		const listed = adapter.discover(root(copy));
		const unit = listed.find(candidate => candidate.idHint === id);
		assert.ok(unit && 'details' in unit, 'the unit waits for a read to look at its sidecar');
		assert.equal('paths' in unit, false);
		// Everything a listing compares or shows is there without the details.
		assert.deepEqual(Object.keys(unit).sort(), ['details', 'fingerprint', 'idHint', 'key', 'mtimeMs', 'path', 'size', ...('variant' in unit ? ['variant'] : [])].sort());
		const before = details(wholeUnit(adapter.discover(root(copy)).find(candidate => candidate.idHint === id)!));
		change(copy);
		const read = wholeUnit(unit);
		check(read, copy);
		const now = wholeUnit(adapter.discover(root(copy)).find(candidate => candidate.idHint === id)!);
		assert.deepEqual(details(read), details(now), 'the same details as a listing made now gives');
		assert.notDeepEqual(details(read), before, 'listed before the change, read after it: the read sees the change');
	});
}
