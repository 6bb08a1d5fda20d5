/** @jsxRuntime automatic */
/** @jsxImportSource react */
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {render} from 'ink-testing-library';
import {App, type TuiResult} from '../../source/screens/app.js';
import {hintsFor} from '../../source/screens/keys.js';
import {screenOrder, screenScopes, type ScreenId} from '../../source/screens/navigation.js';
import {keys, press, waitForFrame} from '../helpers/ink.js';
import {mkdirSync} from 'node:fs';
import type {Deps} from '../../source/engine/deps.js';
import {createEngineClient} from '../../source/screens/engine-client.js';
import {sandboxEnv} from '../helpers/cli.js';
import {controlCharacter, hostileSessionId, writeHostileSession} from '../helpers/hostile-session.js';
import {tempDir} from '../helpers/temp.js';
import {contractWorld, distilledCandidate, fillReviewQueue, fixedNow, retentionAttested, retentionNow, retentionWorld, screenWorld} from '../helpers/screens.js';
import type {QueryOutput} from '../../source/engine/knowledge/query-schema.js';
import {assertDeletionsRecorded, entriesUnder, journalNodes} from '../helpers/retention.js';
import {appendFileSync, existsSync} from 'node:fs';

const size = {columns: 80, rows: 24};

test('unfinished: navigate, filter as you type, open a pickup and leave with its commands', {timeout: 60_000}, async t => {
	const world = await screenWorld(t);
	const decisions: TuiResult[] = [];
	const app = render(<App client={world.client} initialScreen="unfinished" now={fixedNow} size={size} onDecision={result => decisions.push(result)} />);
	t.after(() => app.unmount());
	let frame = await waitForFrame(app.lastFrame, text => text.includes('22 of 22'));
	const selected = (text: string) => text.split('\n').find(line => line.startsWith('›'))!;
	assert.match(selected(frame), /cursor\s+low/);
	frame = await press(app.stdin, app.lastFrame, 'j');
	assert.match(selected(frame), /cursor\s+high/);
	frame = await press(app.stdin, app.lastFrame, keys.down);
	assert.match(selected(frame), /copilot/);
	frame = await press(app.stdin, app.lastFrame, '/', text => text.includes('filter /'));
	for (const char of 'qfla') {
		frame = await press(app.stdin, app.lastFrame, char);
	}

	frame = await press(app.stdin, app.lastFrame, keys.backspace);
	frame = await press(app.stdin, app.lastFrame, keys.backspace);
	frame = await press(app.stdin, app.lastFrame, keys.backspace, text => text.includes('filter /q▏'));
	frame = await press(app.stdin, app.lastFrame, keys.backspace, text => text.includes('22 of 22'));
	for (const char of 'flaky') {
		frame = await press(app.stdin, app.lastFrame, char);
	}

	assert.match(frame, /1 of 22/);
	assert.match(frame, /Fix the flaky retry test/);
	frame = await press(app.stdin, app.lastFrame, keys.enter, text => !text.includes('▏'));
	frame = await press(app.stdin, app.lastFrame, keys.enter, text => text.includes('Pending tool calls'));
	assert.match(frame, /6 Pickup/);
	assert.match(frame, /│ L47 shell_command: npm run lint -- --fix/, 'the pending call comes first, with its command');
	await press(app.stdin, app.lastFrame, keys.enter, () => decisions.length > 0);
	const decision = decisions[0]!;
	assert.equal(decision.kind, 'pickup');
	assert.equal(decision.kind === 'pickup' && decision.pickup.native_resume_command, 'codex resume 0195a1c2-0a00-7a00-8a00-00000000000a');
});

