import assert from 'node:assert/strict';
import {appendFileSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {prepareEvents, serializeEvent} from '../source/engine/journal/append.js';
import {requireProc, startCli, waitStopped} from './helpers/faults.js';
import {makeKb, type KbSandbox} from './helpers/kb.js';

const dayMs = 24 * 3600 * 1000;

/** Appends one node observed `days` ago (the CLI always writes "now"). */
function nodeAged(kb: KbSandbox, days: number, payload: Record<string, unknown>): void {
	appendFileSync(kb.journal, prepareEvents([{op: 'node.upsert', payload: {provenance: 'test', ...payload}}], new Date(Date.now() - days * dayMs)).map(event => serializeEvent(event)).join(''));
}

type Step = {step: number; name: string; status: string; counts: Record<string, number>; appended: number};
const byName = (steps: Step[]) => Object.fromEntries(steps.map(step => [step.name, step])) as Record<'decay' | 'lifecycle' | 'entities' | 'trivia' | 'wiki_sync' | 'archive' | 'co_occurrence', Step>;
const lines = (kb: KbSandbox) => readFileSync(kb.journal, 'utf8').split('\n').filter(Boolean).map(line => JSON.parse(line) as {op: string; payload: Record<string, unknown>});

function seed(kb: KbSandbox) {
	nodeAged(kb, 1, {id: 'note:standup', kind: 'Note', label: 'Standup with [[Ana Silva]] and [[Bo Chen]] about the [[Release]] plan'});
	nodeAged(kb, 2, {id: 'note:review', kind: 'Note', label: 'Review of the [[Release]] checklist with [[Ana Silva]] and the whole team'});
	nodeAged(kb, 200, {id: 'note:old', kind: 'Note', label: 'the release branch is cut on fridays at noon'});
	nodeAged(kb, 3, {id: 'note:ok', kind: 'Note', label: 'ok thanks'});
	mkdirSync(join(kb.root, '02-wiki'), {recursive: true});
	writeFileSync(join(kb.root, '02-wiki', 'release.md'), '# Release\n\nHow we cut a release.\n');
}

test('dream: entities, trivia, wiki sync, archive marks and co-occurrence edges; a second run appends nothing', t => {
	const kb = makeKb(t);
	seed(kb);
	const dry = kb.ok(['dream', '--dry-run']);
	assert.equal(dry.dry_run, true);
	assert.deepEqual(byName(dry.steps).wiki_sync.status, 'skipped', 'wiki sync writes, so a dry run leaves it out');
	assert.equal(lines(kb).length, 4, 'a dry run appends nothing');
	const wouldAppend = dry.appended;

	const run = kb.ok(['dream']);
	const steps = byName(run.steps);
	assert.deepEqual(run.steps.map((step: Step) => [step.step, step.status]), [[1, 'done'], [2, 'done'], [3, 'done'], [4, 'done'], [5, 'done'], [6, 'done'], [7, 'done']]);
	assert.deepEqual(steps.entities.counts, {entities: 3, mentions: 5});
	assert.deepEqual(steps.trivia.counts, {nodes: 7, trivia: 1}, 'four notes and three entities; only "ok thanks" says nothing');
	assert.equal(steps.wiki_sync.counts.new, 1);
	assert.deepEqual([steps.archive.counts, steps.archive.appended], [{archived: 1}, 1]);
	assert.deepEqual(steps.co_occurrence.counts, {pairs: 3});
	assert.deepEqual(steps.lifecycle.counts, {active: 3, validated: 0, stale: 0, archived: 1});
	// A dry run looks at the graph as it stands: step 7 cannot see the mentions step 3 would add.
	assert.equal(byName(dry.steps).co_occurrence.appended, 0);
	assert.equal(run.appended, wouldAppend + steps.wiki_sync.appended + steps.co_occurrence.appended, 'the dry run counted what steps 3 and 6 append');
	const journal = lines(kb);
	assert.ok(journal.filter(line => line.payload['provenance'] === 'engi dream').length === run.appended - steps.wiki_sync.appended, 'what dream appends carries its provenance');
	assert.deepEqual(journal.filter(line => line.payload['type'] === 'CO_OCCURS_WITH').map(line => [line.payload['from'], line.payload['to']]), [
		['entity:ana-silva', 'entity:bo-chen'],
		['entity:ana-silva', 'entity:release'],
		['entity:bo-chen', 'entity:release'],
	]);
	const mark = journal.find(line => line.payload['id'] === 'archive:note:old')!;
	assert.deepEqual([mark.payload['kind'], mark.payload['target']], ['ArchiveMark', 'note:old']);

	const hits = kb.ok(['query', '--q', 'release', '--view', 'hits']);
	assert.ok(!hits.hits.some((hit: {node_id: string}) => hit.node_id === 'note:old' || hit.node_id.startsWith('archive:')), 'the archived note and its mark are not results');
	assert.equal(hits.archived_hidden, 1);
	assert.ok(hits.hits.some((hit: {node_id: string}) => hit.node_id === 'entity:release'));

	// The mark is truth: a config under which the note would not have faded keeps it archived…
	kb.ok(['config', 'set', 'memory.fact.half_life_days', '5000']);
	kb.ok(['config', 'set', 'memory.fact.ttl_days', 'none']);
	assert.equal(kb.ok(['query', '--q', 'fridays', '--include-archived', '--view', 'hits']).hits[0].factors.lifecycle, 'archived');
	const before = readFileSync(kb.journal);
	const again = kb.ok(['dream']);
	assert.deepEqual([again.appended, again.resumed], [0, false], 'nothing new: nothing appended');
	assert.deepEqual(readFileSync(kb.journal), before);
	// …until the note is recorded again.
	kb.ok(['graph', 'node', '--id', 'note:old', '--kind', 'Note', '--label', 'the release branch is cut on fridays at noon', '--provenance', 'test', '--status', 'confirmed']);
	assert.equal(kb.ok(['query', '--q', 'fridays', '--view', 'hits']).hits[0].node_id, 'note:old');
});

test('dream: a run killed between steps resumes after the last finished step, at the same moment', {timeout: 60_000}, async t => {
	if (!requireProc(t)) {
		return;
	}

	const kb = makeKb(t);
	seed(kb);
	const first = startCli(['dream', '--format', 'json'], {env: {...kb.env, ENGI_TEST_PAUSE_AT: 'dream-after-step-3'}});
	await waitStopped(first.pid);
	first.kill('SIGKILL');
	await first.done;
	const afterKill = lines(kb).length;
	assert.ok(lines(kb).some(line => line.payload['id'] === 'entity:release'), 'step 3 was written before the kill');
	assert.ok(!lines(kb).some(line => line.payload['kind'] === 'ArchiveMark'), 'step 6 had not run');

	const resumed = kb.ok(['dream']);
	assert.equal(resumed.resumed, true);
	assert.deepEqual(resumed.steps.map((step: Step) => step.status), ['already_done', 'already_done', 'already_done', 'done', 'done', 'done', 'done']);
	assert.ok(lines(kb).length > afterKill);
	assert.deepEqual(byName(resumed.steps).archive.counts, {archived: 1});
	const next = kb.ok(['dream']);
	assert.deepEqual([next.resumed, next.appended], [false, 0], 'a finished run leaves nothing to resume');
});

test('dream: --steps takes a range or a list of 1-7', t => {
	const kb = makeKb(t);
	seed(kb);
	const some = kb.ok(['dream', '--steps', '1,3-4']);
	assert.deepEqual(some.steps.map((step: Step) => step.status), ['done', 'skipped', 'done', 'done', 'skipped', 'skipped', 'skipped']);
	for (const steps of ['8', '0-2', '3-1', 'all']) {
		const result = kb.run(['dream', '--steps', steps, '--format', 'json']);
		assert.equal(result.code, 1);
		assert.equal(result.error().code, 'invalid_steps', steps);
	}
});
