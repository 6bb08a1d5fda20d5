import assert from 'node:assert/strict';
import {copyFileSync, mkdirSync, readdirSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import Database from 'better-sqlite3';
import {conversationWorkspace} from '../../source/adapters/antigravity/conversation-db.js';
import {antigravityAdapter} from '../../source/adapters/antigravity/index.js';
import {fixtureStores, looseUnit, readStore, readUnit, sharedFixtures} from '../helpers/adapters.js';
import {wholeUnit} from '../../source/adapters/types.js';
import {tempDir} from '../helpers/temp.js';

const gemini = join(fixtureStores, 'antigravity', '.gemini');
const cliBrain = join(gemini, 'antigravity-cli', 'brain');
const cliId = '3b8f6c2e-1d4a-4e9b-a7c5-0f2e8d6b4a19';
const legacyId = '5c9a7d3f-2e5b-4fac-b8d6-1a3f9e7c5b20';
const ideId = '7e1b3d5f-4a6c-4b8d-9e0f-3c5d7f9b1d42';
const byId = () => new Map(readStore(antigravityAdapter, gemini).map(session => [session.summary.id, session]));

test('antigravity: default roots and --source-root forms', () => {
	assert.deepEqual(antigravityAdapter.defaultRoots({home: '/home/dev', env: {}, platform: 'linux'}), [
		'/home/dev/.gemini/antigravity-cli/brain',
		'/home/dev/.gemini/antigravity/brain',
		'/home/dev/.gemini/antigravity-ide/brain',
	]);
	assert.deepEqual(antigravityAdapter.defaultRoots({home: undefined, env: {}, platform: 'darwin'}), []);
	assert.deepEqual(antigravityAdapter.resolveRoot(gemini), [cliBrain, join(gemini, 'antigravity', 'brain'), join(gemini, 'antigravity-ide', 'brain')], '~/.gemini: every app brain present');
	assert.deepEqual(antigravityAdapter.resolveRoot(join(gemini, 'antigravity-cli')), [cliBrain]);
	assert.deepEqual(antigravityAdapter.resolveRoot(cliBrain), [cliBrain]);
	assert.equal(antigravityAdapter.nativeResumeCommand(cliId), null);
});

test('antigravity: discovery finds every transcript layout, never Markdown-only brains', () => {
	const units = antigravityAdapter.resolveRoot(gemini).flatMap(root => antigravityAdapter.discover(root).map(wholeUnit));
	assert.deepEqual(
		units.map(unit => unit.idHint),
		[cliId, legacyId, ideId],
		'the 8d2e… brain holds only task.md and implementation_plan.md',
	);
	const cli = units[0]!;
	assert.equal(cli.path, join(cliBrain, cliId, '.system_generated', 'logs', 'transcript_full.jsonl'));
	assert.deepEqual(
		cli.paths,
		[cli.path, join(cliBrain, cliId, '.system_generated', 'logs', 'transcript.jsonl'), join(gemini, 'antigravity-cli', 'conversations', `${cliId}.db`)],
		'the cut transcript.jsonl and the step database belong to the session but are not read',
	);
	assert.equal(units[1]!.path, join(gemini, 'antigravity', 'brain', legacyId, 'transcript.jsonl'));
	assert.equal(units[2]!.path, join(gemini, 'antigravity-ide', 'brain', `${ideId}.jsonl`));
	assert.ok(units.every(unit => unit.parentIdHint === undefined && unit.projectHint === undefined));
});

test('antigravity: requests, model, counts and skipped lines', () => {
	const sessions = byId();
	const cli = sessions.get(cliId)!;
	const {id, project, started, modified, title, human_turns, assistant_messages, tool_calls, conversational} = cli.summary;
	assert.deepEqual(
		{id, project, started, modified, title, human_turns, assistant_messages, tool_calls, conversational},
		{
			id: cliId,
			project: null,
			started: '2026-11-14T10:00:00.000Z',
			modified: '2026-11-14T10:05:03.000Z',
			title: 'Add input validation to the signup form in web/signup.tsx',
			human_turns: 4,
			assistant_messages: 5,
			tool_calls: 4,
			conversational: true,
		},
	);
	assert.deepEqual(
		cli.events.filter(event => event.kind === 'user').map(event => [event.line, event.text, event.human]),
		[
			[1, 'Add input validation to the signup form in web/signup.tsx', true],
			[13, 'stop, use zod for the schema instead', true],
			[15, 'Go ahead with zod', true],
			[17, 'Retry', true],
		],
		'metadata and settings blocks are not part of the request',
	);
	assert.deepEqual(cli.events.find(event => event.kind === 'meta')?.session, {model: 'Gemini 3.1 Pro (High)'});
	assert.equal(cli.loaded.skipped, 2, 'a malformed line and an unknown SYSTEM step type');
	assert.deepEqual(cli.loaded.warnings, ['line 10: skipped, not valid JSON'], 'unknown types are counted, not warned; nothing echoes content');
	assert.ok(!JSON.stringify(cli.events).includes('read it first'), 'thinking is never shown');
	assert.deepEqual(
		cli.events.filter(event => event.kind === 'summary' || event.kind === 'system').map(event => [event.line, event.kind, event.uuid]),
		[
			[9, 'system', '8'],
			[12, 'summary', '11'],
			[14, 'system', '13'],
			[16, 'system', '15'],
		],
	);

	const legacy = sessions.get(legacyId)!;
	assert.deepEqual([legacy.summary.title, legacy.summary.human_turns, legacy.loaded.skipped], ['Explain what the cron job in ops/backup.sh does', 2, 1]);
	assert.deepEqual(legacy.loaded.warnings, ['line 8: skipped, incomplete last line (still being written?)']);
	assert.equal(legacy.events.at(-1)?.kind, 'user', 'the last step is an unanswered request');

	const ide = sessions.get(ideId)!;
	assert.deepEqual([ide.summary.title, ide.summary.human_turns, ide.summary.conversational], [null, 0, true], 'a workflow-started session has no human request');
	assert.deepEqual(
		ide.events.filter(event => event.kind === 'user').map(event => [event.line, event.human]),
		[[3, false]],
		'a settings-only input is no request; a SYSTEM-sourced request is not human',
	);
	assert.deepEqual(ide.events.find(event => event.kind === 'meta')?.session, {model: 'Gemini 3.5 Flash (Medium)'});
});

test('antigravity: tool calls, results, exit codes, interruptions, errors and pending calls', () => {
	const sessions = byId();
	const cli = sessions.get(cliId)!;
	assert.deepEqual(
		cli.events.filter(event => event.kind === 'tool_call').map(event => [event.line, event.tool?.name, event.tool?.call_id, event.tool?.input, event.pending ?? false]),
		[
			[3, 'view_file', null, {AbsolutePath: '/work/site/web/signup.tsx', toolSummary: 'Viewing signup form'}, false],
			[5, 'run_command', null, {CommandLine: 'npm test -- signup', Cwd: '/work/site', Blocking: true, toolSummary: 'Running signup tests'}, false],
			[7, 'replace_file_content', null, {TargetFile: '/work/site/web/signup.tsx', ReplacementChunks: [{TargetContent: '<input name="email" />', ReplacementContent: '<input name="email" required />'}]}, false],
			[18, 'run_command', null, {CommandLine: 'npm install zod', Cwd: '/work/site'}, true],
		],
		'JSON-encoded argument values are decoded; a call id that no result could name is not kept',
	);
	assert.deepEqual(
		cli.events.filter(event => event.kind === 'tool_result').map(event => [event.line, event.result?.call_id, event.result?.is_error, event.result?.exit_code]),
		[
			[4, null, false, undefined],
			[6, null, true, 1],
			[8, null, true, undefined],
		],
	);
	const assistant = cli.events.filter(event => event.kind === 'assistant');
	assert.deepEqual(assistant.map(event => [event.line, event.message_id]), [
		[3, 'step-2'],
		[14, 'step-13'],
		[18, 'step-17'],
	]);
	assert.deepEqual(
		cli.events.filter(event => event.interrupted || event.error).map(event => [event.line, event.interrupted, event.error]),
		[
			[14, true, undefined],
			[16, true, 'Model provider overloaded (503). Please retry.'],
		],
		'a failed tool step (line 8) is a tool failure, not an interruption',
	);

	const legacy = sessions.get(legacyId)!;
	assert.deepEqual(legacy.events.filter(event => event.kind === 'tool_result').map(event => [event.result?.is_error, event.result?.exit_code]), [
		[false, undefined],
		[false, 0],
	]);

	const ide = sessions.get(ideId)!;
	assert.deepEqual(
		ide.events.filter(event => event.kind === 'tool_result' || event.interrupted).map(event => [event.line, event.kind, event.result?.is_error, event.result?.exit_code]),
		[
			[5, 'tool_result', true, 1],
			[6, 'tool_result', true, undefined],
			[6, 'system', undefined, undefined],
		],
		'an unlisted MODEL step type is a tool result; CANCELLED fails it and interrupts',
	);
});

test('antigravity: steps not yet seen in samples are read defensively', () => {
	const unit = looseUnit(join(cliBrain, cliId, '.system_generated', 'logs', 'transcript.jsonl'));
	const normalize = (step: Record<string, unknown>) => {
		const events = antigravityAdapter.normalizeLine({step_index: 1, created_at: '2026-11-20T12:00:00Z', ...step}, 1, {}, unit);
		return Array.isArray(events) || events === null ? events : assert.fail(events.unreadable);
	};
	assert.deepEqual(
		normalize({source: 'USER_IMPLICIT', type: 'USER_INPUT', status: 'DONE', content: '<USER_REQUEST>\nOpen file changed\n</USER_REQUEST>'})?.map(event => event.human),
		[false],
		'implicit input is host context',
	);
	assert.equal(
		normalize({source: 'USER_EXPLICIT', type: 'USER_INPUT', status: 'DONE', content: '<USER_REQUEST>\nFix the build<ADDITIONAL_METADATA>\ncut', truncated_fields: ['content']})?.[0]?.text,
		'Fix the build',
		'a truncated request ends at the first host block',
	);
	assert.deepEqual(normalize({source: 'SYSTEM', type: 'ERROR_MESSAGE', status: 'ERROR', content: 'Quota exhausted'})?.map(event => [event.kind, event.error, event.interrupted]), [['system', 'Quota exhausted', undefined]]);
	assert.deepEqual(normalize({source: 'MODEL', type: 'RUN_COMMAND', status: 'RUNNING', content: ''}), [], 'a running tool step has no result yet');
	assert.deepEqual(normalize({source: 'MODEL', type: 'VIEW_FILE', content: 'x'})?.[0]?.result?.is_error, false, 'no status is no failure');
	assert.deepEqual(normalize({source: 'MODEL', type: 'PLANNER_RESPONSE', status: 'DONE', tool_calls: [{name: 'grep_search', args: '{"Query":"TODO"}'}]})?.[0]?.tool?.input, {Query: 'TODO'});
	assert.equal(normalize({source: 'SYSTEM', type: 'MEMORY_UPDATE', status: 'DONE'}), null, 'an unknown non-model step is skipped');
	assert.equal(normalize({source: 'MODEL', status: 'DONE'}), null, 'a step without a type is skipped');
});

test('antigravity: conformance over the shared third-party samples', t => {
	const directory = sharedFixtures(t, 'antigravity');
	if (!directory) {
		return;
	}

	const files = readdirSync(directory);
	assert.deepEqual(
		antigravityAdapter.discover(directory).map(unit => unit.idHint),
		['cli_schema_drift', 'cli_small'],
		'read as `brain/<id>.jsonl` files; legacy-brain-small.md is never a session',
	);
	for (const file of files.filter(name => name.endsWith('.jsonl'))) {
		const session = readUnit(antigravityAdapter, looseUnit(join(directory, file), {idHint: file.slice(0, -'.jsonl'.length)}));
		assert.ok(session.loaded.rows.length > 0, `${file} has rows`);
		for (const event of session.events.filter(event => event.kind === 'user')) {
			assert.doesNotMatch(event.text ?? '', /<\/?(USER_REQUEST|ADDITIONAL_METADATA|USER_SETTINGS_CHANGE)>/, `${file}:${event.line}: host blocks are stripped`);
		}
	}

	const small = readUnit(antigravityAdapter, looseUnit(join(directory, 'cli_small.jsonl'), {idHint: 'cli_small'}));
	assert.equal(small.summary.id, 'cli_small');
	assert.equal(small.summary.title, 'List the files.');
	assert.equal(small.summary.human_turns, 2, 'the trimmed USER_INPUT step is still an input');
	assert.deepEqual(small.events.find(event => event.kind === 'meta')?.session, {model: 'Gemini 3.5 Flash (Medium)'});
	assert.deepEqual(small.events.filter(event => event.kind === 'tool_call').map(event => [event.tool?.name, event.tool?.input]), [
		['list_dir', {DirectoryPath: '/tmp/repo', toolSummary: 'Listing contents'}],
		['write_file', {TargetFile: '/tmp/repo/notes.md', toolSummary: 'Creating notes'}],
	]);
	assert.deepEqual(
		small.events.filter(event => event.kind === 'tool_result').map(event => event.line),
		[4, 5, 6, 10, 11, 13, 14, 15, 16],
		'LIST_DIRECTORY, VIEW_FILE, RUN_COMMAND, CODE_ACTION, SEARCH_WEB, then the MODEL steps GENERIC, RUN_COMMAND and GREP_SEARCH',
	);
	assert.equal(small.events.find(event => event.kind === 'tool_result' && event.result?.exit_code !== undefined)?.result?.exit_code, 0);
	assert.equal(small.events.find(event => event.kind === 'summary')?.text, '# Resuming from a compaction');
	assert.ok(small.events.some(event => event.kind === 'system' && event.text?.includes('not actually sent by the user')));
	assert.equal(small.loaded.skipped, 1, 'a GENERIC step whose source is unknown');

	const drift = readUnit(antigravityAdapter, looseUnit(join(directory, 'cli_schema_drift.jsonl'), {idHint: 'cli_schema_drift'}));
	assert.deepEqual([drift.summary.title, drift.loaded.skipped], ['Go', 0], 'extra fields (promptVariant, telemetry) do not matter');
	assert.equal(drift.events.find(event => event.kind === 'tool_result')?.result?.output, 'opened https://example.com', 'an unlisted MODEL step type is a tool result');
	assert.ok(drift.events.every(event => event.timestamp === undefined || !event.timestamp.includes('trimmed')), 'a trimmed created_at is not a time');
});

test('antigravity: a conversation whose logs hold only transcript_full.jsonl is read from it', t => {
	const brain = join(tempDir(t), 'antigravity-ide', 'brain');
	const logs = join(brain, cliId, '.system_generated', 'logs');
	mkdirSync(logs, {recursive: true});
	copyFileSync(join(cliBrain, cliId, '.system_generated', 'logs', 'transcript.jsonl'), join(logs, 'transcript_full.jsonl'));
	const units = antigravityAdapter.discover(brain).map(wholeUnit);
	assert.deepEqual(units.map(unit => [unit.idHint, unit.path, unit.paths]), [[cliId, join(logs, 'transcript_full.jsonl'), [join(logs, 'transcript_full.jsonl')]]]);
	const session = readUnit(antigravityAdapter, units[0]!);
	assert.equal(session.summary.title, byId().get(cliId)!.summary.title);
	assert.equal(session.summary.human_turns, 4);
});

/** An agy step database whose metadata blob is `blob`. */
function stepDatabase(path: string, blob: Buffer): void {
	const db = new Database(path);
	db.exec('CREATE TABLE trajectory_metadata_blob (id TEXT PRIMARY KEY, data BLOB)');
	db.prepare("INSERT INTO trajectory_metadata_blob VALUES ('main', ?)").run(blob);
	db.close();
}

/** field 1 { field 1: "file:///w" }, the workspace message. */
const workspaceField = [0x0a, 11, 0x0a, 9, ...Buffer.from('file:///w')];

test('step database: a varint of eight or ten bytes ahead of the workspace (a timestamp in microseconds, a negative int64) is passed over', t => {
	// Varints were read up to seven bytes, so any field holding a value of 2^49 or more ended the walk.
	const directory = tempDir(t);
	const values = [
		[0x10, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01], // Field 2: 2^49.
		[0x18, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01], // Field 3: -1 as an int64.
	];
	for (const [index, value] of values.entries()) {
		const path = join(directory, `${index}.db`);
		stepDatabase(path, Buffer.from([...value, ...workspaceField]));
		assert.equal(conversationWorkspace(path), '/w');
	}

	// Eleven bytes are no varint: damage, and no workspace.
	const damaged = join(directory, 'damaged.db');
	stepDatabase(damaged, Buffer.from([0x10, ...Array.from({length: 10}, () => 0x80), 0x01, ...workspaceField]));
	assert.equal(conversationWorkspace(damaged), undefined);
});

test('step database its writer holds locked: the workspace is given up in a fraction of a second, not after the ten seconds a cache waits', t => {
	// The read used openReadOnlyInPlace's busy timeout, ten seconds, for a hint read once per session.
	const path = join(tempDir(t), 'locked.db');
	stepDatabase(path, Buffer.from(workspaceField));
	assert.equal(conversationWorkspace(path), '/w');
	const writer = new Database(path);
	writer.exec('BEGIN EXCLUSIVE');
	writer.prepare("UPDATE trajectory_metadata_blob SET data = x'00' WHERE id = 'main'").run();
	try {
		const started = performance.now();
		assert.equal(conversationWorkspace(path), undefined);
		assert.ok(performance.now() - started < 2000, `${Math.round(performance.now() - started)} ms`);
	} finally {
		writer.exec('ROLLBACK');
		writer.close();
	}

	assert.equal(conversationWorkspace(path), '/w');
});