test('unfinished: record a checkpoint through the form, and mark a session completed after a confirm', {timeout: 60_000}, async t => {
	const world = await screenWorld(t);
	const app = render(<App client={world.client} initialScreen="unfinished" now={fixedNow} size={size} />);
	t.after(() => app.unmount());
	await waitForFrame(app.lastFrame, text => text.includes('22 of 22'));
	let frame = await press(app.stdin, app.lastFrame, 'c', text => text.includes('Checkpoint for'));
	assert.match(frame, /Checkpoint for 5a1c0e2b-0b22-4c6e-9d21-7f3e00000b02/);
	frame = await press(app.stdin, app.lastFrame, keys.enter, text => text.includes('the first checkpoint of a session needs an objective'));
	for (const char of 'find the flake') {
		frame = await press(app.stdin, app.lastFrame, char);
	}

	frame = await press(app.stdin, app.lastFrame, keys.tab);
	frame = await press(app.stdin, app.lastFrame, '\u001B[C', text => text.includes('‹ blocked ›'));
	frame = await press(app.stdin, app.lastFrame, keys.enter, text => text.includes('needs at least one blocker'));
	frame = await press(app.stdin, app.lastFrame, keys.tab);
	frame = await press(app.stdin, app.lastFrame, keys.tab);
	for (const char of 'CI access') {
		frame = await press(app.stdin, app.lastFrame, char);
	}

	frame = await press(app.stdin, app.lastFrame, keys.enter, text => text.includes('recorded blocked'));
	const saved = readFileSync(join(world.project, '.engi', 'checkpoints.jsonl'), 'utf8').trim().split('\n').map(line => JSON.parse(line));
	assert.deepEqual(saved.map(row => [row.session, row.status, row.objective, row.blockers]), [['5a1c0e2b-0b22-4c6e-9d21-7f3e00000b02', 'blocked', 'find the flake', ['CI access']]]);
	frame = await press(app.stdin, app.lastFrame, '2', text => text.includes('22 of 22'));
	frame = await press(app.stdin, app.lastFrame, 'd', text => text.includes('y / n'));
	assert.match(frame, /Mark completed\? y \/ n — checkpoint for 5a1c0e2b-0b22-4c6e-9d21-7f3e00000b02$/m);
	frame = await press(app.stdin, app.lastFrame, 'y', text => text.includes('21 of 21'));
	assert.doesNotMatch(frame, /The orders API returns 500 when the cart is empty/);
	const lines = readFileSync(join(world.project, '.engi', 'checkpoints.jsonl'), 'utf8').trim().split('\n');
	assert.equal(JSON.parse(lines.at(-1)!).status, 'completed');
	frame = await press(app.stdin, app.lastFrame, 'x', text => text.includes('superseded?'));
	frame = await press(app.stdin, app.lastFrame, 'n', text => !text.includes('y / n'));
	assert.equal(readFileSync(join(world.project, '.engi', 'checkpoints.jsonl'), 'utf8').trim().split('\n').length, 2, 'a declined confirm writes nothing');
});

test('screens switch with tab and numbers; ? shows every key; esc goes back; project and query without a knowledge base explain engi init', {timeout: 60_000}, async t => {
	const world = await screenWorld(t, {knowledgeBase: false});
	const decisions: TuiResult[] = [];
	const app = render(<App client={world.client} initialScreen="standup" now={fixedNow} size={size} onDecision={result => decisions.push(result)} />);
	t.after(() => app.unmount());
	let frame = await waitForFrame(app.lastFrame, text => text.includes('22 unfinished') && text.includes('›'));
	assert.match(frame, /since 2026-11-01/);
	frame = await press(app.stdin, app.lastFrame, '?', text => text.includes('Keys'));
	assert.match(frame, /Stand-up/);
	frame = await press(app.stdin, app.lastFrame, '?', text => !text.includes('Keys —'));
	frame = await press(app.stdin, app.lastFrame, '4', text => text.includes('No knowledge base is configured.'));
	assert.match(frame, /engi init/);
	frame = await press(app.stdin, app.lastFrame, keys.tab, text => text.includes('No knowledge base is configured.') && text.includes('query'));
	frame = await press(app.stdin, app.lastFrame, '3', text => text.includes('checkpoints in'));
	frame = await press(app.stdin, app.lastFrame, keys.escape, text => text.includes('No knowledge base'));
	frame = await press(app.stdin, app.lastFrame, keys.escape, text => text.includes('22 unfinished ·'));
	await press(app.stdin, app.lastFrame, 'q', () => decisions.length > 0);
	assert.deepEqual(decisions, [{kind: 'quit'}]);
});

/** Which screen a frame shows, told by its footer: each screen's keys differ. */
const showing = (screen: ScreenId) => (text: string) => text.trimEnd().split('\n').at(-1) === hintsFor(screenScopes[screen], size.columns);
const selectedRow = (text: string) => text.split('\n').find(line => line.startsWith('›')) ?? '';
const shiftTab = '\u001B[Z';

/** Query opens with its search box taking the keys (digits are letters there); esc hands them back. */
async function leaveField(app: ReturnType<typeof render>, screen: ScreenId): Promise<void> {
	if (screen === 'query' && app.lastFrame()!.includes('query: ▏')) {
		await press(app.stdin, app.lastFrame, keys.escape, text => text.includes('press / to type'));
	}
}

