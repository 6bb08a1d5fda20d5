import assert from 'node:assert/strict';
import {cpSync, mkdirSync, rmSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test, {type TestContext} from 'node:test';
import Database from 'better-sqlite3';
import {antigravityAdapter} from '../../source/adapters/antigravity/index.js';
import {filesTouched} from '../../source/engine/conversation/tool-calls.js';
import {wholeUnit} from '../../source/adapters/types.js';
import {looseUnit, readStore, readUnit} from '../helpers/adapters.js';
import {runCli, sandboxEnv} from '../helpers/cli.js';
import {tempDir} from '../helpers/temp.js';

/**
 * Antigravity format features found in other projects' readers of `agy` transcripts (a Go
 * daemon's TestParseTranscriptFileSubagents, Capacitor's AntigravityImportSourceTests and
 * AntigravitySubagents tests). Every fixture line is invented; only the record shapes are the
 * tool's.
 *
 * A subagent is a conversation of its own (`brain/<child>/`), and its transcript does not name
 * its parent: only the parent's INVOKE_SUBAGENT step does, as "Created the following
 * subagents:" and one JSON object per child holding its `conversationId`.
 */
const cases = join(import.meta.dirname, '..', 'fixtures', 'format-cases', 'antigravity');
const brain = join(cases, '.gemini', 'antigravity-cli', 'brain');
const parent = '4f2a9c1e-7b3d-4e8a-9c6f-1d2e3f4a5b60';
const retryAudit = '8a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c41';
const backoffAudit = '9b2c3d4e-5f6a-4b7c-9d8e-0f1a2b3c4d52';
/** A top-level session the parent's RUN_COMMAND output mentions (it grepped the logs): never its child. */
const mentioned = '6d5c4b3a-2f1e-4d0c-8b9a-7f6e5d4c3b21';
const transcript = (id: string) => join(brain, id, '.system_generated', 'logs', 'transcript.jsonl');

test('antigravity format: an INVOKE_SUBAGENT step names the child conversations it created', () => {
	const session = readUnit(antigravityAdapter, looseUnit(transcript(parent), {idHint: parent}));
	assert.equal(session.loaded.skipped, 0, 'INVOKE_SUBAGENT is a step of the format, not an unknown one');
	assert.deepEqual(session.summary.children, [retryAudit, backoffAudit], 'every child of one step, and not the id a command\'s output quoted');
	const invoke = session.events.filter(event => event.line === 4);
	assert.deepEqual(
		invoke.map(event => event.kind),
		['tool_result', 'meta'],
		'the step is the invoke_subagent call\'s result, and its children are a fact about the session',
	);
	assert.match(invoke[0]!.result!.output, /^Created the following subagents:/);

	const child = readUnit(antigravityAdapter, looseUnit(transcript(retryAudit), {idHint: retryAudit}));
	assert.equal(child.summary.children, undefined, 'a child names no children of its own');
	assert.equal(child.summary.parent_id, null, 'nor its parent: only the parent\'s transcript links them');
});

test('antigravity format: child ids are read only from INVOKE_SUBAGENT steps, in each shape public readers meet', () => {
	const unit = looseUnit(transcript(parent));
	const childrenOf = (step: Record<string, unknown>) => {
		const events = antigravityAdapter.normalizeLine(step, 1, {}, unit);
		return Array.isArray(events) ? events.flatMap(event => event.session?.children ?? []) : assert.fail(`not read: ${JSON.stringify(events)}`);
	};
	// A build that writes neither source nor step_index, and one compact object.
	assert.deepEqual(childrenOf({type: 'INVOKE_SUBAGENT', content: `{"conversationId":"${retryAudit}"}`}), [retryAudit]);
	// An array of children, prose after it.
	assert.deepEqual(
		childrenOf({source: 'MODEL', type: 'INVOKE_SUBAGENT', status: 'DONE', content: `Created the following subagents:\n[{"conversationId":"${retryAudit}"},{"conversationId":"${backoffAudit}"}]\nThey will report back.`}),
		[retryAudit, backoffAudit],
	);
	assert.deepEqual(childrenOf({source: 'MODEL', type: 'INVOKE_SUBAGENT', status: 'ERROR', content: 'Subagent limit reached'}), [], 'a failed invocation created none');
	assert.deepEqual(childrenOf({source: 'MODEL', type: 'RUN_COMMAND', status: 'DONE', content: `Created the following subagents:\n{"conversationId":"${retryAudit}"}`}), [], 'quoted in another step, an id is only text');
	assert.deepEqual(childrenOf({source: 'MODEL', type: 'INVOKE_SUBAGENT', status: 'DONE', content: '{"conversationId":"../../etc"}'}), [], 'an id that could not be a conversation directory is not one');
});

type Listed = {id: string; parent_id: string | null; subagents: number; title: string | null};

function world(t: TestContext) {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	const home = env['HOME']!;
	const app = join(home, '.gemini', 'antigravity-cli', 'brain');
	const place = (id: string) => cpSync(join(brain, id), join(app, id), {recursive: true});
	const run = (args: string[]) => {
		const result = runCli([...args, '--format', 'json'], {env});
		assert.equal(result.code, 0, result.stderr);
		return result.json();
	};

	const list = (...more: string[]) => run(['sessions', '--all-projects', '--source', 'antigravity', ...more]);
	const byId = (listing: {sessions: Listed[]}) => new Map(listing.sessions.map(session => [session.id, session]));
	return {app, place, run, list, byId};
}

test('antigravity format: subagent conversations attach to the parent that invoked them, end to end', t => {
	const {place, run, list, byId} = world(t);
	for (const id of [parent, retryAudit, backoffAudit, mentioned]) {
		place(id);
	}

	const listing = list();
	assert.deepEqual(
		listing.sessions.map((session: Listed) => [session.id, session.subagents]),
		[
			[parent, 2],
			[mentioned, 0],
		],
		'the two children are folded into their parent, not listed as sessions of their own',
	);
	const all = byId(list('--subagents'));
	assert.equal(all.get(retryAudit)?.parent_id, parent);
	assert.equal(all.get(backoffAudit)?.parent_id, parent);
	assert.equal(all.get(mentioned)?.parent_id, null);
	assert.equal(all.get(parent)?.parent_id, null);

	const warm = list();
	assert.deepEqual([warm.catalog.scanned, warm.catalog.unchanged], [0, 4], 'a warm call reads nothing');
	assert.deepEqual(warm.sessions.map((session: Listed) => [session.id, session.subagents]), listing.sessions.map((session: Listed) => [session.id, session.subagents]));

	const found = run(['sessions', '--all-projects', '--source', 'antigravity', '--q', 'idempotency']);
	const hits = byId(found);
	assert.equal(hits.get(retryAudit)?.parent_id, parent, 'a search finds the subagent\'s words and says whose subagent it is');

	const child = run(['read', retryAudit, '--view', 'index']);
	assert.equal(child.session_id, retryAudit);
	assert.ok(child.records.length > 0);
	const invoked = run(['read', parent, '--view', 'events', '--lines', '4']);
	assert.deepEqual([invoked.skipped, invoked.records.length], [0, 1], 'the parent\'s INVOKE_SUBAGENT step reads as a record');
});

test('antigravity format: the link holds whichever of parent and child is scanned first, and follows the parent when it changes', t => {
	const {app, place, list, byId} = world(t);
	place(retryAudit);
	place(backoffAudit);
	assert.deepEqual(list().sessions.map((session: Listed) => session.id).sort(), [retryAudit, backoffAudit].sort(), 'without their parent the children are top-level sessions');

	place(parent);
	const attached = list();
	assert.equal(attached.catalog.scanned, 1, 'only the parent is read: the children\'s rows take the link without being read again');
	assert.deepEqual(attached.sessions.map((session: Listed) => [session.id, session.subagents]), [[parent, 2]]);

	// The parent rewritten without its INVOKE_SUBAGENT step (another session under the same id).
	// transcript_full.jsonl is the copy read where both are kept (the whole steps).
	const file = join(app, parent, '.system_generated', 'logs', 'transcript_full.jsonl');
	writeFileSync(file, JSON.stringify({step_index: 0, source: 'USER_EXPLICIT', type: 'USER_INPUT', status: 'DONE', created_at: '2026-11-21T11:00:00Z', content: '<USER_REQUEST>\nStart over\n</USER_REQUEST>'}) + '\n');
	const unlinked = byId(list());
	assert.deepEqual([...unlinked.keys()].sort(), [parent, retryAudit, backoffAudit].sort(), 'a parent that no longer names them lets its children go');

	rmSync(join(app, parent), {recursive: true});
	place(parent);
	assert.deepEqual(list().sessions.map((session: Listed) => session.id), [parent], 'named again, they attach again');

	rmSync(join(app, parent), {recursive: true});
	const orphans = byId(list('--subagents'));
	assert.equal(orphans.get(retryAudit)?.parent_id, null, 'a parent that is gone leaves its children listed on their own');
	assert.equal(orphans.size, 2);

	// A child that grows after the link was made keeps it.
	place(parent);
	list();
	const childFile = join(app, retryAudit, '.system_generated', 'logs', 'transcript_full.jsonl');
	writeFileSync(childFile, JSON.stringify({step_index: 4, source: 'MODEL', type: 'PLANNER_RESPONSE', status: 'DONE', created_at: '2026-11-21T10:06:00Z', content: 'Reported back to the parent.'}) + '\n', {flag: 'a'});
	const grown = list('--subagents');
	assert.equal(grown.catalog.scanned, 1);
	assert.equal(byId(grown).get(retryAudit)?.parent_id, parent);
});

test('antigravity format: a cold catalog links children it read before their parent', t => {
	const {app, place, list} = world(t);
	place(retryAudit);
	place(backoffAudit);
	// The same parent under an id that sorts after its children's: discovery lists (and the
	// catalog reads) the children first, before any index by id exists.
	const later = 'f0e1d2c3-b4a5-4968-8776-655443322110';
	const logs = join(app, later, '.system_generated', 'logs');
	mkdirSync(logs, {recursive: true});
	cpSync(transcript(parent), join(logs, 'transcript.jsonl'));
	const cold = list();
	assert.equal(cold.catalog.scanned, 3);
	assert.deepEqual(cold.sessions.map((session: Listed) => [session.id, session.subagents]), [[later, 2]]);
});

/**
 * The `agy` CLI keeps a prompt index beside its brains, `<app>/history.jsonl`: one line per
 * prompt, `{display, timestamp (ms), workspace, conversationId}`. Its transcripts never name the
 * folder they ran in, so the index is where a conversation's project is stated (evidence:
 * jhlee0409/claude-code-history-viewer src-tauri/src/providers/antigravity_cli.rs, read_index
 * and its scan_projects_groups_sessions_by_workspace_from_history_index test).
 */
const indexed = join(cases, 'history-index', '.gemini', 'antigravity-cli');
const indexedConversation = '2c7e41d0-93ab-4f15-8e6d-5b0a1c9d7e32';
const unindexedConversation = '7f0d3e8a-16c4-4b9e-a2f7-3e8d9c0b1a54';

test('antigravity format: the CLI\'s history.jsonl names the workspace a conversation ran in, its project', () => {
	const sessions = readStore(antigravityAdapter, indexed);
	const projectOf = new Map(sessions.map(session => [session.unit.idHint, session.summary.project]));
	assert.deepEqual(
		[projectOf.get(indexedConversation), projectOf.get(unindexedConversation)],
		['/home/dana/src/ledgerline', null],
		'the indexed conversation is in its workspace; one the index does not name has no project',
	);
});

/**
 * The CLI's step database beside its brains, `<app>/conversations/<id>.db`, keeps the
 * conversation's metadata in `trajectory_metadata_blob` (row `main`): a protobuf message whose
 * field 1 is the workspace, holding its `file://` URI in field 1, and whose field 2 is the time it
 * was created. A conversation the prompt index does not name (an older build's index, a trimmed
 * one) still ran somewhere, and the database says where (evidence: junhoyeo/tokscale
 * crates/tokscale-core/src/sessions/antigravity_cli.rs, read_trajectory_meta and its
 * parses_tokens_model_and_workspace_from_db test; other readers of `agy` databases decode the
 * same fields).
 */
function varint(value: number): Buffer {
	const bytes: number[] = [];
	let rest = value;
	while (rest >= 0x80) {
		bytes.push((rest % 0x80) | 0x80);
		rest = Math.floor(rest / 0x80);
	}

	bytes.push(rest);
	return Buffer.from(bytes);
}

const lengthField = (field: number, body: Buffer) => Buffer.concat([varint((field << 3) | 2), varint(body.length), body]);
const varintField = (field: number, value: number) => Buffer.concat([varint(field << 3), varint(value)]);

function trajectoryBlob(uri: string): Buffer {
	return Buffer.concat([
		lengthField(1, Buffer.concat([lengthField(1, Buffer.from(uri)), lengthField(3, Buffer.from('tidepool'))])),
		lengthField(2, Buffer.concat([varintField(1, 1_795_000_000), varintField(2, 250_000_000)])),
		lengthField(3, Buffer.from(unindexedConversation)),
	]);
}

function storeWithDatabase(t: TestContext, uri: string, blob: Buffer = trajectoryBlob(uri)): string {
	const app = join(tempDir(t), '.gemini', 'antigravity-cli');
	cpSync(indexed, app, {recursive: true});
	mkdirSync(join(app, 'conversations'));
	const db = new Database(join(app, 'conversations', `${unindexedConversation}.db`));
	db.exec("CREATE TABLE trajectory_metadata_blob (id text DEFAULT 'main', data blob, PRIMARY KEY (id)); CREATE TABLE gen_metadata (idx integer, data blob, size integer NOT NULL DEFAULT 0, PRIMARY KEY (idx))");
	db.prepare("INSERT INTO trajectory_metadata_blob (id, data) VALUES ('main', ?)").run(blob);
	db.close();
	return app;
}

test('antigravity format: a conversation the prompt index does not name is in the workspace its step database records', t => {
	const projectOf = (app: string) => new Map(readStore(antigravityAdapter, app).map(session => [session.unit.idHint, session.summary.project]));
	const posix = projectOf(storeWithDatabase(t, 'file:///home/dana/src/tide%20pool'));
	assert.deepEqual([posix.get(indexedConversation), posix.get(unindexedConversation)], ['/home/dana/src/ledgerline', '/home/dana/src/tide pool']);
	const windows = projectOf(storeWithDatabase(t, 'file:///c%3A/Users/dana/tidepool'));
	assert.equal(windows.get(unindexedConversation), 'c:/Users/dana/tidepool');
});

/**
 * The same metadata message also states the workspace URI as a plain string in its field 7, and
 * a blob may carry only that one: readers decoding the language server's embedded descriptors
 * look in field 7 first and fall back to field 1's nested URI (evidence: mag123c/toktrack
 * src/parsers/antigravity.rs, read_project, "field 7, or field 1→1"; another usage reader of
 * `agy` databases, workspace(), tries the same two places in the same order).
 */
function flatTrajectoryBlob(uri: string): Buffer {
	return Buffer.concat([
		lengthField(2, Buffer.concat([varintField(1, 1_795_000_000), varintField(2, 250_000_000)])),
		lengthField(3, Buffer.from(unindexedConversation)),
		lengthField(7, Buffer.from(uri)),
	]);
}

test('antigravity format: a step database whose metadata names the workspace only in field 7 still places the conversation', t => {
	const projectOf = (app: string) => new Map(readStore(antigravityAdapter, app).map(session => [session.unit.idHint, session.summary.project]));
	const uri = 'file:///home/dana/src/salt%20marsh';
	assert.equal(projectOf(storeWithDatabase(t, uri, flatTrajectoryBlob(uri))).get(unindexedConversation), '/home/dana/src/salt marsh');
});

/**
 * The IDE's brains (`antigravity/`, `antigravity-ide/`) write a tool's output as its own step of
 * type TOOL_RESPONSE, from the SYSTEM source, not as a MODEL step named after the tool. It is
 * the answer to the planner's tool call before it (evidence: users' recovery scripts that pull
 * file contents back out of `~/.gemini/antigravity-ide/brain/<id>/.system_generated/logs/
 * transcript_full.jsonl` by `source == 'SYSTEM' and type == 'TOOL_RESPONSE'`, and of
 * `~/.gemini/antigravity/brain/<id>/…/transcript.jsonl` by `"type":"TOOL_RESPONSE"`).
 */
const ideToolResponse = join(cases, 'ide-tool-response', '.gemini', 'antigravity-ide');

test('antigravity format: an IDE TOOL_RESPONSE step from the SYSTEM source is the tool call\'s result', () => {
	const [session] = readStore(antigravityAdapter, ideToolResponse);
	assert.ok(session);
	assert.equal(session.loaded.skipped, 0, 'TOOL_RESPONSE is a step of the format, not an unknown one');
	const response = session.events.filter(event => event.line === 3);
	assert.deepEqual(response.map(event => event.kind), ['tool_result']);
	assert.equal(response[0]!.result!.is_error, false);
	assert.match(response[0]!.result!.output, /if r\.amount > 0/, 'the tool\'s output is kept (and searchable)');
});

/**
 * A step's status is the language server's CortexStepStatus without its prefix. Besides DONE,
 * ERROR and CANCELED it has INTERRUPTED, for a step the run was stopped under (evidence: the
 * enum read from Antigravity 2.2.1's embedded descriptor, INTERRUPTED = 12, in a public design
 * note on tracking Antigravity sessions; readers of `agy` transcripts that treat
 * `status: "INTERRUPTED"` as a finished, not a successful, step). Like CANCELED it ends the
 * turn as an interruption, of a tool step as much as of the planner's reply.
 */
const interruptedStore = join(cases, 'interrupted-step', '.gemini', 'antigravity-cli');

test('antigravity format: a step with status INTERRUPTED is an interruption, not a finished reply', () => {
	const [session] = readStore(antigravityAdapter, interruptedStore);
	assert.ok(session);
	const kinds = (line: number) => session.events.filter(event => event.line === line).map(event => [event.kind, event.interrupted === true]);
	assert.deepEqual(kinds(3), [['tool_result', false], ['system', true]], 'the stopped command\'s output is kept, and the stop is said');
	assert.equal(session.events.find(event => event.line === 3 && event.kind === 'tool_result')?.result?.is_error, true);
	assert.deepEqual(kinds(4), [['assistant', false], ['system', true]], 'a reply cut off mid-sentence was interrupted');
});

/**
 * The IDE's brains name a tool as Gemini's function calling does, inside its `default_api`
 * namespace (`default_api:write_to_file`), with plain `arguments`; some builds keep a call in the
 * chat-completions shape, `{id, type: "function", function: {name, arguments: "<JSON text>"}}`
 * (evidence: users' recovery scripts over their own `~/.gemini/antigravity/brain/<id>/…/
 * transcript.jsonl`, matching `tc.name === 'default_api:write_to_file'` and reading
 * `tc.arguments.CodeContent`, or `JSON.parse(tc.function.arguments)` for
 * `tc.function.name === 'default_api:write_to_file'`). The tool is the same `write_to_file`
 * the CLI names bare: a reader that keeps the namespace, or looks only at `name`, loses which
 * files the session wrote.
 */
const ideToolCalls = join(cases, 'ide-tool-calls', '.gemini', 'antigravity');

test('antigravity format: IDE tool calls in the default_api namespace and the function shape are the CLI\'s tools', () => {
	const [session] = readStore(antigravityAdapter, ideToolCalls);
	assert.ok(session);
	const calls = session.events.filter(event => event.kind === 'tool_call');
	assert.deepEqual(calls.map(event => event.tool?.name), ['write_to_file', 'replace_file_content']);
	assert.deepEqual(calls.flatMap(event => filesTouched(event)), ['/home/oren/kiln/routes/health.ts', '/home/oren/kiln/server.ts']);
	assert.equal(calls[1]!.tool!.call_id, null, 'an id no result names pairs with nothing');
});

/**
 * The Antigravity IDE logs a conversation's steps to `brain/<id>/.system_generated/logs/overview.txt`:
 * JSON lines of the same step shape as the CLI's transcript (`step_index`, `source`, `type`,
 * `created_at`, `content`, `tool_calls` with JSON-encoded `args`), under a `.txt` name (evidence:
 * Veverke/ChatWizard src/readers/antigravityWorkspace.ts and src/parsers/antigravity.ts read only
 * that file for the IDE; users' recovery scripts glob `brain/*\/.system_generated/logs/overview.txt`
 * and `json.loads` each line; a stored log there holds only USER_INPUT and PLANNER_RESPONSE steps, its
 * step indexes skipping the tool steps). A conversation with only that log and Markdown artifacts was not listed.
 */
const ideOverview = join(cases, 'ide-overview', '.gemini', 'antigravity');

test('antigravity format: the IDE\'s overview.txt step log is the conversation\'s transcript', () => {
	const sessions = readStore(antigravityAdapter, ideOverview);
	assert.equal(sessions.length, 1, 'the conversation directory is a session');
	const [session] = sessions;
	assert.equal(session!.unit.idHint, '3b8e1f6a-2d4c-4a97-8e15-c0f9a7d2b463');
	assert.equal(session!.loaded.skipped, 0);
	assert.equal(session!.summary.title, 'Add cursor pagination to the ledger export endpoint');
	// The log keeps only requests and planner steps: its tool calls have no result steps to pair with.
	assert.deepEqual(session!.events.filter(event => event.kind === 'tool_call').map(event => event.tool?.name), ['view_file', 'replace_file_content']);
	assert.deepEqual(session!.events.filter(event => event.kind === 'tool_call').flatMap(event => filesTouched(event)), ['/home/ilse/ledger/src/export.ts']);
	assert.equal(session!.events.filter(event => event.kind === 'assistant').length, 2);
});

/**
 * Older `agy` builds wrote their prompt index without conversation ids: `{display, timestamp,
 * workspace}`. The line still says where a conversation ran: its `display` is the conversation's
 * first request and its `timestamp` (milliseconds) the moment it was sent, seconds from the
 * USER_INPUT step's `created_at` (evidence: kenn-io/agentsview internal/parser/antigravity_cli.go,
 * inferAntigravityProjectFromHistoryFallback, matching such lines by prompt within a minute;
 * jhlee0409/claude-code-history-viewer antigravity_cli.rs documents `conversationId` as optional).
 * The same prompt sent days later elsewhere, or a line minutes off, is another conversation.
 */
const historyByPrompt = join(cases, 'history-by-prompt', '.gemini', 'antigravity-cli');

test('antigravity format: an older build\'s history line without a conversation id places the conversation its prompt and time start', () => {
	const projectOf = new Map(readStore(antigravityAdapter, historyByPrompt).map(session => [session.unit.idHint, session.summary.project]));
	assert.deepEqual(
		[projectOf.get('1e6b4a90-2c7d-4f3e-9b15-8a0d6c3f7e21'), projectOf.get('5a2f8c13-7e4b-4d96-a0c1-3b9e2d7f6a48')],
		['/home/lior/src/quarry', null],
		'the prompt sent the same second is this conversation\'s; a line two minutes off is not',
	);
});

/**
 * A RUN_COMMAND step's content is the harness's template: any `Created At:`/`Completed At:`
 * lines, then the status sentence ("The command completed successfully." or the exit code it
 * failed with), then `Output:` and the command's output, each line indented by four tabs
 * (evidence: k-k1/agent-fleet workspace/agent/internal/agents/agy/transcript.go, stepMetaLineRe
 * and commandIndentRe, from real transcripts; jazzyalex/agent-sessions
 * Resources/Fixtures/stage0/agents/antigravity/cli_small.jsonl). The status sentence is the
 * command's outcome; an exit code the output happens to mention (a grep of docs, a log) is not.
 */
const commandOutput = join(cases, 'command-output', '.gemini', 'antigravity-cli');

test('antigravity format: a RUN_COMMAND\'s status sentence, not an exit code its output mentions, is its outcome', () => {
	const [session] = readStore(antigravityAdapter, commandOutput);
	assert.ok(session);
	const outcome = (line: number) => {
		const result = session.events.find(event => event.line === line && event.kind === 'tool_result')?.result;
		return [result?.is_error, result?.exit_code];
	};
	assert.deepEqual(outcome(3), [false, 0], 'completed successfully, whatever its output quotes');
	assert.deepEqual(outcome(5), [true, 1]);
});

/**
 * Some writers of the transcript give a RUN_COMMAND step its command and output as fields of their
 * own, `command` and `output`, and no `content` (Atituiset/agent-session-format
 * src/parsers/antigravity.ts reads `output`, falling back to `content`; its
 * tests/fixtures/antigravity/transcript.jsonl and tests/tool-result.test.ts write such steps). The
 * output, status sentence and all, is the result all the same.
 */
const commandOutputField = join(cases, 'command-output-field', '.gemini', 'antigravity-cli');

test('antigravity format: a RUN_COMMAND step that holds its output in `output`, not `content`, keeps that output and its outcome', () => {
	const [session] = readStore(antigravityAdapter, commandOutputField);
	assert.ok(session);
	const result = session.events.find(event => event.line === 3 && event.kind === 'tool_result')?.result;
	assert.deepEqual([result?.is_error, result?.exit_code], [true, 2]);
	assert.match(result?.output ?? '', /unknown section 'Removed'/);
});

/**
 * A command `agy` runs in the background leaves a RUN_COMMAND step with status RUNNING ("Tool is
 * running as a background task with task id: <conversation>/task-N"); its outcome comes later as
 * a SYSTEM_MESSAGE step, `Task id "<conversation>/task-N" finished with result:` and then the
 * same status sentence and `Output:` as a finished RUN_COMMAND, then a `Log: file://…` line
 * (evidence: kgruel/siftd src/siftd/adapters/antigravity_cli.py, _TASK_STARTED_RE and
 * _TASK_FINISHED_RE, and tests/adapters/test_antigravity_cli.py TestAntigravityCliBackgroundTasks).
 * That notice is the command's result, its exit status included; any other system message stays one.
 */
const backgroundTask = join(cases, 'background-task', '.gemini', 'antigravity-cli');

test('antigravity format: a background command\'s "finished with result" system message is its result, with the exit status it states', () => {
	const [session] = readStore(antigravityAdapter, backgroundTask);
	assert.ok(session);
	const results = session.events.filter(event => event.kind === 'tool_result').map(event => [event.line, event.result?.is_error, event.result?.exit_code]);
	assert.deepEqual(results, [
		[6, false, 0],
		[7, true, 2],
	], 'the running steps give no result; each notice gives its command\'s');
	const failed = session.events.find(event => event.line === 7 && event.kind === 'tool_result')?.result?.output ?? '';
	assert.match(failed, /^The command failed with exit code: 2\nOutput:\nFAIL tests\/integration\/harbor_sync_test\.go: timeout after 60s$/);
	assert.deepEqual(session.events.filter(event => event.kind === 'system').map(event => event.line), [8], 'the notices are no system messages; another system message is');
});

/**
 * Recent `agy` builds type every tool-result step GENERIC, the `invoke_subagent` result among
 * them: only its place says which call it answers. Results follow their planner step in the
 * order of its calls (parallel calls give consecutive steps), so the n-th result after a
 * planner step answers its n-th call (evidence: meridianlabs-ai/inspect_scout
 * src/inspect_scout/sources/_antigravity_cli, ToolCallPairer and _spawn_result_content, which
 * take a spawn from a typed INVOKE_SUBAGENT step or from a result paired positionally with an
 * `invoke_subagent` call; its author found only GENERIC result types in CLI 1.1.14–1.1.19).
 */
const genericSpawn = join(cases, 'generic-spawn', '.gemini', 'antigravity-cli');

test('antigravity format: a GENERIC result paired with an invoke_subagent call names the children it created', () => {
	const [session] = readStore(antigravityAdapter, genericSpawn);
	assert.ok(session);
	assert.deepEqual(session.summary.children, ['b4e8f1a2-6c3d-4b75-8e09-1f2a3b4c5d66'], 'the second result answers the second call; a viewed file quoting a spawn created nothing');
});

/**
 * The same GENERIC type holds a `run_command` result, whose content is the RUN_COMMAND template:
 * the status sentence ("The command failed with exit code: N" or "completed successfully") before
 * `Output:`. Its outcome is read as a RUN_COMMAND's; a GENERIC result of another tool (a viewed
 * file that mentions an exit code) is not searched for one (evidence: Conalh/agent-gov-core
 * src/parsers/antigravity.ts reads the exit code from every tool-result step's content, whatever
 * its type, and test/antigravity.test.mjs "parses verified RUN_COMMAND shapes"; the GENERIC
 * typing as above, inspect_scout).
 */
const genericCommand = join(cases, 'generic-command', '.gemini', 'antigravity-cli');

test('antigravity format: a GENERIC result of a run_command call has the outcome its status sentence states', () => {
	const [session] = readStore(antigravityAdapter, genericCommand);
	assert.ok(session);
	const results = session.events.filter(event => event.kind === 'tool_result').map(event => [event.line, event.result?.is_error, event.result?.exit_code]);
	assert.deepEqual(results, [
		[3, false, undefined],
		[4, true, 2],
		[6, false, 0],
	], 'the failed command is a failure; the viewed file\'s "exit code 4" is no outcome');
});

/**
 * A tool the harness could not run (a missing directory, a permission prompt that timed out)
 * leaves a result step whose text, after its `Created At:`/`Completed At:` lines, opens with
 * "Encountered error in step execution: …". That step is a failed result even where its status
 * says DONE; a file that merely quotes the phrase is not (evidence: Conalh/agent-gov-core
 * src/parsers/antigravity.ts extractExitCode, "Encountered error" gives exit 1 whatever the
 * status, and its test/antigravity.test.mjs with status DONE).
 */
const stepError = join(cases, 'step-error', '.gemini', 'antigravity-cli');

test('antigravity format: a tool step whose text reports "Encountered error in step execution" is a failed result', () => {
	const [session] = readStore(antigravityAdapter, stepError);
	assert.ok(session);
	const results = session.events.filter(event => event.kind === 'tool_result').map(event => [event.line, event.result?.is_error]);
	assert.deepEqual(results, [
		[3, true],
		[5, false],
	], 'the harness\'s error is a failure; a viewed file quoting it is not');
});

/**
 * `agy` writes each step twice: `transcript.jsonl` cuts long fields (`truncated_fields`) and
 * re-encodes argument values, `transcript_full.jsonl` beside it holds the same steps whole
 * (evidence: specstoryai/getspecstory specstory-cli/pkg/providers/antigravitycli/ANTIGRAVITY-FORMAT.md
 * §1 and §3, "transcript_full.jsonl is the file to parse").
 */
const fullTranscript = join(cases, 'full-transcript', '.gemini', 'antigravity-cli');

test('antigravity format: where transcript_full.jsonl lies beside transcript.jsonl, the whole steps are read from it, not the cut ones', () => {
	const [session] = readStore(antigravityAdapter, fullTranscript);
	assert.ok(session);
	const logs = join(fullTranscript, 'brain', '2c7e5a91-4d3b-4f8e-a6c0-9b1d3e5f7a28', '.system_generated', 'logs');
	assert.deepEqual(session.unit.paths, [join(logs, 'transcript_full.jsonl'), join(logs, 'transcript.jsonl')]);
	assert.match(session.events.find(event => event.kind === 'user')?.text ?? '', /note the change in CHANGELOG\.md under Unreleased\.$/);
	const reply = session.events.filter(event => event.kind === 'assistant').at(-1);
	assert.match(reply?.text ?? '', /notes the rename under Unreleased\.$/);
	assert.deepEqual(session.events.find(event => event.kind === 'tool_call')?.tool?.input, {AbsolutePath: '/home/lin/cfgkit/loader.py', toolAction: 'Viewing', toolSummary: 'loader.py'});
});

/**
 * Approving a plan writes a USER_INPUT step of the IDE's own words ("Comments on artifact URI: …",
 * "The user has approved this document.") around an empty `<USER_REQUEST></USER_REQUEST>`; a
 * comment on the plan puts the person's words inside the block (vshulcz/deja-vu
 * internal/sources/antigravity_approval_test.go, two such steps in a real store, issue #3326).
 */
const planApproval = join(cases, 'plan-approval', '.gemini', 'antigravity-cli');

test('antigravity format: a plan approval whose <USER_REQUEST> block is empty is no request; a comment\'s request is the words inside the block', () => {
	const [session] = readStore(antigravityAdapter, planApproval);
	assert.ok(session);
	assert.deepEqual(
		session.events.filter(event => event.kind === 'user').map(event => [event.line, event.human, event.text]),
		[
			[1, true, 'Plan how to move the invoice exporter onto the new queue'],
			[5, true, 'keep the old exporter behind a flag for a week'],
		],
	);
	assert.equal(session.summary.human_turns, 2);
});

/**
 * The `agy` CLI's step database keeps every step in `steps(idx, step_type, step_payload)`, the
 * payload a protobuf message: field 4 the status (4 and 5: removed by a rewind or compaction),
 * field 5 the metadata (field 1 its time `{seconds, nanos}`, field 3 its source, 4 for what a
 * person typed), step type 14 a USER_INPUT with the request in field 19's field 2, step type 15 a
 * PLANNER_RESPONSE with field 20 holding the reply's text (field 8) and its tool calls (field 7:
 * `{2: name, 3: JSON arguments}`) (evidence: yangzichao/JustSessions
 * Services/Transcript/Antigravity/AntigravityTranscriptReader.swift and its adapter, which list
 * and read `agy` conversations from these databases alone). Some builds create the transcript and
 * never write it, so the steps are only there (ImL1s/resume-skills issue #248: every transcript of
 * a Windows store empty, the content in `conversations/<id>.db`).
 */
const emptyTranscriptConversation = '5e1c7a2d-8b4f-4d6a-9e3c-2a7b1f0d4c86';
const databaseOnlyConversation = '0b9d4e6f-2c1a-4f3e-8d7b-6a5c4e3d2f19';

function stepMetadata(seconds: number, source?: number): Buffer {
	const time = lengthField(1, Buffer.concat([varintField(1, seconds), varintField(2, 500_000_000)]));
	return lengthField(5, source === undefined ? time : Buffer.concat([time, varintField(3, source)]));
}

const promptStep = (text: string, seconds: number, options: {source?: number; status?: number} = {}) =>
	Buffer.concat([varintField(4, options.status ?? 3), stepMetadata(seconds, options.source ?? 4), lengthField(19, lengthField(2, Buffer.from(text)))]);

function replyStep(text: string, seconds: number, calls: Array<[string, string]> = []): Buffer {
	const toolCalls = calls.map(([name, args]) => lengthField(7, Buffer.concat([lengthField(2, Buffer.from(name)), lengthField(3, Buffer.from(args))])));
	return Buffer.concat([varintField(4, 3), stepMetadata(seconds), lengthField(20, Buffer.concat([lengthField(8, Buffer.from(text)), ...toolCalls]))]);
}

function writeStepDatabase(path: string, workspace: string, steps: Array<[number, number, Buffer]>): void {
	const db = new Database(path);
	db.exec("CREATE TABLE trajectory_meta (trajectory_id text, cascade_id text, trajectory_type integer, source integer); CREATE TABLE trajectory_metadata_blob (id text DEFAULT 'main', data blob, PRIMARY KEY (id)); CREATE TABLE steps (idx integer, step_type integer, status integer, step_payload blob, PRIMARY KEY (idx))");
	db.prepare("INSERT INTO trajectory_metadata_blob (id, data) VALUES ('main', ?)").run(lengthField(1, lengthField(1, Buffer.from(workspace))));
	const insert = db.prepare('INSERT INTO steps (idx, step_type, status, step_payload) VALUES (?, ?, 3, ?)');
	for (const [idx, type, payload] of steps) {
		insert.run(idx, type, payload);
	}

	db.close();
}

function storeWithStepDatabases(t: TestContext): string {
	const app = join(tempDir(t), '.gemini', 'antigravity-cli');
	const logs = join(app, 'brain', emptyTranscriptConversation, '.system_generated', 'logs');
	mkdirSync(logs, {recursive: true});
	writeFileSync(join(logs, 'transcript.jsonl'), '');
	mkdirSync(join(app, 'conversations'));
	writeStepDatabase(join(app, 'conversations', `${emptyTranscriptConversation}.db`), 'file:///home/ravi/src/kiln%20log', [
		[0, 14, promptStep('<USER_REQUEST>\nWhy does the glaze schedule skip Tuesdays?\n</USER_REQUEST>', 1_796_000_000)],
		[1, 15, replyStep('Let me read the scheduler.', 1_796_000_004, [['view_file', '{"AbsolutePath":"\\"/home/ravi/src/kiln log/schedule.py\\""}']])],
		[2, 8, Buffer.from([0x22, 0x01, 0x78])], // A tool result: no known layout, passed over.
		[3, 15, replyStep('Tuesdays are marked as cooling days in schedule.py.', 1_796_000_010)],
		[4, 14, promptStep('a rewound request', 1_796_000_020, {status: 5})],
		[5, 14, promptStep('Read the kiln notes too', 1_796_000_030, {source: 2})],
	]);
	writeStepDatabase(join(app, 'conversations', `${databaseOnlyConversation}.db`), 'file:///home/ravi/src/clay', [[0, 14, promptStep('List the clay bodies we stock', 1_796_100_000)]]);
	return app;
}

test('antigravity format: a conversation whose transcript is empty, or missing, is read from its step database', t => {
	const sessions = new Map(readStore(antigravityAdapter, storeWithStepDatabases(t)).map(session => [session.unit.idHint, session]));
	assert.deepEqual([...sessions.keys()].sort(), [databaseOnlyConversation, emptyTranscriptConversation].sort(), 'one session each, never the empty transcript besides');
	const session = sessions.get(emptyTranscriptConversation)!;
	assert.equal(session.loaded.skipped, 0);
	assert.equal(session.summary.project, '/home/ravi/src/kiln log');
	assert.equal(session.summary.title, 'Why does the glaze schedule skip Tuesdays?');
	assert.deepEqual(
		session.events.filter(event => event.kind !== 'meta').map(event => [event.kind, event.text ?? event.tool?.name, event.human]),
		[
			['user', 'Why does the glaze schedule skip Tuesdays?', true],
			['assistant', 'Let me read the scheduler.', undefined],
			['tool_call', 'view_file', undefined],
			['assistant', 'Tuesdays are marked as cooling days in schedule.py.', undefined],
			['user', 'Read the kiln notes too', false],
		],
		'the rewound step is gone; a request from another source is the host\'s, not a human turn',
	);
	assert.deepEqual(session.events.find(event => event.kind === 'tool_call')?.tool?.input, {AbsolutePath: '/home/ravi/src/kiln log/schedule.py'});
	assert.equal(session.events.find(event => event.kind === 'user')?.timestamp, '2026-11-30T00:53:20.500Z');
	assert.equal(sessions.get(databaseOnlyConversation)?.summary.title, 'List the clay bodies we stock');
	assert.equal(sessions.get(databaseOnlyConversation)?.summary.project, '/home/ravi/src/clay');
});

/**
 * The CLI lists conversations from its summary table, `<app>/conversation_summaries.db`:
 * `conversation_summaries(conversation_id, title, preview, workspace_uris, last_modified_time,
 * app_data_dir, parent_conversation_id)`. A subagent's row names the conversation that started it,
 * which the subagent's transcript never does and the parent's names only when its INVOKE_SUBAGENT
 * result was written; `workspace_uris` says where a conversation ran (evidence:
 * yangzichao/JustSessions Services/Adapters/Antigravity/AntigravitySQLiteReader.swift, summaries).
 */
const summarizedParent = '3a8e6c1f-0d2b-4e7a-9c5f-1b4d7e0a2c63';
const summarizedChild = 'c7f1b3d5-9e2a-4c6b-8d0f-5a3e7c1b9d24';

function storeWithSummaries(t: TestContext, parentColumn = true): string {
	const app = join(tempDir(t), '.gemini', 'antigravity-cli');
	const step = (index: number, type: string, content: string) => JSON.stringify({step_index: index, source: type === 'USER_INPUT' ? 'USER_EXPLICIT' : 'MODEL', type, status: 'DONE', created_at: `2026-11-20T08:0${index}:00Z`, content});
	for (const [id, request] of [[summarizedParent, 'Audit the fixture loader for slow paths'], [summarizedChild, 'Time each fixture loader call']] as const) {
		const logs = join(app, 'brain', id, '.system_generated', 'logs');
		mkdirSync(logs, {recursive: true});
		writeFileSync(join(logs, 'transcript.jsonl'), `${step(0, 'USER_INPUT', `<USER_REQUEST>${request}</USER_REQUEST>`)}\n${step(1, 'PLANNER_RESPONSE', 'Looking now.')}\n`);
	}

	const db = new Database(join(app, 'conversation_summaries.db'));
	db.exec(`CREATE TABLE conversation_summaries (conversation_id TEXT PRIMARY KEY, title TEXT, preview TEXT, workspace_uris TEXT, last_modified_time TEXT, app_data_dir TEXT${parentColumn ? ', parent_conversation_id TEXT' : ''})`);
	const insert = db.prepare(`INSERT INTO conversation_summaries VALUES (?, ?, '', ?, '2026-11-20 08:05:00+00:00', 'antigravity-cli'${parentColumn ? ', ?' : ''})`);
	insert.run(summarizedParent, 'Fixture loader audit', '["file:///home/ines/src/fixture%20kit"]', ...(parentColumn ? [null] : []));
	insert.run(summarizedChild, 'Loader timings', '["file:///home/ines/src/fixture%20kit"]', ...(parentColumn ? [summarizedParent] : []));
	db.close();
	return app;
}

test('antigravity format: the summary table names a subagent\'s parent and where a conversation ran', t => {
	const sessions = new Map(readStore(antigravityAdapter, storeWithSummaries(t)).map(session => [session.unit.idHint, session.summary]));
	assert.equal(sessions.get(summarizedChild)?.parent_id, summarizedParent, 'the child attaches to the conversation its row names');
	assert.equal(sessions.get(summarizedParent)?.parent_id, null);
	assert.deepEqual([sessions.get(summarizedParent)?.project, sessions.get(summarizedChild)?.project], ['/home/ines/src/fixture kit', '/home/ines/src/fixture kit']);

	const older = new Map(readStore(antigravityAdapter, storeWithSummaries(t, false)).map(session => [session.unit.idHint, session.summary]));
	assert.deepEqual([older.get(summarizedChild)?.parent_id, older.get(summarizedChild)?.project], [null, '/home/ines/src/fixture kit'], 'a table without the parent column still places the conversation');
});

test('antigravity format: a step database without steps holds no conversation, and a file that is no database is named, not read', t => {
	const app = join(tempDir(t), '.gemini', 'antigravity-cli');
	mkdirSync(join(app, 'brain'), {recursive: true});
	mkdirSync(join(app, 'conversations'));
	const bare = new Database(join(app, 'conversations', `${databaseOnlyConversation}.db`));
	bare.exec("CREATE TABLE trajectory_metadata_blob (id text DEFAULT 'main', data blob, PRIMARY KEY (id))");
	bare.close();
	writeFileSync(join(app, 'conversations', `${emptyTranscriptConversation}.db`), 'not a database at all');
	const units = new Map(antigravityAdapter.discover(join(app, 'brain')).map(unit => [unit.idHint, wholeUnit(unit)]));
	const session = readUnit(antigravityAdapter, units.get(databaseOnlyConversation)!);
	assert.deepEqual([session.loaded.rows.length, session.loaded.skipped], [0, 0]);
	assert.throws(() => readUnit(antigravityAdapter, units.get(emptyTranscriptConversation)!), (error: Error) => error.message.endsWith(`${emptyTranscriptConversation}.db: not a readable Antigravity step database`));
});

test('antigravity format: an empty transcript_full.jsonl is not read in place of the written transcript.jsonl beside it', t => {
	const app = join(tempDir(t), '.gemini', 'antigravity-cli');
	const logs = join(app, 'brain', summarizedParent, '.system_generated', 'logs');
	mkdirSync(logs, {recursive: true});
	writeFileSync(join(logs, 'transcript_full.jsonl'), '');
	writeFileSync(join(logs, 'transcript.jsonl'), `${JSON.stringify({step_index: 0, source: 'USER_EXPLICIT', type: 'USER_INPUT', status: 'DONE', created_at: '2026-11-21T10:00:00Z', content: '<USER_REQUEST>Sort the glaze recipes by cone</USER_REQUEST>'})}\n`);
	const [session] = readStore(antigravityAdapter, app);
	assert.equal(session?.unit.path, join(logs, 'transcript.jsonl'));
	assert.equal(session?.summary.title, 'Sort the glaze recipes by cone');
});

test('antigravity format: retiring a conversation takes its step database\'s WAL files and its annotation along, and nothing of another', t => {
	const app = storeWithStepDatabases(t);
	const database = join(app, 'conversations', `${emptyTranscriptConversation}.db`);
	mkdirSync(join(app, 'annotations'));
	for (const path of [`${database}-wal`, `${database}-shm`, join(app, 'annotations', `${emptyTranscriptConversation}.pbtxt`), join(app, 'annotations', `${databaseOnlyConversation}.pbtxt`)]) {
		writeFileSync(path, '');
	}

	const brain = join(app, 'brain');
	const unit = wholeUnit(antigravityAdapter.discover(brain).find(each => each.idHint === emptyTranscriptConversation)!);
	const retirement = antigravityAdapter.retirement?.(unit, brain, emptyTranscriptConversation);
	assert.deepEqual(unit.paths, [database, join(brain, emptyTranscriptConversation, '.system_generated', 'logs', 'transcript.jsonl')]);
	assert.deepEqual(retirement?.directories, [join(brain, emptyTranscriptConversation)]);
	assert.deepEqual(retirement?.files, [`${database}-wal`, `${database}-shm`, join(app, 'annotations', `${emptyTranscriptConversation}.pbtxt`)]);
	assert.equal(retirement?.boundary, app);
});

/**
 * The IDE apps keep no summary table; they list conversations from
 * `<app>/agyhub_summaries_proto.pb`: repeated field 1, one entry per conversation, whose field 1
 * is the conversation id and field 2 its details: field 1 the generated title, field 9 the
 * workspace, a message holding the folder's `file://` URI among its strings. An IDE transcript
 * never names its folder, so the list is where the project comes from (evidence:
 * chingleel17/SessionHub src-tauri/src/sessions/antigravity.rs, parse_summaries_proto).
 */
const listedConversation = '5e8b2d4f-0c7a-4d19-a6e3-2b9f1c8d7a05';

function protoMessage(fields: Array<[number, Buffer | string | number]>): Buffer {
	const varint = (value: number) => {
		const bytes: number[] = [];
		for (; value >= 0x80; value = Math.floor(value / 0x80)) {
			bytes.push((value % 0x80) | 0x80);
		}

		return Buffer.from([...bytes, value]);
	};

	return Buffer.concat(fields.map(([field, value]) => {
		if (typeof value === 'number') {
			return Buffer.concat([varint(field * 8), varint(value)]);
		}

		const bytes = Buffer.isBuffer(value) ? value : Buffer.from(value, 'utf8');
		return Buffer.concat([varint(field * 8 + 2), varint(bytes.length), bytes]);
	}));
}

test('antigravity format: the IDE\'s summary list names the workspace a conversation ran in, its project', t => {
	const gemini = join(tempDir(t), '.gemini');
	cpSync(join(cases, 'ide-summary-list', '.gemini'), gemini, {recursive: true});
	const app = join(gemini, 'antigravity-ide');
	const workspace = protoMessage([[2, 'tide-tables'], [1, 'file:///home/marit/src/tide%20tables']]);
	const entry = (id: string, title: string, uri: Buffer) => protoMessage([[1, id], [2, protoMessage([[1, title], [4, 1_763_000_000], [9, uri]])]]);
	writeFileSync(join(app, 'agyhub_summaries_proto.pb'), protoMessage([
		[1, entry('0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e', 'Another conversation', protoMessage([[1, 'file:///home/marit/src/other']]))],
		[1, entry(listedConversation, 'Tide table import drops a row', workspace)],
	]));
	const [session] = readStore(antigravityAdapter, join(app, 'brain'));
	assert.equal(session?.unit.idHint, listedConversation);
	assert.equal(session?.summary.project, '/home/marit/src/tide tables');
	assert.equal(session?.summary.title, 'Why does the tide table import drop the last row?', 'the title stays the first request');

	writeFileSync(join(app, 'agyhub_summaries_proto.pb'), Buffer.from([0x0a, 0x7f, 0x0a]));
	const [torn] = readStore(antigravityAdapter, join(app, 'brain'));
	assert.equal(torn?.summary.project, null, 'a torn list places nothing');
});

/**
 * The `agy` CLI keeps `<app>/cache/last_conversations.json`, an object from each workspace folder
 * to the id of the latest conversation run there. A conversation started in print mode writes no
 * prompt-index line, and its step database may not be there (or not yet hold its metadata); the
 * cache still says where it ran (evidence: teriansilva/agent-sessions
 * src/agent_sessions/engines/antigravity.py, _cwd_by_id, which reverses this map for the cwd
 * before falling back to the step database; codeaholicguy/ai-devkit pull request #133 reads the
 * same file as `{ "<cwd>": "<conversationId>" }`).
 */
const lastConversations = join(cases, 'last-conversations', '.gemini', 'antigravity-cli');
const printedConversation = '5e8b2f14-0c7a-4d39-b6e1-a2c4f9d07b38';

test('antigravity format: the CLI\'s cache of each workspace\'s last conversation places a conversation nothing else places', t => {
	const [session] = readStore(antigravityAdapter, lastConversations);
	assert.equal(session?.unit.idHint, printedConversation);
	assert.equal(session?.summary.project, '/home/ines/work/kelp-survey');
	assert.equal(session?.summary.title, 'Count the transects with missing depth readings');

	const app = join(tempDir(t), '.gemini', 'antigravity-cli');
	cpSync(lastConversations, app, {recursive: true});
	writeFileSync(join(app, 'cache', 'last_conversations.json'), JSON.stringify({'/home/ines/a': printedConversation, '/home/ines/b': printedConversation, 'relative/dir': printedConversation, '/home/ines/c': {id: printedConversation}}));
	assert.equal(readStore(antigravityAdapter, app)[0]?.summary.project, null, 'two workspaces naming one conversation place it nowhere; a relative key or an object value places nothing');
	writeFileSync(join(app, 'cache', 'last_conversations.json'), '{"/home/ines/a": "5e8b2f14');
	assert.equal(readStore(antigravityAdapter, app)[0]?.summary.project, null, 'a torn cache places nothing');
});

/**
 * The `agy` CLI keeps its whole home (brain, conversations, cache, prompt index) under
 * `$ANTIGRAVITY_CLI_HOME` when that is set, else `~/.gemini/antigravity-cli` (evidence:
 * codeaholicguy/ai-devkit packages/agent-manager/src/harnesses/antigravity/AntigravitySessionLocator.ts,
 * which reads the CLI's `cache/last_conversations.json` and `brain/<id>/…/transcript.jsonl` there;
 * other readers of the CLI's store and its token file honour the same variable). The other apps'
 * brains stay where they are.
 */
test('antigravity format: ANTIGRAVITY_CLI_HOME moves the CLI\'s brain', () => {
	assert.deepEqual(antigravityAdapter.defaultRoots({home: '/home/dev', env: {ANTIGRAVITY_CLI_HOME: '/srv/agy-home'}, platform: 'linux'}), [
		'/srv/agy-home/brain',
		'/home/dev/.gemini/antigravity/brain',
		'/home/dev/.gemini/antigravity-ide/brain',
	]);
	assert.deepEqual(antigravityAdapter.defaultRoots({home: undefined, env: {ANTIGRAVITY_CLI_HOME: '/srv/agy-home'}, platform: 'linux'}), ['/srv/agy-home/brain'], 'the variable names the home even without a user home');
	assert.deepEqual(antigravityAdapter.defaultRoots({home: '/home/dev', env: {ANTIGRAVITY_CLI_HOME: '  '}, platform: 'linux'})[0], '/home/dev/.gemini/antigravity-cli/brain', 'a blank value is no setting');
});
