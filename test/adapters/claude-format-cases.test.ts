import assert from 'node:assert/strict';
import {cpSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync} from 'node:fs';
import {join, sep} from 'node:path';
import {fileURLToPath} from 'node:url';
import test from 'node:test';
import {claudeAdapter} from '../../source/adapters/claude/index.js';
import {looseUnit, readStore, readUnit} from '../helpers/adapters.js';
import {runCli, sandboxEnv} from '../helpers/cli.js';
import {tempDir} from '../helpers/temp.js';
import {searchableText} from '../../source/engine/search/session-text.js';
import {computeTail} from '../../source/engine/continuity/tail.js';
import {liveEvents} from '../../source/engine/conversation/branches.js';

/** Format features of real Claude Code transcripts, each in a small invented file (see each test). */
const cases = fileURLToPath(new URL('../fixtures/format-cases/claude', import.meta.url));
const read = (file: string) => readUnit(claudeAdapter, looseUnit(join(cases, file)));
const users = (session: ReturnType<typeof read>) =>
	session.events.filter(event => event.kind === 'user').map(event => [event.line, event.text, event.human ?? null, event.origin ?? null]);

test('claude format: a prompt typed while the agent works is kept from its queued_command attachment; a queued notification is not a request', () => {
	const session = read('queued-prompts.jsonl');
	assert.equal(session.summary.title, 'Rename the config loader to settings loader');
	assert.equal(session.summary.human_turns, 3, 'the opening prompt and two prompts absorbed mid-turn (one with an image)');
	assert.deepEqual(users(session), [
		[1, 'Rename the config loader to settings loader', true, null],
		[5, 'also update the README mention', true, null],
		[7, '<task-notification>\n<task-id>bg1</task-id>\n<status>completed</status>\n<summary>Background build finished</summary>\n</task-notification>', false, 'host'],
		[8, 'is this the warning you meant?\n[image: image/png]', true, null],
	]);
	assert.equal(session.events.find(event => event.line === 5)?.uuid, 'q3', 'the attachment keeps its place in the tree');
});

test('claude format: a queued prompt its user record repeats when the queue hands it over is one request, not two', () => {
	const session = read('queued-then-delivered.jsonl');
	assert.equal(session.summary.human_turns, 3, 'the opening prompt, the queued prompt, and the same words typed again later');
	assert.deepEqual(users(session), [
		[1, 'Fix the flaky date test in utils', true, null],
		[4, 'run the linter too', true, null],
		[6, 'run the linter too', false, 'host'],
		[8, 'run the linter too', true, null],
	]);
});

test('claude format: a prompt\'s pasted image or dropped PDF is noted after its text, one a line, its base64 never copied; media alone is a request of its own', () => {
	// Claude Code sends what was pasted or dropped as `image` / `document` blocks (`source: {type:
	// "base64", media_type, data}`) beside the typed text block, or without one.
	const session = read('prompt-media.jsonl');
	assert.equal(session.summary.human_turns, 3, 'one turn per prompt, the media no turn of its own');
	assert.deepEqual(users(session), [
		[1, 'Why does the legend cover the bars in this chart?\n[image: image/png]', true, null],
		[3, '[image: image/jpeg]', true, null],
		[5, 'Check the totals against this invoice\n[document: application/pdf]', true, null],
	]);
	assert.equal(session.summary.title, 'Why does the legend cover the bars in this chart? [image: image/png]', 'titled by its text, the note after it, as Gemini CLI and Qwen Code prompts are');
	assert.doesNotMatch(JSON.stringify(session.events), /iVBORw0KGgo|JVBERi0x|\/9j\/4AAQ/, 'no payload copied');
});

test('claude format: a queued prompt with an image, its user record repeating it when the queue hands it over, is one request', () => {
	const session = read('queued-prompt-media.jsonl');
	assert.equal(session.summary.human_turns, 3, 'the opening prompt, the queued prompt with an image, the queued image alone');
	assert.deepEqual(users(session), [
		[1, 'Add a dark theme to the settings page', true, null],
		[4, 'use these colours for the theme\n[image: image/png]', true, null],
		[6, 'use these colours for the theme\n[image: image/png]', false, 'host'],
		[9, '[image: image/jpeg]', true, null],
		[11, '[image: image/jpeg]', false, 'host'],
	]);
});

test('claude format: a prompt with an image the queue handed to the running turn (queue remove, then its queued_command attachment) is one request, its image noted', () => {
	const session = read('queue-remove-media.jsonl');
	assert.equal(session.summary.human_turns, 2, 'the opening prompt and the steered prompt with its image');
	assert.deepEqual(users(session).filter(([, , human]) => human), [
		[1, 'Tighten the card grid on the dashboard', true, null],
		[3, 'match the spacing in this mock\n[image: image/webp]', true, null],
	]);
});

test('claude format: a text file attached to a prompt (a document block with a text source) is noted after the prompt\'s text; one sent alone is a request', () => {
	// SDK clients send a dropped text or code file as `{type: "document", source: {type: "text",
	// media_type, data}}`, which Claude Code writes into the user record as it came. Evidence:
	// d-kimuson/claude-code-viewer src/lib/conversation-schema/content/DocumentContentSchema.ts
	// (text sources of text/markdown, code types…) and
	// src/server/core/claude-code/functions/createMessageGenerator.ts (documents sent beside the text).
	const session = read('prompt-text-documents.jsonl');
	assert.equal(session.summary.human_turns, 2);
	assert.deepEqual(users(session), [
		[1, 'List the open questions in this spec\n[document: text/markdown]', true, null],
		[3, '[document: text/x-python]', true, null],
	]);
	assert.doesNotMatch(JSON.stringify(session.events), /Tiling spec|def seam/, 'the file is noted, not copied');
});

test('claude format: a bare string among a message\'s content blocks is text, not a reason to drop the record', () => {
	// A user message's content array may hold plain strings beside blocks. Evidence:
	// d-kimuson/claude-code-viewer src/lib/conversation-schema/message/UserMessageSchema.ts (array
	// items `z.string()` or a block), read as the prompt by
	// src/server/core/session/functions/extractFirstUserText.ts and
	// src/server/core/agent-session/services/AgentSessionMappingService.ts.
	const session = read('bare-string-content-items.jsonl');
	assert.equal(session.loaded.skipped, 0);
	assert.deepEqual(users(session), [
		[1, 'Draft release notes for version 3.2 from the merged pull requests', true, null],
		[3, 'Move the breaking changes to the top\n[image: image/png]', true, null],
	]);
	assert.equal(session.summary.human_turns, 2);
});

test('claude format: a message whose content is one block object, not a list of them, is read as that block', () => {
	// Some writers store a record's only block without its list (Atituiset/agent-session-format
	// tests/claude-code.test.ts, "single-block (non-array) content"): thinking, tool_use,
	// tool_result and text each alone.
	const session = read('single-block-content.jsonl');
	assert.equal(session.loaded.skipped, 0, 'no record is unreadable');
	assert.equal(session.summary.assistant_messages, 2);
	assert.equal(session.summary.tool_calls, 1);
	const call = session.events.find(event => event.kind === 'tool_call');
	assert.deepEqual([call?.line, call?.tool?.name, call?.tool?.call_id], [3, 'Read', 'toolu_q1']);
	const result = session.events.find(event => event.kind === 'tool_result');
	assert.deepEqual([result?.line, result?.result?.call_id, result?.result?.output], [4, 'toolu_q1', 'const pages = all.filter(p => !p.archived);']);
	assert.equal(session.events.at(-1)?.text, 'The build filters out every page marked archived before writing the sitemap.');
	assert.equal(session.summary.human_turns, 1, 'the tool result is no request');
});

test('claude format: a local command after the tag-wrapped caveat is not a request, and its system-record output ends the run', () => {
	const session = read('local-command-caveat-tag.jsonl');
	assert.equal(session.summary.title, '/review the retry helper');
	assert.equal(session.summary.first_human_line, 4);
	assert.equal(session.summary.human_turns, 2, '/review and the follow-up; /clear ran in the CLI');
	const said = session.events.filter(event => event.kind === 'user' || event.kind === 'system').map(event => [event.line, event.kind, event.human ?? null]);
	assert.deepEqual(said, [
		[1, 'user', false],
		[2, 'system', null],
		[3, 'system', null],
		[4, 'user', true],
		[5, 'user', false],
		[7, 'user', true],
	]);
});

test('claude format: IDE context and system reminders before a prompt are the host\'s; the prompt after them is the person\'s', () => {
	const session = read('ide-context.jsonl');
	assert.equal(session.summary.title, 'Make the retry delay configurable');
	assert.equal(session.summary.human_turns, 3);
	const human = session.events.filter(event => event.kind === 'user' && event.human).map(event => [event.line, event.text]);
	assert.deepEqual(human, [
		[1, 'Make the retry delay configurable'],
		[3, 'Use this constant in the tests too'],
		[5, 'and add a changelog line for it'],
	]);
	const host = session.events.filter(event => event.kind === 'user' && !event.human).map(event => [event.line, event.origin, event.text?.slice(0, 16)]);
	assert.deepEqual(host, [
		[1, 'host', '<ide_opened_file'],
		[3, 'host', '<ide_selection>T'],
		[5, 'host', '<system-reminder'],
		[7, 'host', '<system-reminder'],
	]);
});

test('claude format: the command envelope a skill the agent invoked writes is not a request; a skill the person typed is', () => {
	const session = read('skill-invocations.jsonl');
	assert.equal(session.summary.human_turns, 2, 'the opening prompt and the typed /pdf; the two skill loads the agent started are not');
	assert.deepEqual(users(session), [
		[1, 'Turn the quarterly notes into a PDF', true, null],
		[4, '/pdf', false, 'host'],
		[5, 'Base directory for this skill: /home/dev/.claude/skills/pdf\n\n# PDF\n\nUse the bundled script to render Markdown to PDF.', false, 'host'],
		[7, '/pdf appendix only', true, null],
		[8, 'Base directory for this skill: /home/dev/.claude/skills/pdf\n\n# PDF\n\nUse the bundled script to render Markdown to PDF.\n\nARGUMENTS: appendix only', false, 'host'],
		[11, '/xlsx', false, 'host'],
	]);
});

test('claude format: a Stop hook\'s feedback written as a user record is the host\'s, not a request', () => {
	const session = read('stop-hook-feedback.jsonl');
	assert.equal(session.summary.human_turns, 1);
	assert.deepEqual(users(session).map(([line, , human, origin]) => [line, human, origin]), [
		[1, true, null],
		[3, false, 'host'],
	]);
});

test('claude format: a title the person gave (custom-title) outranks the generated one (ai-title) written after it', () => {
	const session = read('custom-and-ai-titles.jsonl');
	assert.equal(session.summary.human_turns, 0);
	assert.equal(session.summary.title, 'release checklist');
});

test('claude format: the title 2.1 generated for a session, kept only in the project\'s sessions-index.json (summary), is stated as the tool\'s title; an ai-title in the transcript, written later, outranks it', () => {
	// angristan/fast-resume src/adapters/claude.rs (claude_project_index: entries[].sessionId → summary,
	// the session's title); anthropics/claude-code#23183 shows the index's entries.
	const stated = (session: ReturnType<typeof read>) => session.events.flatMap(event => (event.kind === 'meta' && event.session?.title !== undefined ? [event.session.title] : []));
	const indexed = read(join('sessions-index', '3e8b1c52-7d4a-4f90-8b2e-5c1d9a7f6e40.jsonl'));
	assert.equal(indexed.loaded.skipped, 0);
	assert.deepEqual(stated(indexed), ['Firing schedule export loses final segment']);
	assert.equal(indexed.summary.human_turns, 1, 'the prompt is still the person\'s request');
	assert.equal(indexed.summary.title, 'the firing schedule export drops the last segment, can you look', 'a typed request stays the title, as beside an ai-title');
	const titled = read(join('sessions-index', '9d4f2a61-0c8e-4b7d-a3f5-2e6c8b1d4a97.jsonl'));
	assert.deepEqual(stated(titled), ['Glaze calculator presets', 'Cone 6 glaze preset'], 'the transcript\'s own ai-title comes after, and the last stated wins');
	assert.deepEqual(stated(read('custom-and-ai-titles.jsonl')), ['release checklist'], 'a transcript with no index beside it states only its own titles');
});

test('claude format: an agent-name record names the session (a background job\'s name, what /rename writes from 2.1.27x); it outranks the generated ai-title, and the last given name wins', () => {
	const stated = (session: ReturnType<typeof read>) => session.events.flatMap(event => (event.kind === 'meta' && event.session?.title !== undefined ? [event.session.title] : []));
	const background = read('agent-name-background.jsonl');
	assert.equal(background.loaded.skipped, 0);
	assert.deepEqual(stated(background), ['ledger-export-retry'], 'the name the job was given, not the generated ai-title after it');
	const renamed = read('agent-name-renamed.jsonl');
	assert.equal(renamed.loaded.skipped, 0);
	assert.deepEqual(stated(renamed), ['tiles', 'tile cache flicker'], 'the /rename after the --name given at start; a non-string or blank name is no name');
});

test('claude format: an api_error record says what failed from its error (as printed, as the API gave it, or the connection\'s)', () => {
	const session = read('api-errors.jsonl');
	assert.equal(session.loaded.skipped, 0);
	assert.deepEqual(
		session.events.filter(event => event.kind === 'system').map(event => [event.line, event.text, event.error]),
		[
			[2, 'API Error (529): Overloaded', 'API Error (529): Overloaded'],
			[3, 'Connection error.', 'Connection error.'],
			[4, '', 'api_error'],
		],
	);
});

test('claude format: a prompt the queue handed to the running turn before 2.1.x wrote queued_command attachments (queue-operation remove with content) is a request; where the attachment follows, it is counted once', () => {
	const legacy = read('queue-remove-steering.jsonl');
	assert.equal(legacy.loaded.skipped, 0);
	assert.equal(legacy.summary.human_turns, 2, 'the opening prompt and the prompt steered in mid-turn; a remove without content is nothing');
	assert.deepEqual(users(legacy), [
		[1, 'Add retries to the fetch helper', true, null],
		[4, 'also cover the upload path', true, null],
	]);
	assert.equal(legacy.events.find(event => event.line === 4)?.timestamp, '2026-09-14T10:00:07.000Z');

	const paired = read('queue-remove-paired.jsonl');
	assert.equal(paired.summary.human_turns, 2, 'the remove and its queued_command attachment are one request; a notification is none');
	assert.deepEqual(users(paired).filter(([, , human]) => human), [
		[1, 'Tidy the CLI help text', true, null],
		[4, 'and sort the flags alphabetically', true, null],
	]);
});

test('claude format: a message from a teammate of an agent team (<teammate-message>, in a user record with no origin) is another agent\'s, not a request', () => {
	const lead = read('teammate-messages-lead.jsonl');
	assert.equal(lead.summary.human_turns, 2, 'the opening prompt and "Looks good, merge it"; the teammate\'s report and idle notice are not');
	assert.deepEqual(users(lead).map(([line, , human]) => [line, human]), [
		[1, true],
		[4, false],
		[6, false],
		[7, true],
	]);

	const teammate = read('teammate-messages-teammate.jsonl');
	assert.equal(teammate.summary.human_turns, 0, 'the brief the team lead sent is not a person\'s request');
	assert.equal(teammate.summary.title, null);
});

test('claude format: a recap written while the person was away (system away_summary) and a system notice of no known subtype are shown, never requests', () => {
	const session = read('system-recap-and-notices.jsonl');
	assert.equal(session.loaded.skipped, 0);
	assert.equal(session.summary.human_turns, 1);
	assert.deepEqual(
		session.events.filter(event => event.kind === 'system').map(event => [event.line, event.text]),
		[
			[3, 'You asked for invalid project ids to redirect. A layout now checks the id; type-checking and a test run were next.'],
			[4, 'Auto-update failed; run the installer again to update'],
		],
	);
});

test('claude format: a compaction summary written before isCompactSummary (its text opens "This session is being continued…") is the summary, all its text blocks together', () => {
	const session = read('compact-summary-unflagged.jsonl');
	assert.equal(session.summary.human_turns, 2);
	const summaries = session.events.filter(event => event.kind === 'summary');
	assert.deepEqual(summaries.map(event => event.line), [3]);
	assert.match(summaries[0]?.text ?? '', /tests are next\.\nPlease continue the conversation/);
	assert.equal(session.events.filter(event => event.line === 3).length, 1);
});

test('claude format: IDE diagnostics the editor puts before a prompt (<post-tool-use-hook><ide_diagnostics>) are the host\'s; the prompt after them is the person\'s', () => {
	const session = read('ide-diagnostics-hook.jsonl');
	assert.equal(session.summary.title, 'Why does the linter flag this import?');
	assert.deepEqual(users(session).map(([line, text, human]) => [line, String(text).slice(0, 20), human]), [
		[1, '<post-tool-use-hook>', false],
		[1, 'Why does the linter ', true],
	]);
});

