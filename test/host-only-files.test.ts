import assert from 'node:assert/strict';
import {appendFileSync, copyFileSync, mkdirSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import test from 'node:test';
import {claudeAdapter} from '../source/adapters/claude/index.js';
import {codexAdapter} from '../source/adapters/codex/index.js';
import {summarizeEvents} from '../source/engine/catalog/summarize.js';
import {looseUnit, readUnit} from './helpers/adapters.js';
import {runCli, sandboxEnv} from './helpers/cli.js';
import {tempDir} from './helpers/temp.js';

/**
 * A file holding only what the host wrote (its context, a command run in the CLI and its output)
 * is no session, whatever the source: the summary counts a person's or an agent's words, a reply,
 * a call or a result as conversation, never the host's own text.
 */
const cases = fileURLToPath(new URL('fixtures/host-only', import.meta.url));
const codexRollout = 'rollout-2026-12-05T08-00-00-01a2f100-0c00-7c00-8d00-0000000000e1.jsonl';
const claudeFile = '5b0e7a21-93c4-4d1e-8f2a-6c7d8e9f0a1b.jsonl';

const codexPrompt = `${JSON.stringify({timestamp: '2026-12-05T08:01:00.000Z', type: 'response_item', payload: {type: 'message', role: 'user', content: [{type: 'input_text', text: 'Why does the glaze test hang?'}]}})}\n`;
const claudePrompt = `${JSON.stringify({isSidechain: false, userType: 'external', cwd: '/work/kiln', sessionId: '5b0e7a21-93c4-4d1e-8f2a-6c7d8e9f0a1b', version: '2.1.90', parentUuid: 'k3', type: 'user', uuid: 'k4', timestamp: '2026-12-05T09:01:00.000Z', message: {role: 'user', content: 'Why does the glaze test hang?'}})}\n`;

test('host-only files: a Codex rollout of only AGENTS.md and the environment context is read, and is no conversation', () => {
	const session = readUnit(codexAdapter, looseUnit(join(cases, codexRollout)));
	const said = session.events.filter(event => event.kind === 'user').map(event => [event.line, event.human ?? null]);
	assert.deepEqual(said, [[2, false], [3, false]], 'both injections are read, as the host\'s');
	assert.equal(session.summary.conversational, false);
	assert.equal(session.summary.human_turns, 0);
});

test('host-only files: a Claude Code file of only a local command and its output is no conversation', () => {
	const session = readUnit(claudeAdapter, looseUnit(join(cases, claudeFile)));
	assert.ok(session.events.some(event => event.text?.includes('Set model to opus')), 'the command\'s output is still read');
	assert.equal(session.summary.conversational, false);
});

test('host-only files: an agent\'s task or a person\'s words make a conversation of the same host text', () => {
	const {unit, events} = readUnit(codexAdapter, looseUnit(join(cases, codexRollout)));
	const host = events.find(event => event.kind === 'user')!;
	assert.equal(summarizeEvents(unit, [...events, {...host, line: 9, origin: 'agent'}]).conversational, true, 'an agent\'s prompt');
	assert.equal(summarizeEvents(unit, [...events, {...host, line: 9, sidechain: true}]).conversational, true, 'a subagent\'s task, its author unstated');
	assert.equal(summarizeEvents(unit, [...events, {line: 9, kind: 'tool_result', result: {call_id: 'c1', is_error: false, output: 'ok'}}]).conversational, true, 'a result');
	assert.equal(summarizeEvents(unit, [...events, {...host, line: 9, human: true}]).conversational, true, 'a person\'s request');
});

test('host-only files: neither is listed as a session until a person asks something in it', t => {
	const env = sandboxEnv(tempDir(t));
	const codexDay = join(env['HOME']!, '.codex', 'sessions', '2026', '12', '05');
	const claudeProject = join(env['HOME']!, '.claude', 'projects', '-work-kiln');
	mkdirSync(codexDay, {recursive: true});
	mkdirSync(claudeProject, {recursive: true});
	copyFileSync(join(cases, codexRollout), join(codexDay, codexRollout));
	copyFileSync(join(cases, claudeFile), join(claudeProject, claudeFile));
	const listed = () => {
		const result = runCli(['sessions', '--all-projects', '--format', 'json'], {env});
		assert.equal(result.code, 0, result.stderr);
		return result.json().sessions.map((session: {source: string; title: string | null}) => [session.source, session.title]).sort();
	};

	assert.deepEqual(listed(), []);
	appendFileSync(join(codexDay, codexRollout), codexPrompt);
	appendFileSync(join(claudeProject, claudeFile), claudePrompt);
	assert.deepEqual(listed(), [['claude', 'Why does the glaze test hang?'], ['codex', 'Why does the glaze test hang?']], 'the grown files are read again and listed');
});
