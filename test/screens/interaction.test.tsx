/** @jsxRuntime automatic */
/** @jsxImportSource react */
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {render} from 'ink-testing-library';
import {App, type TuiResult} from '../../source/screens/app.js';
import {keys, press, waitForFrame} from '../helpers/ink.js';
import {fixedNow, screenWorld} from '../helpers/screens.js';

const size = {columns: 80, rows: 24};

test('triage: navigate, filter as you type, open a pickup and leave with its commands', {timeout: 60_000}, async t => {
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
	frame = await press(app.stdin, app.lastFrame, keys.enter, text => text.includes('Files touched'));
	assert.match(frame, /6 Pickup/);
	assert.match(frame, /Fix the flaky retry test in the HTTP client/);
	await press(app.stdin, app.lastFrame, keys.enter, () => decisions.length > 0);
	const decision = decisions[0]!;
	assert.equal(decision.kind, 'pickup');
	assert.equal(decision.kind === 'pickup' && decision.pickup.native_resume_command, 'codex resume 0195a1c2-0a00-7a00-8a00-00000000000a');
});

test('triage: record a checkpoint through the form, and mark a session completed after a confirm', {timeout: 60_000}, async t => {
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
	assert.match(frame, /Mark 5a1c0e2b-0b22-4c6e-9d21-7f3e00000b02 completed\?/);
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
	let frame = await waitForFrame(app.lastFrame, text => text.includes('unfinished (') && text.includes('›'));
	assert.match(frame, /since 2026-11-01/);
	frame = await press(app.stdin, app.lastFrame, '?', text => text.includes('Keys'));
	assert.match(frame, /Stand-up/);
	frame = await press(app.stdin, app.lastFrame, '?', text => !text.includes('Keys —'));
	frame = await press(app.stdin, app.lastFrame, '4', text => text.includes('No knowledge base is configured.'));
	assert.match(frame, /engi init/);
	frame = await press(app.stdin, app.lastFrame, keys.tab, text => text.includes('No knowledge base is configured.') && text.includes('query'));
	frame = await press(app.stdin, app.lastFrame, '3', text => text.includes('checkpoints in'));
	frame = await press(app.stdin, app.lastFrame, keys.escape, text => text.includes('No knowledge base'));
	frame = await press(app.stdin, app.lastFrame, keys.escape, text => text.includes('unfinished ('));
	await press(app.stdin, app.lastFrame, 'q', () => decisions.length > 0);
	assert.deepEqual(decisions, [{kind: 'quit'}]);
});