test('every screen reaches every other: by number, tab and shift+tab round the ring, esc back through the history to quitting', {timeout: 120_000}, async t => {
	const world = await screenWorld(t);
	const decisions: TuiResult[] = [];
	const app = render(<App client={world.client} initialScreen="standup" now={fixedNow} size={size} onDecision={result => decisions.push(result)} />);
	t.after(() => app.unmount());
	await waitForFrame(app.lastFrame, showing('standup'));
	let current: ScreenId = 'standup';
	for (const from of screenOrder) {
		for (const to of screenOrder) {
			if (from === to) {
				continue;
			}

			const steps: ScreenId[] = current === from ? [to] : [from, to];
			for (const next of steps) {
				await leaveField(app, current);
				await press(app.stdin, app.lastFrame, String(screenOrder.indexOf(next) + 1), showing(next));
				current = next;
			}
		}
	}

	await leaveField(app, current);
	await press(app.stdin, app.lastFrame, '1', showing('standup'));
	for (const next of [...screenOrder.slice(1), 'standup' as const]) {
		await press(app.stdin, app.lastFrame, keys.tab, showing(next));
	}

	for (const next of [...screenOrder].reverse()) {
		await press(app.stdin, app.lastFrame, shiftTab, showing(next));
	}

	// The history holds every numbered move; walking it back ends by quitting from the first screen.
	app.rerender(<App key="fresh" client={world.client} initialScreen="standup" now={fixedNow} size={size} onDecision={result => decisions.push(result)} />);
	await waitForFrame(app.lastFrame, showing('standup'));
	for (const next of ['checkpoints', 'query', 'unfinished'] as const) {
		await press(app.stdin, app.lastFrame, String(screenOrder.indexOf(next) + 1), showing(next));
		await leaveField(app, next);
	}

	for (const previous of ['query', 'checkpoints', 'standup'] as const) {
		await press(app.stdin, app.lastFrame, keys.escape, showing(previous));
	}

	assert.deepEqual(decisions, []);
	app.stdin.write(keys.escape);
	await waitForFrame(app.lastFrame, () => decisions.length > 0);
	assert.deepEqual(decisions, [{kind: 'quit'}]);
});

test('pickup: opened empty first, then from Unfinished and from the Stand-up, each showing its own session; esc returns to the opener; q quits anywhere', {timeout: 120_000}, async t => {
	const world = await screenWorld(t);
	const decisions: TuiResult[] = [];
	const app = render(<App client={world.client} initialScreen="standup" now={fixedNow} size={size} onDecision={result => decisions.push(result)} />);
	t.after(() => app.unmount());
	await waitForFrame(app.lastFrame, text => showing('standup')(text) && text.includes('›'));
	// The crash: Pickup visited with no session chosen, then a session chosen on Unfinished.
	await press(app.stdin, app.lastFrame, '6', text => text.includes('No session chosen.'));
	let frame = await press(app.stdin, app.lastFrame, '2', text => text.includes('22 of 22'));
	const top = selectedRow(frame);
	// The second row, so that the stand-up's selection (the newest session) is another one.
	frame = await press(app.stdin, app.lastFrame, 'j', text => selectedRow(text) !== top);
	const chosenRow = selectedRow(frame);
	frame = await press(app.stdin, app.lastFrame, keys.enter, text => showing('pickup')(text) && text.includes('quoted from the transcript'));
	const chosen = /^pickup · \w+ (\S+) ·/m.exec(frame)?.[1];
	assert.ok(chosen, 'the pickup names the session chosen on Unfinished');
	assert.notEqual(chosen, '5a1c0e2b-0b22-4c6e-9d21-7f3e00000b02');
	frame = await press(app.stdin, app.lastFrame, keys.escape, showing('unfinished'));
	assert.equal(selectedRow(frame), chosenRow, 'back on Unfinished, where it was');
	await press(app.stdin, app.lastFrame, '1', showing('standup'));
	frame = await press(app.stdin, app.lastFrame, keys.enter, text => showing('pickup')(text) && text.includes('quoted from the transcript'));
	assert.match(frame, /^pickup · cursor 5a1c0e2b-0b22-4c6e-9d21-7f3e00000b02 ·/m, 'the stand-up\'s selected session, not the previous one');
	assert.ok(!frame.includes(chosen));
	await press(app.stdin, app.lastFrame, keys.escape, showing('standup'));
	for (const screen of screenOrder) {
		await press(app.stdin, app.lastFrame, String(screenOrder.indexOf(screen) + 1), showing(screen));
		await leaveField(app, screen);
		await press(app.stdin, app.lastFrame, '?', text => text.includes('Keys —'));
		await press(app.stdin, app.lastFrame, keys.escape, text => !text.includes('Keys —') && showing(screen)(text));
	}

	await press(app.stdin, app.lastFrame, '2', showing('unfinished'));
	await press(app.stdin, app.lastFrame, 'q', () => decisions.length > 0);
	assert.deepEqual(decisions, [{kind: 'quit'}]);
});

