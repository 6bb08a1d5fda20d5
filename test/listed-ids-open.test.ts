import assert from 'node:assert/strict';
import {existsSync, readdirSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {sourceIds} from '../source/adapters/types.js';
import {sharedStores} from './helpers/adapters.js';
import {runCli, sandboxEnv} from './helpers/cli.js';
import {buildFixtureHome} from './fixtures/home.js';
import {tempDir} from './helpers/temp.js';

type Listed = {id: string; source: string; path: string; error: string | null};

/**
 * Every session (subagents too) a listing prints, then each opened by exactly the id it printed.
 * A session listed with its read error is found by that id and refused as corrupt, never "not found".
 */
function assertEveryListedIdOpens(run: (args: string[]) => ReturnType<typeof runCli>, store?: {source: string; root: string}): Listed[] {
	const listing = run(['sessions', '--all-projects', '--subagents', '--limit', '500', ...(store ? ['--source', store.source, '--source-root', store.root] : [])]);
	assert.equal(listing.code, 0, listing.stderr);
	const listed = listing.json().sessions as Listed[];
	for (const session of listed) {
		const read = run(['read', session.id, '--source', session.source, '--limit', '1', ...(store ? ['--source-root', store.root] : [])]);
		if (session.error !== null) {
			assert.equal(read.error().code, 'session_corrupt', `${session.source} ${session.id} is listed as unreadable: ${read.stderr}`);
			continue;
		}

		assert.equal(read.code, 0, `${session.source} ${session.id} (${session.path}) is listed but does not open: ${read.stderr}`);
		assert.equal(read.json().session_id.toLowerCase(), session.id.toLowerCase());
		assert.equal(read.json().source_path, session.path);
	}

	return listed;
}

test('every id `sessions` lists for the own fixture stores opens with `read <id> --source <source>`', t => {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	buildFixtureHome(env);
	const listed = assertEveryListedIdOpens(args => runCli([...args, '--format', 'json'], {env}));
	assert.deepEqual([...new Set(listed.map(session => session.source))].sort(), [...sourceIds].sort(), 'every source has listed sessions');
	assert.ok(listed.every(session => !session.id.includes('/')), 'no path is ever an id');
});

test('every id `sessions` lists for the shared third-party fixtures opens too', t => {
	if (!existsSync(sharedStores)) {
		t.skip('../shared/fixtures/stores is not present (a fresh clone has no ../shared); check skipped');
		return;
	}

	const base = tempDir(t);
	const env = sandboxEnv(base);
	let opened = 0;
	for (const source of readdirSync(sharedStores).filter(name => (sourceIds as readonly string[]).includes(name))) {
		const root = join(sharedStores, source);
		opened += assertEveryListedIdOpens(args => runCli([...args, '--format', 'json'], {env}), {source, root}).length;
	}

	assert.ok(opened > 0, 'the shared fixtures list some sessions');
});