test('claude format: a local command\'s output in a <local-command-…> tag other than stdout/stderr is the host\'s and ends the local run; the command typed next is a request', () => {
	const session = read('local-command-other-output.jsonl');
	assert.equal(session.summary.title, '/review the glaze calculator');
	assert.equal(session.summary.human_turns, 1);
	assert.deepEqual(
		session.events.filter(event => event.kind === 'system').map(event => [event.line, event.text]),
		[
			[2, '/context'],
			[3, '<local-command-result>Context: 41k of 200k tokens used</local-command-result>'],
		],
	);
	assert.deepEqual(users(session).filter(([, , human]) => human === true).map(([line]) => line), [4]);
});

test('claude format: the records /branch copied from the parent (forkedFrom) are not the branch\'s own; its own later turns are', () => {
	// Claude Code's /branch (and --fork-session) copies the parent's chain into a new session,
	// each record keeping its uuid, timestamp and message, with the new sessionId and
	// forkedFrom {sessionId, messageUuid}; the branch's own records carry no forkedFrom.
	const session = read('branch-copied-records.jsonl');
	const {summary} = session;
	assert.equal(summary.id, '7b9d1f3a-5c7e-4a9c-9e1f-6a8c0e2f4b35');
	assert.equal(summary.parent_id, '4e6a8c0d-2f4b-4d6e-8a0c-3e5f7a9b1d23', 'the branch names the session it was copied from');
	assert.equal(summary.title, 'Try fixing it by mapping day 0 to 7 instead', "the parent's first request is not the branch's title");
	assert.deepEqual([summary.human_turns, summary.assistant_messages, summary.tool_calls], [1, 1, 0], 'only the turn typed in the branch counts');
	assert.equal(summary.started, '2026-09-16T17:30:00.000Z', 'the branch started when it was made, not when its parent did');
	assert.deepEqual(session.events.filter(event => event.line <= 4 && event.kind !== 'meta').map(event => event.kind), ['system'], 'the copied records are one notice');
	assert.ok(!session.events.some(event => event.kind === 'tool_result'), "the parent's failed call is not the branch's failure");
	assert.doesNotMatch(session.loaded.rows.map(row => searchableText(row.events)).join('\n'), /Sunday|importer/, "the parent's records are not searched as the branch's");
	assert.equal(session.events.find(event => event.uuid === 'd2b1c3d5-0000-4000-8000-000000000005')?.parent, 'c1a0b2c4-0000-4000-8000-000000000004', 'the branch continues the copied chain');
});

test('claude format: the name /rename gave, written only as its local command\'s output ("Session renamed to: …"), titles a session with no request and outranks the generated title; the later naming wins', () => {
	// Builds before custom-title records (and viewers renaming a session the same way) state
	// the name only in the system local_command record holding /rename's stdout.
	const renamed = read('rename-stdout-only.jsonl');
	assert.equal(renamed.summary.human_turns, 0);
	assert.equal(renamed.summary.title, 'ledger import cleanup');
	assert.deepEqual(
		renamed.events.filter(event => event.kind === 'system').map(event => [event.line, event.text]),
		[
			[2, '/rename ledger import cleanup'],
			[3, '<local-command-stdout>Session renamed to: ledger import cleanup</local-command-stdout>'],
		],
	);
	assert.equal(read('rename-stdout-after-custom-title.jsonl').summary.title, 'ledger import, second pass');
});

test('claude format: a session continued in a new file starts with records carried over from the session it continues, still under that session\'s id; they are not its own, and the notice names that session', () => {
	// When a conversation carried on in a new session file, the records brought over (the
	// compaction boundary, whose logicalParentUuid lies in the older file, its summary and the
	// turns after it) keep the older session's sessionId; the file's own records carry its own.
	const session = readUnit(claudeAdapter, looseUnit(join(cases, 'continued-in-new-file.jsonl'), {idHint: '5d2f8a61-3c4e-4b7a-9e0d-1f2a3b4c5d6e'}));
	const {summary} = session;
	assert.equal(summary.id, '5d2f8a61-3c4e-4b7a-9e0d-1f2a3b4c5d6e');
	assert.equal(summary.parent_id, null, 'a continuation is the conversation going on, listed on its own, not a child');
	assert.ok(session.events.some(event => event.kind === 'system' && event.text?.includes('a83c1e5f-7b9d-4f2a-8c6e-0d1b2c3d4e5f which this one continues')), 'the continued session is named');
	assert.equal(summary.title, 'Skip the leap-day case for now and commit the rest', "the older session's request is not this one's title");
	assert.deepEqual([summary.human_turns, summary.assistant_messages, summary.tool_calls], [1, 1, 0], 'only the turn typed in this file counts');
	assert.equal(summary.started, '2026-03-04T14:00:00.000Z', 'the session started when it was continued');
	assert.deepEqual(session.events.filter(event => event.line <= 6 && event.kind !== 'meta').map(event => event.kind), ['system'], 'the carried-over records are one notice');
	assert.ok(!session.events.some(event => event.kind === 'tool_result'), "the older session's failed call is not this one's failure");
	assert.ok(!session.events.some(event => event.session?.id === 'a83c1e5f-7b9d-4f2a-8c6e-0d1b2c3d4e5f'), "the older session's id is not stated as this one's");
	assert.doesNotMatch(session.loaded.rows.map(row => searchableText(row.events)).join('\n'), /leap-year|day index/, "the carried-over records are not searched as this session's");
	assert.equal(session.events.find(event => event.uuid === 'f2d1b3c5-0000-4000-8000-000000000007')?.parent, 'e1c0a2b4-0000-4000-8000-000000000006', 'the session continues the carried-over chain');
});

test('claude format: a conversation sent to the background ends with a continued-in record naming the session it goes on in; that session is its continuation, and the record is no unknown line', () => {
	// Background mode copies the live conversation into a new session (a --fork-session of it)
	// and closes the original with {"type":"continued-in","continuedInSessionId":…}.
	const session = read('continued-in-background.jsonl');
	assert.equal(session.loaded.skipped, 0, 'the record is known');
	assert.deepEqual(session.summary.children, ['8f1b3d5e-7a9c-4e2f-b6d8-0a2c4e6f8b13'], 'the session it goes on in is linked to it');
	assert.equal(session.summary.title, 'Rebuild the sitemap generator so it skips draft pages');
	assert.deepEqual(session.events.filter(event => event.line === 6 && event.kind === 'system').map(event => event.text), ['Continued in session 8f1b3d5e-7a9c-4e2f-b6d8-0a2c4e6f8b13']);
});

test('claude format: the bookkeeping records of 2.1.x (agent-setting, agent-color, file-history-delta, cost-state, fork-context-ref) are known lines that carry nothing for the conversation', () => {
	const session = read('bookkeeping-2-1.jsonl');
	assert.equal(session.loaded.skipped, 0, 'none is counted as an unknown line');
	assert.deepEqual(session.events.filter(event => event.kind !== 'meta').map(event => [event.line, event.kind]), [[3, 'user'], [4, 'assistant']]);
	const forkContext = {type: 'fork-context-ref', agentId: 'a51c', parentSessionId: '6e8a0c2e-4b6d-4f8a-9c0e-2b4d6f8a0c13', parentLastUuid: 'c3e5a7b9-0000-4000-8000-000000000002', contextLength: 2};
	assert.deepEqual(claudeAdapter.normalizeLine(forkContext, 1, {}, looseUnit(join(cases, 'bookkeeping-2-1.jsonl'))), []);
});

test('claude format: a file-history-delta record (one file backed up between two snapshots, for /rewind) is bookkeeping, not an unreadable line', () => {
	// Builds of the 2.1.22x line write one such record per file an edit backs up, between the
	// file-history-snapshot records: {type, messageId, snapshotMessageId, trackingPath, backup}.
	const session = read('file-history-delta.jsonl');
	assert.equal(session.loaded.skipped, 0);
	assert.deepEqual(session.loaded.warnings, []);
	assert.equal(session.summary.title, 'Add a firing date column to the kiln log table');
	assert.deepEqual(session.events.filter(event => event.line === 4 || event.line === 6), []);
	assert.equal(session.events.find(event => event.kind === 'tool_result')?.parent, 'f1a0b2c4-0000-4000-8000-000000000002');
});

test('claude format: a session file whose records all name another session, with no compaction boundary first, is read as its own', t => {
	// Only a continuation opens with the older session's compaction boundary; a renamed or
	// hand-made file whose ids differ from its name is still one conversation.
	const id = '0c4e6a8b-1d3f-4a5b-8c7d-9e0f1a2b3c4d';
	const path = join(tempDir(t), `${id}.jsonl`);
	const record = (uuid: string, parent: string | null, type: 'user' | 'assistant', content: unknown) =>
		JSON.stringify({parentUuid: parent, isSidechain: false, userType: 'external', cwd: '/work/quarry', sessionId: 'session-1', version: '2.1.200', type, message: {role: type, content}, uuid, timestamp: '2026-05-01T09:00:00.000Z'});
	writeFileSync(path, [record('u1', null, 'user', 'Sort the gravel orders by weight.'), record('a1', 'u1', 'assistant', [{type: 'text', text: 'Sorted.'}])].join('\n') + '\n');
	const {summary} = readUnit(claudeAdapter, looseUnit(path, {idHint: id}));
	assert.deepEqual([summary.title, summary.human_turns, summary.parent_id], ['Sort the gravel orders by weight.', 1, null]);
});

test('claude format: the session-state records 2.1.2xx writes beside the conversation (artifact comment watch, attribution, content replacement, context collapse, speculation, tag, history suppression, ended by the model) are known lines that carry nothing', () => {
	// Claude Code appends these to the transcript with no place in the tree: an artifact's comment
	// watch and its auto-reply ledger, the commit attribution state, tool results replaced by
	// stubs in the model's context, a context collapse's commit and staged snapshot (the archived
	// turns stay in the file as they were), an accepted speculative reply, /tag, a fork's
	// history-suppression taint, and the marker the end-conversation tool leaves.
	const session = read('session-state-records.jsonl');
	assert.equal(session.loaded.skipped, 0, 'none is counted as an unknown line');
	assert.deepEqual(session.events.filter(event => event.kind !== 'meta').map(event => [event.line, event.kind]), [[1, 'user'], [3, 'tool_call'], [4, 'tool_result'], [7, 'assistant']]);
	assert.equal(session.events.find(event => event.kind === 'tool_result')?.result?.output, 'date,high,low\n2026-09-14,06:41,12:55', 'a replacement stub is the model\'s context, not the result');
	const unit = looseUnit(join(cases, 'session-state-records.jsonl'));
	for (const type of ['marble-origami-reset', 'isolation-latch', 'observer-ref', 'task-summary']) {
		const events = claudeAdapter.normalizeLine({type, sessionId: '3a7c1e5b-9d2f-4b6a-8e0c-4f1a3b5d7e9c'}, 1, {}, unit);
		assert.ok(Array.isArray(events) && events.every(event => event.kind === 'meta'), type);
	}
});

test('claude format: a hook\'s blocking error, written as a hook_blocking_error attachment (2.1.x), is the host\'s message to the agent, not dropped and not a request', () => {
	// Where 1.x wrote a Stop hook's reason as a "Stop hook feedback:" user record, 2.1.x writes
	// {type: "attachment", attachment: {type: "hook_blocking_error", hookName, hookEvent, toolUseID,
	// blockingError: {blockingError, command}}}; the agent is sent on with it as a meta message.
	const session = read('hook-blocking-error.jsonl');
	assert.equal(session.loaded.skipped, 0);
	assert.equal(session.summary.human_turns, 1);
	assert.deepEqual(users(session), [
		[1, 'Add a harvest week column to the pickers table', true, null],
		[3, 'Stop hook blocking error from command: "~/.claude/hooks/check-migrations.sh": The migration has no down step; add one before stopping.', false, 'host'],
	]);
	assert.equal(session.events.find(event => event.line === 3)?.uuid, 'b7e1c3a5-0000-4000-8000-000000000003', 'the attachment keeps its place in the tree');
	assert.deepEqual(session.events.filter(event => event.line === 5 && event.kind !== 'meta'), [], 'a hook that passed says nothing');
});

test('claude format: an assistant record flagged isAbortedMidStream is the partial reply of a stream that was cut off: its text and calls are kept, marked interrupted', () => {
	// Claude Code builds such a record from what had streamed when the request was aborted (the
	// person pressing Esc, or the stream watchdog), with stop_reason null; it is the only mark an
	// interrupted turn leaves when no "[Request interrupted by user]" record follows, and its
	// tool_use was never run. Evidence: readers of Claude Code transcripts treat it as a non-final
	// partial answer and as an abort (the partial message is flushed as non-final; a pass whose
	// last assistant message carries isAbortedMidStream failed), and Claude Code's own
	// buildAbortedPartialMessage stamps it.
	const session = read('aborted-mid-stream.jsonl');
	const replies = session.events.filter(event => event.kind === 'assistant' || event.kind === 'tool_call').map(event => [event.uuid, event.kind, event.interrupted ?? false]);
	assert.deepEqual(replies, [
		['m2', 'assistant', false],
		['m3', 'assistant', true],
		['m3', 'tool_call', true],
	]);
	assert.equal(session.loaded.skipped, 0);
});

test('claude format: the "Warmup" transcripts Claude Code writes at startup, one per built-in agent, are no subagents of the session: the session counts only the agent its Task call ran', t => {
	// Claude Code (2.0.x, 2.1.x) primes the prompt cache when a session starts by sending the
	// hard-coded prompt "Warmup" to each registered agent, written as a sidechain transcript with
	// the session's sessionId and its own agentId (beside the session file in 2.0.x, under
	// <session>/subagents/ in 2.1.x), holding the prompt and the agent's reply. No Task call ran
	// them. Evidence: d-kimuson/claude-code-viewer src/server/core/session/functions/
	// isValidFirstMessage.ts ("Warmup" is never a session's first message); anthropics/claude-code
	// issues #17457 (three warmup agents per session, isSidechain, the same sessionId, different
	// agentIds) and #47922 (every registered subagent spawned at start with the prompt "Warmup").
	const session = '5e2a7c41-9b3d-4f6e-8a1c-2d4b6f8e0a13';
	const project = join(cases, 'warmup', '-work-orchard');
	const warmup = readUnit(claudeAdapter, looseUnit(join(project, session, 'subagents', 'agent-a6e4019.jsonl'), {idHint: 'agent-a6e4019', parentIdHint: session}));
	assert.equal(warmup.summary.conversational, false, 'a warmup is no conversation');
	assert.equal(warmup.summary.title, null, '"Warmup" is no agent\'s task');
	assert.deepEqual(warmup.events.filter(event => event.kind !== 'meta').map(event => [event.kind, event.text]), [
		['system', 'Warmup'],
		['system', 'Ready to search the orchard code. What should I look for?'],
	]);
	const task = readUnit(claudeAdapter, looseUnit(join(project, session, 'subagents', 'agent-a3f81c2.jsonl'), {idHint: 'agent-a3f81c2', parentIdHint: session}));
	assert.equal(task.summary.conversational, true);
	assert.equal(task.summary.title, 'Find rows.csv and count the lines naming a pear tree.', 'a subagent its Task call ran is one');

	const env = sandboxEnv(tempDir(t));
	cpSync(project, join(env['HOME']!, '.claude', 'projects', '-work-orchard'), {recursive: true});
	const list = (...more: string[]) => {
		const result = runCli(['sessions', '--all-projects', '--source', 'claude', '--format', 'json', ...more], {env});
		assert.equal(result.code, 0, result.stderr);
		return (result.json() as {sessions: Array<{id: string; subagents: number; parent_id: string | null}>}).sessions;
	};

	assert.deepEqual(list().map(entry => [entry.id, entry.subagents]), [[session, 1]], 'the Explore agent the Task call ran, not the three warmups');
	assert.deepEqual(list('--subagents').map(entry => [entry.id, entry.parent_id]).sort(), [[session, null], ['agent-a3f81c2', session]]);
});