test('keys that arrive in one chunk act one by one: jj moves two rows, a typed word filters, two backspaces erase two letters, q in a field is a letter', {timeout: 60_000}, async t => {
	const world = await screenWorld(t);
	const app = render(<App client={world.client} initialScreen="standup" now={fixedNow} size={size} />);
	t.after(() => app.unmount());
	let frame = await waitForFrame(app.lastFrame, text => showing('standup')(text) && text.includes('›'));
	// The session rows (an age, right-aligned, under a project's heading), whatever the age's width.
	const rows = frame.split('\n').filter(line => /^[ ›] {3,}\d+[mhdy] /.test(line));
	const start = rows.findIndex(line => line.startsWith('›'));
	frame = await press(app.stdin, app.lastFrame, 'jj', text => selectedRow(text).slice(1) === rows[start + 2]!.slice(1));
	frame = await press(app.stdin, app.lastFrame, 'k', text => selectedRow(text).slice(1) === rows[start + 1]!.slice(1));
	await press(app.stdin, app.lastFrame, '2', text => text.includes('22 of 22'));
	frame = await press(app.stdin, app.lastFrame, 'jjj', text => /cursor\s+high/.test(selectedRow(text)) === false && text.split('\n').indexOf(selectedRow(text)) === 6);
	frame = await press(app.stdin, app.lastFrame, 'kk', text => text.split('\n').indexOf(selectedRow(text)) === 4);
	await press(app.stdin, app.lastFrame, '/', text => text.includes('filter /▏'));
	frame = await press(app.stdin, app.lastFrame, 'flaky', text => text.includes('1 of 22'));
	assert.match(frame, /filter \/flaky▏/);
	frame = await press(app.stdin, app.lastFrame, '\u007F\u007F', text => text.includes('filter /fla▏'));
	frame = await press(app.stdin, app.lastFrame, 'qq', text => text.includes('filter /flaqq▏'));
	await press(app.stdin, app.lastFrame, keys.escape, text => text.includes('22 of 22') && !text.includes('filter /'));
	await press(app.stdin, app.lastFrame, 'c', text => text.includes('Checkpoint for'));
	frame = await press(app.stdin, app.lastFrame, 'find the flake\t\u001B[C', text => text.includes('‹ blocked ›'));
	assert.match(frame, /Objective\s+find the flake/);
	await press(app.stdin, app.lastFrame, keys.escape, text => !text.includes('Checkpoint for'));
	// A filter, the enter that keeps it and the enter that opens the row, typed faster than a frame.
	await press(app.stdin, app.lastFrame, '2/flaky\r\r', text => text.includes('pickup · codex 0195a1c2-0a00-7a00-8a00-00000000000a'));
	// Two keys written separately, before the first one's frame was drawn, as tmux send-keys does.
	const standupRow = selectedRow(await press(app.stdin, app.lastFrame, '1', showing('standup')));
	app.stdin.write('2');
	app.stdin.write('k');
	frame = await waitForFrame(app.lastFrame, text => showing('unfinished')(text) && text.split('\n').indexOf(selectedRow(text)) === 3);
	assert.match(frame, /1 of 22 · sort age · all sources · filter \/flaky/, 'k reached the list 2 went to (it kept its filter), where the cursor was already on top');
	app.stdin.write('1');
	app.stdin.write('j');
	frame = await waitForFrame(app.lastFrame, text => showing('standup')(text) && selectedRow(text) !== standupRow);
	const lines = frame.split('\n');
	assert.equal(lines.indexOf(selectedRow(frame)), lines.findIndex(line => line.slice(1) === standupRow.slice(1)) + 1, 'j moved the stand-up that 1 showed, by one row');
});

test('a checkpoint recorded on one screen refreshes every screen it changes, without r; the Checkpoints screen covers every project', {timeout: 120_000}, async t => {
	const world = await screenWorld(t);
	// Wide enough that a row shows its reason after its title.
	const app = render(<App client={world.client} initialScreen="standup" now={fixedNow} size={{columns: 200, rows: 30}} />);
	t.after(() => app.unmount());
	let frame = await waitForFrame(app.lastFrame, text => text.includes('since 2026-11-01 · 22 unfinished · checkpoints: 0 active, 0 blocked · 2 tasks'));
	await press(app.stdin, app.lastFrame, '3', text => text.includes('0 checkpoints in 0 projects'));
	await press(app.stdin, app.lastFrame, '2', text => text.includes('22 of 22'));
	await press(app.stdin, app.lastFrame, 'c', text => text.includes('Checkpoint for 5a1c0e2b-0b22-4c6e-9d21-7f3e00000b02'));
	await press(app.stdin, app.lastFrame, 'find the flake', text => text.includes('find the flake▏'));
	await press(app.stdin, app.lastFrame, keys.tab, text => text.includes('‹ active ›'));
	await press(app.stdin, app.lastFrame, keys.enter, text => text.includes('recorded active'));
	frame = await waitForFrame(app.lastFrame, text => text.includes('1 checkpoint in 1 project'));
	assert.match(frame, /› +0m active +repo: find the flake/, 'listed under its project');
	// Unfinished and the stand-up were loaded before the write; each shows the checkpoint now.
	frame = await press(app.stdin, app.lastFrame, '2', text => selectedRow(text).includes('checkpoint active'));
	assert.match(selectedRow(frame), /cursor\s+high\s+The orders API .* — checkpoint active$/);
	await press(app.stdin, app.lastFrame, '1', text => /cursor\s+high\s+The orders API .* — checkpoint active$/m.test(text));
	await press(app.stdin, app.lastFrame, '2', text => text.includes('22 of 22'));
	await press(app.stdin, app.lastFrame, 'd', text => text.includes('y / n'));
	await press(app.stdin, app.lastFrame, 'y', text => text.includes('21 of 21'));
	frame = await press(app.stdin, app.lastFrame, '1', text => text.includes('since 2026-11-01 · 21 unfinished'));
	assert.match(frame, /checkpoints: 0 active, 0 blocked/, 'the completed session left the stand-up too');
});

