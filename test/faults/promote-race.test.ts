// Two promotions of one candidate, the first stopped after it read the note
// (ENGI_TEST_PAUSE_AT=promote.after_read) while the second runs to the end: the first must be
// refused with candidate_changed having written nothing, neither journal events nor an
// `imported` checkpoint (it used to append a second checkpoint before failing on the note).
import assert from 'node:assert/strict';
import {mkdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import test, {type TestContext} from 'node:test';
import {writeClaudeTranscript} from '../helpers/claude-transcript.js';
import {requireProc, startCli, waitStopped} from '../helpers/faults.js';
import {makeKb} from '../helpers/kb.js';

function harvested(t: TestContext) {
	const kb = makeKb(t);
	const project = join(kb.base, 'shop');
	mkdirSync(join(project, '.git'), {recursive: true});
	const id = 'c0ffee00-0000-4000-8000-0000000000c1';
	writeClaudeTranscript(kb.env['HOME']!, {id, cwd: project}, [{user: 'fix the cart total'}, {assistant: 'Fixed it.'}]);
	const harvest = kb.run(['candidates', 'harvest', '--consent', '--format', 'json'], {cwd: project});
	assert.equal(harvest.code, 0, harvest.stderr);
	return {kb, project, ref: `claude-${id}`, checkpoints: join(project, '.engi', 'checkpoints.jsonl')};
}

test('the loser of two racing promotes of one candidate writes nothing: one batch, one imported checkpoint', {timeout: 90_000}, async t => {
	if (!requireProc(t)) {
		return;
	}

	const {kb, project, ref, checkpoints} = harvested(t);

	const first = startCli(['candidates', 'promote', ref, '--format', 'json'], {env: {...kb.env, ENGI_TEST_PAUSE_AT: 'promote.after_read'}, cwd: project});
	t.after(() => first.kill('SIGKILL'));
	await waitStopped(first.pid);
	const second = kb.run(['candidates', 'promote', ref, '--format', 'json'], {cwd: project});
	assert.equal(second.code, 0, second.stderr);
	const journal = readFileSync(kb.journal, 'utf8');
	const written = readFileSync(checkpoints, 'utf8');
	assert.equal(written.trim().split('\n').length, 1);

	first.kill('SIGCONT');
	const result = await first.done;
	assert.equal(result.code, 1, result.stdout);
	assert.equal(result.error().code, 'candidate_changed', result.stderr);
	assert.equal(readFileSync(kb.journal, 'utf8'), journal, 'no journal line from the loser');
	assert.equal(readFileSync(checkpoints, 'utf8'), written, 'no checkpoint from the loser');
});

test('a promote killed after its checkpoint, before the note, and run again: one journal batch, one imported checkpoint', {timeout: 90_000}, async t => {
	if (!requireProc(t)) {
		return;
	}

	const {kb, project, ref, checkpoints} = harvested(t);
	const killed = startCli(['candidates', 'promote', ref, '--format', 'json'], {env: {...kb.env, ENGI_TEST_PAUSE_AT: 'promote.before_note'}, cwd: project});
	await waitStopped(killed.pid);
	killed.kill('SIGKILL');
	await killed.done;
	const journal = readFileSync(kb.journal, 'utf8');
	assert.equal(readFileSync(checkpoints, 'utf8').trim().split('\n').length, 1, 'the checkpoint was written before the kill');

	const again = kb.run(['candidates', 'promote', ref, '--format', 'json'], {cwd: project});
	assert.equal(again.code, 0, again.stderr);
	assert.equal(again.json().events.appended, 0);
	assert.equal(readFileSync(kb.journal, 'utf8'), journal, 'the batch is in the journal once');
	assert.equal(readFileSync(checkpoints, 'utf8').trim().split('\n').length, 1, 'the imported checkpoint is not recorded twice');
	assert.equal(kb.ok(['candidates', 'list', '--status', 'promoted']).candidates.length, 1);
});
