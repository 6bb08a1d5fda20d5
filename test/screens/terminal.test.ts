import assert from 'node:assert/strict';
import {mkdirSync, utimesSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {cliPath, runCli, sandboxEnv} from '../helpers/cli.js';
import {buildFixtureHome, settle} from '../fixtures/home.js';
import {makeKb} from '../helpers/kb.js';
import {assertDeletionsRecorded, attestWithKnowledge, entriesUnder, journalNodes, longAgo} from '../helpers/retention.js';
import {distilledCandidate, fillReviewQueue, retentionAttested} from '../helpers/screens.js';
import {requireProc, waitStopped} from '../helpers/faults.js';
import {writeClaudeSession} from '../helpers/stores.js';
import {tempDir} from '../helpers/temp.js';
import {hasTmux, startTmux, type TmuxPane} from '../helpers/tmux.js';
import {contractWorld} from '../helpers/screens.js';
import type {QueryOutput} from '../../source/engine/knowledge/query-schema.js';

const skip = hasTmux() ? false : 'tmux is not installed (CI installs it in .ci/run; apt-get install tmux to run this test)';
const colourCode = /\u001B\[(?:[0-9;]*;)?(?:3[0-7]|9[0-7]|38;[25])[;m]/;

function world(t: Parameters<typeof tempDir>[0], extra: Record<string, string | undefined> = {}) {
	const base = tempDir(t);
	const env = sandboxEnv(base, extra);
	buildFixtureHome(env);
	return {env, cwd: join(env['HOME']!)};
}

function open(t: Parameters<typeof tempDir>[0], env: Record<string, string>, cwd: string, args: string, size = {columns: 100, rows: 30}): TmuxPane {
	const pane = startTmux(`node ${cliPath} ${args}`, {env, cwd, ...size});
	t.after(() => pane.kill());
	return pane;
}

test('real terminal: a morning in the dashboard, from stand-up to the printed resume commands', {skip, timeout: 120_000}, async t => {
	const {env, cwd} = world(t, {NO_COLOR: undefined, FORCE_COLOR: undefined});
	const pane = open(t, env, cwd, '--since 2026-11-01 --all-projects');
	let screen = await pane.waitFor(text => /since 2026-11-01 · 22 unfinished · checkpoints: 0 active, 0 blocked/.test(text), 'the stand-up with its counts');
	assert.match(screen, /1 Stand-up {2}2 Unfinished {2}3 Checkpoints {2}4 Project {2}5 Query {2}6 Pickup/);
	assert.match(screen, /\/work\/shop/, 'candidates are grouped under their project');
	assert.match(screen, /q quit/, 'the footer lists keys');
	assert.match(pane.capture(true), colourCode, 'a colour terminal gets colours');

	pane.send(['?']);
	screen = await pane.waitFor(text => text.includes('Keys —'), 'the help overlay');
	assert.match(screen, /shift\+tab/);
	pane.send(['?']);
	await pane.waitFor(text => !text.includes('Keys —'), 'the help overlay to close');

	pane.send(['2']);
	screen = await pane.waitFor(text => text.includes('22 of 22'), 'the unfinished list');
	assert.match(screen, /grok .*high/);
	pane.send(['/']);
	pane.send(['flaky'], true);
	screen = await pane.waitFor(text => text.includes('1 of 22'), 'the list filtered as the word is typed');
	assert.match(screen, /codex\s+medium Fix the flaky retry test in the HTTP client/);

	// Narrower terminal: the frame reflows to the new width instead of wrapping into garbage.
	pane.resize(70, 24);
	screen = await pane.waitFor(text => text.split('\n').some(line => line.startsWith('engi  1 Stand-up  2 Unfinished  3 Checkpoints  4 Project  5  6  7')) && !text.split('\n').some(line => line.length > 70), 'the frame to reflow to 70 columns');
	assert.match(screen, /1 of 22/);

	pane.resize(120, 30);
	await pane.waitFor(text => text.includes('1 of 22 · sort age · all sources · filter /flaky'), 'the frame to grow back to 120 columns');
	pane.send(['Enter']);
	pane.send(['Enter']);
	screen = await pane.waitFor(text => text.includes('pickup · codex 0195a1c2-0a00-7a00-8a00-00000000000a'), 'the pickup brief');
	assert.match(screen, /Tool failures/);
	pane.send(['Enter']);
	screen = await pane.waitFor(text => text.includes('[exited 0]'), 'the dashboard to leave');
	assert.match(screen, /codex resume 0195a1c2-0a00-7a00-8a00-00000000000a/, 'the native resume command is printed');
	assert.match(screen, /engi resume 0195a1c2-0a00-7a00-8a00-00000000000a --source codex/, 'and the engi resume command');
	assert.doesNotMatch(screen, /Stand-up {2}2 Unfinished/, 'the dashboard frame is gone from the screen');
});

test('real terminal: NO_COLOR gives a dashboard without colour codes; q quits cleanly', {skip, timeout: 60_000}, async t => {
	const {env, cwd} = world(t, {NO_COLOR: '1', FORCE_COLOR: undefined});
	const pane = open(t, env, cwd, 'unfinished --since 2026-11-01 --all-projects', {columns: 80, rows: 24});
	await pane.waitFor(text => text.includes('22 of 22'), 'the unfinished screen opened by its command');
	assert.doesNotMatch(pane.capture(true), colourCode);
	pane.send(['q']);
	await pane.waitFor(text => text.includes('[exited 0]'), 'q to quit');
});

test('real terminal: keys typed in one chunk act one by one, and a pickup opened empty shows the session chosen later', {skip, timeout: 120_000}, async t => {
	const {env, cwd} = world(t);
	const pane = open(t, env, cwd, '--since 2026-11-01 --all-projects', {columns: 80, rows: 24});
	await pane.waitFor(text => text.includes('since 2026-11-01 · 22 unfinished'), 'the stand-up');
	pane.send(['6']);
	await pane.waitFor(text => text.includes('No session chosen.'), 'the empty pickup');
	pane.send(['2']);
	await pane.waitFor(text => text.includes('22 of 22'), 'the unfinished list');
	pane.send(['jj'], true);
	const selected = (text: string) => text.split('\n').find(line => line.startsWith('›')) ?? '';
	let screen = await pane.waitFor(text => text.split('\n').indexOf(selected(text)) === 5, 'jj to move the cursor two rows');
	assert.match(selected(screen), /copilot\s+high\s+\(no request\)/);
	pane.send(['/']);
	pane.send(['flakx'], true);
	await pane.waitFor(text => text.includes('filter /flakx▏'), 'the filter typed in one chunk');
	pane.send(['BSpace', 'BSpace']);
	await pane.waitFor(text => text.includes('filter /fla▏'), 'two backspaces to erase two letters');
	pane.send(['ky', 'Enter', 'Enter']);
	screen = await pane.waitFor(text => text.includes('pickup · codex 0195a1c2-0a00-7a00-8a00-00000000000a'), 'the pickup of the filtered row, not a crash');
	assert.doesNotMatch(screen, /Cannot read properties/);
	pane.send(['q']);
	await pane.waitFor(text => text.includes('[exited 0]'), 'q to quit');
});

test('real terminal: engi query without --q opens the Query screen instead of an error', {skip, timeout: 60_000}, async t => {
	const {env, cwd} = world(t);
	const pane = open(t, env, cwd, 'query', {columns: 80, rows: 24});
	const screen = await pane.waitFor(text => text.includes('5 Query') && text.includes('q quit'), 'the Query screen');
	assert.doesNotMatch(screen, /needs --q|error/);
	assert.match(screen, /No knowledge base is configured\.|query: ▏/);
	pane.send(['q']);
	await pane.waitFor(text => text.includes('[exited 0]'), 'q to quit (no field has the keys without a knowledge base)');
});

test('real terminal: the Review screen, its cited turns and a promotion confirmed with y', {skip, timeout: 120_000}, async t => {
	const {env} = world(t);
	const kb = join(env['HOME']!, 'kb');
	const cwd = join(env['HOME']!, 'repo');
	mkdirSync(join(cwd, '.git'), {recursive: true});
	runCli(['init', kb, '--no-register'], {env});
	fillReviewQueue(env, kb, cwd);
	const rows = runCli(['candidates', 'list', '--root', kb, '--format', 'json'], {env, cwd}).json<{candidates: Array<{ref: string}>}>().candidates;
	const at = rows.findIndex(row => row.ref === distilledCandidate);
	const pane = open(t, env, cwd, `--root ${kb} --since 2026-11-01 --all-projects`);
	await pane.waitFor(text => text.includes('since 2026-11-01'), 'the stand-up');
	pane.send(['7']);
	let screen = await pane.waitFor(text => text.includes(`1 of ${rows.length} pending`), 'the review queue');
	assert.match(screen, /7 Review/);
	assert.match(screen, /p promote · x reject · e evidence/);
	pane.send(['j'.repeat(at)], true);
	screen = await pane.waitFor(text => text.includes(`${at + 1} of ${rows.length} pending`) && text.includes('Claims of fixture-distiller'), 'the distilled candidate, reached by keys typed in one chunk');
	pane.send(['e']);
	screen = await pane.waitFor(text => text.includes('3 cited turns of 17'), 'the cited turns');
	assert.match(screen, /#10 tool local_shell \[ok 0\]/);
	pane.send(['Escape']);
	await pane.waitFor(text => text.includes(`${at + 1} of ${rows.length} pending`), 'esc back to the queue');
	pane.send(['p']);
	await pane.waitFor(text => text.includes('y / any other key cancels'), 'the question');
	pane.send(['n']);
	await pane.waitFor(text => text.includes('nothing was changed'), 'n to cancel');
	pane.send(['py'], true);
	screen = await pane.waitFor(text => text.includes(`promoted ${distilledCandidate}`) && text.includes(`${rows.length - 1} pending · 1 promoted · 0 rejected`), 'the promotion, and the queue without it');
	assert.doesNotMatch(screen, /Fix the flaky retry test/);
	pane.send(['q']);
	await pane.waitFor(text => text.includes('[exited 0]'), 'q to quit');
});

test('real terminal: engi query --evidence-contract shows the answer (resolution, chosen alternatives, rejections, tokens); e on a result shows its node_sha256; a proposal mode prints', {skip, timeout: 120_000}, async t => {
	const world = await contractWorld(t);
	const quoted = JSON.stringify(world.question);
	const pane = open(t, world.env, world.project, `query --root ${world.kb} --q ${quoted} --evidence-contract ${world.contract}`, {columns: 100, rows: 30});
	let screen = await pane.waitFor(text => text.includes('evidence contract:'), 'the contract\'s answer');
	assert.match(screen, /covered · \d+ of 2000 tokens · \d+ of 1000 search states/);
	assert.match(screen, /fact why: alternative 1 — decision:stream/);
	assert.match(screen, /rejected: fact why alternative 0 — source pin missing \(task:csv\)/);
	pane.send(['Escape']);
	screen = await pane.waitFor(text => text.includes('· 0 matches') && !text.includes('evidence contract:'), 'the search under the answer');
	pane.send(['/']);
	for (let index = 0; index < world.question.length; index++) {
		pane.send(['BSpace']);
	}

	pane.send(['stream'], true);
	pane.send(['Enter']);
	screen = await pane.waitFor(text => /› decision:stream · Decision/.test(text), 'the results of a new search');
	pane.send(['e']);
	screen = await pane.waitFor(text => text.includes('evidence of decision:stream'), 'the evidence view');
	const pin = (await world.client.queryEvidence('stream', '2026-12-31T00:00:00Z')) as Extract<QueryOutput, {view: 'evidence'}>;
	assert.ok(screen.includes(`node_sha256 ${pin.candidates[0]!.node_sha256}`), 'the pin as engi query --view evidence prints it');
	pane.send(['Escape']);
	await pane.waitFor(text => text.includes('ok · 1 match') && !text.includes('evidence of'), 'esc back to the results');
	pane.send(['q']);
	await pane.waitFor(text => text.includes('[exited 0]'), 'q to quit');

	const printed = open(t, world.env, world.project, `query --root ${world.kb} --q ${quoted} --evidence-contract ${world.contract} --evidence-ids`, {columns: 100, rows: 30});
	screen = await printed.waitFor(text => text.includes('[exited 1]'), 'the proposal flag checked and printed, not a screen');
	assert.match(screen, /--evidence-ids needs --prepare-proposal/);
});

test('real terminal: the Retention screen executes the plan only after its count is typed, with a progress bar and receipts', {skip, timeout: 180_000}, async t => {
	const kb = makeKb(t);
	buildFixtureHome(kb.env);
	const home = kb.env['HOME']!;
	for (const directory of [home, kb.env['XDG_CONFIG_HOME']!, kb.env['XDG_DATA_HOME']!]) {
		settle(directory, longAgo);
	}

	for (const [source, id] of retentionAttested) {
		attestWithKnowledge(kb, source, id);
	}

	const before = entriesUnder(home);
	const pane = open(t, kb.env, home, '--all-projects', {columns: 100, rows: 30});
	await pane.waitFor(text => text.includes('1 Stand-up'), 'the dashboard');
	pane.send(['8']);
	let screen = await pane.waitFor(text => /x executes · plan [0-9a-f]{16} · \d+ to retire: 2 attested/.test(text), 'the Retention screen with its plan');
	assert.match(screen, /8 Retention/);
	assert.match(screen, /^all +\d+ /m, 'the summary by source');
	const planned = /· (\d+) to retire/.exec(screen)![1]!;
	pane.send(['x']);
	await pane.waitFor(text => text.includes(`Type ${planned}, the count of sessions to delete`), 'the question');
	pane.send(['1', 'Enter']);
	await pane.waitFor(text => text.includes(`typed 1; the plan deletes ${planned}`), 'a wrong count refused');
	assert.deepEqual(entriesUnder(home), before, 'nothing deleted for a wrong count');
	pane.send([planned, 'Enter']);
	screen = await pane.waitFor(text => text.includes(`done · ${planned} removed`), 'the sweep to finish');
	assert.match(screen, /receipts · \d+ items swept/);
	assertDeletionsRecorded(kb, home, before);
	assert.equal(journalNodes(kb.journal, 'SessionPurgeReceipt').length, Number(planned));
	pane.send(['q']);
	await pane.waitFor(text => text.includes('[exited 0]'), 'q to quit');
	const log = kb.ok(['retention', 'log']);
	assert.equal(log.purged, Number(planned));
	assert.equal(log.interrupted, 0);
});

test('real terminal: the first frame shows the stand-up from the catalog as it stands, and the refreshed stores replace it', {skip, timeout: 120_000}, async t => {
	if (!requireProc(t)) {
		return;
	}

	const {env, cwd} = world(t);
	const warmed = runCli(['standup', '--since', '2026-11-01', '--format', 'json'], {env, cwd});
	assert.equal(warmed.code, 0, warmed.stderr);
	assert.equal(warmed.json<{totals: {candidates: number}}>().totals.candidates, 22);
	// A session left waiting for an answer since the catalog was last brought up to date.
	const added = writeClaudeSession(join(env['HOME']!, '.claude', 'projects'), '5a5a5a5a-5a5a-4a5a-8a5a-5a5a5a5a5a5a', '/work/shop', [{user: 'Rotate the staging keys', at: '2026-11-25T09:00:00.000Z'}]);
	utimesSync(added, new Date('2026-11-25T09:00:00Z'), new Date('2026-11-25T09:00:00Z'));
	// The refresh stops the dashboard before it looks at the stores: whatever is on screen then was drawn without it.
	const pane = open(t, {...env, ENGI_TEST_PAUSE_AT: 'catalog.before_refresh'}, cwd, '--since 2026-11-01 --all-projects');
	const early = await pane.waitFor(text => /since 2026-11-01 · \d+ unfinished/.test(text), 'the stand-up with its counts before the stores are refreshed');
	assert.match(early, /· 22 unfinished ·/, 'the catalog as it stood');
	const command = pane.commandPid();
	await waitStopped(command);
	process.kill(command, 'SIGCONT');
	const refreshed = await pane.waitFor(text => text.includes('· 23 unfinished ·'), 'the stand-up over the refreshed stores');
	assert.match(refreshed, /Rotate the staging keys/);
});