test('terminal escapes in a transcript are shown on every screen, never sent; transcript lines of the brief are marked as quotes', {timeout: 60_000}, async t => {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	const project = join(base, 'repo');
	mkdirSync(join(project, '.git'), {recursive: true});
	writeHostileSession(env['HOME']!, project, fixedNow);
	const deps: Deps = {env, cwd: project, now: () => fixedNow, platform: 'linux'};
	const client = await createEngineClient(deps, {since: '2026-11-01', allProjects: true}, undefined);
	const app = render(<App client={client} initialScreen="standup" now={fixedNow} size={size} />);
	t.after(() => app.unmount());
	const clean = (name: string, frame: string) => {
		assert.equal(frame.search(controlCharacter), -1, `${name}: a control character reached the terminal: ${JSON.stringify(frame)}`);
		assert.match(frame, /␛/, `${name}: the escape is shown`);
	};

	clean('stand-up', await waitForFrame(app.lastFrame, text => text.includes('Fix the')));
	clean('unfinished', await press(app.stdin, app.lastFrame, '2', text => text.includes('1 of 1')));
	const frame = await press(app.stdin, app.lastFrame, keys.enter, text => text.includes('Pending tool calls'));
	clean('pickup', frame);
	assert.match(frame, new RegExp(`claude ${hostileSessionId} · ${project}`));
	const lines = frame.split('\n');
	for (const words of ['npm test', 'parser', 'FAIL', 'Ignore the notice']) {
		const found = lines.filter(line => line.includes(words));
		assert.ok(found.length > 0 && found.every(line => line.startsWith('│ ')), `"${words}" is shown only on quoted lines: ${JSON.stringify(found)}`);
	}
});

test('every list takes the list keys of the help alike: G and g jump to the last and first row, space pages, on the Stand-up, Unfinished and Checkpoints screens', {timeout: 90_000}, async t => {
	const world = await screenWorld(t);
	for (const [session, objective] of [['11111111-1111-4111-8111-111111111111', 'stream the parser'], ['22222222-2222-4222-8222-222222222222', 'fix the lint'], ['5a1c0e2b-0b22-4c6e-9d21-7f3e00000b02', 'find the flake']] as const) {
		await world.client.recordCheckpoint({session, source: session.startsWith('5a') ? 'codex' : 'claude', objective});
	}

	const app = render(<App client={world.client} initialScreen="checkpoints" now={fixedNow} size={size} />);
	t.after(() => app.unmount());
	let frame = await waitForFrame(app.lastFrame, text => text.includes('3 checkpoints in'));
	const rows = frame.split('\n').filter(line => /^[› ] +\d+[mhdy] /.test(line));
	assert.equal(rows.length, 3, frame);
	assert.equal(selectedRow(frame), rows[0]);
	frame = await press(app.stdin, app.lastFrame, 'G', text => selectedRow(text) === rows[2]!.replace(/^ /, '›'));
	frame = await press(app.stdin, app.lastFrame, 'g', text => selectedRow(text) === rows[0]);
	frame = await press(app.stdin, app.lastFrame, ' ', text => selectedRow(text) === rows[2]!.replace(/^ /, '›'));
	frame = await press(app.stdin, app.lastFrame, 'b', text => selectedRow(text) === rows[0]);

	// Each screen is ready when its cursor is on a session (the Stand-up starts on its first, under a heading).
	for (const [screen, ready] of [['1', (text: string) => / (high|medium|low) /.test(selectedRow(text)) && text.includes('unfinished ·')], ['2', (text: string) => / (high|medium|low) /.test(selectedRow(text)) && text.includes('sort age')]] as const) {
		frame = await press(app.stdin, app.lastFrame, screen, ready);
		const first = selectedRow(frame);
		frame = await press(app.stdin, app.lastFrame, 'G', text => selectedRow(text) !== first);
		const last = selectedRow(frame);
		// The first row is the first line under the counts and the screen's status or warning line.
		frame = await press(app.stdin, app.lastFrame, 'g', text => text.split('\n').findIndex(line => line.startsWith('›')) === 3);
		assert.notEqual(selectedRow(frame), last);
	}
});