test('claude format: the transcript of a compaction run (<session>/subagents/agent-acompact-<id>.jsonl) is no subagent session: it repeats the conversation to summarise it, and the session keeps the summary itself', t => {
	// Claude Code 2.1.x runs /compact (and auto-compaction) as a forked agent whose agentId is
	// `acompact-<hex>`, written as a sidechain transcript under the session's subagents/ folder:
	// the conversation so far, the summary prompt, and the <summary> reply. No Task call ran it.
	// Evidence: kvsankar/agent-history agent_history/utils/session_identity.py (compaction
	// transcripts left out of a session's sub-agents) and its
	// tests/unit/backends/test_claude_workflow_subagents.py; Sinity/polylogue's lineage design
	// note (agent-acompact-* re-emits the whole parent conversation: "not a session").
	const session = '7b1d3e95-2c4a-4f8b-9e6d-0a1b2c3d4e5f';
	const project = join(cases, 'compaction-agent', '-srv-quarry');
	const compaction = readUnit(claudeAdapter, looseUnit(join(project, session, 'subagents', 'agent-acompact-3e9f71c0a2b4d5e6.jsonl'), {idHint: 'agent-acompact-3e9f71c0a2b4d5e6', parentIdHint: session}));
	assert.equal(compaction.summary.conversational, false, 'a compaction run is no conversation of its own');
	assert.equal(compaction.summary.title, null, 'neither the copied prompt nor the summary prompt is a task');
	assert.equal(compaction.summary.tool_calls, 0, 'the copied calls are the session\'s, counted there');
	assert.ok(compaction.events.some(event => event.kind === 'system' && event.text?.includes('<summary>')), 'the summary it wrote is still shown');

	const env = sandboxEnv(tempDir(t));
	cpSync(project, join(env['HOME']!, '.claude', 'projects', '-srv-quarry'), {recursive: true});
	const list = (...more: string[]) => {
		const result = runCli(['sessions', '--all-projects', '--source', 'claude', '--format', 'json', ...more], {env});
		assert.equal(result.code, 0, result.stderr);
		return (result.json() as {sessions: Array<{id: string; subagents: number; title: string | null}>}).sessions;
	};

	assert.deepEqual(list().map(entry => [entry.id, entry.subagents, entry.title]), [[session, 0, 'Sort the survey rows by depth and drop the empty ones']]);
	assert.deepEqual(list('--subagents').map(entry => entry.id), [session]);
});

test('claude format: the transcript of a prompt suggestion (agent-aprompt_suggestion-<id>.jsonl: the guess at what the person types next) is no subagent session either', () => {
	// Claude Code 2.1.x forks an agent with the agentId `aprompt_suggestion-<hex>` after a turn to
	// suggest the next prompt, written beside the real subagents: the conversation so far, the
	// instruction and the guessed prompt. Evidence: readers of the store that skip these files by
	// name ("agent-aprompt_suggestion-*.jsonl  # Prompt suggestion subagents (skip)"; session
	// filename checks that reject agent-acompact-* and agent-aprompt_suggestion-*).
	const session = '7b1d3e95-2c4a-4f8b-9e6d-0a1b2c3d4e5f';
	const file = join(cases, 'prompt-suggestion-agent', '-srv-quarry', session, 'subagents', 'agent-aprompt_suggestion-4c2e81.jsonl');
	const suggestion = readUnit(claudeAdapter, looseUnit(file, {idHint: 'agent-aprompt_suggestion-4c2e81', parentIdHint: session}));
	assert.equal(suggestion.summary.conversational, false);
	assert.equal(suggestion.summary.title, null, 'the copied prompt is the session\'s, the suggestion nobody typed');
	assert.equal(suggestion.summary.human_turns, 0);
});

test('claude format: an image a tool returned (a tool_result holding image blocks: Read of a picture, a screenshot) is noted by its media type, its base64 payload never copied into the output', () => {
	// A tool_result's content is a string or blocks of text, image ({type: "image", source:
	// {type: "base64", media_type, data}}) or tool_reference. Evidence: d-kimuson/claude-code-viewer
	// src/lib/conversation-schema/content/ToolResultContentSchema.test.ts (a tool_result with an
	// image content array, and with text and other blocks mixed).
	const session = read('tool-result-images.jsonl');
	assert.equal(session.loaded.skipped, 0);
	const outputs = session.events.filter(event => event.kind === 'tool_result').map(event => [event.result?.call_id, event.result?.output]);
	assert.deepEqual(outputs, [
		['toolu_kiln_read', '[image: image/png]'],
		['toolu_kiln_shot', 'Captured the glazes page at 1280x800\n[image: image/jpeg]'],
		['toolu_kiln_pdf', '[document: application/pdf]'],
	]);
});

test('claude format: the context a hook gives the agent (hook_additional_context; what a SessionStart or UserPromptSubmit hook printed, hook_success) is the host\'s notice in the words the agent receives; output no agent sees says nothing', () => {
	// 2.1.x writes hook output as attachments and renders them into the agent's context as meta
	// messages: "<hookName> hook additional context: <content joined by newlines>" (content, one
	// string per hook, from PreToolUse, PostToolUse, UserPromptSubmit, SessionStart, Stop…) and,
	// for SessionStart and UserPromptSubmit only, "<hookName> hook success: <content>"; an empty
	// context and other events' hook_success reach no one. Evidence: daaain/claude-code-log
	// claude_code_log/factories/attachment_factory.py (hook_additional_context content a list of
	// strings joined by newlines, hook_success content a string); Claude Code's attachment
	// renderer (normalizeAttachmentForAPI) as quoted by readers of its source and binary; readers'
	// tests keying on records shaped {type: "hook_additional_context", content: [...], hookName,
	// toolUseID, hookEvent}.
	const session = read('hook-context.jsonl');
	assert.equal(session.loaded.skipped, 0);
	assert.equal(session.summary.title, 'Make the humidity sensor poll every ten seconds');
	assert.equal(session.summary.human_turns, 1);
	assert.deepEqual(users(session), [[3, 'Make the humidity sensor poll every ten seconds', true, null]], 'the context hooks add is no turn');
	assert.deepEqual(session.events.filter(event => event.kind === 'system').map(event => [event.line, event.text]), [
		[1, 'SessionStart:startup hook success: The nightly build of main is red since Tuesday.'],
		[2, 'SessionStart hook additional context: Greenhouse notes: sensor code lives in firmware/sensors.\nDeploys are frozen until Friday.'],
		[4, 'UserPromptSubmit hook additional context: Current sprint: sensor polling.'],
		[8, 'PostToolUse:Edit hook additional context: Lint found no warnings in humidity.c.'],
	]);
	assert.equal(session.events.find(event => event.line === 8 && event.kind === 'system')?.uuid, 'c8f2d4b6-0000-4000-8000-000000000008', 'the attachment keeps its place in the tree');
	assert.equal(computeTail(session.events, false).ends_with_reply, true, 'the host\'s text is no turn of its own');
});

test('claude format: what an async hook answered (an async_hook_response attachment: its response\'s systemMessage and additionalContext) is the host\'s notice in the words the agent receives; an empty answer says nothing', () => {
	// A hook run with `async: true` answers after the call it watched; 2.1.x writes its answer as
	// an attachment {type: "async_hook_response", processId, hookName, hookEvent, toolName?,
	// response: {systemMessage?, hookSpecificOutput?: {additionalContext?}}, stdout, stderr,
	// exitCode} and renders each of the two texts, as it is, into a meta message for the agent.
	// Plugins that watch every call write thousands with an empty response. Evidence: Claude Code's
	// attachment renderer (normalizeAttachmentForAPI, case "async_hook_response") and its
	// AsyncHookResponseAttachment type, as quoted by readers of its source and bundle; public
	// notes on session files swollen by empty async_hook_response attachments.
	const session = read('async-hook-response.jsonl');
	assert.equal(session.loaded.skipped, 0);
	assert.equal(session.summary.human_turns, 1);
	assert.deepEqual(users(session), [[1, 'Water the north rows twice as often in July', true, null]], 'a hook\'s answer is no turn');
	assert.deepEqual(session.events.filter(event => event.kind === 'system').map(event => [event.line, event.text]), [
		[4, 'Schedule validator: north.yaml parses.\nThe July water budget is 40 litres per tree per week.'],
	], 'an empty answer, and fields of the wrong type, say nothing');
	assert.equal(session.events.find(event => event.line === 4 && event.kind === 'system')?.uuid, 'd1a3c5e7-0000-4000-8000-000000000004', 'the attachment keeps its place in the tree');
	assert.equal(computeTail(session.events, false).ends_with_reply, true);
});

test('claude format: what a UserPromptSubmit hook printed, which 2.0.x wrote into the prompt\'s own text in <user-prompt-submit-hook> tags (after the prompt, or before it), is the host\'s; the prompt is the person\'s words alone', () => {
	// Before hook output became attachments, Claude Code put a UserPromptSubmit hook's output into
	// the user record of the prompt, tag-wrapped: "<prompt>\n<user-prompt-submit-hook>…</…>" (its
	// system prompt tells the model to treat feedback "including <user-prompt-submit-hook>" as the
	// user's). Evidence: readers of Claude Code transcripts that strip the tag as host text: one
	// tests "real question\n<user-prompt-submit-hook>old style hook payload</…>" as "the tag
	// Claude Code used before it switched to splicing plain text", another builds a 2.0.10 record
	// "<prompt>\n<user-prompt-submit-hook>…</user-prompt-submit-hook>" as the old format, another
	// tests the output before a request typed after it; Claude Code's system prompt (hooks section).
	const session = read('prompt-submit-hook-tag.jsonl');
	assert.equal(session.loaded.skipped, 0);
	assert.equal(session.summary.title, 'Rename the pump driver module to motor_ctl');
	assert.equal(session.summary.human_turns, 3);
	assert.deepEqual(users(session), [
		[1, 'Rename the pump driver module to motor_ctl', true, null],
		[1, '<user-prompt-submit-hook>Branch policy: commit to feature branches only.</user-prompt-submit-hook>', false, 'host'],
		[3, '<user-prompt-submit-hook>Reminder: the CI runs the bench tests.</user-prompt-submit-hook>', false, 'host'],
		[3, 'now update the wiring notes too', true, null],
		[5, 'and rerun the bench tests', true, null],
		[5, '<user-prompt-submit-hook>first note</user-prompt-submit-hook>\n<user-prompt-submit-hook>second note</user-prompt-submit-hook>', false, 'host'],
	]);
});

test('claude format: a file holding only what a SessionStart hook added (a session resumed under a new id writes one) is no conversation', () => {
	// anthropics/claude-code#24265: a resume also starts a session under a new id whose file holds
	// no conversation; a SessionStart hook's context may be written there beside its snapshot.
	const session = read('hook-context-only.jsonl');
	assert.equal(session.summary.conversational, false);
	assert.equal(session.loaded.skipped, 0);
});

test('claude format: a hook that stopped the agent mid-turn (hook_stopped_continuation from a tool hook) ends the turn interrupted, with its reason; one from a Stop hook ends nothing the agent was doing', () => {
	// A hook answering continue: false stops the turn; 2.1.x records it as an attachment
	// {type: "hook_stopped_continuation", message, hookName, toolUseID, hookEvent} (the agent
	// receives "<hookName> hook stopped continuation: <message>") and the run ends with
	// terminal_reason "hook_stopped". A Stop or SubagentStop hook fires when the turn has ended
	// (terminal_reason "stop_hook_prevented", and stop_hook_summary preventedContinuation: true).
	// Evidence: anthropics/claude-code issues #78527 (a PreToolUse hook's stop ends the turn,
	// hook_stopped_continuation, terminal_reason hook_stopped) and #34601 ("PostToolUse:Edit hook
	// stopped continuation: …" stopping the turn); readers of Claude Code's source quoting the Stop
	// hook's hook_stopped_continuation attachment and the TUI hiding it for Stop and SubagentStop.
	const stopped = read('hook-stopped-continuation.jsonl');
	assert.equal(stopped.loaded.skipped, 0);
	const notice = stopped.events.filter(event => event.kind === 'system').map(event => [event.line, event.text, event.interrupted ?? false]);
	assert.deepEqual(notice, [[4, 'PostToolUse:Edit hook stopped continuation: Generated files changed: run make regen before editing further.', true]]);
	assert.deepEqual(computeTail(stopped.events, false).interruption, {line: 4, detail: 'PostToolUse:Edit hook stopped continuation: Generated files changed: run make regen before editing further.'});

	const atStop = read('hook-stopped-at-stop.jsonl');
	assert.equal(atStop.loaded.skipped, 0);
	assert.deepEqual(atStop.events.filter(event => event.kind === 'system').map(event => [event.line, event.text, event.interrupted ?? false]), [[3, 'Stop hook stopped continuation: Session budget reached; stopping here.', false]]);
	const tail = computeTail(atStop.events, false);
	assert.equal(tail.interruption, null);
	assert.equal(tail.ends_with_reply, true);
});

test('claude format: a Claude Code variant cc-mirror installed (~/.cc-mirror/<name>/variant.json, run with CLAUDE_CONFIG_DIR at its configDir) keeps its transcripts in <configDir>/projects, a default root', t => {
	// cc-mirror builds each variant in ~/.cc-mirror/<name>/ with its Claude Code config directory
	// at <name>/config, records it as configDir (an absolute path) in <name>/variant.json, and its
	// wrapper runs Claude Code with CLAUDE_CONFIG_DIR there: the variant's sessions are never in
	// ~/.claude. Evidence: numman-ali/cc-mirror src/core/variant-builder/VariantBuilder.ts
	// (configDir = <root>/<name>/config) and steps/FinalizeStep.ts (variant.json with configDir);
	// makoMakoGo/tokscale crates/tokscale-core/src/cc_mirror.rs (discover_claude_project_roots).
	const home = tempDir(t);
	cpSync(join(cases, 'cc-mirror-home'), home, {recursive: true});
	const variant = join(home, '.cc-mirror', 'glm-lab');
	writeFileSync(join(variant, 'variant.json'), JSON.stringify({name: 'glm-lab', provider: 'zai', configDir: join(variant, 'config'), tweakDir: join(variant, 'tweakcc')}));
	mkdirSync(join(home, '.cc-mirror', 'scratch', 'config', 'projects'), {recursive: true}); // No variant.json: not a variant.
	const roots = claudeAdapter.defaultRoots({home, env: {}, platform: 'linux'});
	assert.deepEqual(roots, [join(home, '.claude', 'projects'), join(home, '.config', 'claude', 'projects'), join(variant, 'config', 'projects')]);
	const sessions = readStore(claudeAdapter, roots[2]!);
	assert.deepEqual(
		sessions.map(session => [session.summary.id, session.summary.project ?? null, session.summary.title]),
		[['4b7e2c90-1d3a-4f6e-9a8b-5c2d7e0f3a14', '/home/dev/kelp-survey', 'Count the transects in survey.csv that recorded no kelp']],
	);

	// A variant whose variant.json names another configDir writes there.
	writeFileSync(join(variant, 'variant.json'), JSON.stringify({name: 'glm-lab', configDir: join(home, 'claude-variants', 'glm')}));
	assert.deepEqual(claudeAdapter.defaultRoots({home, env: {}, platform: 'linux'}).slice(2), [join(home, 'claude-variants', 'glm', 'projects')]);
});

test('claude format: a Claude Desktop Cowork task runs Claude Code with its own config directory, local-agent-mode-sessions/<account>/<workspace>/local_<id>/.claude, so its sessions are in that tree, a default root', t => {
	// Claude Desktop's Cowork (local agent mode) keeps each task in
	// ~/Library/Application Support/Claude/local-agent-mode-sessions/<account-id>/<workspace-id>/local_<id>/
	// (a scheduled task under …/agent/local_ditto_<id>/), its metadata in local_<id>.json beside it,
	// files given or made in uploads/ and outputs/, and the Claude Code transcripts in the task's own
	// config directory, local_<id>/.claude/projects/. Evidence: jazzyalex/agent-sessions
	// AgentSessions/Services/SessionDiscovery.swift (desktopLocalAgentRoots: a `projects` directory whose
	// parent is `.claude` and grandparent starts `local_`; uploads, outputs, cowork_plugins and
	// skills-plugin skipped); virtuosotravlr/cowork-bridge docs/session-internals.md (the layout). The task runs
	// in a sandbox, each with its own home under /sessions: that is the cwd its records state.
	const home = tempDir(t);
	const appData = join(home, 'Library', 'Application Support', 'Claude');
	mkdirSync(appData, {recursive: true});
	cpSync(join(cases, 'cowork'), appData, {recursive: true});
	const cowork = join(appData, 'local-agent-mode-sessions');
	assert.deepEqual(claudeAdapter.defaultRoots({home, env: {}, platform: 'darwin'}), [join(home, '.claude', 'projects'), join(home, '.config', 'claude', 'projects'), cowork], 'the Cowork tree is a default root on macOS');
	assert.deepEqual(claudeAdapter.defaultRoots({home, env: {CLAUDE_CONFIG_DIR: join(home, 'elsewhere')}, platform: 'darwin'}), [join(home, 'elsewhere', 'projects'), cowork], 'whatever CLAUDE_CONFIG_DIR says: the app sets its own');
	assert.equal(claudeAdapter.defaultRoots({home, env: {}, platform: 'linux'}).length, 2, 'named only where it exists');
	assert.deepEqual(claudeAdapter.resolveRoot(appData), [cowork], 'the app\'s data directory given as --source-root reads its Cowork tree');
	assert.deepEqual(claudeAdapter.resolveRoot(cowork), [cowork]);

	const sessions = readStore(claudeAdapter, cowork);
	assert.deepEqual(
		sessions.map(session => [session.summary.id, session.summary.parent_id ?? null, session.summary.project ?? null, session.summary.title]),
		[
			['9e2f4b6d-8a1c-4e3f-b5d7-c9e1f3a5b7d2', null, '/sessions/brisk-teal-wren', 'Summarise the unread newsletters in this folder'],
			['agent-a4c1e7b2d9f03856', '61d4a2b8-9e3c-4f7a-a1b5-c8d2e6f0a394', '/Users/mira/Documents/garden-plan', 'List the months named in seeds.csv'],
			['61d4a2b8-9e3c-4f7a-a1b5-c8d2e6f0a394', null, '/Users/mira/Documents/garden-plan', 'Sort the seed packets in seeds.csv by sowing month'],
		],
	);
	assert.ok(sessions.every(session => !session.unit.path.includes(`${sep}uploads${sep}`)), 'a file in uploads/ is never a transcript');
});

