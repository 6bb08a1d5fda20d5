import assert from 'node:assert/strict';
import {mkdirSync, statSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import Database from 'better-sqlite3';
import {catalogMigrations} from '../source/engine/catalog/schema.js';
import {runCli, sandboxEnv} from './helpers/cli.js';
import {buildFixtureHome} from './fixtures/home.js';
import {tempDir} from './helpers/temp.js';

test('catalog: one written by another version is rebuilt on the next call, and its old pages are given back', t => {
	const env = sandboxEnv(tempDir(t));
	buildFixtureHome(env);
	const directory = join(env['XDG_CACHE_HOME']!, 'engi');
	const path = join(directory, 'catalog.sqlite');
	mkdirSync(directory, {recursive: true});
	const old = new Database(path);
	old.exec('CREATE TABLE units (key TEXT PRIMARY KEY, junk BLOB); CREATE TABLE text_docs (rowid INTEGER PRIMARY KEY, key TEXT, line INTEGER)');
	const insert = old.prepare('INSERT INTO units (key, junk) VALUES (?, ?)');
	for (let index = 0; index < 200; index++) {
		insert.run(`stale-${index}`, Buffer.alloc(20_000, index));
	}

	old.pragma('user_version = 9');
	old.close();
	const bloated = statSync(path).size;
	assert.ok(bloated > 4_000_000);

	const listed = runCli(['sessions', '--all-projects', '--format', 'json'], {env});
	assert.equal(listed.code, 0, listed.stderr);
	const output = listed.json();
	assert.ok(output.total > 0);
	assert.deepEqual(
		output.warnings.filter((warning: string) => warning.startsWith('catalog_')),
		[],
	);

	const upgraded = new Database(path, {readonly: true});
	t.after(() => upgraded.close());
	assert.equal(upgraded.pragma('user_version', {simple: true}), catalogMigrations.at(-1)!.version);
	assert.equal(upgraded.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'text_docs'").pluck().get(), 0);
	assert.equal(upgraded.prepare("SELECT count(*) FROM units WHERE key LIKE 'stale-%'").pluck().get(), 0);
	assert.ok(statSync(path).size < bloated / 2, `the file shrank from ${bloated} bytes to ${statSync(path).size}`);
});
