// Upkeep keeps derived state of its own in the index (wiki sync's held pages and its record of
// the last sync, dream's decay, lifecycle, trivia and the progress of a run), written after the
// journal append. When another process keeps the index locked past SQLite's busy timeout those
// writes fail typed, never with internal_error: wiki sync warns index_busy (its events are in the
// journal, the truth) and the next sync saves what this one could not; dream stops with the
// retryable error index_busy between steps, and the next run resumes at the step that could not
// save. Nothing is half-written, nothing is lost.
import assert from 'node:assert/strict';
import {appendFileSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {dirname, join} from 'node:path';
import test from 'node:test';
import Database from 'better-sqlite3';
import {prepareEvents, serializeEvent} from '../../source/engine/journal/append.js';
import type {CliResult} from '../helpers/cli.js';
import {requireProc, startCli, waitStopped} from '../helpers/faults.js';
import {makeKb, type KbSandbox} from '../helpers/kb.js';

/** Holds the index's write lock (BEGIN IMMEDIATE) from another connection until `release` is called. */
function lockIndex(kb: KbSandbox): {release(): void} {
	const holder = new Database(join(kb.root, '.engi', 'index.sqlite'));
	holder.exec('BEGIN IMMEDIATE');
	return {
		release() {
			holder.exec('COMMIT');
			holder.close();
		},
	};
}

function whileIndexLocked<T>(kb: KbSandbox, during: () => T): T {
	const lock = lockIndex(kb);
	try {
		return during();
	} finally {
		lock.release();
	}
}

function page(kb: KbSandbox, path: string, lines: readonly string[]): void {
	const file = join(kb.root, '02-wiki', path);
	mkdirSync(dirname(file), {recursive: true});
	writeFileSync(file, lines.join('\n') + '\n');
}

type Line = {op: string; payload: Record<string, unknown>};
const journal = (kb: KbSandbox): Line[] => readFileSync(kb.journal, 'utf8').split('\n').filter(Boolean).map(line => JSON.parse(line) as Line);
/** The warnings a command printed to stderr, one JSON line each. */
const stderrWarnings = (result: CliResult) => result.stderr.split('\n').filter(line => line.startsWith('{"warning"')).map(line => String(JSON.parse(line).warning));

test('wiki sync on an index another process keeps locked appends its events, warns index_busy instead of failing, and the next sync saves the held pages it could not', {timeout: 120_000}, t => {
	const kb = makeKb(t);
	page(kb, 'caching.md', ['---', 'id: wiki:caching', 'title: Caching policy', '---', 'We revalidate on read.']);
	assert.equal(kb.ok(['wiki', 'sync']).counts.new, 1);
	// A changed page (events to append) and a page conflict quarantine holds (index state only).
	page(kb, 'caching.md', ['---', 'id: wiki:caching', 'title: Caching policy', '---', 'We revalidate on read, and on write.']);
	page(kb, 'retries.md', ['---', 'id: wiki:retries', '---', 'parser retries', '<<<<<<< HEAD', 'ours', '=======', 'theirs', '>>>>>>> branch']);
	const result = whileIndexLocked(kb, () => kb.run(['wiki', 'sync', '--format', 'json']));
	assert.doesNotMatch(result.stderr, /internal_error/);
	assert.equal(result.code, 2, result.stderr); // A page is held.
	const output = result.json();
	assert.equal(output.schema, 'engi.wiki.sync.v1');
	assert.deepEqual(
		output.pages.map((entry: {node: string; status: string}) => [entry.node, entry.status]),
		[['wiki:caching', 'changed']],
	);
	assert.deepEqual(output.held.map((entry: {path: string}) => entry.path), ['retries.md']);
	assert.match(stderrWarnings(result).join('\n'), /^index_busy: .*index\.sqlite stayed locked by another process \(SQLITE_BUSY\); wiki sync's held pages and its record of this sync were not saved \(the journal has its events\): the next wiki sync saves them$/m);
	assert.ok(
		journal(kb).some(line => line.payload['id'] === 'wiki:caching' && String(line.payload['body']).includes('on write')),
		'the changed page is in the journal',
	);

	// Released: the next sync appends nothing more and saves what the busy one could not.
	const again = kb.run(['wiki', 'sync', '--format', 'json']);
	assert.equal(again.code, 2, again.stderr);
	assert.deepEqual([again.json().appended, again.json().held.map((entry: {path: string}) => entry.path), stderrWarnings(again)], [0, ['retries.md'], []]);
	const search = kb.ok(['query', '--q', 'revalidate', '--view', 'hits']);
	assert.deepEqual([search.state, search.reasons.map((reason: {code: string}) => reason.code)], ['degraded', ['quarantined_pages']], 'the held page is in the index now');
	assert.deepEqual(
		search.hits.map((hit: {node_id: string}) => hit.node_id),
		['wiki:caching'],
	);
});

test('dream on an index another process keeps locked fails typed (index_busy, retryable) and appends nothing', {timeout: 120_000}, t => {
	const kb = makeKb(t);
	kb.ok(['graph', 'node', '--id', 'note:standup', '--kind', 'Note', '--provenance', 'test', '--label', 'Standup with [[Ana Silva]] about the [[Release]] plan']);
	// A line the index has not read yet: dream's first look at the index must bring it up to date.
	appendFileSync(kb.journal, serializeEvent(prepareEvents([{op: 'node.upsert', payload: {id: 'note:review', kind: 'Note', label: 'Review of the [[Release]] checklist with [[Ana Silva]]', provenance: 'test'}}], new Date())[0]!));
	const before = readFileSync(kb.journal);
	const result = whileIndexLocked(kb, () => kb.run(['dream', '--format', 'json']));
	assert.equal(result.code, 1, result.stdout);
	const error = result.error();
	assert.equal(error.code, 'index_busy', JSON.stringify(error));
	assert.match(String(error.hint), /retry/);
	assert.deepEqual(readFileSync(kb.journal), before, 'nothing appended');
	const retried = kb.ok(['dream']);
	assert.deepEqual([retried.resumed, retried.steps.map((step: {status: string}) => step.status)], [false, ['done', 'done', 'done', 'done', 'done', 'done', 'done']]);
});

test('dream whose index another process locks between steps stops typed (index_busy) after the last step it saved, and the next run resumes there', {timeout: 120_000}, async t => {
	if (!requireProc(t)) {
		return;
	}

	const kb = makeKb(t);
	kb.ok(['graph', 'node', '--id', 'note:standup', '--kind', 'Note', '--provenance', 'test', '--label', 'Standup with [[Ana Silva]] and [[Bo Chen]] about the [[Release]] plan']);
	kb.ok(['graph', 'node', '--id', 'note:ok', '--kind', 'Note', '--provenance', 'test', '--label', 'ok thanks']);
	const first = startCli(['dream', '--format', 'json'], {env: {...kb.env, ENGI_TEST_PAUSE_AT: 'dream-after-step-3'}});
	t.after(() => first.kill('SIGKILL'));
	await waitStopped(first.pid);
	const written = journal(kb).length;
	assert.ok(journal(kb).some(line => line.payload['id'] === 'entity:release'), 'step 3 appended its entities');
	// Step 4 (trivia) saves derived state only: the lock makes that write wait past the timeout.
	const lock = lockIndex(kb);
	let result;
	try {
		first.kill('SIGCONT');
		result = await first.done;
	} finally {
		lock.release();
	}

	assert.equal(result.code, 1, result.stdout);
	assert.doesNotMatch(result.stderr, /internal_error/);
	assert.equal(result.error().code, 'index_busy', result.stderr);
	assert.match(result.error().message, /while it was to take dream's step 4 \(trivia\)/);
	assert.equal(journal(kb).length, written, 'no step after the lock appended anything');

	const resumed = kb.ok(['dream']);
	assert.equal(resumed.resumed, true);
	assert.deepEqual(resumed.steps.map((step: {status: string}) => step.status), ['already_done', 'already_done', 'already_done', 'done', 'done', 'done', 'done']);
	assert.deepEqual(resumed.steps[3].counts, {nodes: 5, trivia: 1}, 'two notes and three entities; "ok thanks" says nothing');
	assert.equal(journal(kb).filter(line => line.payload['id'] === 'entity:release').length, 1, 'step 3 was not appended twice');
	assert.equal(kb.ok(['dream']).resumed, false, 'the resumed run finished');
});