test('claude format: a Cowork task\'s records state its sandbox home as cwd; the folder the person chose is in the task\'s state file, local_<id>.json (userSelectedFolders), which names the session it ran (cliSessionId)', t => {
	// Claude Desktop runs a Cowork task in a sandbox whose home, /sessions/<name>, is the cwd its
	// records state; the task's state file beside its directory holds the folders the person chose
	// (userSelectedFolders), the task's title and the Claude Code session it ran (cliSessionId).
	// Evidence: jazzyalex/agent-sessions AgentSessions/Services/SessionDiscovery.swift
	// (ClaudeDesktopSessionMetadataReader: local_<id>.json beside the local_<id> directory of the
	// transcript, matched by cliSessionId; its folder and title preferred) and
	// AgentSessionsTests/ClaudeDesktopSessionTitlesTests.swift; other readers of the same file take
	// userSelectedFolders[0] as the workspace and treat a /sessions/<vm-name> cwd as the VM's, never
	// a local one.
	const home = tempDir(t);
	const appData = join(home, 'Library', 'Application Support', 'Claude');
	cpSync(join(cases, 'cowork'), appData, {recursive: true});
	const cowork = join(appData, 'local-agent-mode-sessions');
	const facts = () => readStore(claudeAdapter, cowork).map(session => [session.summary.id, session.summary.project ?? null, session.summary.title]);
	assert.deepEqual(facts(), [
		['9e2f4b6d-8a1c-4e3f-b5d7-c9e1f3a5b7d2', '/sessions/brisk-teal-wren', 'Summarise the unread newsletters in this folder'],
		['agent-a4c1e7b2d9f03856', '/Users/mira/Documents/garden-plan', 'List the months named in seeds.csv'],
		['61d4a2b8-9e3c-4f7a-a1b5-c8d2e6f0a394', '/Users/mira/Documents/garden-plan', 'Sort the seed packets in seeds.csv by sowing month'],
	], 'a task with no state file keeps its records\' cwd');

	// The title is the tool's: a session with no request a person typed is named by it.
	const workspace = join(cowork, '3f0c9a2e-6b1d-4e7a-9c55-0a1b2c3d4e5f', '8d2e4f60-1a3b-4c5d-8e9f-a0b1c2d3e4f5');
	const transcript = join(workspace, 'local_5a7e1c3d-2b4f-4a6e-8c0d-1e2f3a4b5c6d', '.claude', 'projects', '-sessions-quiet-amber-heron', '61d4a2b8-9e3c-4f7a-a1b5-c8d2e6f0a394.jsonl');
	writeFileSync(transcript, readFileSync(transcript, 'utf8').split('\n').slice(1).join('\n'));
	assert.equal(readUnit(claudeAdapter, looseUnit(transcript, {idHint: '61d4a2b8-9e3c-4f7a-a1b5-c8d2e6f0a394'})).summary.title, 'Seed packet order');

	// A state file of another session, or one that is no JSON object, says nothing of this one.
	const stateFile = join(workspace, 'local_5a7e1c3d-2b4f-4a6e-8c0d-1e2f3a4b5c6d.json');
	for (const state of [JSON.stringify({cliSessionId: '00000000-0000-4000-8000-000000000000', userSelectedFolders: ['/elsewhere']}), '[1, 2]', '{"cliSessionId": ', JSON.stringify({cliSessionId: '61d4a2b8-9e3c-4f7a-a1b5-c8d2e6f0a394', userSelectedFolders: [{path: '/x'}], title: 7})]) {
		writeFileSync(stateFile, state);
		assert.equal(readUnit(claudeAdapter, looseUnit(transcript, {idHint: '61d4a2b8-9e3c-4f7a-a1b5-c8d2e6f0a394'})).summary.project, '/sessions/quiet-amber-heron', state);
	}
});

test('claude format: a message another Claude session sent (origin kind "peer", its text in a <cross-session-message> envelope) is another agent\'s, not a request', () => {
	// Claude Code delivers a message from another session on the same machine as a prompt whose
	// origin is {kind: "peer"} (not always with `from`) and whose text opens with a
	// <cross-session-message from="…" from-name="…"> envelope: a queued_command attachment when it
	// arrives mid-turn, a user record otherwise. No person typed it. Evidence: a peers tool's
	// transcript reader and its fixtures (a queued_command attachment with origin {kind: "peer"} and
	// the envelope, from a lead session's real transcript) and a mod spec measured on Claude Code
	// 2.1.291 (session.receive with origin {kind: "peer"}, the text the envelope); readers of the
	// store that render origin.kind, which tag a peer's message apart from a human one.
	const session = read('peer-messages.jsonl');
	assert.equal(session.summary.title, 'Audit the tile cache eviction for stale entries');
	assert.equal(session.summary.human_turns, 1, 'the peer session\'s question and its follow-up are not requests');
	assert.deepEqual(users(session).map(([line, , human, origin]) => [line, human, origin]), [
		[1, true, null],
		[5, false, 'agent'],
		[8, false, 'agent'],
	]);
});

test('claude format: a task Claude Desktop ran in local agent mode (Cowork) keeps its Claude Code transcript in the task\'s own config directory, <app data>/Claude/local-agent-mode-sessions/<org>/<account>/[agent/]local_<id>/.claude/projects: the tree is a default root, walked for each task', t => {
	// Cowork runs Claude Code headlessly for each task with CLAUDE_CONFIG_DIR at
	// local_<id>/.claude beside the app's local_<id>.json record, in an account tree or its agent/
	// subdirectory; skills-plugin/ beside the account trees holds no sessions. Evidence:
	// simonw/claude-code-transcripts issue #84 (Cowork sessions in local-agent-mode-sessions, the
	// same JSONL); kenn-io/agentsview internal/parser/cowork.go (the layout, walked without entering
	// local_* or skills-plugin); skillsynchq/txcript docs/formats/cowork.md (per OS, agent/local_ditto_*).
	const home = tempDir(t);
	cpSync(join(cases, 'cowork-home'), home, {recursive: true});
	const tree = join(home, '.config', 'Claude', 'local-agent-mode-sessions');
	const roots = claudeAdapter.defaultRoots({home, env: {}, platform: 'linux'});
	assert.deepEqual(roots.slice(2), [tree]);
	const sessions = readStore(claudeAdapter, tree).sort((a, b) => (a.summary.started ?? '').localeCompare(b.summary.started ?? ''));
	assert.deepEqual(
		sessions.map(session => [session.summary.id, session.summary.project ?? null, session.summary.title]),
		[
			['9d4f2b81-6c3e-4a57-b0d9-1e8a5c7f2b46', '/sessions/tidy-amber-heron', 'Sort the scanned receipts in my uploads folder into one folder per month'],
			['0a7e5c92-4b18-4f6d-9e23-b5c1d8f04a67', '/sessions/calm-brisk-wren', 'Draft this month\'s garden club newsletter from notes.md'],
		],
		'a task\'s state file that names no folder leaves the sandbox cwd the records state',
	);

	// The app's data directory: Application Support on macOS, %APPDATA% on Windows (and the
	// Microsoft Store build's LocalCache); whatever this process's CLAUDE_CONFIG_DIR says (the app
	// sets its own for each task).
	const support = join(home, 'Library', 'Application Support', 'Claude');
	mkdirSync(support, {recursive: true});
	cpSync(join(home, '.config', 'Claude'), support, {recursive: true});
	const onMac = claudeAdapter.defaultRoots({home, env: {CLAUDE_CONFIG_DIR: join(home, 'elsewhere')}, platform: 'darwin'});
	assert.deepEqual(onMac, [join(home, 'elsewhere', 'projects'), join(support, 'local-agent-mode-sessions')]);
	const appData = join(home, 'AppData', 'Roaming');
	const store = join(home, 'AppData', 'Local', 'Packages', 'Claude_pzs8sxrjxfjjc', 'LocalCache', 'Roaming', 'Claude');
	for (const directory of [join(appData, 'Claude'), store]) {
		mkdirSync(directory, {recursive: true});
		cpSync(join(home, '.config', 'Claude'), directory, {recursive: true});
	}

	const onWindows = claudeAdapter.defaultRoots({home, env: {APPDATA: appData}, platform: 'win32'});
	assert.deepEqual(onWindows.slice(2), [join(appData, 'Claude', 'local-agent-mode-sessions'), join(store, 'local-agent-mode-sessions')]);
});

test('claude format: an assistant record Claude Code wrote itself (model "<synthetic>", no API error: "No response requested." after a resume or restart) is the host\'s notice, not the agent\'s reply', () => {
	// Resuming a session that was cut off, Claude Code writes an isMeta "Continue from where you
	// left off." and answers it itself with a <synthetic> "No response requested." (stop_reason
	// stop_sequence, no usage); no model replied. Evidence: jazzyalex/agent-sessions
	// Resources/Fixtures/stage0 small.jsonl (a <synthetic> assistant record, isApiErrorMessage
	// false); the shapes Claude Code 2.1.97 and 2.1.204 write, quoted in third-party parsers'
	// tests (indexed text), each keeping such rows out of the conversation by that model field.
	const resumed = read('synthetic-resume-ack.jsonl');
	assert.deepEqual(resumed.events.filter(event => event.line === 5).map(event => [event.kind, event.text]), [['system', 'No response requested.']]);
	const tail = computeTail(resumed.events, false);
	assert.equal(tail.last_assistant?.line, 2, 'the agent last spoke before the restart');
	assert.equal(tail.ends_with_reply, false, 'its tool result came back and it never went on');

	const unanswered = computeTail(read('synthetic-after-prompt.jsonl').events, false);
	assert.deepEqual(unanswered.unanswered, {line: 1}, 'the question was never answered');
	assert.equal(unanswered.last_assistant, null);
});

test('claude format: user records Claude Code writes for a memory note (#), an MCP resource or polling update, a GitHub webhook event and another session\'s message (origin.kind "peer") are no requests; the prompt among them is', () => {
	// Claude Code's own user-text routing (UserTextMessage: <user-memory-input>,
	// <mcp-resource-update>/<mcp-polling-update>, <github-webhook-activity>, <cross-session-message>)
	// and its machine-generated-content check (the same openings). Evidence: Claude Code's bundled
	// source as indexed (UserResourceUpdateMessage, UserMemoryInputMessage, hasMachineGeneratedContent);
	// daaain/claude-code-log dev-docs/messages.md (User Memory: <user-memory-input> tags) and
	// work/agent-message-origin.md (origin.kind "peer": another agent's message, not the person's);
	// Claude Code's types/message.ts as indexed (MessageOrigin kinds human, task-notification,
	// coordinator: "coordinator agent message", channel).
	const session = read('machine-written-user-text.jsonl');
	assert.equal(session.summary.title, 'Add a --dry-run flag to the import command');
	assert.equal(session.summary.human_turns, 1);
	assert.deepEqual(users(session).map(([line, , human, origin]) => [line, human, origin]), [
		[1, false, 'host'],
		[2, true, null],
		[4, false, 'host'],
		[6, false, 'host'],
		[8, false, 'host'],
		[10, false, 'agent'],
		[12, false, 'agent'],
		[13, false, 'agent'],
	]);
});

test('claude format: "(no content)", the text Claude Code stores for a reply block the API sent empty or blank, is no text the agent said', () => {
	// Claude Code's normalizeContentFromAPI replaces a response whose text blocks are all blank
	// ("\n\n" before a tool call, an empty final answer) with a text block of NO_CONTENT_MESSAGE,
	// "(no content)", and its transcript view hides any text equal to it (isEmptyMessageText).
	// Evidence: Claude Code's utils/messages.ts and components/messages (UserTextMessage,
	// AssistantTextMessage) as indexed from its source; a third-party transcript parser's note
	// that Claude Code writes an initial "(no content)" assistant chunk before the real content.
	const session = read('no-content-placeholder.jsonl');
	assert.deepEqual(session.events.filter(event => event.kind === 'assistant').map(event => event.text), []);
	assert.deepEqual(session.events.filter(event => event.kind === 'tool_call').map(event => event.line), [3]);
	const tail = computeTail(session.events, false);
	assert.equal(tail.last_assistant, null);
	assert.equal(tail.ends_with_reply, false, 'the agent closed its turn without a word');
});

test('claude format: the agents Claude Code runs for itself (agent-acompact-*: the auto-compaction fork that re-sends the conversation to summarize it; agent-aprompt_suggestion-*: the next-prompt suggester) are no subagents of the session', t => {
	// 2.1.x writes them under <session>/subagents/ beside the agents Task calls ran, named by their
	// agent id (a<label>-<hex>). The compaction's summary is the session's own isCompactSummary
	// record. Evidence: third-party readers of the store, each keeping these files out of the
	// session's subagents: "Internal Claude Code system files stored in subagents/ that are NOT
	// user-invoked Task() calls: context compaction, inline prompt suggestions ... agent-a{type}-
	// {hex}.jsonl" (acompact-, aprompt_suggestion-); a census of one archive, "Auto-compaction
	// Claude agent-acompact-* ... 100 % of parent, whole conversation re-emitted to summarize ...
	// not a session"; anthropics/claude-code#23375 (agent-aprompt_suggestion-*.jsonl sidechain files).
	const session = '7d2c9e14-5a3b-4f81-b6e0-2c8a1d4f9b73';
	const project = join(cases, 'host-agents', '-work-kiln');
	const agent = (id: string) => readUnit(claudeAdapter, looseUnit(join(project, session, 'subagents', `${id}.jsonl`), {idHint: id, parentIdHint: session}));
	// The session-memory fork (agent-asession_memory-*: the conversation and an instruction to bring
	// the session's notes file up to date, with the edits it made there) is the same kind of file:
	// Claude Code's services/SessionMemory/sessionMemory.ts runs runForkedAgent with forkLabel
	// 'session_memory' and no skipTranscript, so utils/forkedAgent.ts records it under
	// createAgentId(forkLabel).
	for (const id of ['agent-acompact-3f9a1c07d2e4b856', 'agent-aprompt_suggestion-8e21d4', 'agent-asession_memory-61c0f7e2a9d4b385']) {
		const host = agent(id);
		assert.equal(host.summary.conversational, false, `${id} holds no conversation`);
		assert.equal(host.summary.title, null);
	}

	assert.equal(agent('agent-a5b0c93e1f7d2a468').summary.conversational, true, 'the agent a Task call ran is a subagent');
	assert.deepEqual(agent('agent-acompact-3f9a1c07d2e4b856').events.filter(event => event.kind === 'tool_call' || event.kind === 'tool_result'), [], 'the calls the fork sends again are the session\'s own, not the fork\'s');

	// The same holds for a startup warmup whose reply looked around before answering.
	const warmupFile = join(tempDir(t), 'agent-a7c2e90.jsonl');
	const warmupRecord = (extra: Record<string, unknown>) => JSON.stringify({isSidechain: true, sessionId: session, agentId: 'a7c2e90', cwd: '/work/kiln', timestamp: '2026-06-03T10:00:00.100Z', ...extra});
	writeFileSync(warmupFile, [
		warmupRecord({type: 'user', uuid: 'w1', parentUuid: null, message: {role: 'user', content: 'Warmup'}}),
		warmupRecord({type: 'assistant', uuid: 'w2', parentUuid: 'w1', message: {id: 'msg_w2', role: 'assistant', content: [{type: 'tool_use', id: 'toolu_w', name: 'Glob', input: {pattern: '**/*.toml'}}]}}),
		warmupRecord({type: 'user', uuid: 'w3', parentUuid: 'w2', message: {role: 'user', content: [{type: 'tool_result', tool_use_id: 'toolu_w', content: 'controller.toml'}]}}),
		warmupRecord({type: 'assistant', uuid: 'w4', parentUuid: 'w3', message: {id: 'msg_w4', role: 'assistant', content: [{type: 'text', text: 'Ready.'}]}}),
	].join('\n') + '\n');
	assert.equal(readUnit(claudeAdapter, looseUnit(warmupFile, {idHint: 'agent-a7c2e90', parentIdHint: session})).summary.conversational, false);
	const env = sandboxEnv(tempDir(t));
	cpSync(project, join(env['HOME']!, '.claude', 'projects', '-work-kiln'), {recursive: true});
	const result = runCli(['sessions', '--all-projects', '--source', 'claude', '--format', 'json'], {env});
	assert.equal(result.code, 0, result.stderr);
	assert.deepEqual((result.json() as {sessions: Array<{id: string; subagents: number}>}).sessions.map(entry => [entry.id, entry.subagents]), [[session, 1]]);
});

