import assert from 'node:assert/strict';
import {createHash} from 'node:crypto';
import {cpSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {qwenAdapter} from '../../source/adapters/qwen/index.js';
import {projectOfChat} from '../../source/adapters/shared/chat-project.js';
import {wholeUnit} from '../../source/adapters/types.js';
import {readUnit} from '../helpers/adapters.js';
import {runCli, sandboxEnv} from '../helpers/cli.js';
import {tempDir} from '../helpers/temp.js';
import {searchableText} from '../../source/engine/search/session-text.js';
import {computeTail} from '../../source/engine/continuity/tail.js';

/**
 * Qwen Code format features found in qwen-code's own source (packages/core/src/config/storage.ts,
 * packages/vscode-ide-companion/src/services/qwenSessionReader.ts) and in other projects' readers
 * of its chats (franken_agent_detection src/connectors/qwen.rs).
 * Every fixture line is invented; only the layout and record shapes are the tool's.
 */
const cases = join(import.meta.dirname, '..', 'fixtures', 'format-cases', 'qwen');

test('qwen format: QWEN_RUNTIME_DIR relocates the projects store, and its chats are found', () => {
	const runtime = join(cases, 'runtime');
	const roots = qwenAdapter.defaultRoots({env: {QWEN_RUNTIME_DIR: runtime}, home: '/home/ada', platform: 'linux'});
	assert.deepEqual(roots, [join(runtime, 'projects'), '/home/ada/.qwen/projects', '/home/ada/.qwen/tmp'], 'the runtime dir first; the default store stays listed for runs without it, and the legacy store last');
	assert.deepEqual(
		qwenAdapter.defaultRoots({env: {QWEN_RUNTIME_DIR: '~/qwen-runtime', QWEN_HOME: '/srv/qwen'}, home: '/home/ada', platform: 'darwin'}),
		['/home/ada/qwen-runtime/projects', '/srv/qwen/projects', '/home/ada/.qwen/projects', '/home/ada/.qwen/tmp'],
	);
	const found = roots.flatMap(root => qwenAdapter.discover(root)).map(unit => unit.idHint);
	assert.deepEqual(found, ['3e1f5a7c-9b2d-4c6e-8f0a-1b3c5d7e9f2a']);
});

test('qwen format: a chat the CLI archived (chats/archive/<id>.jsonl) is still a session', () => {
	// qwen-code's SessionService moves an archived chat to getChatsDir()/archive and lists it from
	// there (packages/core/src/services/sessionService.ts: getArchiveChatsDir; agent-sessions
	// QwenSessionDiscovery.swift reads both places). Sidecars beside it are not chats.
	const root = join(cases, 'archived', 'projects');
	const units = qwenAdapter.discover(root);
	assert.deepEqual(units.map(unit => unit.idHint).sort(), ['0b9d7f5e-3c1a-4e2b-8d6f-4a2c0e8b6d24', '7a2c4e6f-1b3d-4f5a-9c8e-2d4f6a8b0c13']);
	const archived = units.find(unit => unit.idHint === '0b9d7f5e-3c1a-4e2b-8d6f-4a2c0e8b6d24');
	assert.ok(archived);
	const session = readUnit(qwenAdapter, wholeUnit(archived));
	assert.equal(session.summary.title, 'Why does the cone chart skip cone 6?');
	assert.equal(session.summary.project, '/work/kiln');
});

test('qwen format: chats of releases before the JSONL store (~/.qwen/tmp/<project hash>/chats/session-*.json, one document, assistant messages typed "qwen") are listed and read', () => {
	const home = join(cases, 'legacy-home');
	const roots = qwenAdapter.defaultRoots({env: {}, home, platform: 'linux'});
	assert.ok(roots.includes(join(home, '.qwen', 'tmp')), 'the legacy store is a default root');
	const units = roots.flatMap(root => qwenAdapter.discover(root)).map(wholeUnit);
	assert.equal(units.length, 1);
	const {loaded, events, summary} = readUnit(qwenAdapter, units[0]!);
	assert.equal(loaded.skipped, 0);
	assert.equal(summary.title, 'Why does the tide table parser drop the last row?');
	const meta = events.filter(event => event.kind === 'meta').map(event => event.session);
	assert.equal(meta[0]?.id, '5c1d9e2a-7b4f-4e3a-9d12-6f8a0b2c4e71');
	assert.equal(meta[0]?.started, '2025-09-14T10:20:03.118Z');
	assert.equal(meta[0]?.modified, '2025-09-14T10:21:40.902Z');
	assert.ok(meta.some(session => session?.model === 'qwen3-coder-plus'));
	const user = events.find(event => event.kind === 'user');
	assert.equal(user?.text, 'Why does the tide table parser drop the last row?');
	assert.equal(user?.human, true);
	assert.deepEqual(events.filter(event => event.kind === 'assistant').map(event => event.text), ['Let me look at the loop bounds.', 'The range stops one short: use range(len(rows)).']);
	const call = events.find(event => event.kind === 'tool_call');
	assert.deepEqual(call?.tool, {name: 'read_file', call_id: 'read_file-1757845209544-3e7b', input: {absolute_path: '/work/tides/parse.py'}});
	const result = events.find(event => event.kind === 'tool_result');
	assert.equal(result?.result?.call_id, 'read_file-1757845209544-3e7b');
	assert.equal(result?.result?.is_error, false);
	assert.match(result?.result?.output ?? '', /range\(len\(rows\) - 1\)/);
});

test('qwen format: records written more than once under one uuid are fragments of one message, read as qwen-code reads them (parts joined in order, the first model and tool result kept)', () => {
	// qwen-code's reader groups a chat's records by uuid and merges each group
	// (packages/core/src/utils/transcript-records.ts aggregateTranscriptRecordFragments, used by
	// sessionService.ts reconstructHistory): message.parts of every fragment in file order, the
	// first fragment's parentUuid, model and toolCallResult, the latest timestamp. Its test
	// ("aggregates same-uuid fragments") joins two text fragments, so a later fragment adds to
	// the message rather than replacing it.
	const chats = join(cases, 'fragments', 'projects');
	const [unit] = qwenAdapter.discover(chats).map(wholeUnit);
	assert.ok(unit);
	const {loaded, events, summary} = readUnit(qwenAdapter, unit);
	assert.equal(loaded.skipped, 0);
	const reply = events.filter(event => event.uuid === 'f2' && event.kind !== 'meta');
	assert.deepEqual(reply.map(event => event.kind), ['assistant', 'tool_call', 'tool_call']);
	assert.equal(reply[0]?.text, 'Editing the service config first. Then the worker config.');
	assert.deepEqual(reply.slice(1).map(event => event.tool?.call_id), ['call_svc', 'call_wrk']);
	assert.equal(reply[0]?.timestamp, '2026-10-02T09:00:06.000Z', 'the latest fragment\'s time');
	assert.equal(reply[0]?.parent, 'f1');
	const results = events.filter(event => event.kind === 'tool_result');
	assert.deepEqual(results.map(event => [event.result?.call_id, event.result?.is_error]), [['call_svc', false], ['call_wrk', true]]);
	assert.equal(events.find(event => event.session?.model)?.session?.model, 'qwen3-coder-plus', 'the first fragment\'s model');
	assert.equal(summary.tool_calls, 2);
	assert.equal(summary.assistant_messages, 2, 'the fragments are one message');
	const merged = loaded.rows.find(row => row.events.some(event => event.uuid === 'f2'));
	assert.equal(merged?.line, 3, 'where its last fragment was written');
	assert.equal(merged?.offset, undefined, 'a merged record cannot be read back from one line');
});

test('qwen format: a chat of the releases before the JSONL store names its project by a sha256 hash of the path; the path the chat mentions with that hash is its project', () => {
	// qwen-code's Storage put these chats under tmp/<getProjectHash(projectRoot)>/chats, and
	// getProjectHash is sha256 of the project root, lowercased first on Windows
	// (packages/core/src/utils/paths.ts); the document repeats it as projectHash.
	const tmp = join(cases, 'legacy-project', '.qwen', 'tmp');
	const [unit] = qwenAdapter.discover(tmp).map(wholeUnit);
	assert.ok(unit);
	const {summary} = readUnit(qwenAdapter, unit);
	assert.equal(summary.project, '/work/almanac');
	assert.equal(summary.title, 'Why is the moon phase off by a day in March?');
	const windowsHash = createHash('sha256').update('c:\\users\\ada\\almanac').digest('hex');
	const mention = {type: 'qwen', toolCalls: [{name: 'read_file', args: {absolute_path: 'C:\\Users\\ada\\Almanac\\src\\phase.py'}}]};
	assert.equal(projectOfChat([mention], windowsHash), 'C:\\Users\\ada\\Almanac', 'a Windows path is hashed lowercased');
});

test('qwen format: a user record that holds a functionResponse is a tool response turn: the text parts after the response are the tool\'s output, never a person\'s request', () => {
	// qwen-code's one classifier of user prompts (packages/core/src/services/api-user-prompt.ts,
	// isApiUserPrompt) rejects any user entry with a functionResponse part: it is a tool result.
	// A tool's extra parts follow its response in that turn (read_many_files: the files' text after
	// a "Tool execution succeeded." response), and releases whose client recorded every request
	// not flagged as a continuation wrote such a turn as a plain user record.
	const chats = join(cases, 'response-turn', 'projects');
	const [unit] = qwenAdapter.discover(chats).map(wholeUnit);
	assert.ok(unit);
	const {events, summary} = readUnit(qwenAdapter, unit);
	assert.deepEqual(events.filter(event => event.kind === 'user').map(event => [event.uuid, event.human]), [['r1', true]]);
	assert.equal(summary.human_turns, 1);
	assert.equal(summary.title, 'Summarise what changed in the two changelog files');
	const result = events.find(event => event.kind === 'tool_result');
	assert.equal(result?.result?.call_id, 'call_rmf_1');
	assert.match(result?.result?.output ?? '', /CSV export keeps column order/);
	assert.match(result?.result?.output ?? '', /faster importer/);
	// The same holds in the legacy document, whose client recorded such a turn as a user message.
	const legacy = qwenAdapter.discover(join(cases, 'legacy-response', '.qwen', 'tmp')).map(wholeUnit);
	assert.equal(legacy.length, 1);
	const old = readUnit(qwenAdapter, legacy[0]!);
	assert.deepEqual(old.events.filter(event => event.kind === 'user').map(event => event.human), [true]);
	assert.equal(old.summary.human_turns, 1);
});

test('qwen format: a shell command ended by a signal (`Exit Code: (none)`, `Signal: 15`) or by the tool\'s timeout failed, though its status is success', () => {
	// qwen-code packages/core/src/tools/shell.ts: an external signal (OOM killer, SIGTERM) leaves the
	// template with no exit code and the signal on its `Signal:` line, and the tool counts it as a
	// failure ("killed by signal … count as failed"); a timeout returns "Command timed out after …"
	// with no error. Neither sets the call's error, so its status is success.
	const [unit] = qwenAdapter.discover(join(cases, 'signal-ended', 'projects'));
	assert.ok(unit);
	const {events} = readUnit(qwenAdapter, wholeUnit(unit));
	const results = events.filter(event => event.kind === 'tool_result');
	assert.deepEqual(
		results.map(event => [event.result?.call_id, event.result?.is_error, event.result?.exit_code]),
		[
			['call_kill', true, undefined],
			['call_ok', false, 0],
			['call_slow', true, undefined],
		],
		'a `Signal:` the command printed in its output is not the template\'s',
	);
});

test('qwen format: the records /branch copied from the parent (forkedFrom) are not the branch\'s own; its own later turns are', () => {
	// qwen-code's SessionService.forkSession (packages/core/src/services/sessionService.ts) writes the
	// parent's active chain into the new file, each record with its uuid, timestamp and message
	// kept, a new sessionId and parentUuid, and forkedFrom {sessionId, messageUuid}; the branch's
	// own records follow, without forkedFrom.
	const [unit] = qwenAdapter.discover(join(cases, 'branched', 'projects'));
	assert.ok(unit);
	const {events, loaded, summary} = readUnit(qwenAdapter, wholeUnit(unit));
	assert.equal(summary.id, '9d1f3b5a-7c2e-4e8a-b6d0-2a4c6e8f0b17');
	assert.equal(summary.parent_id, '5c8e0a2b-4d6f-4a1c-9e3b-7f5d1b9c3e60');
	assert.equal(summary.title, 'Redo it for a queen-size quilt', "the parent's first request is not the branch's title");
	assert.deepEqual([summary.human_turns, summary.assistant_messages, summary.tool_calls], [1, 1, 0], 'only the turn typed in the branch counts');
	assert.equal(summary.started, '2026-10-07T14:00:00.000Z', 'the branch started when it was made, not when its parent did');
	const copied = events.filter(event => event.line <= 5 && event.kind !== 'meta');
	assert.deepEqual(copied.map(event => event.kind), ['system'], 'the copied records are one notice');
	assert.ok(!events.some(event => event.kind === 'tool_result'), "the parent's failed call is not the branch's failure");
	assert.doesNotMatch(loaded.rows.map(row => searchableText(row.events)).join('\n'), /hexagon|yardage/i, "the parent's records are not searched as the branch's");
	assert.ok(events.some(event => event.uuid === 'a81c0e4f-1d2b-4c3a-9e5f-000000000005'), 'a copied record keeps its place in the tree the branch continues');
});

test('qwen format: records Qwen Code writes beside the conversation tail (a title, a session source, an artifact event) are no branch; the title is the session\'s wherever it hangs', () => {
	// qwen-code's ChatRecordingService appends a custom_title re-anchor (every 32 KB, and the
	// auto title), a session_source re-anchor and session_artifact_event/snapshot records with
	// `updateActiveTail: false`: each names the tail as its parent, but the next record still
	// continues the tail, so the side record is a sibling of it. Its loader never takes one for the
	// leaf, and its title reader takes the newest custom_title in the file whatever its place
	// (packages/core/src/services/chatRecordingService.ts reanchorTitle/reanchorSessionSource;
	// chatRecordingService tests "restores and re-anchors a persisted title outside the active UUID
	// chain"; sessionService tests "loads artifact side records after a tail-neutral title reanchor").
	const [unit] = qwenAdapter.discover(join(cases, 'side-records', 'projects'));
	assert.ok(unit);
	const {summary, loaded, events} = readUnit(qwenAdapter, wholeUnit(unit));
	assert.equal(loaded.skipped, 0);
	assert.deepEqual(summary.abandoned ?? [], [], 'a side record is no abandoned branch');
	assert.deepEqual([summary.human_turns, summary.assistant_messages], [2, 2]);
	assert.deepEqual(events.filter(event => event.session?.title).map(event => [event.line, event.session?.title]), [[3, 'Warp thread count']], 'the title is still stated');
	assert.ok(!events.some(event => event.line === 3 && event.uuid !== undefined), 'and takes no place in the tree');
});

test('qwen format: a subagent\'s transcript (<project>/subagents/<session id>/agent-<id>.jsonl) is listed as a child of the session that launched it, its sidecar kept with it', () => {
	// qwen-code packages/core/src/agents/agent-transcript.ts: each subagent writes ChatRecord lines
	// (the parent's sessionId, its agentId, isSidechain) to getAgentJsonlPath(projectDir, sessionId,
	// agentId), beside an agent-<id>.meta.json sidecar and a transient agent-<id>.jsonl.stream.
	const root = join(cases, 'subagents', 'projects');
	const parentId = '5c8e2a4f-6b1d-4e3a-9f7c-0a2e4c6b8d31';
	const units = qwenAdapter.discover(root).map(wholeUnit);
	assert.deepEqual(units.map(unit => unit.idHint).sort(), [parentId, 'agent-explore-7d41c2']);
	const child = units.find(unit => unit.idHint === 'agent-explore-7d41c2');
	assert.ok(child);
	assert.equal(child.parentIdHint, parentId);
	assert.deepEqual(child.paths.map(path => path.slice(root.length + 1)), [`-home-dev-orchard/subagents/${parentId}/agent-explore-7d41c2.jsonl`, `-home-dev-orchard/subagents/${parentId}/agent-explore-7d41c2.meta.json`]);
	const session = readUnit(qwenAdapter, child);
	assert.equal(session.summary.id, 'agent-explore-7d41c2', 'its records carry the parent\'s sessionId; the file names the subagent');
	assert.equal(session.summary.parent_id, parentId);
	assert.equal(session.summary.human_turns, 0, 'the prompt the parent agent wrote is no person\'s request');
	assert.equal(session.summary.tool_calls, 1);
	assert.match(searchableText(session.events), /picking date/);
	const parent = readUnit(qwenAdapter, units.find(unit => unit.idHint === parentId)!);
	assert.equal(parent.summary.title, 'Find which rows of harvest.csv have no picking date');
	assert.equal(parent.summary.parent_id, null);
});

test('qwen format: media parts (inlineData) in a prompt or a tool result are noted by their media type, their base64 payload never copied', () => {
	// qwen-code keeps a tool's media in the functionResponse's own `parts` (packages/core/src/
	// services/compactionInputSlimming.ts getFunctionResponseParts: "qwen-code attaches media
	// here", read by image-payload-references.ts), older builds put it after the response as a
	// sibling part; a prompt's pasted or @-referenced image is an inlineData part of the message.
	const chats = join(cases, 'media', 'projects');
	const [unit] = qwenAdapter.discover(chats).map(wholeUnit);
	assert.ok(unit);
	const {loaded, events, summary} = readUnit(qwenAdapter, unit);
	assert.equal(loaded.skipped, 0);
	const prompt = events.find(event => event.kind === 'user');
	assert.equal(prompt?.human, true);
	assert.equal(prompt?.text, 'Match the map colours to this palette\n[image: image/jpeg]');
	assert.equal(summary.title, 'Match the map colours to this palette [image: image/jpeg]');
	assert.deepEqual(
		events.filter(event => event.kind === 'tool_result').map(event => [event.result?.call_id, event.result?.output]),
		[
			['call_img_1', 'Binary content provided (1 item(s)).\n[image: image/png]'],
			['call_doc_2', 'Tool execution succeeded.\n[file: application/pdf]'],
		],
	);
	assert.doesNotMatch(JSON.stringify(events), /iVBORw0KGgo|\/9j\/4AAQ|JVBERi0/, 'no base64 payload is copied into an event');
	// The chat document of earlier releases records them alike: a read image after the call's
	// response in its `result` ("Binary content of type image/png was processed."), and in the prompt.
	const legacy = qwenAdapter.discover(join(cases, 'media-legacy', '.qwen', 'tmp')).map(wholeUnit);
	assert.equal(legacy.length, 1);
	const old = readUnit(qwenAdapter, legacy[0]!);
	assert.equal(old.events.find(event => event.kind === 'user')?.text, 'Which fonts does this poster use?\n[image: image/webp]');
	assert.equal(old.events.find(event => event.kind === 'tool_result')?.result?.output, 'Binary content of type image/png was processed.\n[image: image/png]');
	assert.doesNotMatch(JSON.stringify(old.events), /UklGRi|iVBORw0KGgo/);
});

test('qwen format: a subagent transcript\'s task prompt (its first user record, written by the parent agent) is the agent\'s text, and titles the subagent\'s session', () => {
	// qwen-code packages/core/src/agents/agent-transcript.ts attachJsonlTranscriptWriter records the
	// launching prompt as the first `user` record (initialUserPrompt, "so the transcript is
	// self-describing"), every record stamped with agentId and isSidechain: true. Other readers
	// title a subagent's session by the task its parent gave it.
	const root = join(cases, 'subagents', 'projects');
	const child = qwenAdapter.discover(root).map(wholeUnit).find(unit => unit.idHint === 'agent-explore-7d41c2');
	assert.ok(child);
	const {events, summary} = readUnit(qwenAdapter, child);
	const task = events.find(event => event.kind === 'user');
	assert.equal(task?.human, false);
	assert.equal(task?.origin, 'agent');
	assert.equal(summary.title, 'List the rows of harvest.csv whose picking date is empty');
	assert.equal(summary.human_turns, 0);
});

test('qwen format: a prompt recorded without displayText is what was typed, without the @-file contents appended between the reference markers', () => {
	// qwen-code's readManyFiles (packages/core/src/utils/readManyFiles.ts) frames the files an
	// @-reference reads between "\n--- Content from referenced files ---" and
	// "\n--- End of content ---", after the typed query (atCommandProcessor.ts); records without
	// systemPayload.displayText, and the chat documents of earlier releases, hold only that.
	const [unit] = qwenAdapter.discover(join(cases, 'at-files', 'projects')).map(wholeUnit);
	assert.ok(unit);
	const {events, summary} = readUnit(qwenAdapter, unit);
	assert.deepEqual(events.filter(event => event.kind === 'user').map(event => [event.text, event.human]), [['Which shifts in @data/week.csv overlap?', true]]);
	assert.equal(summary.title, 'Which shifts in @data/week.csv overlap?');
	const legacy = qwenAdapter.discover(join(cases, 'at-files-legacy', '.qwen', 'tmp')).map(wholeUnit);
	assert.equal(legacy.length, 1);
	const old = readUnit(qwenAdapter, legacy[0]!);
	assert.deepEqual(old.events.filter(event => event.kind === 'user').map(event => event.text), ['Summarise @docs/leave.md']);
});

test('qwen format: the @attachment:/// tokens the daemon appends to a prompt\'s displayText for attached resources are not what was typed', () => {
	// qwen-code packages/core/src/utils/transcript-records.ts stripGeneratedAttachmentTokens: a
	// prompt's displayText may end with "\n\n@attachment:///<id>" for each `resource` entry of
	// systemPayload.attachmentReferences; readers take them off before showing the prompt.
	const [unit] = qwenAdapter.discover(join(cases, 'attachments', 'projects')).map(wholeUnit);
	assert.ok(unit);
	const {events, summary} = readUnit(qwenAdapter, unit);
	const prompt = events.find(event => event.kind === 'user');
	assert.equal(prompt?.text, 'Does clause 4 allow subletting?\n[file: application/pdf]');
	assert.equal(prompt?.human, true);
	assert.equal(summary.title, 'Does clause 4 allow subletting? [file: application/pdf]');
});

test('qwen format: a chat in chats/archive/ is archived, one in chats/ is not', () => {
	// qwen-code packages/core/src/services/sessionService.ts: SessionListItem.isArchived is "read
	// from the archive directory"; archiveSessions moves a chat there and unarchiveSessions back.
	const units = qwenAdapter.discover(join(cases, 'archived', 'projects'));
	assert.deepEqual(
		units.map(unit => [unit.idHint, unit.archived === true]).sort(),
		[
			['0b9d7f5e-3c1a-4e2b-8d6f-4a2c0e8b6d24', true],
			['7a2c4e6f-1b3d-4f5a-9c8e-2d4f6a8b0c13', false],
		],
	);
});

test('qwen format: a chat resumes natively with `qwen --resume <id>`, QWEN_RUNTIME_DIR set when it was found under another runtime directory; an archived chat, a pre-JSONL chat and a subagent\'s transcript have none', t => {
	// `qwen --resume <id>` opens a chat of the project it runs in, <runtime>/projects/<project>/chats
	// (the runtime directory QWEN_RUNTIME_DIR, else QWEN_HOME, else ~/.qwen); archived chats sit in
	// chats/archive. Evidence: QwenLM/qwen-code packages/cli/src/config/config.ts (the `resume`
	// argument: "Resume a specific session by its ID"), packages/core/src/services/sessionService.ts
	// (SessionService over Storage.getProjectDir()/chats, the `archive` directory, runtimeBaseDir),
	// packages/core/src/config/storage.ts (getRuntimeBaseDir).
	const env = sandboxEnv(tempDir(t));
	const id = '3e1f5a7c-9b2d-4c6e-8f0a-1b3c5d7e9f2a';
	const other = join(env['HOME']!, 'qwen runtime');
	cpSync(join(cases, 'runtime'), other, {recursive: true});
	const run = (sessionId: string, args: string[], extra: Record<string, string> = {}) => {
		const result = runCli(['resume', sessionId, '--source', 'qwen', ...args, '--format', 'json'], {env: {...env, ...extra}});
		assert.equal(result.code, 0, result.stderr);
		return result.json();
	};

	assert.equal(run(id, ['--source-root', other]).native_resume_command, `QWEN_RUNTIME_DIR='${other}' qwen --resume ${id}`);
	assert.equal(run(id, ['--source-root', join(other, 'projects')]).native_resume_command, `QWEN_RUNTIME_DIR='${other}' qwen --resume ${id}`);
	assert.equal(run(id, [], {QWEN_RUNTIME_DIR: other}).native_resume_command, `qwen --resume ${id}`, 'QWEN_RUNTIME_DIR already names it');
	cpSync(join(cases, 'runtime'), join(env['HOME']!, '.qwen'), {recursive: true});
	assert.equal(run(id, []).native_resume_command, `qwen --resume ${id}`, 'the runtime directory plain qwen reads');

	// Archived: in chats/archive, which --resume does not open.
	const archived = '0b9d7f5e-3c1a-4e2b-8d6f-4a2c0e8b6d24';
	cpSync(join(cases, 'archived'), join(env['HOME']!, '.qwen'), {recursive: true});
	const brief = run(archived, []);
	assert.equal(brief.native_resume_command, null);
	assert.ok(brief.warnings.some((warning: string) => /archived Qwen Code chat/.test(warning)), JSON.stringify(brief.warnings));
	assert.equal(run('7a2c4e6f-1b3d-4f5a-9c8e-2d4f6a8b0c13', []).native_resume_command, 'qwen --resume 7a2c4e6f-1b3d-4f5a-9c8e-2d4f6a8b0c13', 'its unarchived neighbour resumes');

	// A chat of the releases before the JSONL store, and a subagent transcript.
	const home = env['HOME']!;
	const context = {home, env: {}, platform: 'linux' as const};
	const legacy = join(home, '.qwen', 'tmp', 'abc', 'chats', 'session-2025-09-14T10-20-5c1d9e2a.json');
	assert.match(qwenAdapter.nativeResumeUnavailable?.(join(home, '.qwen', 'tmp'), {parentId: null, path: legacy, context}) ?? '', /before the JSONL store/);
	const agent = join(home, '.qwen', 'projects', '-work-atlas', 'subagents', id, 'agent-a1.jsonl');
	assert.equal(qwenAdapter.nativeResumeCommand('agent-a1', {parentId: id, path: agent, context}), null);
	assert.equal(qwenAdapter.nativeResumeUnavailable?.(join(home, '.qwen', 'projects'), {parentId: id, path: agent, context}), undefined);
});

test('qwen format: a person\'s @-mention of a session agent (agent_mention) is a request they typed; the agent\'s reply (agent_message) answers it, an agent\'s own @-mention is the agent\'s, all on the main conversation', () => {
	// qwen-code's session multi-agent feature writes both as `type: "user"` records
	// (packages/core/src/agents/session-agents/contract.ts; ChatRecordingService
	// recordExternalAgentRecordStrict): the message holds the envelope the main model reads, the
	// systemPayload what was shown (`displayText`), and an `author` when an agent posted it with
	// session_send (provenance `external_agent`, else `real_user`). A mention starts no main-model
	// turn: the mentioned agent answers, in an agent_message naming its author in `agentId`, on the
	// main chain, no background subagent's sidechain (conversation-delta.ts labels a mention
	// without an author "User", the others by the agent). A run that did not complete answered
	// nothing (contract.ts AgentMessageRecordPayload status/error).
	const [unit] = qwenAdapter.discover(join(cases, 'session-agents', 'projects'));
	assert.ok(unit);
	const {events, summary, loaded} = readUnit(qwenAdapter, wholeUnit(unit));
	assert.equal(loaded.skipped, 0);
	const shown = events.filter(event => event.kind !== 'meta').map(event => [event.line, event.kind, event.text, event.human ?? null, event.origin ?? null, event.sidechain ?? false]);
	assert.deepEqual(shown, [
		[1, 'user', 'Draft a migration that splits the orders table by year', true, null, false],
		[2, 'assistant', 'Drafted migrations/0042_split_orders.sql with an up and a down step.', null, null, false],
		[3, 'user', '@critic check the down step before I run it', true, null, false],
		[4, 'assistant', 'The down step drops idx_orders_year twice; the second DROP fails.', null, null, false],
		[5, 'user', '@scribe note the double DROP in CHANGES.md', false, 'agent', false],
		[6, 'user', 'Fix the down step as the critic says', true, null, false],
		[7, 'assistant', 'The down step now drops idx_orders_year once.', null, null, false],
		[8, 'system', "Agent scribe's run failed: runtime went offline", null, null, false],
	]);
	assert.ok(events.find(event => event.line === 8)?.error, 'a failed run is a failure');
	assert.equal(summary.human_turns, 3, 'the person\'s mention is one of their requests');
	assert.deepEqual(summary.abandoned ?? [], []);
	assert.doesNotMatch(events.map(event => event.text ?? '').join('\n'), /not by the user|addressed to the agents/, 'the envelope the model reads is not shown');
	// A session that ends with a mention and the agent's answer is no unanswered request.
	const answered = events.filter(event => event.line <= 4);
	assert.equal(computeTail(answered, false).unanswered, null);
});

test('qwen format: a user record injected as external input of kind notification (externalInputKind "notification") is no request a person typed', () => {
	// qwen-code's ChatRecord carries `externalInputKind: 'message' | 'notification'` on injected
	// external input records (packages/core/src/services/chatRecordingService.ts), and its branch
	// summaries skip a user record whose kind is `notification` as synthetic, like the
	// notification and cron subtypes (packages/core/src/utils/conversation-branches.ts
	// isSyntheticUserRecord).
	const [unit] = qwenAdapter.discover(join(cases, 'external-input', 'projects'));
	assert.ok(unit);
	const {events, summary} = readUnit(qwenAdapter, wholeUnit(unit));
	const users = events.filter(event => event.kind === 'user').map(event => [event.line, event.human]);
	assert.deepEqual(users, [[1, true], [3, false]]);
	assert.equal(summary.human_turns, 1);
	assert.equal(summary.title, 'Start the glaze-temperature sweep in the background');
});

test('qwen format: a prompt whose displayText is empty beside its hook context (an image sent alone) is the person\'s request, its text the image\'s note, never the hook context', () => {
	// qwen-code's projectUserTranscriptForDisplay (packages/core/src/utils/transcript-records.ts):
	// a user prompt payload (`hookContext` beside `displayText`) makes displayText what was typed,
	// "an empty string is meaningful and must not fall back to model-facing parts"; the non-text
	// parts (an image) are kept. The model-bound parts end with the hook context.
	const [unit] = qwenAdapter.discover(join(cases, 'image-only-prompt', 'projects'));
	assert.ok(unit);
	const {events, summary} = readUnit(qwenAdapter, wholeUnit(unit));
	const users = events.filter(event => event.kind === 'user').map(event => [event.text, event.human]);
	assert.deepEqual(users, [['[image: image/png]', true]]);
	assert.equal(summary.human_turns, 1);
	assert.doesNotMatch(events.map(event => event.text ?? '').join('\n'), /trails-v2|iVBOR/, 'neither the hook context nor the image data is shown');
});
