import assert from 'node:assert/strict';
import {appendFileSync, mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {openCatalogView} from '../source/engine/catalog/view.js';
import type {Deps} from '../source/engine/deps.js';
import {sandboxEnv} from './helpers/cli.js';
import {tempDir} from './helpers/temp.js';

const sessionId = 'map00000-0000-4000-8000-000000000001';

function line(index: number): string {
	const common = {parentUuid: index === 0 ? null : `u${index - 1}`, isSidechain: false, cwd: '/src/map', sessionId, uuid: `u${index}`, timestamp: new Date(Date.UTC(2026, 10, 2, 0, 0, index % 60)).toISOString()};
	return JSON.stringify(
		index % 2 === 0
			? {...common, type: 'user', message: {role: 'user', content: `request ${index} about the parser`}}
			: {...common, type: 'assistant', message: {id: `msg-${index}`, role: 'assistant', content: [{type: 'text', text: `reply ${index}`}]}},
	);
}

/** How many units the refresh read, and the memory map (bytes) the view's connection reads the catalog through after it. */
async function mapAfterRefresh(deps: Deps): Promise<{scanned: number; map: number}> {
	const view = await openCatalogView({allProjects: true}, deps);
	try {
		return {scanned: view.report.scanned, map: view.db.pragma('mmap_size', {simple: true}) as number};
	} finally {
		view.close();
	}
}

test('a refresh that wrote more than one batch reads the catalog without its memory map for the rest of the call; one that wrote one batch maps it again', async t => {
	const env = sandboxEnv(tempDir(t));
	const directory = join(env['HOME']!, '.claude', 'projects', '-src-map');
	mkdirSync(directory, {recursive: true});
	const path = join(directory, `${sessionId}.jsonl`);
	// ~9,000 documents: the writer commits every 4,096, so the cold build writes three batches.
	writeFileSync(path, Array.from({length: 9000}, (_, index) => line(index)).join('\n') + '\n');
	const deps: Deps = {env, cwd: env['HOME']!, now: () => new Date('2026-11-03T00:00:00Z'), platform: process.platform};

	const cold = await mapAfterRefresh(deps);
	assert.equal(cold.scanned, 1);
	assert.equal(cold.map, 0, 'the listing after a cold build of several batches reads with pread, so its pages do not stay resident');
	appendFileSync(path, line(9000) + '\n');
	const grown = await mapAfterRefresh(deps);
	assert.equal(grown.scanned, 1, 'the grown session is read again');
	assert.ok(grown.map > 0, 'a call that wrote one batch reads the catalog mapped again');
	const unchanged = await mapAfterRefresh(deps);
	assert.equal(unchanged.scanned, 0);
	assert.ok(unchanged.map > 0, 'a call that wrote nothing keeps the map');
});