test('claude format: a saved_hook_context record (2.1.2x: a SessionStart hook\'s context kept for resume) is the host\'s notice in the words the agent received; the one uuid it is rewritten under each turn gives it no place in the tree', () => {
	// {type: "saved_hook_context", uuid, parentUuid, hookName, hookEvent, toolUseID, content: [lines]}:
	// the context a hook added, saved so a resume gives it again, written anew under the same uuid
	// with the newest parentUuid; the next prompt hangs off that uuid. Evidence: a third-party
	// parser's format notes (fields, "Hook-injected context persisted into the conversation");
	// a resume-repair script's account of saved_hook_context reusing one uuid across entries and
	// updating parentUuid after each turn; Claude Code 2.1.29's changelog (resuming sessions with
	// saved_hook_context).
	const session = read('saved-hook-context.jsonl');
	assert.equal(session.loaded.skipped, 0, 'a known record, not an unknown line');
	assert.deepEqual(session.events.filter(event => event.kind === 'system').map(event => [event.line, event.text, event.uuid ?? null]), [
		[1, 'SessionStart hook additional context: Open tasks: migrate the almanac build to pnpm', null],
		[4, 'SessionStart hook additional context: Open tasks: migrate the almanac build to pnpm', null],
	]);
	assert.deepEqual(session.events.filter(event => event.kind === 'user' || event.kind === 'assistant').map(event => [event.uuid, event.parent ?? null]), [['a1', null], ['a2', 'a1'], ['a3', 'a2'], ['a4', 'a3']]);
	assert.deepEqual(session.summary.abandoned ?? [], [], 'no turn is taken for an abandoned branch');
	assert.equal(session.summary.human_turns, 2);
});

test('claude format: a skill\'s expanded instructions ("Base directory for this skill: …") are the host\'s text even in a user record with no isMeta or sourceToolUseID', () => {
	// The Skill tool writes the skill's SKILL.md after that opening line; builds mark it isMeta or
	// sourceToolUseID (skill-invocations.jsonl), but transcripts read by other tools show it as a
	// plain user message (Claude Desktop's Cowork tasks among them). Evidence: simonw/claude-code-
	// transcripts issue #84 (a Cowork user message "Base directory for this skill: /sessions/…/
	// .skills/skills/xlsx" that should be omitted from the prompts); an export that lists the same
	// text under the person's name.
	const session = read('skill-expansion-unflagged.jsonl');
	assert.equal(session.summary.title, 'Total the March column of budget.xlsx');
	assert.equal(session.summary.human_turns, 1);
	assert.deepEqual(users(session).map(([line, , human, origin]) => [line, human, origin]), [[1, false, 'host'], [2, true, null]]);
});

test('claude format: an API error record whose text Claude Code left empty ("(no content)") says what failed from its error kind, not from the placeholder', () => {
	// createAssistantAPIErrorMessage writes NO_CONTENT_MESSAGE for an empty content and keeps the
	// error's kind in `error` ("rate_limit", "authentication_failed", …). Evidence: Claude Code's
	// utils/messages.ts as indexed (content === '' ? NO_CONTENT_MESSAGE : content; isApiErrorMessage: true, error).
	const unit = looseUnit(join(cases, 'no-content-placeholder.jsonl'));
	const record = {type: 'assistant', uuid: 'e1', parentUuid: null, sessionId: 'e4a9c0d7-1b58-4e23-8f6a-3c2d9b7e5a10', timestamp: '2026-02-10T14:01:00.000Z', isApiErrorMessage: true, error: 'rate_limit', message: {model: '<synthetic>', role: 'assistant', content: [{type: 'text', text: '(no content)'}]}};
	const events = claudeAdapter.normalizeLine(record, 1, {}, unit) as Array<{kind: string; text?: string; error?: string}>;
	assert.deepEqual(events.filter(event => event.kind === 'assistant').map(event => [event.text, event.error]), [['', 'rate_limit']]);
});

test('claude format: a user record holding only "(no content)" (what Claude Code writes for a user message created empty) is no request', () => {
	// createUserMessage: content || '(no content)' ("Make sure we don't send empty messages"); its
	// transcript view renders no text equal to NO_CONTENT_MESSAGE. Evidence: Claude Code's
	// utils/messages.ts and components/messages/UserTextMessage.tsx as indexed from its source.
	const unit = looseUnit(join(cases, 'no-content-placeholder.jsonl'));
	const record = {type: 'user', uuid: 'u9', parentUuid: null, sessionId: 'e4a9c0d7-1b58-4e23-8f6a-3c2d9b7e5a10', timestamp: '2026-02-10T14:02:00.000Z', message: {role: 'user', content: '(no content)'}};
	const events = claudeAdapter.normalizeLine(record, 1, {}, unit) as Array<{kind: string}>;
	assert.deepEqual(events.filter(event => event.kind === 'user'), []);
});

test('claude format: the words a person typed on rejecting a tool call ("… To tell you how to proceed, the user said:\\n<feedback>" in the error tool_result) are a request; the agent goes on with them, and a session ending on them ends unanswered', () => {
	// Claude Code writes a rejection with feedback as the tool_result's text, the fixed prefix and
	// then what the person typed (and, on newer builds, a note about saving corrections to memory),
	// without aborting the turn: the agent carries on from that feedback. Evidence: Claude Code's
	// utils/messages.ts (REJECT_MESSAGE_WITH_REASON_PREFIX), hooks/toolPermission's cancelAndAbort
	// (feedback → prefix + feedback, no abort), services/tools/toolExecution.ts (the tool_result
	// with is_error and the pasted images beside it in the same user record).
	const answered = read('rejected-with-feedback.jsonl');
	assert.equal(answered.summary.title, 'Install the dependencies and run the oven schedule tests');
	assert.equal(answered.summary.human_turns, 2);
	assert.deepEqual(users(answered), [
		[1, 'Install the dependencies and run the oven schedule tests', true, null],
		[3, 'use pnpm here, the lockfile is pnpm-lock.yaml', true, null],
	]);
	assert.equal(answered.events.find(event => event.line === 3 && event.kind === 'tool_result')?.result?.is_error, true, 'the call itself was refused');
	assert.equal(computeTail(answered.events, false).ends_with_reply, true);

	const last = read('rejected-with-feedback-last.jsonl');
	assert.deepEqual(users(last).at(-1), [3, 'keep the brand colour, only change the spacing like in this screenshot', true, null], 'the memory note Claude Code appends is not the person\'s');
	const tail = computeTail(last.events, false);
	assert.deepEqual(tail.unanswered, {line: 3});
	assert.equal(tail.failure, null, 'a refusal with directions is no failing tool');
});

test('claude format: the transcript of a /btw side question (agent-aside_question-<id>.jsonl) replays the conversation as the host\'s, then holds the person\'s question and its answer', () => {
	// Claude Code runs /btw as a forked agent labelled side_question (agentId
	// `aside_question-<hex>`), whose sidechain transcript is the parent's conversation, copied for
	// the prompt cache, then the question wrapped in a <system-reminder> opening "This is a side
	// question from the user.", then the one reply (tools denied, one turn). The answer is kept
	// nowhere else. Evidence: Claude Code's utils/sideQuestion.ts (runSideQuestion: wrapped
	// question, forkLabel 'side_question', maxTurns 1) and utils/forkedAgent.ts (runForkedAgent
	// records forkContextMessages and the prompt under createAgentId(forkLabel)).
	const session = '4a6c8e0f-2b4d-4f6a-8c0e-1a3b5d7f9e2c';
	const id = 'agent-aside_question-5d1e9a7c3b2f4e60';
	const file = join(cases, 'side-question-agent', '-home-lena-almanac', session, 'subagents', `${id}.jsonl`);
	const aside = readUnit(claudeAdapter, looseUnit(file, {idHint: id, parentIdHint: session}));
	assert.equal(aside.loaded.skipped, 0);
	assert.equal(aside.summary.title, 'which crate are you using for the tide dates?');
	assert.equal(aside.summary.human_turns, 1, 'the copied prompt is the session\'s');
	assert.equal(aside.summary.tool_calls, 0, 'the copied calls are counted in the session');
	assert.deepEqual(users(aside).filter(([, , human]) => human === true), [[5, 'which crate are you using for the tide dates?', true, null]]);
	assert.deepEqual(aside.events.filter(event => event.kind === 'assistant').map(event => [event.line, event.text]), [[6, 'I\'m planning on chrono, with its NaiveDateTime for the local tide times.']]);
	assert.equal(computeTail(aside.events, false).ends_with_reply, true, 'the question was answered');
});

test('claude format: a prompt still queued when the file ends (typed while the agent worked, never handed over) is the person\'s latest request, unanswered', () => {
	// Claude Code queues what a person types while the agent works and writes each change of the
	// queue as a queue-operation record: `enqueue` with the text, `dequeue` when the turn's end
	// hands it over (its user record follows), `remove` when the running turn takes it (a
	// queued_command attachment), `popAll` with the text when Esc or ↑ pulls it back into the input
	// box. Evidence: the rebuilt 2.1.x sources' utils/messageQueueManager.ts (logOperation in
	// enqueue, dequeue, remove, popAllEditable) and query.ts (the mid-turn drain: attachments, then
	// removeFromQueue). A prompt enqueued and never taken was not sent: the person quit first.
	const session = read('queued-at-end.jsonl');
	assert.equal(session.loaded.skipped, 0);
	assert.deepEqual(users(session), [
		[1, 'Make the CSV export quote fields that hold commas', true, null],
		[3, 'then add a test with a newline inside a field', true, null],
	]);
	assert.equal(session.loaded.rows.at(-1)?.line, 5, 'read after the last line, on the line of its enqueue record');
	assert.equal(session.events.at(-1)?.timestamp, '2026-10-12T14:00:06.000Z');
	const tail = computeTail(session.events, false);
	assert.deepEqual(tail.unanswered, {line: 3}, 'the reply after it answered the turn before');
	assert.equal(tail.last_human?.text, 'then add a test with a newline inside a field');
	assert.equal(tail.last_line, 5);
});

test('claude format: a queued prompt pulled back into the input box (popAll), one the running turn took (attachment, remove), and a notification never handed over are no request left unanswered', () => {
	const session = read('queued-and-gone.jsonl');
	assert.deepEqual(users(session).filter(([, , human]) => human), [
		[1, 'Rename the ledger columns to snake case', true, null],
		[7, 'and the views too', true, null],
	]);
	const tail = computeTail(session.events, false);
	assert.equal(tail.unanswered, null);
	assert.equal(tail.ends_with_reply, true);
});

test('claude format: of two queued prompts, the one the turn\'s end handed over (dequeue, its user record) is one request; the other, still queued at the end, is the latest', () => {
	const session = read('queued-one-delivered-one-left.jsonl');
	assert.deepEqual(users(session), [
		[1, 'Profile the monthly report query', true, null],
		[8, 'add an index if it helps', true, null],
		[4, 'and write the numbers to BENCH.md', true, null],
	]);
	assert.deepEqual(computeTail(session.events, false).unanswered, {line: 4});

	// A prompt written after a quit with one queued, typed while nothing worked: that queue is gone.
	const resumed = read('queued-then-resumed.jsonl');
	assert.deepEqual(users(resumed).map(([line]) => line), [1, 4]);
	assert.equal(computeTail(resumed.events, false).unanswered, null);
});

test('claude format: a prompt enqueued as content blocks (text blocks, plain strings, an image) and still queued at the end is the latest request', () => {
	// Builds from late 2025 write an enqueue's `content` as an array (text blocks, bare strings,
	// image blocks) as well as a string. Evidence: d-kimuson/claude-code-viewer
	// src/lib/conversation-schema/entry/QueueOperationEntrySchema.ts (+ .test.ts: "new format with
	// array content") and normalizeQueueOperationContent.ts.
	const session = read('queued-blocks-at-end.jsonl');
	assert.equal(session.loaded.skipped, 0);
	assert.deepEqual(users(session), [
		[1, 'Split the pricing module into tiers and discounts', true, null],
		[3, 'keep the old import path working', true, null],
		[5, 'and re-export both from index.ts\n[image: image/png]', true, null],
	]);
	assert.deepEqual(computeTail(session.events, false).unanswered, {line: 5});
	assert.doesNotMatch(JSON.stringify(session.events), /iVBORw0KGgo/, 'no payload copied');
});

test('claude format: an image pasted alone while the agent worked and still queued at the end is the latest request, noted by its type', () => {
	// A person can paste an image and send it with no words while a turn runs; the queue then holds
	// content blocks without text. An image alone is a request (shared/media.ts), queued or typed.
	const session = read('queued-image-only-at-end.jsonl');
	assert.equal(session.loaded.skipped, 0);
	assert.deepEqual(users(session), [
		[1, 'Redraw the coastline layer with the new projection', true, null],
		[3, '[image: image/png]', true, null],
	]);
	assert.deepEqual(computeTail(session.events, false).unanswered, {line: 3});
	assert.doesNotMatch(JSON.stringify(session.events), /iVBORw0KGgo/, 'no payload copied');
});

/**
 * A format case's lines, to be written (in part, then whole) as session `id` of a Claude project in
 * a sandboxed home, and the built CLI to ask about it: for tests of a catalog that reads a file as
 * it grows against one that reads it whole.
 */
function growingSession(t: Parameters<typeof tempDir>[0], fixture: string, projectSlug: string, id: string) {
	const lines = readFileSync(join(cases, fixture), 'utf8').split('\n').filter(line => line !== '');
	const env = sandboxEnv(tempDir(t));
	const project = join(env['HOME']!, '.claude', 'projects', projectSlug);
	mkdirSync(project, {recursive: true});
	const run = (...args: string[]) => {
		const result = runCli([...args, '--format', 'json'], {env});
		assert.equal(result.code, 0, result.stderr);
		return result.json();
	};

	return {lines, env, file: join(project, `${id}.jsonl`), run};
}

test('claude format: engi unfinished reads a prompt still queued at the end as trailing_user_request_unanswered, the same whether the catalog read the file whole or as it grew', t => {
	const id = '2e7b9d1f-3a5c-4e6b-8d0f-7a9c1e3b5d7f';
	const {lines, env, file, run} = growingSession(t, 'queued-one-delivered-one-left.jsonl', '-work-ledger', id);

	const unfinished = () => (run('unfinished', '--all-projects', '--since', '2020-01-01').candidates as Array<{id: string; reasons: Array<{code: string; line?: number; detail: string}>}>).find(candidate => candidate.id === id);
	// Both prompts queued, the turn's reply written: the later one is the latest request.
	// Written long ago: a file written within the last minutes is still being written, its tail not judged.
	const written = (count: number) => {
		writeFileSync(file, `${lines.slice(0, count).join('\n')}\n`);
		utimesSync(file, new Date('2026-10-12T16:01:00Z'), new Date('2026-10-12T16:01:00Z'));
	};

	written(6);
	const early = unfinished();
	assert.deepEqual(early?.reasons.find(reason => reason.code === 'trailing_user_request_unanswered')?.line, 4);

	// The first handed over and answered; the second still queued.
	written(lines.length);
	const grown = {unfinished: unfinished(), sessions: run('sessions', '--all-projects'), search: run('sessions', '--all-projects', '--q', 'index helps')};
	assert.deepEqual(grown.unfinished?.reasons.find(reason => reason.code === 'trailing_user_request_unanswered')?.line, 4);
	const resume = run('resume', id);
	assert.equal(resume.latest_user.text, 'and write the numbers to BENCH.md');
	assert.ok(resume.unresolved.some((marker: {marker: string; line: number}) => marker.marker === 'trailing_user_request_unanswered' && marker.line === 4));

	// Read whole from a fresh catalog: the same answers.
	rmSync(join(env['XDG_CACHE_HOME']!, 'engi'), {recursive: true, force: true});
	const whole = {unfinished: unfinished(), sessions: run('sessions', '--all-projects'), search: run('sessions', '--all-projects', '--q', 'index helps')};
	assert.deepEqual(whole, grown);
	assert.equal(whole.sessions.sessions[0].human_turns, 2, 'the catalog counts the requests sent; the one still queued is the tail\'s');
});

