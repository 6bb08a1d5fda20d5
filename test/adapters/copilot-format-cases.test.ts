import assert from 'node:assert/strict';
import {appendFileSync, cpSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test, {type TestContext} from 'node:test';
import Database from 'better-sqlite3';
import {fileURLToPath} from 'node:url';
import {discoverCopilot} from '../../source/adapters/copilot/discover.js';
import {copilotAdapter} from '../../source/adapters/copilot/index.js';
import {wholeUnit} from '../../source/adapters/types.js';
import {scanUnit, type LineMark, type ScanResult, type TextSink} from '../../source/engine/catalog/scan.js';
import {readStore} from '../helpers/adapters.js';
import {runCli, sandboxEnv} from '../helpers/cli.js';
import {tempDir} from '../helpers/temp.js';

/**
 * Copilot CLI event shapes from github/copilot-sdk `nodejs/src/generated/session-events.ts`
 * (the "Union of all session event variants emitted by the Copilot CLI runtime"), written with
 * invented content.
 */
const store = fileURLToPath(new URL('../fixtures/format-cases/copilot', import.meta.url));
const id = '3c9e1f20-5b7a-4d1e-9a42-6f0b8c2d7e11';
const session = () => {
	const found = readStore(copilotAdapter, store).find(read => read.summary.id === id);
	assert.ok(found, `session ${id} is read`);
	return found;
};

test('copilot format: a user.message labelled crossSession came from another session, not from a person', () => {
	const read = session();
	const relayed = read.events.find(event => event.line === 3);
	assert.equal(relayed?.kind, 'user');
	assert.equal(relayed?.human, false, 'crossSession {origin:"authenticated-cross-session"} is non-human input');
	assert.equal(read.summary.title, 'Make the importer reject negative balances.');
	assert.equal(read.summary.human_turns, 1);
});

test('copilot format: the exit code of result.contents shell_exit / terminal blocks is read', () => {
	const results = session().events.filter(event => event.kind === 'tool_result');
	assert.deepEqual(
		results.map(event => [event.result?.call_id, event.result?.is_error, event.result?.exit_code]),
		[
			['call_a1', true, 2],
			['call_a2', true, 1],
			['call_a3', false, 0],
		],
	);
	assert.equal(results[0]?.result?.output, 'import:check found 3 rows with a negative balance', 'the output stays result.content');
});

test('copilot format: tool_search.activated is a known event type, not a skipped line', () => {
	const read = session();
	assert.equal(read.loaded.skipped, 0);
	assert.deepEqual(read.loaded.rows.find(row => row.line === 2)?.events, []);
});

test('copilot format: an error shutdown carries its errorReason', () => {
	const shutdown = session().events.find(event => event.line === 19);
	assert.equal(shutdown?.kind, 'system');
	assert.match(shutdown?.text ?? '', /Lost connection to the model provider/);
	assert.equal(shutdown?.error, 'Lost connection to the model provider');
});

test('copilot format: a build whose session.start has no context names its folder only in the folder_trust notice', () => {
	// Copilot CLI 0.0.x wrote session.start without `context` and no workspace.yaml; the folder it
	// ran in is stated once, by the session.info a folder trust writes (agent-sessions
	// CopilotSessionParser.swift reads cwd from it; its stage0 fixtures of 0.0.420 have only that).
	const legacy = readStore(copilotAdapter, store).find(read => read.summary.id === '5e8a2d17-0c4f-4b39-a6e1-92f7d3c0b845');
	assert.ok(legacy, 'the flat legacy file is read');
	assert.equal(legacy.summary.project, '/home/dev/orchard-api');
	assert.equal(legacy.summary.title, 'Why does the harvest endpoint time out on big orchards?');
	assert.equal(legacy.loaded.skipped, 0);
	assert.equal(session().summary.project, '/srv/ledger', 'a session.start context still names the folder');
});

test('copilot format: the <skill-context> block Copilot injects as a user.message once a skill loads is host text, not a request', () => {
	// kenn-io/agentsview internal/parser/copilot_test.go TestParseCopilotSession_SkipsSyntheticSkillMessages ("ContentOnly":
	// no `source`, the content opens with <skill-context name="…">); the Copilot agent host injects it after a skill loads.
	const skill = readStore(copilotAdapter, store).find(read => read.summary.id === '8b4f2c61-3e9a-4c57-b1d8-0a6e5f7c9d32');
	assert.ok(skill, 'the session is read');
	assert.deepEqual(
		skill.events.filter(event => event.kind === 'user').map(event => [event.line, event.human]),
		[
			[2, true],
			[5, false],
		],
	);
	assert.equal(skill.summary.human_turns, 1);
	assert.equal(skill.summary.title, 'Draft the release notes for 3.2 with the changelog skill.');
});

test('copilot format: a message another session sent, known only by the <cross_session_message> envelope of its transformedContent, is not a request; a prompt quoting the tag is', () => {
	// specstoryai/getspecstory specstory-cli/pkg/providers/copilotcli/events_test.go (TestTranscriptBuilder: "a message from
	// another session is labeled input…", "a typed prompt that quotes the envelope tag is the user's own prompt") and
	// COPILOTCLI-FORMAT.md: builds that write no crossSession label state the sender only in the envelope the model received.
	const relayed = readStore(copilotAdapter, store).find(read => read.summary.id === 'd2a7e9c4-61b8-4f03-9c5e-7b1a3f08e6d4');
	assert.ok(relayed, 'the session is read');
	assert.deepEqual(
		relayed.events.filter(event => event.kind === 'user').map(event => [event.line, event.human, event.origin]),
		[
			[2, true, undefined],
			[4, false, 'agent'],
			[5, true, undefined],
		],
	);
	assert.equal(relayed.summary.human_turns, 2);
	assert.equal(relayed.summary.title, 'Split the sensor poller from the web handler.');
});

test('copilot format: the summary a task_complete call carries is the agent\'s closing answer, as well as the call', () => {
	// specstoryai/getspecstory specstory-cli/pkg/providers/copilotcli/events_test.go (TestTranscriptBuilder "task_complete's
	// summary is the agent's closing answer, not a tool call") and COPILOTCLI-FORMAT.md: Copilot ends an autonomous turn with it.
	const read = readStore(copilotAdapter, store).find(found => found.summary.id === 'd2a7e9c4-61b8-4f03-9c5e-7b1a3f08e6d4');
	assert.ok(read, 'the session is read');
	assert.deepEqual(
		read.events.filter(event => event.line >= 6).map(event => [event.line, event.kind, event.text ?? event.tool?.name ?? event.result?.call_id]),
		[
			[6, 'assistant', 'The poller runs on its own loop and the handler reads its cache; the tag marks what another session sent.'],
			[6, 'tool_call', 'task_complete'],
			[7, 'tool_result', 'call_t1'],
		],
	);
});

test('copilot format: a record torn off mid-write with the whole record after it on one line is read from that whole record; the torn part is skipped', () => {
	// github/copilot-cli#4098 (1.0.71, on resume): "an incomplete event prefix immediately followed by a complete JSON event
	// without a newline", the complete one keeping the prefix's message or tool-call id. A line torn with nothing after it
	// is still skipped whole.
	const read = readStore(copilotAdapter, store).find(found => found.summary.id === '6f1c3a85-9d2e-4b70-8e14-a3c5d7e9f102');
	assert.ok(read, 'the session is read');
	assert.deepEqual(
		read.events.filter(event => event.line >= 5 && event.line <= 8).map(event => [event.line, event.kind, event.text ?? event.tool?.name ?? event.result?.call_id, event.result?.is_error]),
		[
			[5, 'assistant', 'The PID loop reads the thermocouple before the relay settles, so I will check the delay.', undefined],
			[5, 'tool_call', 'bash', undefined],
			[6, 'tool_result', 'call_k1', true],
			[7, 'assistant', 'The file moved; the settle delay lives in firmware/control/pid.c.', undefined],
		],
	);
	assert.equal(read.loaded.skipped, 3, 'two torn prefixes and the torn line with nothing after it');
});

test('copilot format: a record written with raw newlines inside a string, over several lines, is joined and read at its first line', () => {
	// github/copilot-cli#2649 (1.0.24): tool.execution_complete events whose result.content held fetched page text were
	// written "with literal newline characters inside result.content, so a single JSON object was split across multiple
	// physical JSONL lines"; joined with the newlines escaped, each parsed. A half record with nothing to finish it is skipped.
	const read = readStore(copilotAdapter, store).find(found => found.summary.id === '9a3e5c71-2b4d-4f68-a0c2-e4f6a8b0c213');
	assert.ok(read, 'the session is read');
	const result = read.events.find(event => event.kind === 'tool_result');
	assert.deepEqual([result?.line, result?.result?.call_id, result?.result?.is_error], [4, 'call_w1', false]);
	assert.equal(result?.result?.output, 'Contents of https://glaze.example/prices:\n# Prices\n\nCeladon 12 per kg\nTenmoku 9 per kg');
	assert.deepEqual(
		read.events.filter(event => event.kind === 'assistant').map(event => [event.line, event.text]),
		[[9, 'Tenmoku is the cheaper glaze at 9 per kg.']],
	);
	assert.equal(read.loaded.skipped, 1, 'only the half record');
});

test('copilot format: a fetched page written with raw newlines over more than 64 lines, some of them a bare number, is still one record read at its first line', () => {
	// The same writer as above (github/copilot-cli#2649): a page is as long as it is, and a line of it
	// may be JSON alone (a price, a count), which is no record and does not end the one being joined.
	const read = readStore(copilotAdapter, store).find(found => found.summary.id === 'b8d2f4a6-3c5e-4d70-9a1b-5e7f9c1d3a46');
	assert.ok(read, 'the session is read');
	assert.equal(read.loaded.skipped, 0, read.loaded.warnings.join('; '));
	const result = read.events.find(event => event.kind === 'tool_result');
	assert.deepEqual([result?.line, result?.result?.call_id, result?.result?.is_error], [4, 'call_t1', false]);
	assert.ok(result?.result?.output.endsWith('Tide table row 40\n140\nEnd of table'), 'the whole page');
	assert.deepEqual(
		read.events.filter(event => event.kind === 'assistant').map(event => [event.line, event.text]),
		[[88, 'High tide on Thursday is at row 17 of the table.']],
	);
});

test('copilot format: the name workspace.yaml holds (what /rename or the app set, name: with user_named:) is the session\'s name, over a title its events gave before', () => {
	// A rename syncs into session-state/<id>/workspace.yaml as `name:` and `user_named:`
	// (github/copilot-cli#4244); an automatic name may later replace it there (#2622). The file is
	// the session's name as Copilot shows it now; older builds kept a `summary:` there.
	const named = readStore(copilotAdapter, store).find(read => read.summary.id === '4d7b2e90-8c1a-4e35-b6f2-1a9c3e5d7f20');
	assert.ok(named, 'the named session is read');
	assert.equal(named.summary.human_turns, 0);
	assert.equal(named.summary.title, 'Apiary: winter hive checks');
	assert.equal(named.loaded.skipped, 0);
});

test('copilot format: a workspace.yaml name or summary written as a YAML block scalar (`name: |-`, `summary: >-`) is the text of the block, never its indicator', () => {
	// YAML writers put a string with line breaks in a block scalar: the key's line holds only
	// the indicator and the text follows on indented lines (agent-sessions reads the name so).
	const named = readStore(copilotAdapter, store).find(read => read.summary.id === '7c2d9e41-5a38-4f16-b0e7-3d8a1c6f2b59');
	assert.ok(named, 'the session with a literal block name is read');
	const stated = (read: typeof named) => read.events.flatMap(event => event.kind === 'meta' && event.session?.title !== undefined ? [event.session.title] : []);
	assert.deepEqual(stated(named), ['Orchard: pear grafting\nschedule for spring']);
	assert.equal(named.summary.title, 'list the pear varieties we graft', 'a request typed is still the title');
	const summarised = readStore(copilotAdapter, store).find(read => read.summary.id === 'a4f8b2c6-1d93-4e70-8b5a-6c2e0f9d3a17');
	assert.ok(summarised, 'the session with a folded block summary is read');
	assert.deepEqual(stated(summarised), ['Drip timer skips Tuesdays because the weekday mask is shifted by one']);
	assert.equal(summarised.summary.title, 'Drip timer skips Tuesdays because the weekday mask is shifted by one');
	assert.equal(summarised.summary.project, '/home/ines/orchard/tools/irrigation-scheduler');
});

test('copilot format: a long workspace.yaml name the YAML writer folded over indented lines (plain or quoted) is read whole', () => {
	// YAML writers fold a scalar longer than their line width onto indented continuation lines
	// (the `yaml` package at 80 columns); the break reads as one space.
	const folded = readStore(copilotAdapter, store).find(read => read.summary.id === 'b5c9e3d7-2f04-4a81-9c6b-7d3f1a0e4b28');
	assert.ok(folded, 'the session is read');
	assert.equal(folded.summary.title, 'Why the "frost alarm" fires at dawn: the sensor reads the greenhouse vent, not the orchard rows');
});

test('copilot format: what a person typed when denying a tool permission ("No, and tell Copilot what to do differently") is a request', () => {
	// github/copilot-sdk nodejs/src/generated/session-events.ts: `permission.completed` (not ephemeral) carries
	// `result: {kind: "denied-interactively-by-user", feedback?}`, the feedback being the person's explanation of the
	// denial; github/copilot-cli#3284: CLI 1.0.46 writes permission.requested/completed to events.jsonl. A hook's
	// denial message is not the person's; a denial with nothing typed says nothing.
	const read = readStore(copilotAdapter, store).find(found => found.summary.id === 'e5d3a9f1-7c24-4b86-9e0a-2f4b6c8d1a37');
	assert.ok(read, 'the session is read');
	assert.deepEqual(
		read.events.filter(event => event.kind === 'user').map(event => [event.line, event.human, event.text]),
		[
			[2, true, 'Rename the columns of the weave export to snake_case.'],
			[5, true, 'Keep the old exports; write the renamed files beside them.'],
			[14, true, 'Now zip the old exports.'],
		],
	);
	assert.equal(read.summary.human_turns, 3);
	assert.equal(read.summary.title, 'Rename the columns of the weave export to snake_case.');
	assert.equal(read.loaded.skipped, 0);
});

test('copilot format: a session started detached from a parent session (detachedFromSpawningParentSessionId) is that session\'s child', () => {
	// github/copilot-sdk nodejs/src/generated/session-events.ts StartData.detachedFromSpawningParentSessionId: "identifies a
	// parent session whose context this session continues — e.g., a detached headless rem-agent run launched on the
	// parent's interactive shutdown".
	const child = readStore(copilotAdapter, store).find(found => found.summary.id === 'f1a7c3e9-4d28-4b6a-8e50-9c2d4f6a8b13');
	assert.ok(child, 'the session is read');
	assert.equal(child.summary.parent_id, 'e5d3a9f1-7c24-4b86-9e0a-2f4b6c8d1a37');
	assert.equal(session().summary.parent_id, null, 'a session started on its own has no parent');
});

test('copilot format: a subagent.completed with cancelled:true was torn down, not finished', () => {
	// github/copilot-sdk nodejs/src/generated/session-events.ts SubagentCompletedData.cancelled: "torn down by cancellation
	// … instead of finishing its work. Cancellation is not a failure, so the run still reports completion".
	const read = readStore(copilotAdapter, store).find(found => found.summary.id === 'a2c4e6f8-1b3d-4f57-9a8c-0e2d4f6b8a91');
	assert.ok(read, 'the session is read');
	assert.deepEqual(
		read.events.filter(event => event.kind === 'system').map(event => [event.line, event.text]),
		[
			[4, 'Subagent Explore Agent started'],
			[5, 'Subagent Explore Agent cancelled'],
			[6, 'Aborted (user_initiated)'],
		],
	);
});

test('copilot format: the assistant.message chunks one model response was split into (shared apiCallId, chunkIndex/chunkCount) are one message', () => {
	// github/copilot-sdk nodejs/src/generated/session-events.ts AssistantMessageData: apiCallId is "shared across all chunks
	// of a single API call. Used to group multi-chunk assistant utterances"; chunkCount is the number of messages the
	// response "was split into, one per reasoning boundary"; each chunk has its own messageId.
	const read = readStore(copilotAdapter, store).find(found => found.summary.id === 'b3d5f7a9-2c4e-4a68-8b0d-1f3e5a7c9e02');
	assert.ok(read, 'the session is read');
	assert.equal(read.summary.assistant_messages, 2);
	assert.equal(read.summary.tool_calls, 1);
});

test('copilot format: the summary a session.handoff carries (work done in the session it was handed off from) is a summary, not a request', () => {
	// github/copilot-sdk nodejs/src/generated/session-events.ts HandoffData: {handoffTime, sourceType "remote"|"local",
	// remoteSessionId?, repository?, context?, summary? "Summary of the work done in the source session"}.
	const read = readStore(copilotAdapter, store).find(found => found.summary.id === 'c4e6a8b0-3d5f-4b79-8c1e-2a4c6e8f0b13');
	assert.ok(read, 'the session is read');
	assert.deepEqual(
		read.events.filter(event => event.kind === 'summary').map(event => [event.line, event.text]),
		[[2, 'Added a weights table and a POST /hives/{id}/weights endpoint; the migration runs, two tests for negative weights still fail.']],
	);
	assert.equal(read.summary.human_turns, 1);
	assert.equal(read.summary.title, 'Make the negative-weight tests pass.');
});

test('copilot format: a permission denial that force-rejects the turn (forceReject) ends the turn as interrupted', () => {
	// github/copilot-sdk nodejs/src/generated/session-events.ts PermissionDeniedInteractivelyByUser.forceReject: "Whether to
	// force-reject the current agent turn".
	const read = readStore(copilotAdapter, store).find(found => found.summary.id === 'e5d3a9f1-7c24-4b86-9e0a-2f4b6c8d1a37');
	assert.ok(read, 'the session is read');
	assert.deepEqual(
		read.events.filter(event => event.interrupted).map(event => [event.line, event.kind]),
		[[16, 'system']],
		'a denial that lets the agent go on (with or without feedback) interrupts nothing',
	);
});

test('copilot format: a user.message\'s media attachments (a blob\'s inline bytes, a file whose bytes were sent as an asset) are noted after its text; file references and selections are not, and no path or byte is copied', () => {
	// github/copilot-sdk nodejs/src/generated/session-events.ts: AttachmentBlob {data (base64), mimeType}; AttachmentFile
	// {path, assetId?, mimeType? ("post-resize for images", set when the bytes are interned to an asset), taggedFilesEntry?
	// (a path listed in <tagged_files>, "mutually exclusive with assetId, which marks bytes sent natively")}.
	const read = readStore(copilotAdapter, store).find(found => found.summary.id === '0d6e8f1a-2b3c-4d5e-8f60-718293a4b5c6');
	assert.ok(read, 'the session is read');
	assert.deepEqual(
		read.events.filter(event => event.kind === 'user').map(event => [event.line, event.human, event.text]),
		[
			[2, true, 'The border blocks render skewed, see the screenshot.\n[image: image/png]\n[file: application/pdf]'],
			[4, true, '[file]\n[image: image/webp]'],
		],
		'media sent without a word is a request; a media type that is no string is not copied',
	);
	assert.equal(read.summary.human_turns, 2);
	assert.equal(read.summary.title, 'The border blocks render skewed, see the screenshot. [image: image/png] [file: application/pdf]');
	assert.doesNotMatch(JSON.stringify(read.events), /JVBERi0|iVBORw0KGgo|Pictures|border\.ts \(|sha256/);
});

test('copilot format: the native resume of a session kept under another Copilot home runs with COPILOT_HOME set to it; a store that is no session-state directory has none', t => {
	// `copilot --resume <id>` reads $COPILOT_HOME/session-state, else ~/.copilot/session-state, and
	// moves the XDG locations of earlier releases into ~/.copilot at start when COPILOT_HOME is
	// unset. Evidence: github/docs content/copilot/reference/copilot-cli-reference/
	// cli-config-dir-reference.md (the directory, COPILOT_HOME, the XDG migration).
	const env = sandboxEnv(tempDir(t));
	const other = join(env['HOME']!, 'copilot homes', 'lab');
	cpSync(join(store, 'session-state', id), join(other, 'session-state', id), {recursive: true});
	const native = (args: string[], extra: Record<string, string> = {}) => {
		const result = runCli(['resume', id, '--source', 'copilot', ...args, '--format', 'json'], {env: {...env, ...extra}});
		assert.equal(result.code, 0, result.stderr);
		return result.json();
	};

	assert.equal(native(['--source-root', other]).native_resume_command, `COPILOT_HOME='${other}' copilot --resume ${id}`);
	assert.equal(native(['--source-root', join(other, 'session-state')]).native_resume_command, `COPILOT_HOME='${other}' copilot --resume ${id}`);
	assert.equal(native(['--source-root', other], {COPILOT_HOME: other}).native_resume_command, `copilot --resume ${id}`, 'COPILOT_HOME already names it');

	// The default home, and the XDG state directory plain copilot moves into it at start.
	cpSync(join(other, 'session-state'), join(env['HOME']!, '.copilot', 'session-state'), {recursive: true});
	assert.equal(native([]).native_resume_command, `copilot --resume ${id}`);
	const state = join(env['HOME']!, 'state');
	cpSync(join(other, 'session-state'), join(state, '.copilot', 'session-state'), {recursive: true});
	const context = {home: env['HOME']!, env: {XDG_STATE_HOME: state}, platform: 'linux' as const};
	assert.equal(copilotAdapter.nativeResumeCommand(id, {parentId: null, root: join(state, '.copilot', 'session-state'), context}), `copilot --resume ${id}`);
	assert.equal(copilotAdapter.nativeResumeCommand(id, {parentId: null, root: join(state, '.copilot', 'session-state'), context: {...context, env: {...context.env, COPILOT_HOME: other}}}), `COPILOT_HOME=${join(state, '.copilot')} copilot --resume ${id}`);

	// A store under another name: COPILOT_HOME cannot point there.
	const loose = join(env['HOME']!, 'copilot backup');
	cpSync(join(store, 'session-state', id), join(loose, id), {recursive: true});
	const brief = native(['--source-root', loose]);
	assert.equal(brief.native_resume_command, null);
	assert.ok(brief.warnings.some((warning: string) => /COPILOT_HOME/.test(warning)), JSON.stringify(brief.warnings));
});

test('copilot format: only a shell tool\'s result states an exit status in a trailing <exited with exit code N> line; a file a view read that holds such a line is no failure', () => {
	const read = readStore(copilotAdapter, store).find(found => found.summary.id === 'e7b1c4d2-8a3f-4c60-9d15-2f6a8c0e4b79');
	assert.ok(read);
	assert.deepEqual(
		read.events.filter(event => event.kind === 'tool_result').map(event => [event.result?.call_id, event.result?.is_error, event.result?.exit_code ?? null]),
		[
			['call_k1', false, null],
			['call_k2', true, 4],
		],
	);
});

test('copilot format: a shell call\'s exit status in newer builds is data.shellExecution.exitCode, and the "<shellId: … completed with exit code N>" line ending its output; success stays true either way', () => {
	const read = readStore(copilotAdapter, store).find(found => found.summary.id === 'f4c8a2e6-1b5d-4a93-8e07-3c6f9b2d5a14');
	assert.ok(read);
	assert.deepEqual(
		read.events.filter(event => event.kind === 'tool_result').map(event => [event.result?.call_id, event.result?.is_error, event.result?.exit_code ?? null]),
		[
			['call_q1', true, 2],
			['call_q2', false, null],
			['call_q3', false, null],
			['call_q4', true, 1],
		],
	);
});

test('copilot format: a user.message whose <skill-context> block is followed by what the person typed is host text, then a request', () => {
	// vshulcz/deja-vu internal/sources/copilot_skill_context_test.go (a 1.0.79 store): once a skill is loaded, Copilot puts
	// its <skill-context> block in front of the next prompt, in the same user.message content.
	const read = readStore(copilotAdapter, store).find(candidate => candidate.summary.id === 'c7e2a4b6-8d10-4f3a-9b5c-2e4f6a8c0d19');
	assert.ok(read, 'the session is read');
	const users = read.events.filter(event => event.kind === 'user');
	assert.deepEqual(
		users.map(event => [event.line, event.human, event.text?.startsWith('<skill-context') ?? false]),
		[
			[2, false, true],
			[3, false, true],
			[3, true, false],
		],
	);
	assert.equal(users[2]?.text, 'When is high water at the north pier on Friday?');
	assert.equal(read.summary.human_turns, 1);
	assert.equal(read.summary.title, 'When is high water at the north pier on Friday?');
});

test('copilot format: the model an assistant.message names is the session model when session.start selects none', () => {
	// session-events.ts AssistantMessageData: `model?: string`, "Model that produced this assistant message".
	const read = readStore(copilotAdapter, store).find(found => found.summary.id === '1e5a7c93-4b2d-4f08-a6c1-8d3e5f7a9b24');
	assert.ok(read);
	const models = read.events.filter(event => event.session?.model).map(event => [event.line, event.session?.model]);
	assert.deepEqual(models, [
		[4, 'claude-sonnet-4.6'],
		[8, 'gpt-5.4-mini'],
	], 'each change of model is stated once, at the message that shows it; a subagent\'s model (line 10) is not the session\'s');
	assert.equal(read.loaded.skipped, 0);
});

test('copilot format: the model session.auto_mode_resolved says an auto-mode session settled on (chosenModel) is the session model', () => {
	// session-events.ts: "Auto Intent resolution: the concrete model the session settled on for the first prompt of an
	// auto-mode session" (chosenModel, with the scores it was picked by); builds whose assistant.message names no model say
	// it only there.
	const read = readStore(copilotAdapter, store).find(found => found.summary.id === 'c9a1e3f5-7b2d-4e68-9a0c-4e6f8b2d0a57');
	assert.ok(read);
	assert.deepEqual(read.events.filter(event => event.session?.model).map(event => [event.line, event.session?.model]), [[3, 'claude-haiku-4.5']]);
	assert.equal(read.loaded.skipped, 0);
});

test('copilot format: a name workspace.yaml takes while the session is read (a rename, or a generated name replacing one, with or without a session.title_changed on disk) is the name a scan continued from the cached state gives, as a read of the whole file does', t => {
	// Copilot writes each new name to workspace.yaml (`name:`, github/copilot-cli#4244) and may
	// replace it later with a generated one (#2622); the event log states the change as
	// `session.title_changed` (github/copilot-sdk session-events.ts). The catalog reads a grown
	// events.jsonl on from where it stopped, with the state it kept: the name read then is old.
	const cases = fileURLToPath(new URL('../fixtures/format-cases/copilot/renamed-while-read', import.meta.url));
	const renamed = '2f8d4b6a-1c3e-4a57-9b0d-6e8f2a4c6b31';
	const root = join(tempDir(t), 'session-state');
	const directory = join(root, renamed);
	mkdirSync(directory, {recursive: true});
	cpSync(join(cases, 'workspace-first.yaml'), join(directory, 'workspace.yaml'));
	cpSync(join(cases, 'events-first.jsonl'), join(directory, 'events.jsonl'));
	const scan = (previous?: ScanResult) => {
		const unit = wholeUnit(discoverCopilot(root)[0]!);
		const texts: TextSink = {restart() {}, add() {}};
		const marks: LineMark[] = [{line: 1, offset: 0}, ...(previous?.offsets ?? [])];
		return scanUnit(copilotAdapter, root, unit, previous?.row, offset => marks.filter(mark => mark.offset <= offset).at(-1)!, texts);
	};

	const first = scan();
	assert.equal(first.row.summary.title, 'Kiln ramp schedule');
	cpSync(join(cases, 'workspace-later.yaml'), join(directory, 'workspace.yaml'));
	appendFileSync(join(directory, 'events.jsonl'), readFileSync(join(cases, 'events-later.jsonl')));
	const grown = scan(first);
	const whole = scan();
	assert.equal(whole.row.summary.title, 'Kiln: cone 6 ramp, parked');
	assert.equal(grown.row.summary.title, 'Kiln: cone 6 ramp, parked', 'the continued scan states the name the file holds now');
	const same = (a: ScanResult, b: ScanResult) => {
		const {line_state: _a, ...left} = a.row.summary;
		const {line_state: _b, ...right} = b.row.summary;
		assert.deepEqual(left, right);
	};

	same(grown, whole);

	// Builds whose session.title_changed is ephemeral write no record of a rename: only workspace.yaml changes.
	cpSync(join(cases, 'workspace-last.yaml'), join(directory, 'workspace.yaml'));
	appendFileSync(join(directory, 'events.jsonl'), readFileSync(join(cases, 'events-last.jsonl')));
	const resumed = scan(grown);
	assert.equal(resumed.row.summary.title, 'Kiln: cone 6 ramp, fixed', 'a scan continued after a rename no record states');
	same(resumed, scan());
});

test('copilot format: sandbox.decision and prompt_cache_break are known event types, not skipped lines', () => {
	// Arithmomaniac/copilot-session-tools src/copilot_session_tools/scanner/cli.py lists both among
	// the CLI events it passes over; the SDK's generated session events name `sandbox.decision`.
	const read = readStore(copilotAdapter, store).find(found => found.summary.id === '6a2e8c40-3f1b-4d97-a5c8-1b7d9e3f5a62');
	assert.ok(read);
	assert.equal(read.loaded.skipped, 0);
	assert.deepEqual(read.loaded.rows.find(row => row.line === 2)?.events, []);
	assert.deepEqual(read.loaded.rows.find(row => row.line === 4)?.events, []);
	assert.equal(read.events.filter(event => event.kind === 'user' && event.human).length, 1);
});

test('copilot format: a session /fork made names the session it was forked from in a fork notice ("Forked from … as …"): its parent; the source\'s own notice ("Forked this session into …") names no parent', () => {
	// Arithmomaniac/copilot-session-tools tests/test_scanner.py (session.info fork) and
	// src/copilot_session_tools/scanner/cli.py (_format_fork_info_message): a session named by id or as `"name" (id)`.
	const sessions = readStore(copilotAdapter, store);
	const fork = sessions.find(found => found.summary.id === '7e3f9a51-4c2d-4e08-b6d9-2c8e0f4a6b73');
	const source = sessions.find(found => found.summary.id === '6a2e8c40-3f1b-4d97-a5c8-1b7d9e3f5a62');
	assert.equal(fork?.summary.parent_id, '6a2e8c40-3f1b-4d97-a5c8-1b7d9e3f5a62');
	assert.equal(source?.summary.parent_id ?? null, null);
	assert.equal(source?.loaded.skipped, 0);
});

test('copilot format: a fork of a fork holding its source\'s own fork notice (copied with the history) takes its parent from its own notice, the one that names it', () => {
	// github/copilot-cli#3285: a fork may copy its source's history; the source's notice names the source as the fork.
	const sessions = readStore(copilotAdapter, store);
	const second = sessions.find(found => found.summary.id === '9c4d0b62-5e3a-4f19-c7d0-3d9f1a5b7c84');
	assert.equal(second?.summary.parent_id, '7e3f9a51-4c2d-4e08-b6d9-2c8e0f4a6b73');
	assert.equal(second?.loaded.skipped, 0);
});

test('copilot format: the images a tool returned (result.contents image blocks, {type: "image", data, mimeType}) are noted after its result text, the bytes never copied', () => {
	// github/copilot-sdk nodejs/src/generated/session-events.ts: ToolExecutionCompleteResult.contents, "structured content
	// blocks (text, images, audio, resources) returned by the tool", beside `content`, the text sent to the model.
	const read = readStore(copilotAdapter, store).find(found => found.summary.id === 'd9e2a4c6-7b1f-4e83-a5d0-6c8e2f4a1b37');
	assert.ok(read);
	assert.equal(read.loaded.skipped, 0);
	assert.deepEqual(
		read.events.filter(event => event.kind === 'tool_result').map(event => [event.result?.call_id, event.result?.is_error, event.result?.output]),
		[
			['call_w1', false, 'Viewed image file.\n[image: image/png]'],
			['call_w2', false, '[image: image/jpeg]'],
		],
	);
	assert.doesNotMatch(JSON.stringify(read.events), /iVBORw0KGgo|9j\/4AAQ/);
});

/**
 * Earlier Copilot CLI releases kept their state in the XDG state home's `.copilot`, and with
 * XDG_STATE_HOME unset that is `~/.local/state/.copilot` (the XDG default): real stores lie at
 * `~/.local/state/.copilot/session-state/<id>/` (evidence: kgruel/siftd
 * src/siftd/adapters/copilot_cli.py DEFAULT_LOCATIONS; other readers of Copilot stores list the
 * same directory beside `~/.copilot/session-state`). Current releases move it home at start, but a
 * machine whose Copilot was not started since keeps its sessions there.
 */
test('copilot format: with XDG_STATE_HOME unset, sessions under ~/.local/state/.copilot/session-state are listed', t => {
	assert.deepEqual(copilotAdapter.defaultRoots({env: {}, home: '/home/ada', platform: 'linux'}), ['/home/ada/.copilot/session-state', '/home/ada/.local/state/.copilot/session-state']);
	const env = sandboxEnv(tempDir(t));
	cpSync(join(store, 'session-state', id), join(env['HOME']!, '.local', 'state', '.copilot', 'session-state', id), {recursive: true});
	const result = runCli(['sessions', '--all-projects', '--source', 'copilot', '--format', 'json'], {env: {...env, XDG_STATE_HOME: ''}});
	assert.equal(result.code, 0, result.stderr);
	assert.deepEqual(result.json<{sessions: Array<{id: string}>}>().sessions.map(session => session.id), [id]);
});

/**
 * Copilot CLI keeps every session in `~/.copilot/session-store.db` as well: `sessions` (id, cwd,
 * repository, branch, summary, created_at, updated_at) and `turns` (session_id, turn_index,
 * user_message, assistant_response, timestamp). A session started without a project has only a
 * `session-state/<id>/` folder holding workspace.yaml, no events.jsonl: the database is all there
 * is of its conversation. Evidence: rajbos/ai-engineering-fluency vscode-extension/src/copilotCliStore.ts
 * (PR #915, "chat-only sessions … exist only in the database"), dezgit2025/auto-memory
 * src/session_recall/db/schema_check.py (the columns), github/copilot-cli#2654 (600+ sessions in
 * the local store) and #2655 (since ~1.0.13 `cwd` is NULL in most rows; workspace.yaml has it).
 */
const storeCases = fileURLToPath(new URL('../fixtures/format-cases/copilot/session-store/rows.json', import.meta.url));
const chatOnly = 'a41c7e02-6d3b-4f85-9e10-2b7c5d8f3a64';
const withEvents = 'b52d8f13-7e4c-4a96-8f21-3c8d6e9a4b75';
const folderless = 'c63e9a24-8f5d-4ba7-9032-4d9e7fab5c86';

type StoreRows = {sessions: Array<Record<string, string | null>>; turns: Array<Record<string, string | number | null>>};

/** A `.copilot` home: the session store built from the fixture's rows, a chat-only folder and a folder with its events.jsonl. */
function copilotHome(t: TestContext): string {
	const home = join(tempDir(t), '.copilot');
	const state = join(home, 'session-state');
	mkdirSync(join(state, chatOnly), {recursive: true});
	writeFileSync(join(state, chatOnly, 'workspace.yaml'), `id: ${chatOnly}\ncwd: /home/dev/uploader\nsummary_count: 0\ncreated_at: 2026-05-02T09:14:07.120Z\n`);
	mkdirSync(join(state, withEvents));
	writeFileSync(join(state, withEvents, 'workspace.yaml'), `id: ${withEvents}\ncwd: /home/dev/quill\n`);
	const events = [
		{type: 'session.start', data: {sessionId: withEvents, version: 1, producer: 'copilot-agent', copilotVersion: '1.0.40', startTime: '2026-05-03T14:02:11.000Z', context: {cwd: '/home/dev/quill'}}, id: 'e-1', timestamp: '2026-05-03T14:02:11.000Z', parentId: null},
		{type: 'user.message', data: {content: 'Rename the exporter module to quill-export.'}, id: 'e-2', timestamp: '2026-05-03T14:02:15.000Z', parentId: 'e-1'},
		{type: 'assistant.message', data: {messageId: 'm-1', content: 'Renamed, and updated the two imports.'}, id: 'e-3', timestamp: '2026-05-03T14:02:40.000Z', parentId: 'e-2'},
	];
	writeFileSync(join(state, withEvents, 'events.jsonl'), events.map(event => JSON.stringify(event)).join('\n') + '\n');
	const rows = JSON.parse(readFileSync(storeCases, 'utf8')) as StoreRows;
	const db = new Database(join(home, 'session-store.db'));
	db.exec(`CREATE TABLE sessions (id TEXT PRIMARY KEY, cwd TEXT, repository TEXT, branch TEXT, summary TEXT, created_at TEXT, updated_at TEXT);
		CREATE TABLE turns (session_id TEXT, turn_index INTEGER, user_message TEXT, assistant_response TEXT, timestamp TEXT);
		CREATE TABLE checkpoints (session_id TEXT, checkpoint_number INTEGER, title TEXT, overview TEXT, created_at TEXT);`);
	for (const session of rows.sessions) {
		db.prepare('INSERT INTO sessions VALUES (@id, @cwd, @repository, @branch, @summary, @created_at, @updated_at)').run(session);
	}

	for (const turn of rows.turns) {
		db.prepare('INSERT INTO turns VALUES (@session_id, @turn_index, @user_message, @assistant_response, @timestamp)').run(turn);
	}

	db.close();
	return home;
}

test('copilot format: a session kept only in session-store.db (its folder has no events.jsonl) is listed and read from its turns', t => {
	const sessions = readStore(copilotAdapter, copilotHome(t));
	const read = sessions.find(found => found.summary.id === chatOnly);
	assert.ok(read, 'the chat-only session is listed');
	assert.equal(read.loaded.skipped, 0);
	assert.equal(read.summary.project, '/home/dev/uploader', 'a NULL cwd in the row gives way to the folder\'s workspace.yaml');
	assert.equal(read.summary.started, '2026-05-02T09:14:07.120Z');
	assert.equal(read.summary.title, 'How should the uploader retry a 503 from the bucket?');
	assert.equal(read.summary.human_turns, 2);
	assert.deepEqual(
		read.events.filter(event => event.kind === 'user' || event.kind === 'assistant').map(event => [event.kind, event.human ?? null, event.timestamp, event.text]),
		[
			['user', true, '2026-05-02T09:14:09.480Z', 'How should the uploader retry a 503 from the bucket?'],
			['assistant', null, '2026-05-02T09:14:09.480Z', 'Retry with exponential backoff and jitter, starting at 500 ms.'],
			['user', true, '2026-05-02T09:31:40.002Z', 'And cap the total wait at two minutes.'],
			['assistant', null, '2026-05-02T09:31:40.002Z', 'Capped: the backoff stops growing once the summed waits would pass 120 seconds.'],
		],
	);
});

test('copilot format: a session with events.jsonl is read from it alone, never again from session-store.db; a row without its folder is not listed', t => {
	const sessions = readStore(copilotAdapter, copilotHome(t));
	assert.deepEqual(sessions.map(read => read.summary.id).sort(), [chatOnly, withEvents].sort());
	const quill = sessions.filter(read => read.summary.id === withEvents);
	assert.equal(quill.length, 1);
	assert.equal(quill[0]?.unit.path.endsWith('events.jsonl'), true);
	assert.equal(sessions.some(read => read.summary.id === folderless), false, 'engi retires a session by its folder; the store\'s row alone does not bring it back');
	assert.deepEqual(copilotAdapter.resolveRoot(join('/home/ada/.copilot', 'session-store.db')), ['/home/ada/.copilot/session-state'], 'the store given as the root reads its folders');
});

test('copilot format: session-store.db is listed again only when its file status changes, and a new turn changes its session\'s fingerprint', t => {
	const home = copilotHome(t);
	const root = join(home, 'session-state');
	const kept = new Map<string, {stamp: string; value: unknown}>();
	let listings = 0;
	const memo = {
		get: (key: string, stamp: string) => (kept.get(key)?.stamp === stamp ? kept.get(key)?.value : undefined),
		set: (key: string, stamp: string, value: unknown) => {
			listings++;
			kept.set(key, {stamp, value});
		},
	};
	const fingerprint = () => discoverCopilot(root, memo).find(unit => unit.idHint === chatOnly)?.fingerprint;
	const first = fingerprint();
	assert.ok(first);
	assert.equal(fingerprint(), first);
	assert.equal(listings, 1, 'an unchanged database is not queried again');
	const db = new Database(join(home, 'session-store.db'));
	db.prepare('INSERT INTO turns VALUES (?, 2, ?, ?, ?)').run(chatOnly, 'Log each retry at debug level.', 'Added a debug line per attempt.', '2026-05-02T09:40:00.000Z');
	db.close();
	assert.notEqual(fingerprint(), first);
	assert.equal(listings, 2);
	// A folder appearing for a row the store already had lists that session, the store unchanged.
	mkdirSync(join(root, folderless));
	assert.deepEqual(discoverCopilot(root, memo).map(unit => unit.idHint).sort(), [chatOnly, withEvents, folderless].sort());
	assert.equal(listings, 3);
});

test('copilot format: the folder a session-store.db session ran in is its workspace.yaml cwd, over the row\'s (a drive root in rows some builds wrote)', t => {
	// github/copilot-cli#2655: rows have a NULL cwd since ~1.0.13, and the few with one name the drive root, not the project; workspace.yaml is right in each.
	const home = copilotHome(t);
	const db = new Database(join(home, 'session-store.db'));
	db.prepare("UPDATE sessions SET cwd = '/' WHERE id = ?").run(chatOnly);
	db.close();
	const [unit] = discoverCopilot(join(home, 'session-state')).filter(found => found.idHint === chatOnly).map(wholeUnit);
	assert.equal(unit?.projectHint, '/home/dev/uploader');
	const read = readStore(copilotAdapter, home).find(found => found.summary.id === chatOnly);
	assert.equal(read?.summary.project, '/home/dev/uploader');
});

test('copilot format: a session-store.db turn whose prompt is not text (a blob) is skipped and counted; the others are read', t => {
	const home = copilotHome(t);
	const db = new Database(join(home, 'session-store.db'));
	db.prepare('INSERT INTO turns VALUES (?, 2, ?, ?, ?)').run(chatOnly, Buffer.from([0x00, 0xff]), 'A reply to nothing.', '2026-05-02 09:45:00');
	db.prepare('INSERT INTO turns VALUES (?, 3, ?, NULL, ?)').run(chatOnly, 'Is the jitter uniform?', '2026-05-02 09:46:30');
	db.close();
	const read = readStore(copilotAdapter, home).find(found => found.summary.id === chatOnly);
	assert.ok(read);
	assert.equal(read.loaded.skipped, 1);
	assert.equal(read.summary.human_turns, 3);
	const last = read.events.at(-1);
	assert.deepEqual([last?.kind, last?.text, last?.timestamp], ['user', 'Is the jitter uniform?', '2026-05-02T09:46:30.000Z'], "SQLite's datetime() text is UTC");
});

test('copilot format: a session whose events.jsonl is still empty (not yet written) is read from session-store.db', t => {
	// rajbos/ai-engineering-fluency copilotCliAdapter.ts discover(): only a non-empty events.jsonl covers a session; the store holds the rest.
	const home = copilotHome(t);
	writeFileSync(join(home, 'session-state', chatOnly, 'events.jsonl'), '');
	const sessions = readStore(copilotAdapter, home).filter(found => found.summary.id === chatOnly);
	assert.equal(sessions.length, 1);
	assert.equal(sessions[0]?.unit.variant, 'session-store');
	assert.equal(sessions[0]?.summary.human_turns, 2);
});

test('copilot format: a session-store.db that cannot be read lists none of its sessions, throws nothing, and is tried again on the next call', t => {
	const home = copilotHome(t);
	writeFileSync(join(home, 'session-store.db'), 'this is no SQLite database, only some text of the same length or so');
	let listings = 0;
	const memo = {get: () => undefined, set: () => void listings++};
	const units = discoverCopilot(join(home, 'session-state'), memo);
	assert.deepEqual(units.map(unit => unit.idHint), [withEvents]);
	assert.equal(listings, 0, 'a failed listing is not remembered as an empty store');
});

test('copilot format: sessions kept only in session-store.db are listed by the CLI', t => {
	const env = sandboxEnv(tempDir(t));
	const home = copilotHome(t);
	cpSync(home, join(env['HOME']!, '.copilot'), {recursive: true});
	const result = runCli(['sessions', '--all-projects', '--source', 'copilot', '--format', 'json'], {env});
	assert.equal(result.code, 0, result.stderr);
	assert.deepEqual(result.json<{sessions: Array<{id: string}>}>().sessions.map(session => session.id).sort(), [chatOnly, withEvents].sort());
});

test('copilot format: a background shell\'s end, told by a system.notification of kind shell_completed (shellId, exitCode), is the outcome of the async call that started it; a sync shell\'s notice and a repeated one are not', () => {
	const read = readStore(copilotAdapter, store).find(found => found.summary.id === '7b2e9d41-6c3a-4f58-b1e0-2d9a5c8f3e67');
	assert.ok(read);
	assert.deepEqual(
		read.events.filter(event => event.kind === 'tool_result').map(event => [event.result?.call_id, event.result?.is_error, event.result?.exit_code ?? null]),
		[
			['call_o1', false, null],
			['call_o2', false, null],
			['call_o3', false, 0],
			['call_o1', true, 3],
			['call_o2', false, 0],
		],
	);
	assert.equal(read.events.filter(event => event.kind === 'user' && event.human === true).length, 1);
});

test('copilot format: a background task agent\'s end, told by a system.notification of kind agent_completed (agentId, status), is the outcome of the task call that started it; a failed one is a failure', () => {
	const read = readStore(copilotAdapter, store).find(found => found.summary.id === '2e8f6a13-9c4b-4d70-a5e1-7b3c0d9f2a58');
	assert.ok(read);
	assert.deepEqual(
		read.events.filter(event => event.kind === 'tool_result').map(event => [event.result?.call_id, event.result?.is_error]),
		[
			['call_k1', false],
			['call_k2', false],
			['call_k1', false],
			['call_k2', true],
		],
	);
});
