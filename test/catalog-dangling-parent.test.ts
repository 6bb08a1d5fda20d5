import assert from 'node:assert/strict';
import {appendFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {claudeAdapter} from '../source/adapters/claude/index.js';
import {fileUnit} from '../source/adapters/shared/fs.js';
import type {DiscoveredUnit} from '../source/adapters/types.js';
import {scanUnit, type LineMark, type ScanResult, type TextSink} from '../source/engine/catalog/scan.js';
import {tempDir} from './helpers/temp.js';

/**
 * Claude Code sometimes writes a record whose parent it never wrote (anthropics/claude-code
 * #21751: a reply's text block dropped, the next prompt naming it; the Agent SDK, #287), and a
 * session with that fault gets another on every turn. A catalog continuing such a file must not
 * read it again from the start each time it grows, and must still agree with a read of the whole
 * file. A parent that was written, long before (a rewind past the tree tail the catalog keeps),
 * still means a read from the start.
 */
const id = '3f6a9c2e-7b1d-4e5f-8a0c-9d2b4f6e8a13';
const base = {isSidechain: false, userType: 'external', cwd: '/work/tides', sessionId: id, version: '2.1.20', gitBranch: 'main'};
const prompt = (uuid: string, parent: string | null, text: string, at: string) => ({...base, parentUuid: parent, type: 'user', uuid, timestamp: at, message: {role: 'user', content: text}});
const reply = (uuid: string, parent: string, text: string, at: string) => ({...base, parentUuid: parent, type: 'assistant', uuid, timestamp: at, message: {id: `msg_${uuid}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [{type: 'text', text}], stop_reason: 'end_turn'}});

/** Forty turns, so the first records lie far behind the tree tail a scan keeps. */
function firstPart(): unknown[] {
	const lines: unknown[] = [];
	let parent: string | null = null;
	for (let turn = 0; turn < 40; turn++) {
		lines.push(prompt(`p${turn}`, parent, `Check the tide table for day ${turn}`, '2026-10-01T08:00:00.000Z'));
		lines.push(reply(`r${turn}`, `p${turn}`, `Day ${turn} checked.`, '2026-10-01T08:00:05.000Z'));
		parent = `r${turn}`;
	}

	return lines;
}

const jsonl = (lines: readonly unknown[]) => lines.map(line => JSON.stringify(line)).join('\n') + '\n';

function scan(path: string, previous?: ScanResult): {result: ScanResult; restarted: boolean} {
	let restarted = false;
	const texts: TextSink = {restart: () => (restarted = true), add() {}};
	const unit = fileUnit(path, {idHint: id}) as DiscoveredUnit;
	const marks: LineMark[] = [{line: 1, offset: 0}, ...(previous?.offsets ?? [])];
	const markBefore = (offset: number) => marks.filter(mark => mark.offset <= offset).at(-1)!;
	return {result: scanUnit(claudeAdapter, '/store', unit, previous?.row, markBefore, texts), restarted};
}

function grownAgainstWhole(t: Parameters<typeof tempDir>[0], later: readonly unknown[], earlier: readonly unknown[] = firstPart()) {
	const directory = tempDir(t);
	const path = join(directory, `${id}.jsonl`);
	writeFileSync(path, jsonl(earlier));
	const first = scan(path);
	appendFileSync(path, jsonl(later));
	const grown = scan(path, first.result);
	const whole = scan(path);
	const {line_state: _grownState, ...grownSummary} = grown.result.row.summary;
	const {line_state: _wholeState, ...wholeSummary} = whole.result.row.summary;
	assert.deepEqual(grownSummary, wholeSummary, 'the grown file reads as the whole file does');
	assert.deepEqual(grown.result.row.tail, whole.result.row.tail);
	return grown;
}

test('a record whose parent was never written does not send a growing transcript back to its start, and reads as the whole file does', t => {
	const grown = grownAgainstWhole(t, [
		prompt('p40', 'never-written-7a1b', 'And the spring tides next month?', '2026-10-01T09:00:00.000Z'),
		reply('r40', 'p40', 'Spring tides fall on the 14th and the 28th.', '2026-10-01T09:00:05.000Z'),
		prompt('p41', 'never-written-8c2d', 'Add them to the calendar', '2026-10-01T09:01:00.000Z'),
	]);
	assert.equal(grown.restarted, false, 'continued where the last scan stopped');
	assert.equal(grown.result.row.summary.human_turns, 42, 'forty prompts, then two more off parents never written');
});

test('a record whose parent was written long before (a rewind past the kept tree tail) still reads the transcript from its start', t => {
	const grown = grownAgainstWhole(t, [
		prompt('p40', 'r2', 'Go back: use the harbour gauge for day 3 instead', '2026-10-01T09:00:00.000Z'),
		reply('r40', 'p40', 'Day 3 redone from the harbour gauge.', '2026-10-01T09:00:05.000Z'),
	]);
	assert.equal(grown.restarted, true, 'what the last scan counted as live may be abandoned now');
});

test('a record whose parent was never written, after a rewind the last scan found, reads the transcript from its start (read whole, that rewind is off the live chain)', t => {
	const rewound = [...firstPart(), prompt('p39b', 'r38', 'Redo day 39 with the new gauge', '2026-10-01T08:30:00.000Z'), reply('r39b', 'p39b', 'Day 39 redone.', '2026-10-01T08:30:05.000Z')];
	const grown = grownAgainstWhole(t, [prompt('p40', 'never-written-9e3f', 'And the neap tides?', '2026-10-01T09:00:00.000Z')], rewound);
	assert.equal(grown.restarted, true);
});