test('claude format: the native resume of a session kept in another config directory runs with it: a cc-mirror variant by its own command, any other directory with CLAUDE_CONFIG_DIR; a Cowork task has none a terminal can run', t => {
	// `claude --resume <id>` looks in $CLAUDE_CONFIG_DIR/projects, else ~/.claude/projects. cc-mirror
	// runs each variant through a wrapper named by the variant in its bin directory, which exports
	// CLAUDE_CONFIG_DIR (the variant's configDir), loads the provider's env from its settings.json
	// and runs the variant's own Claude Code. Evidence: numman-ali/cc-mirror src/core/wrapper.ts
	// (writeWrapper), src/core/paths.ts (getWrapperPath: <binDir>/<name>; the variant name pattern)
	// and variant-builder/steps/WrapperStep.ts. Claude Desktop runs a Cowork task's Claude Code in
	// its sandbox (a VM: anthropics/claude-code#78283, its logs), from a home under /sessions that
	// is no directory of this machine, with the app's own config directory: no terminal resumes it.
	const base = tempDir(t);
	const env = sandboxEnv(base);
	const home = env['HOME']!;
	cpSync(join(cases, 'cc-mirror-home'), home, {recursive: true});
	const variant = join(home, '.cc-mirror', 'glm-lab');
	writeFileSync(join(variant, 'variant.json'), JSON.stringify({name: 'glm-lab', provider: 'zai', configDir: join(variant, 'config'), tweakDir: join(variant, 'tweakcc')}));
	cpSync(join(cases, 'cowork-home', '.config'), env['XDG_CONFIG_HOME']!, {recursive: true});
	const run = (...args: string[]) => {
		const result = runCli([...args, '--format', 'json'], {env});
		assert.equal(result.code, 0, result.stderr);
		return result.json();
	};

	const variantSession = '4b7e2c90-1d3a-4f6e-9a8b-5c2d7e0f3a14';
	assert.equal(run('resume', variantSession).native_resume_command, `glm-lab --resume ${variantSession}`, 'the variant\'s wrapper sets its config directory itself');
	assert.equal(run('pickup', variantSession).native_resume_command, `glm-lab --resume ${variantSession}`);

	const cowork = '0a7e5c92-4b18-4f6d-9e23-b5c1d8f04a67';
	const brief = run('resume', cowork);
	assert.equal(brief.native_resume_command, null);
	assert.ok(brief.warnings.some((warning: string) => /Cowork/.test(warning) && /Claude Desktop/.test(warning)), JSON.stringify(brief.warnings));
	assert.equal(run('pickup', cowork).native_resume_command, null);

	// A variant whose configDir is elsewhere, and a store named by --source-root: the directory is set.
	const elsewhere = join(home, 'claude variants', 'glm');
	mkdirSync(elsewhere, {recursive: true});
	cpSync(join(variant, 'config', 'projects'), join(elsewhere, 'projects'), {recursive: true});
	rmSync(join(variant, 'config'), {recursive: true});
	writeFileSync(join(variant, 'variant.json'), JSON.stringify({name: 'glm-lab', configDir: elsewhere}));
	const quoted = `'${elsewhere}'`;
	assert.equal(run('resume', variantSession).native_resume_command, `CLAUDE_CONFIG_DIR=${quoted} claude --resume ${variantSession}`);
	assert.equal(run('resume', variantSession, '--source', 'claude', '--source-root', elsewhere).native_resume_command, `CLAUDE_CONFIG_DIR=${quoted} claude --resume ${variantSession}`);

	// The same session in the directory plain `claude` reads: no variable.
	cpSync(join(elsewhere, 'projects'), join(home, '.claude', 'projects'), {recursive: true});
	rmSync(join(home, '.cc-mirror'), {recursive: true});
	rmSync(elsewhere, {recursive: true});
	assert.equal(run('resume', variantSession).native_resume_command, `claude --resume ${variantSession}`);
	const configured = {...env, CLAUDE_CONFIG_DIR: join(home, '.claude')};
	const result = runCli(['resume', variantSession, '--format', 'json'], {env: configured});
	assert.equal(result.json().native_resume_command, `claude --resume ${variantSession}`, 'CLAUDE_CONFIG_DIR set to the session\'s directory: plain claude reads it');

	// What a person may paste: a directory is quoted, an id or a variant name that is no plain token gives nothing to run.
	const context = {home, env: {}, platform: 'linux' as const};
	assert.equal(claudeAdapter.nativeResumeCommand(variantSession, {parentId: null, root: '/srv/$(id) x/projects', context}), `CLAUDE_CONFIG_DIR='/srv/$(id) x' claude --resume ${variantSession}`);
	assert.equal(claudeAdapter.nativeResumeCommand('a; rm -rf /', {parentId: null, root: join(home, '.cc-mirror', 'glm-lab', 'config', 'projects'), context}), null);
	assert.equal(claudeAdapter.nativeResumeCommand(variantSession, {parentId: null, root: join(home, '.cc-mirror', '$(id)', 'config', 'projects'), context}), `CLAUDE_CONFIG_DIR='${join(home, '.cc-mirror', '$(id)', 'config')}' claude --resume ${variantSession}`);
});

test('claude format: a usage-limit stop ("Claude AI usage limit reached|<Unix seconds>", an API error record) says when the limit resets, not the raw number after the bar', () => {
	// Claude Code writes the stop as a synthetic API error whose text carries the reset time in
	// Unix seconds after a "|"; its TUI shows that as a time. Evidence: ryoppippi/ccusage
	// apps/ccusage/src/data-loader.ts (getUsageLimitResetTime: isApiErrorMessage, text containing
	// "Claude AI usage limit reached", /\|(\d+)/ read as seconds).
	const session = read('usage-limit-reached.jsonl');
	assert.equal(session.loaded.skipped, 0);
	const stop = session.events.find(event => event.line === 2);
	assert.equal(stop?.kind, 'assistant');
	assert.equal(stop?.text, 'Claude AI usage limit reached (resets 2026-12-06T12:00:00Z)');
	assert.equal(stop?.error, 'Claude AI usage limit reached (resets 2026-12-06T12:00:00Z)');
});

test('claude format: a Cowork task the person archived in Claude Desktop (isArchived in its state file) is archived and no unfinished work; unarchived, it is again', t => {
	// The task's state file beside its directory, local_<id>.json, holds `isArchived`; archiving
	// changes that file only, never a transcript. Evidence:
	// third-party Cowork readers in the code index (a TypeScript discovery module reading
	// `isArchived` from local_*.json and leaving archived tasks out; a Swift reader's tests).
	const env = sandboxEnv(tempDir(t));
	cpSync(join(cases, 'cowork-home', '.config'), env['XDG_CONFIG_HOME']!, {recursive: true});
	const workspace = join(env['XDG_CONFIG_HOME']!, 'Claude', 'local-agent-mode-sessions', '3f9c1e27-5a84-4d2b-9e61-0c7d2b8a4f15', 'a81d4b6e-2c39-47f0-b5e8-19d6c3f7a240');
	const stateFile = join(workspace, 'local_6e2a9d14-8b3f-4c71-a0e5-5d9f2c7b1e38.json');
	const id = '9d4f2b81-6c3e-4a57-b0d9-1e8a5c7f2b46';
	const transcript = join(workspace, 'local_6e2a9d14-8b3f-4c71-a0e5-5d9f2c7b1e38', '.claude', 'projects', '-sessions-tidy-amber-heron', `${id}.jsonl`);
	// The person asked for more and the task stopped before answering: unfinished work, unless put away.
	const asked = {parentUuid: 'd7e2a0f6-9c41-4b85-83d7-2a6f1e0c4b19', isSidechain: false, userType: 'external', cwd: '/sessions/tidy-amber-heron', sessionId: id, version: '2.1.31', gitBranch: '', type: 'user', message: {role: 'user', content: 'Now total each month in a sheet'}, uuid: '0c3e7a91-5d24-4b8f-9e16-7a2f4c8d0b53', timestamp: '2026-06-01T08:32:00.000Z'};
	writeFileSync(transcript, `${readFileSync(transcript, 'utf8')}${JSON.stringify(asked)}\n`);
	const run = (...args: string[]) => {
		const result = runCli([...args, '--format', 'json'], {env});
		assert.equal(result.code, 0, result.stderr);
		return result.json();
	};

	const listed = () => run('sessions', '--all-projects').sessions.find((session: {id: string}) => session.id === id);
	const unfinished = () => run('unfinished', '--all-projects', '--since', '2020-01-01').candidates.map((candidate: {id: string}) => candidate.id);
	const setState = (fields: Record<string, unknown>) => writeFileSync(stateFile, JSON.stringify({...JSON.parse(readFileSync(stateFile, 'utf8')), ...fields}));
	assert.equal(listed()?.archived, false);
	assert.ok(unfinished().includes(id), 'an open task is unfinished');

	setState({isArchived: true});
	assert.equal(listed()?.archived, true, 'the warm catalog sees the state file change, though no transcript did');
	assert.ok(!unfinished().includes(id), 'an archived task is put away');

	setState({isArchived: false});
	assert.equal(listed()?.archived, false);
	assert.ok(unfinished().includes(id), 'unarchived, it is unfinished again');
});

test('claude format: the plain-text brief of a Cowork task says why no native resume command is printed, as the JSON brief\'s warnings do', t => {
	const env = sandboxEnv(tempDir(t));
	cpSync(join(cases, 'cowork-home', '.config'), env['XDG_CONFIG_HOME']!, {recursive: true});
	const cowork = '0a7e5c92-4b18-4f6d-9e23-b5c1d8f04a67';
	const json = runCli(['resume', cowork, '--format', 'json'], {env});
	assert.equal(json.code, 0, json.stderr);
	const text = runCli(['resume', cowork, '--format', 'human'], {env});
	assert.equal(text.code, 0, text.stderr);
	const lines = text.stdout.split('\n');
	assert.ok(!lines.some(line => line.startsWith('Native: ')));
	for (const warning of json.json().warnings as string[]) {
		assert.ok(lines.includes(`warning\t${warning}`), `${warning}\n${text.stdout}`);
	}

	assert.ok(lines.some(line => line.startsWith('warning\tno native resume command: ') && /Claude Desktop/.test(line)), text.stdout);
	assert.ok(lines.findIndex(line => line.startsWith('warning\t')) < lines.indexOf('Expand:'), 'beside the resume commands, before the expansions');
});

test('claude format: pickup of a Cowork task says why there is no native resume command (native_resume_unavailable), not that Claude Code has none', t => {
	const env = sandboxEnv(tempDir(t));
	cpSync(join(cases, 'cowork-home', '.config'), env['XDG_CONFIG_HOME']!, {recursive: true});
	const cowork = '0a7e5c92-4b18-4f6d-9e23-b5c1d8f04a67';
	const json = runCli(['pickup', cowork, '--format', 'json'], {env});
	assert.equal(json.code, 0, json.stderr);
	const pickup = json.json();
	assert.equal(pickup.native_resume_command, null);
	assert.match(pickup.native_resume_unavailable, /Cowork/);
	const text = runCli(['pickup', cowork, '--format', 'human'], {env});
	assert.equal(text.code, 0, text.stderr);
	assert.ok(text.stdout.split('\n').includes(`Resume: (no native resume command: ${pickup.native_resume_unavailable})`), text.stdout);
});

test('claude format: the dashboard\'s pickup view of a Cowork task shows why no native resume command is listed (the brief\'s warnings)', async t => {
	const {briefLines} = await import('../../source/screens/pickup/view.js');
	const env = sandboxEnv(tempDir(t));
	cpSync(join(cases, 'cowork-home', '.config'), env['XDG_CONFIG_HOME']!, {recursive: true});
	const result = runCli(['resume', '0a7e5c92-4b18-4f6d-9e23-b5c1d8f04a67', '--no-compact', '--format', 'json'], {env});
	assert.equal(result.code, 0, result.stderr);
	const brief = result.json();
	assert.ok(brief.warnings.length > 0);
	const lines = briefLines(brief, 100);
	for (const warning of brief.warnings as string[]) {
		assert.ok(lines.some(line => line.text === `warning: ${warning}` && line.tone === 'warning'), warning);
	}
});

/**
 * While a reply streams, Claude Code may write the same message (one `message.id`) more than
 * once, a later record repeating the blocks an earlier one held before adding the next
 * (agentsview internal/parser/claude.go mergeClaudeAssistantMessageChunks: "cumulative streaming
 * snapshots and additive chunks"; junhoyeo/tokscale#563: repeated snapshots of one message.id in
 * 2.1.63 logs). A repeated block is the same block: its text is one reply, its call one call.
 */
test('claude format: a streamed snapshot that repeats the blocks an earlier record of the same message held adds only its new blocks', () => {
	const session = read('streamed-snapshots.jsonl');
	assert.deepEqual(
		session.events.filter(event => event.kind === 'assistant' || event.kind === 'tool_call').map(event => [event.line, event.kind, event.text ?? event.tool?.call_id]),
		[
			[2, 'assistant', 'I\'ll read the catalogue first.'],
			[3, 'tool_call', 'toolu_orchard1'],
			[5, 'assistant', 'Conference is listed twice.'],
		],
	);
	assert.equal(session.summary.tool_calls, 1);
	assert.equal(session.summary.assistant_messages, 2);
});

test('claude format: the parallel calls of one response, each result hanging off the record that made its call, are one turn\'s work; the live conversation going on from one result abandons no other call', () => {
	// Claude Code writes a response's calls as records of one message.id, each the child of the one
	// before, and each result as the child of the record that made its call (sourceToolAssistantUUID):
	// the reply goes on from the last result written, so a call made after the one whose result the
	// reply follows (a call that finished first, or the continuation written while a long call ran)
	// is a sibling of that result. No prompt was re-sent there: nothing is abandoned. Evidence:
	// daaain/claude-code-log dev-docs/dag.md ("Tool-result stitching, variant 2: dead-end
	// continuation", "Assistant continuation tool-flow") and claude_code_log/dag.py
	// (_stitch_tool_results, _is_continuation_fork).
	const session = read('parallel-calls-forked.jsonl');
	assert.deepEqual(session.summary.abandoned ?? [], [], 'no record of the tool flow is on an abandoned branch');
	assert.equal(session.summary.human_turns, 2);
	const live = liveEvents(session.events);
	assert.deepEqual(live.filter(event => event.kind === 'tool_call').map(event => event.tool?.call_id), ['toolu_grep', 'toolu_read', 'toolu_test', 'toolu_cat']);
	assert.deepEqual(live.filter(event => event.kind === 'tool_result').map(event => event.result?.call_id), ['toolu_read', 'toolu_grep', 'toolu_cat', 'toolu_test']);
	assert.deepEqual(live.filter(event => event.kind === 'assistant').map(event => event.line), [6, 11, 13]);
});

test('claude format: a compaction that keeps the latest messages names as its logical parent the kept tail written after its summary; the boundary continues the last kept message already written, so the rewound attempt before it stays abandoned', () => {
	// compact_boundary {parentUuid: null, logicalParentUuid: <tail>, compactMetadata:
	// {preservedSegment: {headUuid, anchorUuid, tailUuid}, preservedMessages: {anchorUuid, uuids}}}:
	// the tail is re-parented under the summary (the anchor) and written after it, so taking the
	// logical parent as the boundary's parent closes a loop (boundary → tail → summary → boundary)
	// that cuts the live chain off from everything before the compaction. Evidence:
	// daaain/claude-code-log test/test_data/dag_compact_after_rewind_preserved.jsonl,
	// test/test_compact_after_rewind.py, dev-docs/dag.md ("Compaction after a rewind").
	const session = read('compact-preserved-tail.jsonl');
	assert.equal(session.events.find(event => event.uuid === 'k8')?.parent, 'k7', 'the boundary continues the last kept message written before it');
	assert.deepEqual(session.summary.abandoned, [[3, 4]], 'the Redis attempt the person rewound');
	assert.equal(session.summary.human_turns, 4);
	const live = liveEvents(session.events);
	assert.deepEqual(live.filter(event => event.kind === 'assistant').map(event => event.line), [2, 6, 10, 12]);
});

test('claude format: a parallel call whose lagging sibling result arrives after a scan stays on the live conversation, the same whether the catalog read the file whole or as it grew', t => {
	// The tree tail the catalog keeps marks which nodes are a reply's records, so a scan that reads
	// the lagging result (parallel-calls-forked.jsonl, line 5) sees the call beside it as the same
	// response going on, not a branch, without reading the file again.
	const id = '4c1d2e3f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
	const {lines, env, file, run} = growingSession(t, 'parallel-calls-forked.jsonl', '-home-ines-ledger', id);

	const abandoned = () => (run('read', id, '--view', 'context', '--limit', '100').records as Array<{line: number; abandoned?: boolean}>).filter(record => record.abandoned).map(record => record.line);
	writeFileSync(file, `${lines.slice(0, 4).join('\n')}\n`);
	assert.deepEqual(abandoned(), []);
	writeFileSync(file, `${lines.join('\n')}\n`);
	const grown = {sessions: run('sessions', '--all-projects'), abandoned: abandoned()};
	assert.equal(grown.sessions.catalog.scanned, 1);
	assert.deepEqual(grown.abandoned, []);
	assert.equal(grown.sessions.sessions[0].human_turns, 2);

	rmSync(join(env['XDG_CACHE_HOME']!, 'engi'), {recursive: true, force: true});
	assert.deepEqual({sessions: run('sessions', '--all-projects'), abandoned: abandoned()}.abandoned, grown.abandoned);
});

