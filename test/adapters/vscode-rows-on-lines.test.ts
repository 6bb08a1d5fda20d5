import assert from 'node:assert/strict';
import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import type {SessionRow} from '../../source/adapters/events.js';
import {wholeUnit, type DiscoveredUnit} from '../../source/adapters/types.js';
import {adapters} from '../../source/adapters/index.js';
import type {DocumentAdapter} from '../../source/adapters/types.js';
import {fixtureStores, looseUnit} from '../helpers/adapters.js';
import {tempDir} from '../helpers/temp.js';

const vscodeAdapter = adapters.vscode as DocumentAdapter;

const store = join(fixtureStores, 'vscode');
const rewinds = new URL('../fixtures/rewinds/vscode/Code/User', import.meta.url).pathname;

/** Every VS Code fixture unit that loads: snapshots, mutation logs, a compacted one, a rewound one. */
function readableUnits(): DiscoveredUnit[] {
	const roots = [join(store, 'Code', 'User'), join(store, 'Code - Insiders', 'User'), rewinds];
	return roots.flatMap(root => vscodeAdapter.discover(root).map(wholeUnit)).filter(unit => {
		try {
			vscodeAdapter.loadSession(unit);
			return true;
		} catch {
			return false;
		}
	});
}

/** A whole load's row as rowsOnLines promises it: less the events other lines decide. */
function withoutOtherLinesState(row: SessionRow): SessionRow {
	return {line: row.line, raw: row.raw, events: row.events.filter(event => event.kind !== 'meta' && event.rewound_from === undefined)};
}

test('vscode rowsOnLines: each line, and a few together, give the rows a whole load gives, snapshots and replayed logs alike', () => {
	const units = readableUnits();
	assert.ok(units.some(unit => unit.path.endsWith('.jsonl')) && units.some(unit => unit.path.endsWith('.json')), 'both forms are covered');
	let compared = 0;
	let rewound = 0;
	for (const unit of units) {
		const whole = vscodeAdapter.loadSession(unit).rows;
		const last = whole.at(-1)?.line ?? 0;
		for (let line = 1; line <= last + 1; line++) {
			const expected = whole.filter(row => row.line === line).map(withoutOtherLinesState);
			assert.deepEqual(vscodeAdapter.rowsOnLines!(unit, new Set([line])), expected, `${unit.path}:${line}`);
			compared += expected.length;
		}

		rewound += whole.some(row => row.events.some(event => event.rewound_from !== undefined)) ? 1 : 0;
		// Lines asked for out of order come back in line order; a line with no request gives no row.
		const chosen = new Set([last, 1, last + 5, 0]);
		assert.deepEqual(
			vscodeAdapter.rowsOnLines!(unit, chosen),
			whole.filter(row => chosen.has(row.line)).map(withoutOtherLinesState),
			`${unit.path}: lines ${[...chosen].join(',')}`,
		);
	}

	assert.ok(compared >= 8, `rows compared: ${compared}`);
	assert.ok(rewound >= 1, 'a log whose truncated request follows the live ones is covered');
});

test('vscode rowsOnLines: a skipped request has no row, and a document that cannot be read is undefined, never an exception', t => {
	const directory = tempDir(t);
	const snapshot = join(directory, 'mixed.json');
	writeFileSync(snapshot, JSON.stringify({version: 3, requests: [{requestId: 'r1', message: {text: 'first'}, response: [{value: 'one'}]}, 'not a request', {requestId: 'r3', message: 'third', response: []}]}));
	const unit = looseUnit(snapshot, {variant: 'snapshot'});
	assert.deepEqual(vscodeAdapter.loadSession(unit).rows.map(row => row.line), [1, 3]);
	assert.deepEqual(vscodeAdapter.rowsOnLines!(unit, new Set([2])), [], 'request 2 is skipped by a whole load too');
	assert.deepEqual(
		vscodeAdapter.rowsOnLines!(unit, new Set([1, 2, 3]))?.map(row => row.line),
		[1, 3],
	);

	const broken: Array<[string, string]> = [
		['torn.json', '{"requests": [{"message": "half'],
		['list.json', '[1, 2, 3]'],
		['no-initial.jsonl', '{"kind":1,"k":["customTitle"],"v":"x"}\n'],
		['deep.json', `{"requests": [${'['.repeat(5000)}${']'.repeat(5000)}]}`],
	];
	for (const [name, text] of broken) {
		const path = join(directory, name);
		writeFileSync(path, text);
		const brokenUnit = looseUnit(path);
		assert.throws(() => vscodeAdapter.loadSession(brokenUnit), `${name}: a whole load reports it`);
		assert.equal(vscodeAdapter.rowsOnLines!(brokenUnit, new Set([1])), undefined, `${name}: left to the whole load`);
	}
});
