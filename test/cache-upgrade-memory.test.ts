import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {statSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {repoRoot} from './helpers/cli.js';
import {tempDir} from './helpers/temp.js';

/**
 * A cache of another schema (an older engi's catalog) is dropped and made again. Dropping a table
 * visits every page of it; through the memory map every engi cache is opened with, those pages
 * counted toward the process's resident memory: an L catalog upgraded from the previous schema
 * peaked at 338 MB, where a new one takes 203 MB. Each step runs in a process of its own, so its
 * peak RSS is its own.
 */
const sqlite = JSON.stringify(join(repoRoot, 'source/lib/sqlite.ts'));

function run(script: string): string {
	const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {cwd: repoRoot, encoding: 'utf8'});
	assert.equal(result.status, 0, result.stderr);
	return result.stdout.trim();
}

test('a cache of an older schema is recreated without mapping its old pages into memory', t => {
	const path = join(tempDir(t), 'old.sqlite');
	// An old cache: a full-text index of ~50 MB (dropping one is what touched every page), its
	// schema version one this build does not know. Mapped, the drop raised peak RSS by ~65 MB.
	run(`
		import {openDatabase} from ${sqlite};
		const db = openDatabase(${JSON.stringify(path)});
		db.exec('CREATE VIRTUAL TABLE words USING fts5(text)');
		const insert = db.prepare('INSERT INTO words (text) VALUES (?)');
		let seed = 7;
		const word = () => (seed = (seed * 48271) % 2147483647).toString(36);
		db.transaction(() => { for (let i = 0; i < 2560; i++) insert.run(Array.from({length: 1000}, word).join(' ')); })();
		db.pragma('user_version = 3');
		db.pragma('wal_checkpoint(TRUNCATE)');
		db.close();
	`);
	const oldBytes = statSync(path).size;
	assert.ok(oldBytes > 40 * 1024 * 1024, `the old cache holds ${oldBytes} bytes`);
	const [before, after, version, tables, mapped] = run(`
		import {migrate, openDatabase, schemaVersion} from ${sqlite};
		const db = openDatabase(${JSON.stringify(path)});
		db.prepare('SELECT 1').get();
		const before = process.resourceUsage().maxRSS;
		migrate(db, [{version: 4, up: db => db.exec('CREATE TABLE fresh (id INTEGER PRIMARY KEY)')}]);
		const after = process.resourceUsage().maxRSS;
		const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all().join(',');
		console.log(before, after, schemaVersion(db), tables, db.pragma('mmap_size', {simple: true}));
	`).split(' ');
	assert.equal(version, '4');
	assert.equal(tables, 'fresh', 'the old table is gone, the new one made');
	assert.equal(mapped, '268435456', 'the memory map is back for the cache\'s own use');
	const grownMegabytes = (Number(after) - Number(before)) / 1024;
	assert.ok(grownMegabytes < 32, `dropping a ${Math.round(oldBytes / 1024 / 1024)} MB index raised peak RSS by ${grownMegabytes.toFixed(0)} MB`);
});