test('claude format: what Claude Code writes into a rejected AskUserQuestion\'s feedback ("The user wants to clarify these questions…", "The user has indicated they have provided enough answers…") is the host\'s, not a request; the prompt typed next is', () => {
	// The question dialog's "chat about this" and "finish the plan interview" reject the call with
	// feedback the tool itself composes (the questions, any answers so far, an instruction), in the
	// slot where a person's typed directions go ("… To tell you how to proceed, the user said:\n").
	// Evidence: Claude Code's AskUserQuestionPermissionRequest (handleRespondToClaude,
	// handleFinishPlanInterview: toolUseConfirm.onReject(feedback)); real transcripts quoting the
	// rejection; daaain/claude-code-log renders AskUserQuestion results apart
	// (test/test_askuserquestion_rendering.py).
	const session = read('ask-user-question-feedback.jsonl');
	assert.deepEqual(session.events.filter(event => event.kind === 'user' && event.human === true).map(event => [event.line, event.text]), [
		[1, 'Plan the quilt exporter'],
		[5, 'Compression depends on the bucket\'s lifecycle rules'],
	]);
	assert.equal(session.summary.human_turns, 2);
	assert.deepEqual(session.events.filter(event => event.kind === 'user' && event.human === false).map(event => [event.line, event.origin, event.text?.split('\n')[0]]), [
		[3, 'host', 'The user wants to clarify these questions.'],
		[7, 'host', 'The user has indicated they have provided enough answers for the plan interview.'],
	]);
});

test('claude format: a record holding only a thinking block between two calls of one response (interleaved thinking) is the reply going on: the call after it, whose result came first, is not abandoned', () => {
	// The continuation beside a lagging result may open with a thinking block, which shows nothing:
	// its place in the tree still belongs to the reply. Evidence: daaain/claude-code-log
	// dev-docs/dag.md ("Assistant continuation tool-flow": "a thinking block, a max_tokens split, or
	// the next parallel tool_use").
	const session = read('parallel-calls-thinking-between.jsonl');
	assert.deepEqual(session.summary.abandoned ?? [], []);
	const live = liveEvents(session.events);
	assert.deepEqual(live.filter(event => event.kind === 'tool_call').map(event => event.tool?.call_id), ['toolu_logs', 'toolu_conf']);
	assert.deepEqual(live.filter(event => event.kind === 'tool_result').map(event => event.result?.call_id), ['toolu_conf', 'toolu_logs']);
	assert.equal(session.summary.assistant_messages, 2, 'the thinking record is no message of its own');
});

test('claude format: a reply record under a reply is kept beside a live tool result only; beside a live reply of its own kind it is still a branch left behind', () => {
	// The exemption for the tool flow (parallel-calls-forked.jsonl) holds where the conversation went
	// on from a call's result; two replies under one reply with the conversation going on from one
	// of them is no shape of that flow, and the other stays off the live conversation as before.
	const event = (uuid: string, parent: string | null, kind: 'user' | 'assistant' | 'tool_call' | 'tool_result', line: number) => ({line, kind, uuid, parent, ...(kind === 'user' ? {text: 'go', human: true} : kind === 'assistant' ? {text: 'ok', message_id: `m-${uuid}`} : {})});
	const live = liveEvents([
		event('u1', null, 'user', 1),
		event('a1', 'u1', 'assistant', 2),
		event('a2', 'a1', 'assistant', 3),
		event('a3', 'a1', 'assistant', 4),
		event('a4', 'a3', 'assistant', 5),
	]);
	assert.deepEqual(live.map(one => one.uuid), ['u1', 'a1', 'a3', 'a4']);
});

test('claude format: a background shell\'s <bash-notification> (2.0.x, before <task-notification>) is no request, delivered as a user record or left queued at the end', () => {
	// Claude Code 2.0.x told the model a background Bash command had ended with a user record (or a
	// queued entry) of `<bash-notification>` holding shell-id, output-file, status and summary.
	const session = read('bash-notifications.jsonl');
	assert.equal(session.summary.human_turns, 1, 'only the typed prompt');
	assert.deepEqual(users(session).filter(([, , human]) => human), [
		[1, 'Start the glaze simulator in the background and tell me when it is done', true, null],
	]);
	const delivered = session.events.find(event => event.kind === 'user' && event.line === 5);
	assert.equal(delivered?.human, false, 'the delivered notification is host text');
	const tail = computeTail(session.events, false);
	assert.equal(tail.unanswered, null, 'a notification left in the queue is no request waiting');
	assert.equal(tail.last_human?.line, 1);
});

test('claude format: a subagent\'s hand-back (<agent-message from="…"> [Subagent hand-back] …) is a message from an agent, delivered or left queued at the end, never a request', () => {
	// Claude Code 2.1.27x hands a background subagent's final report back to the session as a user
	// record (isMeta) of an `<agent-message from="<agent id>">` envelope, queued while a turn runs.
	const session = read('subagent-hand-back.jsonl');
	assert.equal(session.summary.human_turns, 1, 'only the typed prompt');
	const delivered = session.events.find(event => event.kind === 'user' && event.line === 5);
	assert.deepEqual([delivered?.human, delivered?.origin], [false, 'agent'], 'the report is the subagent\'s');
	const tail = computeTail(session.events, false);
	assert.equal(tail.unanswered, null, 'a hand-back left in the queue is no request waiting');
	assert.equal(tail.last_human?.line, 1);
});

test('claude format: a session aichat trim made (trim_metadata on its first line, the parent\'s records copied under a new sessionId) is the parent\'s child; only what came after the trim is its own', () => {
	// claude-code-tools' `aichat trim` writes a new `<uuid>.jsonl` beside the parent: every record
	// copied (uuid and time kept, sessionId rewritten, long results cut), `trim_metadata:
	// {parent_file, trimmed_at, …}` added to line 1. Resuming it appends the new turns.
	const session = readUnit(claudeAdapter, looseUnit(join(cases, 'trimmed-copy.jsonl'), {idHint: '6d4a2f8e-9b1c-4e3d-a5f7-0c2b4d6e8a19'}));
	const {summary} = session;
	assert.equal(summary.id, '6d4a2f8e-9b1c-4e3d-a5f7-0c2b4d6e8a19');
	assert.equal(summary.parent_id, '2c9e7a41-5d3b-4f6e-8a0c-1b3d5f7a9c2e', 'the trimmed session names the one it was trimmed from');
	assert.equal(summary.title, 'Now export the schema as SQL', "the parent's first request is not this one's title");
	assert.deepEqual([summary.human_turns, summary.assistant_messages, summary.tool_calls], [1, 1, 0], 'only the turn typed after the trim counts');
	assert.equal(summary.started, '2026-11-10T09:31:10.000Z', 'the session started when it was trimmed and resumed');
	assert.ok(!session.events.some(event => event.kind === 'tool_result'), "the parent's cut result is not this one's failure");
	assert.ok(session.events.some(event => event.kind === 'system' && event.text?.includes('2c9e7a41-5d3b-4f6e-8a0c-1b3d5f7a9c2e')), 'a notice names the parent');
	assert.doesNotMatch(session.loaded.rows.map(row => searchableText(row.events)).join('\n'), /tide|moon phase/, "the copied records are not searched as this session's");
});

test('claude format: a session aichat ported from Codex (continue_metadata with ported_from on line 1) holds the Codex conversation, read in that session; only the turns after the port are its own', () => {
	// claude-code-tools' Codex → Claude port writes the rollout flattened into text records under a
	// new `<uuid>.jsonl` (the Codex times kept), `continue_metadata: {parent_session_id,
	// parent_session_file, continued_at, ported_from: "codex"}` on line 1. Resuming it appends new turns.
	const session = readUnit(claudeAdapter, looseUnit(join(cases, 'ported-from-codex.jsonl'), {idHint: '8f1b3d5e-7a9c-4b2d-8e0f-3a5c7e9b1d24'}));
	const {summary} = session;
	assert.equal(summary.id, '8f1b3d5e-7a9c-4b2d-8e0f-3a5c7e9b1d24');
	assert.equal(summary.parent_id, null, 'the Codex session is no Claude Code session to list it under');
	assert.equal(summary.title, 'Go on with the regression test in Claude now', "the Codex conversation's request is not this one's title");
	assert.deepEqual([summary.human_turns, summary.assistant_messages], [1, 1], 'only the turn after the port counts');
	assert.equal(summary.started, '2026-11-15T12:10:00.000Z');
	assert.ok(session.events.some(event => event.kind === 'system' && event.text?.includes('01a2c4e6-8000-7b00-9c00-0000000000d5')), 'a notice names the Codex session');
	assert.doesNotMatch(session.loaded.rows.map(row => searchableText(row.events)).join('\n'), /gravel|first row/, "the ported records are not searched as this session's");
});

test('claude format: the [SESSION LINEAGE] prompt aichat rollover starts a session with (continue_metadata on line 1) is the tool\'s, no request and no title', () => {
	// claude-code-tools' rollover starts a fresh session with a prompt it composes, `[SESSION
	// LINEAGE]` then "This session continues from …" and the earlier session files, and adds
	// `continue_metadata: {parent_session_id, parent_session_file, continued_at}` to line 1.
	const session = readUnit(claudeAdapter, looseUnit(join(cases, 'rollover-lineage-prompt.jsonl'), {idHint: '9a3c5e7b-1d2f-4b6a-8c0e-4f6a8b0c2d35'}));
	assert.equal(session.summary.title, 'Right, write the SQL export');
	assert.equal(session.summary.human_turns, 1, 'only the typed prompt');
	assert.deepEqual(users(session).map(([line, , human, origin]) => [line, human, origin]), [[1, false, 'host'], [3, true, null]]);
});

test('claude format: the <system-reminder> Claude Code appends after a Read result (the malware notice) is not the tool\'s output; a reminder the file itself holds is', () => {
	// Claude Code appends some reminders inside the tool_result string, after the tool's output: a
	// Read result ends with "<system-reminder>Whenever you read a file, you should consider whether it …".
	const session = read('tool-result-reminder.jsonl');
	const output = (callId: string) => session.events.find(event => event.kind === 'tool_result' && event.result?.call_id === callId)?.result?.output ?? '';
	assert.match(output('toolu_m2a'), /return grain\.split\(\)/);
	assert.doesNotMatch(output('toolu_m2a'), /system-reminder|malware/, "the host's notice is not the file");
	assert.match(output('toolu_m2b'), /<system-reminder>\nRemember the mill closes at six\.\n<\/system-reminder>$/, 'a reminder written in the file read is its content');
});

test('claude format: a trimmed branch (the copied records still carry the forkedFrom of the branch trimmed) is the trim\'s child, not the branch\'s parent\'s', () => {
	const session = readUnit(claudeAdapter, looseUnit(join(cases, 'trimmed-branch.jsonl'), {idHint: '6d4a2f8e-9b1c-4e3d-a5f7-0c2b4d6e8a19'}));
	assert.equal(session.summary.parent_id, '2c9e7a41-5d3b-4f6e-8a0c-1b3d5f7a9c2e', 'the session it was trimmed from');
	assert.equal(session.summary.title, 'Now export the schema as SQL');
	assert.equal(session.summary.human_turns, 1);
});

/**
 * A subagent a subagent started: Claude Code 2.1.x keeps every agent of a session flat in
 * `<session>/subagents/`, and names the agent that started a nested one in its sidecar's
 * `parentAgentId` (beside `spawnDepth`). Evidence: xingkaixin/codesesh
 * packages/core/src/agents/claudecode.ts (readChildContext: nested transcripts are stored flat,
 * parentAgentId carries the nesting). A parent agent whose transcript is gone leaves the child
 * under the session.
 */
test('claude format: a nested subagent (sidecar parentAgentId) is the child of the agent that started it, not of the session', () => {
	const session = 'a3c81e52-6d4b-4f9a-8e27-5b0c9d1e7f46';
	const sessions = readStore(claudeAdapter, join(cases, 'nested-agents'));
	assert.deepEqual(
		sessions.map(entry => [entry.summary.id, entry.summary.parent_id ?? null]).sort(),
		[
			[session, null],
			['agent-a0b9f3e2c1d4a5768', session],
			['agent-a71c0e9d4b2f5a830', session],
			['agent-ae4d29b17c03f6b58', 'agent-a71c0e9d4b2f5a830'],
		],
	);
});

test('claude format: a nested subagent\'s work folds into its session\'s candidate through the agent that started it; it is no orphan of its own', t => {
	const session = 'a3c81e52-6d4b-4f9a-8e27-5b0c9d1e7f46';
	const env = sandboxEnv(tempDir(t));
	cpSync(join(cases, 'nested-agents', '-home-ivo-loom'), join(env['HOME']!, '.claude', 'projects', '-home-ivo-loom'), {recursive: true});
	const result = runCli(['unfinished', '--all-projects', '--source', 'claude', '--since', '3650d', '--format', 'json'], {env});
	assert.equal(result.code, 0, result.stderr);
	const candidates = (result.json() as {candidates: Array<{id: string}>}).candidates;
	assert.deepEqual(candidates.map(candidate => candidate.id), [session]);
});

/**
 * Claude Code writes one record again under the same uuid (same time, same message): a subagent's
 * file repeats an event up to three times, the Desktop app echoes the first prompt before its
 * init records, and a later build re-writes a record the file already holds (`version` moves,
 * nothing else). Evidence: mrlnlms/multi-ai-session-data-extractor
 * src/platforms/claude_code/parser.py (dedup of repeated uuids), ctxrs/ctx#663 (repeat groups of
 * two or three, the record type never changing), codemie-ai/codemie-code#350 (the Desktop echo).
 */
test('claude format: a record written again under its uuid and time is read once: no second request, result or reply', () => {
	const session = read('repeated-records.jsonl');
	assert.equal(session.summary.human_turns, 4, 'two prompts read once each, and a record under a known uuid with a new time');
	assert.equal(session.summary.assistant_messages, 3, "the call's message and two replies");
	assert.equal(session.summary.tool_calls, 1);
	assert.deepEqual(users(session).filter(([, , human]) => human === true).map(([line, text]) => [line, text]), [
		[1, 'Why does the kiln timer reset at midnight?'],
		[7, 'keep the count across midnight'],
		[12, 'and log each rollover'],
		[13, 'and log each rollover, with the date'],
	]);
	assert.deepEqual(session.events.filter(event => event.kind === 'tool_result').map(event => event.line), [4]);
	assert.deepEqual(session.events.filter(event => event.kind === 'assistant').map(event => event.line), [6, 10]);
	assert.deepEqual(session.summary.abandoned, [], 'a repeat is no branch');
	assert.deepEqual(session.events.filter(event => event.kind === 'system' && /frozen until Friday/.test(event.text ?? '')).map(event => event.line), [14], "a hook's attachment written again (slug added) is one notice");
});

test('claude format: a repeat written after a scan is still read once: the catalog keeps the records it compares against between scans', t => {
	const id = '3f1e2d4c-5b6a-4789-8abc-def012345678';
	const {lines, env, file, run} = growingSession(t, 'repeated-records.jsonl', '-work-kiln', id);
	const humanTurns = () => (run('sessions', '--all-projects').sessions as Array<{id: string; human_turns: number}>).find(session => session.id === id)?.human_turns;
	writeFileSync(file, `${lines.slice(0, 7).join('\n')}\n`);
	assert.equal(humanTurns(), 2);
	writeFileSync(file, `${lines.join('\n')}\n`);
	const grown = run('sessions', '--all-projects');
	assert.equal(grown.catalog.scanned, 1);
	assert.equal(humanTurns(), 4, 'the copy of the prompt read before the scan is no new turn');

	rmSync(join(env['XDG_CACHE_HOME']!, 'engi'), {recursive: true, force: true});
	assert.equal(humanTurns(), 4);
});

test('claude format: a session saved pretty-printed (each record over many lines, an edit\'s patch lines ending an array alone on a line, the records appended after it compact, the first glued to the last closing brace) reads as the same session', () => {
	// iampkuhz/feipi-session-browser's reader joins such files by brace depth and pins it
	// (tests/backend/test_claude_source.py test_parse_pretty_printed_multiline_json and
	// test_parse_concatenated_json_transition_line; tests/fixtures/sources/multiline_json.jsonl).
	const {loaded, events, summary} = read('pretty-printed.jsonl');
	assert.equal(loaded.skipped, 0, loaded.warnings.join('; '));
	assert.equal(summary.id, '6c1d9e2a-4b3f-4a5e-8d7c-2e1f0a9b8c7d');
	assert.equal(summary.project, '/home/tamsin/ferry-times');
	assert.equal(summary.human_turns, 1);
	assert.equal(summary.first_human_line, 6, 'the prompt is read at its record\'s first line');
	const results = events.flatMap(event => (event.kind === 'tool_result' && event.result ? [event.result] : []));
	assert.deepEqual(results.map(result => [result.call_id, result.is_error]), [['toolu_ferry_ls', false], ['toolu_ferry_edit', false]], 'the edit\'s result, whose patch lines end an array alone on a line, is read');
	assert.ok(events.some(event => event.kind === 'assistant' && event.text === 'The winter timetable now starts at 07:15; merging them next.'));
});

