import assert from 'node:assert/strict';
import {existsSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {openQueueCache} from '../source/engine/candidates/queue-cache.js';
import {readQueue} from '../source/engine/candidates/queue.js';
import {buildFixtureHome} from './fixtures/home.js';
import {makeKb, type KbSandbox} from './helpers/kb.js';

/** A knowledge base with every fixture session harvested, and where its queue cache lives. */
function harvested(t: Parameters<typeof makeKb>[0]): {kb: KbSandbox; folder: string; cacheFolder: string} {
	const kb = makeKb(t);
	buildFixtureHome(kb.env);
	const result = kb.run(['candidates', 'harvest', '--all-projects', '--since', '2020-01-01', '--consent', '--format', 'json']);
	assert.equal(result.code, 0, result.stderr);
	return {kb, folder: join(kb.root, '00-inbox', 'candidates'), cacheFolder: join(kb.env.XDG_CACHE_HOME!, 'engi', 'candidates')};
}

/** Later than any file of the test, so no note counts as just written (the racy window). */
const later = () => Date.now() + 60_000;
const cacheAt = (folder: string) => join(folder, 'queue.json');

test('the queue read through its cache is the queue read from the notes, whether the cache is fresh, full, missing or damaged', async t => {
	const {kb, folder, cacheFolder} = harvested(t);
	await new Promise(resolve => setTimeout(resolve, 2100)); // Past the racy window of the notes just written.
	const again = kb.run(['candidates', 'harvest', '--all-projects', '--since', '2020-01-01', '--format', 'json']);
	assert.equal(again.code, 0, again.stderr);
	assert.ok(again.json().counts.unchanged > 5, 'the re-run recognised the sessions it harvested');
	assert.equal(readdirSync(cacheFolder).filter(name => name.endsWith('.json')).length, 1, 'the harvest keeps its cache in engi\'s cache directory');

	const truth = await readQueue(folder);
	const cache = cacheAt(kb.base);
	assert.deepEqual(await readQueue(folder, openQueueCache(cache, folder, later())), truth, 'built from nothing');
	assert.ok(existsSync(cache));
	assert.deepEqual(await readQueue(folder, openQueueCache(cache, folder, later())), truth, 'answered from the cache');
	writeFileSync(cache, '{"version":1,"folder":');
	assert.deepEqual(await readQueue(folder, openQueueCache(cache, folder, later())), truth, 'a damaged cache is rebuilt');
	assert.equal(JSON.parse(readFileSync(cache, 'utf8')).version, 1);

	// Deleting every derived file changes nothing: the same harvest, the same queue.
	rmSync(cacheFolder, {recursive: true});
	const rebuilt = kb.run(['candidates', 'harvest', '--all-projects', '--since', '2020-01-01', '--format', 'json']);
	assert.deepEqual(rebuilt.json().counts, again.json().counts);
});

test('a note changed in place is read again even when its size and mtime are put back; one written just now is not kept', async t => {
	const {folder, kb} = harvested(t);
	const cache = cacheAt(kb.base);
	const name = readdirSync(folder).find(file => file.endsWith('.md'))!;
	const file = join(folder, name);
	const second = Math.floor(Date.now() / 1000) - 3600; // A whole second: utimes puts it back exactly.
	utimesSync(file, second, second);
	const before = (await readQueue(folder, openQueueCache(cache, folder, later()))).notes.find(note => note.ref === name.slice(0, -3))!;
	assert.ok(before.summary, 'the note has a summary');
	const entry = openQueueCache(cache, folder, later()).summary(name, statSync(file));
	assert.deepEqual(entry?.summary, before.summary, 'the cache holds what was read');

	// Same length, same mtime, another transcript state: only the ctime tells.
	const stats = statSync(file);
	const text = readFileSync(file, 'utf8');
	assert.ok(text.includes(`source_fingerprint: ${JSON.stringify(before.summary.source_fingerprint)}`));
	const old = before.summary.source_fingerprint;
	const changed = old.slice(0, -1) + (old.endsWith('0') ? '1' : '0');
	writeFileSync(file, text.replace(`source_fingerprint: ${JSON.stringify(old)}`, `source_fingerprint: ${JSON.stringify(changed)}`));
	utimesSync(file, second, second);
	assert.equal(statSync(file).size, stats.size);
	assert.equal(statSync(file).mtimeMs, stats.mtimeMs);
	const after = (await readQueue(folder, openQueueCache(cache, folder, later()))).notes.find(note => note.ref === name.slice(0, -3))!;
	assert.equal(after.summary?.source_fingerprint, changed, 'the rewritten note was read again');

	// Written within the racy window: read, but not remembered, so the next call reads it too.
	writeFileSync(file, text);
	await readQueue(folder, openQueueCache(cache, folder, Date.now()));
	assert.equal(openQueueCache(cache, folder).summary(name, statSync(file)), undefined, 'a note written just now is not cached');
});

test('the cache is what answers when the file state matches (the checks above can fail)', async t => {
	const {folder, kb} = harvested(t);
	const cache = cacheAt(kb.base);
	await readQueue(folder, openQueueCache(cache, folder, later()));
	const data = JSON.parse(readFileSync(cache, 'utf8')) as {notes: Record<string, [number, number, number, number, {status: string}]>};
	const [name, entry] = Object.entries(data.notes)[0]!;
	entry[4].status = entry[4].status === 'rejected' ? 'pending' : 'rejected';
	writeFileSync(cache, JSON.stringify(data));
	const queue = await readQueue(folder, openQueueCache(cache, folder, later()));
	assert.equal(queue.notes.find(note => note.ref === name.slice(0, -3))?.summary?.status, entry[4].status, 'an entry matching the file\'s state is taken as it is');
});
