import assert from 'node:assert/strict';
import {appendFileSync, chmodSync, mkdirSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {runCli, sandboxEnv} from './helpers/cli.js';
import {runCliAsNobody} from './helpers/faults.js';
import {buildFixtureHome} from './fixtures/home.js';
import {makeKb, type KbSandbox} from './helpers/kb.js';
import {tempDir} from './helpers/temp.js';

type Reason = {code: string; detail: string; count: number | null; subject: string | null};
const codes = (reasons: Reason[]) => reasons.map(reason => reason.code);

function seed(kb: KbSandbox) {
	kb.ok(['graph', 'node', '--id', 'project:shop', '--kind', 'Project', '--label', 'Web shop']);
	kb.ok(['graph', 'node', '--id', 'task:csv', '--kind', 'Task', '--label', 'CSV export of orders', '--status', 'open']);
	kb.ok(['graph', 'relate', '--from', 'task:csv', '--edge', 'BELONGS_TO', '--to', 'project:shop']);
}

/** A knowledge base only root may read: `nobody` cannot open its journal, so no index can be built. */
function lockedFromNobody(kb: KbSandbox) {
	chmodSync(kb.base, 0o755);
	for (const directory of [kb.root, join(kb.root, '.engi')]) {
		chmodSync(directory, 0o755);
	}

	chmodSync(kb.journal, 0o600);
}

test('query and project: ok, empty and degraded are told apart by typed reasons', t => {
	const kb = makeKb(t);
	assert.deepEqual([kb.ok(['project']).state, kb.ok(['query', '--q', 'csv']).state], ['empty', 'empty'], 'nothing recorded, everything looked at');
	seed(kb);
	const found = kb.ok(['query', '--q', 'csv']);
	assert.deepEqual([found.state, found.reasons], ['ok', []]);
	assert.deepEqual([kb.ok(['project']).state, kb.ok(['project', 'project:shop', '--view', 'full']).state], ['ok', 'ok']);
	appendFileSync(kb.journal, '{"torn": \n');
	kb.ok(['graph', 'node', '--id', 'task:later', '--kind', 'Task', '--label', 'later']);
	for (const answer of [kb.ok(['query', '--q', 'csv']), kb.ok(['query', '--q', 'nothing-like-this']), kb.ok(['project']), kb.ok(['project', '--view', 'evidence'])]) {
		assert.equal(answer.state, 'degraded', 'a quarantined line makes every answer partial, found or not');
		assert.deepEqual(answer.reasons, [{code: 'quarantined_lines', detail: '1 journal line(s) are in quarantine and were not searched', count: 1, subject: null}]);
	}

	assert.match(kb.run(['project', '--format', 'human']).stdout, /^degraded \(quarantined_lines: 1 journal line\(s\) are in quarantine and were not searched\): 2 recorded tasks/);
});

test('query and project: an index that cannot be opened is unavailable (exit 2), never an empty answer', t => {
	const kb = makeKb(t);
	seed(kb);
	lockedFromNobody(kb);
	const query = runCliAsNobody(t, ['query', '--q', 'csv', '--root', kb.root, '--format', 'json'], {env: kb.env});
	if (!query) {
		return;
	}

	assert.equal(query.code, 2, query.stderr);
	const answer = query.json();
	assert.deepEqual([answer.state, answer.total, codes(answer.reasons)], ['unavailable', 0, ['index_unavailable']]);
	assert.match(answer.reasons[0].detail, /EACCES/);
	for (const view of ['brief', 'evidence', 'full']) {
		const project = runCliAsNobody(t, ['project', 'project:shop', '--view', view, '--root', kb.root, '--format', 'json'], {env: kb.env})!;
		assert.equal(project.code, 2, `${view}: ${project.stderr}`);
		assert.deepEqual([project.json().state, codes(project.json().reasons)], ['unavailable', ['index_unavailable']], view);
	}

	const human = runCliAsNobody(t, ['query', '--q', 'csv', '--root', kb.root, '--format', 'human'], {env: kb.env})!;
	assert.match(human.stdout, /^unavailable \(index_unavailable: the index could not be opened: .*EACCES.*\): 0 matches/);
});

test('sessions --q: a session that could not be parsed makes the search degraded, with its count; the listing is ok', {timeout: 120_000}, t => {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	buildFixtureHome(env);
	const cwd = join(base, 'elsewhere');
	mkdirSync(cwd, {recursive: true});
	const searched = runCli(['sessions', '--all-projects', '--q', 'CRLF', '--format', 'json'], {env, cwd}).json();
	assert.deepEqual([searched.state, searched.total], ['degraded', 1]);
	assert.deepEqual(searched.reasons.map((reason: Reason) => [reason.code, reason.count]), [['session_unreadable', 1]]);
	const listed = runCli(['sessions', '--all-projects', '--format', 'json'], {env, cwd}).json();
	assert.deepEqual([listed.state, listed.reasons], ['ok', []], 'a listing shows the broken session with its error: nothing is missing from it');
	assert.ok(listed.sessions.some((session: {error: string | null}) => session.error !== null));
});