test('claude format: a TaskOutput poll that got a background task\'s verdict (toolUseResult.task: exitCode, status failed or killed) carries it; one that found the task still running is no failure', () => {
	// Claude Code answers TaskOutput with the poll's own retrieval_status beside the task's state
	// (toolUseResult.task); the tool_result block's is_error says only whether the poll worked.
	// Sinity/polylogue reads the verdict from there (polylogue/sources/parsers/claude/code_parser.py,
	// _task_output_outcome), as BashOutput's top-level exitCode already is.
	const {events} = read('task-output-polls.jsonl');
	const result = (id: string) => events.find(event => event.kind === 'tool_result' && event.result?.call_id === id)?.result;
	assert.deepEqual([result('toolu_w6')?.is_error, result('toolu_w6')?.exit_code], [false, undefined], 'still running: no verdict yet');
	assert.deepEqual([result('toolu_w8')?.is_error, result('toolu_w8')?.exit_code], [true, 1], 'the polled command exited 1');
	assert.deepEqual([result('toolu_w10')?.is_error, result('toolu_w10')?.exit_code], [false, 0]);
	assert.deepEqual([result('toolu_w12')?.is_error, result('toolu_w12')?.exit_code], [true, undefined], 'a killed agent task has no exit code but did not finish');
	assert.equal(result('toolu_w2')?.is_error, false, 'the start of a background command is no failure');
});

test('claude format: the <task-notification> (2.0.x <bash-notification>) of a background command\'s end gives the Bash call that started it, named by <tool-use-id> or found by its task id, its outcome: completed or failed, with its exit code, read once however delivered; a killed task gives none', () => {
	// The Bash call's own result says only "Command running in background with ID: …"; Claude
	// Code's notification of its end names the call and says how it ended. Sinity/polylogue joins
	// the two (polylogue/sources/parsers/claude/code_parser.py, _project_background_task_completions;
	// polylogue/sources/providers/claude_code_models.py, ClaudeCodeBackgroundTaskNotification).
	const session = read('task-notification-outcomes.jsonl');
	const results = (id: string) => session.events.filter(event => event.kind === 'tool_result' && event.result?.call_id === id).map(event => [event.line, event.result?.is_error, event.result?.exit_code ?? null]);
	assert.deepEqual(results('toolu_d2'), [[3, false, null], [9, false, 0]]);
	assert.deepEqual(results('toolu_d4'), [[5, false, null], [11, true, 2]], 'the attachment tells it; the user record repeating it adds nothing');
	assert.deepEqual(results('toolu_d6'), [[7, false, null]], 'a server the agent stopped did not fail');
	assert.deepEqual(results('toolu_d15'), [[16, false, null], [17, true, 1]], 'a notification naming only the task finds its call through the backgroundTaskId its result gave');
	assert.equal(session.summary.human_turns, 1, 'notifications are no requests');
	// 2.0.x: a <bash-notification> naming the shell.
	const older = read('bash-notifications.jsonl');
	assert.deepEqual(older.events.filter(event => event.kind === 'tool_result' && event.result?.call_id === 'toolu_k2').map(event => [event.line, event.result?.is_error, event.result?.exit_code ?? null]), [[3, false, null], [5, false, 0]]);
});

test('claude format: the <task-notification> of a background agent (Agent with run_in_background) that names only its task finds the call through the agentId its async_launched result gave, and gives that call its outcome', () => {
	// Claude Code's Agent result for a background agent is `{isAsync: true, status: "async_launched",
	// agentId, …}`; the task the notification names is that agent's id (Fantasia1999/thread-atlas
	// tests/subagent-notification.test.ts; a stream-json reader correlates a report "by task_id = the
	// launch's agentId" when it names no tool_use_id). Builds whose notifications carry no
	// <tool-use-id> name only the task.
	const session = read('async-agent-notification.jsonl');
	const results = session.events.filter(event => event.kind === 'tool_result' && event.result?.call_id === 'toolu_t2').map(event => [event.line, event.result?.is_error]);
	assert.deepEqual(results, [[3, false], [5, true]], 'the launch, then the failure the notification reports');
	assert.equal(session.summary.human_turns, 1, 'the notification is no request');
});

test('claude format: a user record flagged isVisibleInTranscriptOnly (shown in the transcript, never sent to the model) is no request, even without isCompactSummary', () => {
	// Sinity/polylogue gives such a record no human origin
	// (polylogue/sources/parsers/claude/code_parser.py, _claude_code_user_turn_origin).
	const session = read('transcript-only-record.jsonl');
	assert.deepEqual(users(session), [
		[1, 'Why does the grain hopper sensor drift after noon?', true, null],
		[3, 'Earlier turns about the hopper wiring were condensed here for the transcript.', false, 'host'],
		[4, 'add a compensation table keyed by wall temperature', true, null],
	]);
	assert.equal(session.summary.human_turns, 2);
});

test('claude format: a record whose timestamp is a Unix epoch number (ms or s), as some re-serialising tools write it, is read with that time; a number that is no time is no timestamp, and the record stays', () => {
	// fear-ai/codess CCSchema.md §5: `timestamp` is an ISO 8601 string or numeric ms
	// (tests/test_cc_adapter.py reads both). Such a record was refused whole: the prompt was lost.
	const read = readUnit(claudeAdapter, looseUnit(fileURLToPath(new URL('../fixtures/format-cases/claude/epoch-timestamps.jsonl', import.meta.url)), {idHint: 'c3e5a7b9-0d2f-4a6c-8e1b-3d5f7a9c1e22'}));
	assert.equal(read.summary.title, 'Rename fetchCrates to loadCrates everywhere');
	assert.equal(read.summary.started, new Date(1796400000123).toISOString());
	assert.equal(read.summary.human_turns, 2);
	const reply = read.events.find(event => event.kind === 'assistant');
	assert.equal(reply?.timestamp, new Date(1796400004500).toISOString(), 'seconds with a fraction');
	const last = read.events.filter(event => event.kind === 'user').at(-1);
	assert.equal(last?.text, 'Now run the tests');
	assert.equal(last?.timestamp, undefined, 'a counter is no time');
});

test('claude format: the "Tool loaded." note Claude Code writes beside a ToolSearch result (tool_reference blocks) is the host\'s, not a request; the result names the tools it loaded', () => {
	// A deferred tool loaded by ToolSearch comes back as a user record holding the tool_result
	// (`content: [{type: "tool_reference", tool_name}]`) and a text block "Tool loaded.": Claude
	// Code's words to the model. Evidence: codeaholicguy/ai-devkit
	// packages/agent-manager/src/harnesses/claude/ClaudeSessionParser.ts (isNoiseMessage drops
	// "Tool loaded." from user text). It was counted as a second human turn.
	const session = read('tool-search-loaded.jsonl');
	const note = session.events.find(event => event.kind === 'user' && event.text === 'Tool loaded.');
	assert.ok(note, 'the note is kept as an event');
	assert.equal(note.human, false);
	assert.equal(note.origin, 'host');
	assert.equal(session.summary.human_turns, 1);
	assert.equal(session.summary.title, 'Plan the kiln firing schedule as a task list');
	const result = session.events.find(event => event.kind === 'tool_result' && event.result?.call_id === 'toolu_k2')?.result;
	assert.equal(result?.output, 'Loaded tool: TodoWrite', 'a tool reference reads as the tool it names, not as JSON');
});

/**
 * ToolSearch's result: Claude Code answers the call with `tool_reference` blocks naming the
 * deferred tools it loaded, and writes a "Tool loaded." text block beside the tool_result in the
 * same user record (`sourceToolAssistantUUID` set). That text is Claude Code's, never a request.
 * Evidence: tuo-lei/vibe-replay packages/cli/src/providers/claude-code/parser.ts (a user record
 * with `sourceToolAssistantUUID` emits no user turn, "ToolSearch automated responses"); other
 * readers' tests of the real shape (a tool_result of tool_reference blocks plus "Tool loaded.")
 * classify it as no human prompt.
 */
test('claude format: the "Tool loaded." text ToolSearch\'s result carries beside its tool_result is the host\'s, not a request', () => {
	const session = read('tool-search-loaded-note.jsonl');
	assert.deepEqual(
		session.events.filter(event => event.kind === 'user').map(event => [event.line, event.human, event.text]),
		[
			[1, true, 'Look up the open issues in the quarry tracker.'],
			[3, false, 'Tool loaded.'],
		],
	);
	assert.equal(session.summary.human_turns, 1);
	assert.equal(session.events.find(event => event.kind === 'tool_result')?.result?.call_id, 'toolu_q2');
});

test('claude format: a background task the queue records as JSON (task_id, description, task_type) is bookkeeping, never a prompt left unsent', () => {
	// Builds of late 2025 enqueue each background task they start (a run_in_background Bash
	// command, an async agent) with the task's JSON as `content`; no dequeue follows it. Evidence:
	// yigitkonur/cli-continues src/parsers/claude.ts (parseQueueOperations reads task_id,
	// description and task_type from a queue-operation's JSON content) and
	// src/__tests__/claude-task-reconciliation.test.ts (local_bash and local_agent enqueues).
	const session = read('queued-task-records.jsonl');
	assert.equal(session.loaded.skipped, 0);
	assert.deepEqual(users(session), [[1, 'Run the flaky integration suite in the background and tell me when it settles', true, null]]);
	assert.doesNotMatch(JSON.stringify(session.events), /task_id/, 'no task record shown as text');
	const tail = computeTail(session.events, false);
	assert.equal(tail.unanswered, null);
	assert.equal(tail.ends_with_reply, true);
});

test('claude format: a background subagent\'s <task-notification> is its call\'s outcome with the agent\'s <result> report, also when written before <status> existed', () => {
	// twidi/twicc src/twicc/providers/claude_code/notifications.py (_parse_task_notification): agent
	// and workflow completions carry a <result> payload (unescaped, may hold tags) beside <summary>;
	// older CLIs wrote <tool-use-id> and <result> with no <status>. engi kept only the summary
	// ("Agent … completed") as the result, and read no outcome at all from the status-less form.
	const session = read('async-agent-notifications.jsonl');
	const results = (id: string) => session.events.filter(event => event.kind === 'tool_result' && event.result?.call_id === id).map(event => [event.line, event.result?.is_error, event.result?.output]);
	assert.deepEqual(results('toolu_g2'), [
		[3, false, 'Async agent launched successfully.\nagentId: a5d8e2f71c4b9036\nThe agent is working in the background. You will be notified automatically when it completes.'],
		[5, false, 'The timing table is built in src/shuttle/timing.ts from the <pick> and <beat> rows of loom.yaml; beats under 40 ms are clamped.'],
	]);
	assert.deepEqual(results('toolu_g6'), [
		[7, false, 'Async agent launched successfully.\nagentId: b31f0c9e6a2d47e8'],
		[8, false, 'The clamp guards the servo driver: it stalls below 40 ms (see docs/servo.md).'],
	]);
	assert.equal(session.summary.human_turns, 1, 'notifications are no requests');
});

test('claude format: the model an assistant record names is the session\'s model, again when /model switches it; a streamed snapshot names it once, and Claude Code\'s own "<synthetic>" records name none', () => {
	// Every assistant record's message carries the API's `model` (formats.md, Claude `assistant`);
	// readers of these files take the session's model from there. Evidence: NazmusSayad/mytokens
	// src/parsers/claude.ts (parseClaudeMessage reads message.model of each assistant record) and
	// claude.test.ts (the model of a record in a project session file). engi named no model for a
	// Claude session, where its Codex and Copilot readers name theirs.
	const session = read('assistant-models.jsonl');
	assert.deepEqual(
		session.events.filter(event => event.kind === 'meta' && event.session?.model !== undefined).map(event => [event.line, event.session?.model]),
		[[2, 'claude-sonnet-4-5-20250929'], [7, 'claude-opus-4-1-20250805']],
	);
});

test('claude format: the advisor, a tool the API runs itself (server_tool_use, then advisor_tool_result in the reply), is a call with its result, failed when the advisor was not reached', () => {
	// With an advisor model set, Claude Code writes the consultation into the reply's own records:
	// `server_tool_use` {id: "srvtoolu_…", name: "advisor", input: {}}, then an
	// `advisor_tool_result` {tool_use_id, content: {type: "advisor_result", text} |
	// {type: "advisor_redacted_result", encrypted_content} | {type: "advisor_tool_result_error",
	// error_code}}. Evidence: anthropics/claude-code#40816 (2.1.87 shows both block types in a
	// conversation); d-kimuson/claude-code-viewer's assistant content schema, which lists only
	// thinking, text, tool_use and tool_result, has no place for them.
	const session = read('advisor-server-tool.jsonl');
	assert.equal(session.loaded.skipped, 0);
	assert.equal(session.summary.tool_calls, 5, 'four consultations and the Bash command');
	const calls = session.events.filter(event => event.kind === 'tool_call').map(event => [event.line, event.tool?.name, event.tool?.call_id]);
	assert.deepEqual(calls, [
		[2, 'advisor', 'srvtoolu_01PlanAdv'],
		[6, 'advisor', 'srvtoolu_02RollAdv'],
		[10, 'advisor', 'srvtoolu_03DryAdv'],
		[12, 'Bash', 'toolu_04DryRun'],
		[16, 'advisor', 'srvtoolu_05CopyAdv'],
	]);
	const results = session.events.filter(event => event.kind === 'tool_result').map(event => [event.line, event.result?.call_id, event.result?.is_error, event.result?.output]);
	assert.deepEqual(results, [
		[3, 'srvtoolu_01PlanAdv', false, 'Copy the rows in batches and keep the old tables until the totals match.'],
		[7, 'srvtoolu_02RollAdv', true, 'overloaded'],
		[11, 'srvtoolu_03DryAdv', false, '[advisor_redacted_result]'],
		[13, 'toolu_04DryRun', false, 'copied 0 of 1200 rows (dry run)'],
	]);
	assert.doesNotMatch(JSON.stringify(session.events), /RU5DUllQVEVE/, 'encrypted advice is never copied');
	const tail = computeTail(session.events, false);
	assert.deepEqual(tail.pending.map(call => [call.line, call.name]), [[16, 'advisor']], 'the process ended while the advisor ran');
});

test('claude format: a session file copied whole or in part under a new id beside its source (a client\'s fork, records still naming the source) holds the source\'s conversation, read in that session; only the turns resumed in the copy are its own', () => {
	// slopus/happy's fork (packages/happy-cli/src/claude/utils/claudeSessionFork.ts) copies
	// `<source>.jsonl` byte for byte, or up to a chosen turn, to `<new uuid>.jsonl` in the same
	// project folder, then runs `claude --resume <new uuid>`: the copied records keep the source's
	// `sessionId`, with no forkedFrom or compaction boundary; the resumed turns name the new id.
	const dir = join(cases, 'copied-session');
	const source = '4a7c2e91-3b5d-4f60-8a1c-9e2d4b6f8a10';
	const readAs = (id: string) => readUnit(claudeAdapter, looseUnit(join(dir, `${id}.jsonl`), {idHint: id}));
	const resumed = readAs('7e3b9d15-2c4a-4e8f-b1d3-5f7a9c1e3b52');
	assert.equal(resumed.summary.id, '7e3b9d15-2c4a-4e8f-b1d3-5f7a9c1e3b52');
	// Listed on its own, as a continuation is: Claude Code's own resume can also open a new file
	// with the previous session's records under their old id (formats.md, Claude quirks), and
	// that file is where the conversation goes on, not a child to list under the old one.
	assert.equal(resumed.summary.parent_id, null, 'the copy is listed on its own');
	assert.ok(resumed.events.some(event => event.kind === 'system' && event.text?.includes(source)), 'a notice names the source');
	assert.equal(resumed.summary.title, 'Try flexbox wrap with gap instead', "the source's request is not the copy's title");
	assert.deepEqual([resumed.summary.human_turns, resumed.summary.assistant_messages], [1, 1], 'only the resumed turn counts');
	assert.equal(resumed.summary.started, '2026-05-03T10:00:00.000Z');
	assert.ok(!resumed.events.some(event => event.session?.id === source), "the source's id is not stated as the copy's");
	assert.equal(resumed.events.find(event => event.uuid === 'c2000000-0000-4000-8000-000000000001')?.parent, 'b1000000-0000-4000-8000-000000000002', 'the resumed turn continues the copied chain');

	const whole = readAs('2f8d4b6a-1c3e-4a5f-9b7d-0e2c4a6b8d91');
	assert.deepEqual([whole.summary.human_turns, whole.summary.assistant_messages, whole.summary.parent_id], [0, 0, null], 'a copy never resumed adds no turn of its own');

	const original = readAs(source);
	assert.deepEqual([original.summary.id, original.summary.parent_id, original.summary.human_turns, original.summary.title], [source, null, 2, 'Make the tile grid wrap on narrow screens'], 'the source reads as before');
});