test('review: 7 opens the queue; e shows the cited turns and esc comes back; p and x ask first, any key but y cancels, y promotes or rejects', {timeout: 120_000}, async t => {
	const world = await screenWorld(t);
	fillReviewQueue(world.env, world.kb, world.project);
	const rows = (await world.client.candidates()).candidates;
	const at = rows.findIndex(row => row.ref === distilledCandidate);
	const decisions: TuiResult[] = [];
	const app = render(<App client={world.client} initialScreen="standup" now={fixedNow} size={size} onDecision={result => decisions.push(result)} />);
	t.after(() => app.unmount());
	await waitForFrame(app.lastFrame, showing('standup'));
	let frame = await press(app.stdin, app.lastFrame, '7', text => showing('review')(text) && text.includes(`1 of ${rows.length} pending`) && text.includes(`${rows.length} pending · 0 promoted · 0 rejected`));
	assert.match(frame, /7 Review/);
	assert.match(frame, new RegExp(`Not distilled yet: engi candidates distill ${rows[0]!.ref.slice(0, 20)}`), 'the first row\'s note, read for the detail pane');
	// e on a harvested note has no cited turns to show: the screen says so and stays.
	frame = await press(app.stdin, app.lastFrame, 'e', text => text.includes('cites a turn yet'));
	assert.ok(showing('review')(frame));
	// The distilled candidate, reached by a run of j typed in one chunk.
	frame = await press(app.stdin, app.lastFrame, 'j'.repeat(at), text => text.includes(`${at + 1} of ${rows.length} pending`) && text.includes('Claims of fixture-distiller'));
	assert.match(selectedRow(frame), /codex +api +17 turns +2 ok +2 failed ◆ Fix the flaky/);
	assert.match(frame, /verified: the command in this turn succeeded \(turn 10\)/);
	frame = await press(app.stdin, app.lastFrame, 'e', text => text.includes('3 cited turns of 17'));
	assert.match(frame, /#10 tool local_shell \[ok 0\] · L24/);
	assert.match(frame, /│ \$ git status --short/);
	// Digits and q belong to the cited turns while they show; esc returns to the queue where it was.
	app.stdin.write('2q');
	frame = await press(app.stdin, app.lastFrame, keys.escape, text => text.includes(`${at + 1} of ${rows.length} pending`));
	assert.ok(showing('review')(frame), '2 did not switch screens');
	assert.deepEqual(decisions, [], 'q did not quit');
	assert.match(selectedRow(frame), /codex +api/);
	// Asked, then cancelled by a key that is neither y nor a screen switch: nothing changes.
	frame = await press(app.stdin, app.lastFrame, 'p', text => text.includes(`Promote ${distilledCandidate}? y / any other key cancels`));
	frame = await press(app.stdin, app.lastFrame, '2', text => text.includes('nothing was changed'));
	assert.ok(showing('review')(frame), 'the key that cancelled did not switch screens');
	frame = await press(app.stdin, app.lastFrame, 'x', text => text.includes(`Reject ${distilledCandidate}?`));
	frame = await press(app.stdin, app.lastFrame, keys.escape, text => text.includes('nothing was changed'));
	assert.ok(showing('review')(frame), 'esc cancelled the question, it did not go back a screen');
	assert.match(readFileSync(join(world.kb, '00-inbox', 'candidates', `${distilledCandidate}.md`), 'utf8'), /^status: "pending"$/m);
	// p and y typed in one chunk: asked and answered.
	frame = await press(app.stdin, app.lastFrame, 'py', text => text.includes(`promoted ${distilledCandidate}`) && text.includes(`${rows.length - 1} pending · 1 promoted · 0 rejected`));
	assert.match(readFileSync(join(world.kb, '00-inbox', 'candidates', `${distilledCandidate}.md`), 'utf8'), /^status: "promoted"$/m);
	const imported = readFileSync(join(world.project, '.engi', 'checkpoints.jsonl'), 'utf8').trim().split('\n').map(line => JSON.parse(line) as {session: string; status: string});
	assert.deepEqual(imported.map(row => [row.session, row.status]), [['0195a1c2-0a00-7a00-8a00-00000000000a', 'imported']], 'the session\'s project is not on this machine: the dashboard\'s own takes the checkpoint');
	const next = selectedRow(frame);
	assert.doesNotMatch(next, /Fix the flaky/);
	frame = await press(app.stdin, app.lastFrame, 'x', text => text.includes('? y / any other key cancels'));
	frame = await press(app.stdin, app.lastFrame, 'y', text => text.includes('rejected ') && text.includes(`${rows.length - 2} pending · 1 promoted · 1 rejected`));
	// The promotion's checkpoint reached the Checkpoints screen without r.
	await press(app.stdin, app.lastFrame, '3', text => text.includes('1 checkpoint in 1 project'));
	await press(app.stdin, app.lastFrame, keys.escape, showing('review'));
	await press(app.stdin, app.lastFrame, keys.escape, showing('standup'));
	await press(app.stdin, app.lastFrame, 'q', () => decisions.length > 0);
	assert.deepEqual(decisions, [{kind: 'quit'}]);
});

test('retention: summary, blockers, sessions by code and by typing; a wrong count deletes nothing; the typed count runs the sweep and shows its receipts', {timeout: 120_000}, async t => {
	const world = await retentionWorld(t);
	const home = world.env['HOME']!;
	const before = entriesUnder(home);
	const decisions: TuiResult[] = [];
	const app = render(<App client={world.client} initialScreen="standup" now={retentionNow} size={size} onDecision={result => decisions.push(result)} />);
	t.after(() => app.unmount());
	await waitForFrame(app.lastFrame, showing('standup'));
	let frame = await press(app.stdin, app.lastFrame, String(screenOrder.indexOf('retention') + 1), text => text.includes('x executes · plan ') && text.includes('57 sessions ·'));
	assert.match(frame, /^all +57 +2 +28 +27 /m, 'the summary by source ends with the totals');
	assert.match(frame, /57 sessions · 2 eligible · 28 compactable · 27 blocked/);
	const planned = Number(/ · (\d+) to retire: 2 attested, 28 to compact$/m.exec(frame)?.[1]);
	assert.equal(planned, 30);
	frame = await press(app.stdin, app.lastFrame, 'v', text => text.includes('blockers · 5 codes block 27 sessions'));
	assert.match(frame, /› unfinished_candidate +17 █+/);
	frame = await press(app.stdin, app.lastFrame, 'j', text => selectedRow(text).includes('child_sessions_present'));
	frame = await press(app.stdin, app.lastFrame, keys.enter, text => text.includes('3 of 57 sessions · blocker child_sessions_present'));
	assert.equal(frame.split('\n').filter(line => / blocked +\w+ /.test(line)).length, 3);
	frame = await press(app.stdin, app.lastFrame, 'f', text => text.includes('blocker attestation_missing'));
	// Typed in one chunk with the / that opens the field: q is a letter of the filter, not quit.
	frame = await press(app.stdin, app.lastFrame, '/qwen', text => text.includes('filter /qwen▏'));
	assert.match(frame, /^4 of 57 sessions · blocker attestation_missing/m);
	frame = await press(app.stdin, app.lastFrame, keys.escape, text => text.includes('55 of 57 sessions · blocker attestation_missing') && !text.includes('filter /'));
	frame = await press(app.stdin, app.lastFrame, '/claude\r', text => text.includes('· filter /claude') && !text.includes('▏'));
	assert.match(frame, /^10 of 57 sessions/m);

	// A wrong count, then esc: nothing happens, and esc belonged to the question, not the app.
	frame = await press(app.stdin, app.lastFrame, 'x', text => text.includes('Type 30, the count of sessions to delete'));
	frame = await press(app.stdin, app.lastFrame, '5\r', text => text.includes('typed 5; the plan deletes 30'));
	frame = await press(app.stdin, app.lastFrame, keys.escape, text => text.includes('x executes · plan'));
	assert.ok(showing('retention')(frame));
	assert.deepEqual(entriesUnder(home), before, 'nothing deleted');
	assert.equal(existsSync(world.kbSandbox.journal) && journalNodes(world.kbSandbox.journal, 'SessionPurgeAttempt').length, 0);

	// The count and its enter in one chunk: the sweep runs (the engine's, re-planned and re-checked) and its receipts show.
	frame = await press(app.stdin, app.lastFrame, 'x30\r', text => text.includes('done · 30 removed (28 compacted first) · 0 failed'));
	assert.match(frame, /^receipts · 30 items swept/m);
	assert.match(frame, /receipt session-purge:/);
	const gone = assertDeletionsRecorded(world.kbSandbox, home, before);
	assert.ok(gone.length >= 30, `the retired sessions' files are gone (${gone.length})`);
	assert.equal(journalNodes(world.kbSandbox.journal, 'SessionPurgeReceipt').length, 30, 'one receipt each');
	for (const [source, id] of retentionAttested) {
		assert.ok(!before.some(path => path.includes(id) && existsSync(path)), `${source} ${id}: attested and purged`);
	}

	// The plan is loaded again: nothing is left to retire.
	frame = await press(app.stdin, app.lastFrame, 'v', text => text.includes('nothing to retire'));
	assert.match(frame, /^all +27 +0 +0 +27 /m);
	await press(app.stdin, app.lastFrame, 'q', () => decisions.length > 0);
	assert.deepEqual(decisions, [{kind: 'quit'}]);
});

test('review without a knowledge base explains engi init', {timeout: 60_000}, async t => {
	const world = await screenWorld(t, {knowledgeBase: false});
	const app = render(<App client={world.client} initialScreen="review" now={fixedNow} size={size} />);
	t.after(() => app.unmount());
	const frame = await waitForFrame(app.lastFrame, text => text.includes('No knowledge base is configured.'));
	assert.match(frame, /engi init/);
	assert.ok(showing('review')(frame));
});

test('query: keys in one chunk move to a result and open its evidence with its node_sha256; esc goes back to the results, then leaves', {timeout: 60_000}, async t => {
	const world = await contractWorld(t);
	const decisions: TuiResult[] = [];
	const app = render(<App client={world.client} initialScreen="query" initialQuery="csv" now={fixedNow} size={size} onDecision={result => decisions.push(result)} />);
	t.after(() => app.unmount());
	let frame = await waitForFrame(app.lastFrame, text => text.includes('ok · 2 matches'));
	const rows = frame.split('\n').filter(line => /^[ ›] (decision|task):/.test(line));
	assert.equal(rows.length, 2);
	const second = rows[1]!.slice(2).split(' · ')[0]!;
	const pin = (await world.client.queryEvidence('csv', '2026-11-29T12:00:00Z')) as Extract<QueryOutput, {view: 'evidence'}>;
	frame = await press(app.stdin, app.lastFrame, 'je', text => text.includes(`evidence of ${second}`));
	assert.match(frame, new RegExp(`node_sha256 ${pin.candidates.find(candidate => candidate.id === second)!.node_sha256}`), 'the pin a contract names');
	assert.match(frame, /journal line \d+ · 2026-11-20T10:\d\d:00Z · node\.upsert/);
	frame = await press(app.stdin, app.lastFrame, 'jj', text => selectedRow(text).includes(`id: ${second}`));
	frame = await press(app.stdin, app.lastFrame, keys.escape, text => text.includes('ok · 2 matches'));
	assert.match(selectedRow(frame), new RegExp(`^› ${second} · `), 'back on the result it was opened from');
	assert.deepEqual(decisions, [], 'esc closed the evidence, it did not leave the dashboard');
	await press(app.stdin, app.lastFrame, keys.escape, () => decisions.length > 0);
	assert.deepEqual(decisions, [{kind: 'quit'}]);
});

test('query: a contract given on the command line is answered first (resolution, chosen alternatives, rejections, packet tokens); esc shows the search', {timeout: 60_000}, async t => {
	const world = await contractWorld(t);
	const decisions: TuiResult[] = [];
	const app = render(<App client={world.client} initialScreen="query" initialQuery={world.question} initialContract={world.contract} now={fixedNow} size={size} onDecision={result => decisions.push(result)} />);
	t.after(() => app.unmount());
	const answer = await world.client.evaluateContract(world.contract, world.question);
	let frame = await waitForFrame(app.lastFrame, text => text.includes('evidence contract:'));
	assert.match(frame, new RegExp(`covered · ${answer.packet_tokens} of 2000 tokens`));
	assert.match(frame, /fact why: alternative 1 — decision:stream/);
	assert.match(frame, /fact size: alternative 0 — decision:size/);
	assert.match(frame, /rejected: fact why alternative 0 — source pin missing \(task:csv\)/);
	frame = await press(app.stdin, app.lastFrame, keys.escape, text => !text.includes('evidence contract:'));
	assert.match(frame, /0 matches/);
	assert.deepEqual(decisions, []);
	await press(app.stdin, app.lastFrame, 'q', () => decisions.length > 0);
	assert.deepEqual(decisions, [{kind: 'quit'}]);
});

test('retention: a plan that changed after it was shown is refused by the sweep, and nothing is deleted', {timeout: 120_000}, async t => {
	const world = await retentionWorld(t);
	const home = world.env['HOME']!;
	const app = render(<App client={world.client} initialScreen="retention" now={retentionNow} size={size} />);
	t.after(() => app.unmount());
	await waitForFrame(app.lastFrame, text => text.includes('30 to retire'));
	// An attested transcript grows after the plan was shown: its receipt no longer pins it.
	const attested = entriesUnder(home).find(path => path.includes(retentionAttested[1][1]) && path.endsWith('.jsonl'))!;
	appendFileSync(attested, '{"timestamp":"2025-01-01T00:00:00Z","type":"event_msg","payload":{"type":"agent_message","message":"more"}}\n');
	const before = entriesUnder(home);
	const frame = await press(app.stdin, app.lastFrame, 'x', text => text.includes('Type 30'));
	assert.ok(frame);
	await press(app.stdin, app.lastFrame, '30\r', text => text.includes('✗ the plan is no longer'));
	assert.deepEqual(entriesUnder(home), before, 'nothing deleted');
	// The plan is loaded again, without the changed session among the attested.
	await waitForFrame(app.lastFrame, text => text.includes('57 sessions · 1 eligible · 28 compactable · 28 blocked'));
});
