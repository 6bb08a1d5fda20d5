import assert from 'node:assert/strict';
import {cpSync, mkdtempSync, rmSync, utimesSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import test from 'node:test';
import {projectOfDirectory} from '../../source/adapters/grok/discover.js';
import {SessionCorruptError, wholeUnit} from '../../source/adapters/types.js';
import {grokAdapter} from '../../source/adapters/grok/index.js';
import {fixtureStores, looseUnit, readStore, readUnit, sharedFixtures} from '../helpers/adapters.js';

const store = join(fixtureStores, 'grok');
const sessions = join(store, 'sessions');
const main = '019a7c10-0a00-7000-8000-00000000000a';
const subagent = '019a7c10-0b00-7000-8000-00000000000b';
const streamOnly = '019a7c10-0c00-7000-8000-00000000000c';
const legacy = '019a7c10-0d00-7000-8000-00000000000d';
const longCwd =
	'/home/dev/src/acme-platform/services/payments/settlement/workers/nightly-batch-processing/reconciliation-engine/adapters/bank-file-importers/european-sepa-credit-transfer/regional/eu-west/availability-zone-b/checkout-service';
const byId = () => new Map(readStore(grokAdapter, store).map(session => [session.summary.id, session]));

test('grok: default roots honour GROK_HOME, and --source-root accepts ~/.grok or its sessions', () => {
	assert.deepEqual(grokAdapter.defaultRoots({env: {GROK_HOME: '/opt/grok'}, home: '/home/dev', platform: 'linux'}), ['/opt/grok/sessions']);
	assert.deepEqual(grokAdapter.defaultRoots({env: {}, home: '/Users/dev', platform: 'darwin'}), ['/Users/dev/.grok/sessions']);
	assert.deepEqual(grokAdapter.defaultRoots({env: {}, home: undefined, platform: 'linux'}), []);
	assert.deepEqual(grokAdapter.resolveRoot(store), [sessions]);
	assert.deepEqual(grokAdapter.resolveRoot(sessions), [sessions]);
	assert.equal(grokAdapter.nativeResumeCommand(main), `grok --resume ${main}`);
});

test('grok: discovery finds session directories with summary.json and a transcript, and nothing else', () => {
	const units = grokAdapter.discover(sessions).map(wholeUnit);
	assert.deepEqual(units.map(unit => unit.idHint).sort(), [main, subagent, streamOnly, legacy], 'no summary.json, or a summary with no transcript: not sessions');
	const unit = (id: string) => units.find(candidate => candidate.idHint === id)!;
	assert.equal(unit(main).variant, 'chat');
	assert.ok(unit(main).path.endsWith('chat_history.jsonl'), 'the chat_history cache is read when there is no updates.jsonl');
	assert.deepEqual(unit(main).paths.map(path => path.slice(path.indexOf(main) + main.length + 1)).sort(), [
		'chat_history.jsonl',
		'goal/state.json',
		'signals.json',
		'summary.json',
	]);
	assert.equal(unit(streamOnly).variant, 'updates');
	assert.ok(unit(streamOnly).path.endsWith('updates.jsonl'), 'updates.jsonl, the durable log, is read');
	assert.equal(unit(subagent).parentIdHint, main, 'parent from summary.json');
	assert.equal(unit(main).parentIdHint, undefined);
	assert.equal(unit(main).projectHint, '/work/shop', 'URL-encoded cwd directory decoded');
	assert.equal(unit(legacy).projectHint, longCwd, 'hashed cwd directory resolved through its .cwd file');
});

test('grok: the cwd directory name decodes, or its .cwd file names the path, or the project stays unknown', () => {
	assert.equal(projectOfDirectory(join(sessions, '%2Fwork%2Fshop'), '%2Fwork%2Fshop'), '/work/shop');
	assert.equal(projectOfDirectory(join(sessions, 'checkout-service-6f1e2d3c4b5a6978'), 'checkout-service-6f1e2d3c4b5a6978'), longCwd);
	assert.equal(projectOfDirectory(join(sessions, 'billing-0123456789abcdef'), 'billing-0123456789abcdef'), undefined, 'a hashed name without .cwd is not a path');
	assert.equal(projectOfDirectory(join(sessions, 'C%3A%5Cwork%5Cshop'), 'C%3A%5Cwork%5Cshop'), 'C:\\work\\shop');
	assert.equal(projectOfDirectory(join(sessions, '%E0%A4%A'), '%E0%A4%A'), undefined, 'a malformed escape is not a path');
});

test('grok: the fingerprint changes when summary.json changes, even if the transcript does not', t => {
	const home = mkdtempSync(join(tmpdir(), 'engi-grok-'));
	t.after(() => rmSync(home, {recursive: true, force: true}));
	cpSync(sessions, join(home, 'sessions'), {recursive: true});
	const fingerprint = () => grokAdapter.discover(join(home, 'sessions')).map(wholeUnit).find(unit => unit.idHint === main)!.fingerprint;
	const before = fingerprint();
	const summaryPath = join(home, 'sessions', '%2Fwork%2Fshop', main, 'summary.json');
	writeFileSync(summaryPath, '{"info":{"id":"' + main + '"},"generated_title":"Renamed by the user"}\n');
	utimesSync(summaryPath, new Date('2026-11-25T12:00:00Z'), new Date('2026-11-25T12:00:00Z'));
	assert.notEqual(fingerprint(), before);
});

test('grok: chat_history sessions: ids, parents, projects, titles and counts', () => {
	const all = byId();
	const first = all.get(main)!;
	assert.equal(first.summary.project, '/work/shop');
	assert.equal(first.summary.parent_id, null);
	assert.equal(first.summary.title, 'The checkout test fails about one run in five. Find out why and fix it.', 'environment and instruction injections are not the title');
	assert.equal(first.summary.human_turns, 3, 'synthetic, reminder and compaction items are not human turns');
	assert.equal(first.summary.assistant_messages, 3, 'an item with only tool calls is no reply text');
	assert.equal(first.summary.tool_calls, 4, 'client tools plus the backend web search');
	assert.equal(first.summary.started, '2026-11-18T09:00:00.000Z', 'chat_history has no timestamps: started comes from summary.json');
	assert.equal(first.summary.modified, '2026-11-18T09:40:00.000Z', "and modified from its last_active_at, never from the file's mtime");
	assert.equal(first.loaded.skipped, 2, 'one torn line and one unknown item type');
	assert.match(first.loaded.warnings.join('\n'), /line 11: skipped, not valid JSON/);
	assert.doesNotMatch(first.loaded.warnings.join('\n'), /race|addItem/, 'warnings never echo content');
	const meta = first.events.find(event => event.kind === 'meta');
	assert.deepEqual(meta?.session, {id: main, cwd: '/work/shop', title: 'Fix flaky checkout test', model: 'grok-4.5', started: '2026-11-18T09:00:00.000Z', modified: '2026-11-18T09:40:00.000Z'});

	const child = all.get(subagent)!;
	assert.equal(child.summary.parent_id, main);
	assert.equal(child.summary.title, 'Find addItem call sites', "the tool's title: a subagent's task is not a person's request");
	assert.equal(child.summary.human_turns, 0, "a subagent's prompts (its task, the parent agent's messages) are not human turns");
	assert.ok(child.events.filter(event => event.kind === 'user').every(event => event.human === false && event.origin === 'agent'));
	const loose = readUnit(grokAdapter, looseUnit(child.unit.path));
	assert.equal(loose.summary.parent_id, main, 'the parent is also stated by the meta event from summary.json');

	const old = all.get(legacy)!;
	assert.equal(old.summary.project, longCwd);
	assert.equal(old.summary.title, 'Rename the settlement job to nightly-settlement and update its cron entry.', 'v0: the <user_info> preamble is not the title');
	assert.equal(old.summary.human_turns, 1);
	assert.equal(old.loaded.skipped, 2, 'an unknown role and a torn last line');
	assert.match(old.loaded.warnings.join('\n'), /line 8: skipped, incomplete last line/);
	assert.doesNotMatch(old.loaded.warnings.join('\n'), /Also upd/);
});

test('grok: chat_history tool calls, results, exit codes, interruptions and summaries', () => {
	const all = byId();
	const first = all.get(main)!;
	const calls = first.events.filter(event => event.kind === 'tool_call');
	assert.deepEqual(
		calls.map(event => [event.line, event.tool?.name, event.tool?.call_id, event.tool?.input]),
		[
			[6, 'run_terminal_cmd', 'call-a1', {command: 'npm test -- checkout'}],
			[8, 'web_search', 'ws_a1', {type: 'search', query: 'vitest flaky async assertion'}],
			[9, 'read_file', 'call-a2', {target_file: 'src/cart.ts'}],
			[15, 'search_replace', 'call-a3', '{"file_path":"test/checkout.test.ts",'],
		],
		'JSON arguments are parsed; arguments that do not parse stay text',
	);
	const results = first.events.filter(event => event.kind === 'tool_result');
	assert.deepEqual(
		results.map(event => [event.result?.call_id, event.result?.is_error, event.result?.exit_code]),
		[
			['call-a1', true, 1],
			['ws_a1', false, undefined],
			['call-a2', false, undefined],
			['call-a3', false, undefined],
		],
		'a backend search that records its own completion has its result',
	);
	const atInterrupt = first.events.filter(event => event.line === 13);
	assert.deepEqual(
		atInterrupt.map(event => [event.kind, event.interrupted, event.human]),
		[
			['system', true, undefined],
			['user', undefined, true],
		],
		'prior_turn_interrupt: the interruption comes before the next request, at its line',
	);
	assert.match(atInterrupt[0]?.text ?? '', /mid_turn_abort/);
	assert.deepEqual(
		first.events.filter(event => event.kind === 'summary').map(event => event.line),
		[17],
	);
	assert.ok(!first.events.some(event => /Private chain of thought|gAAAAB/.test(event.text ?? '')), 'reasoning is never shown');
	assert.ok(!first.events.some(event => event.pending), 'chat_history never marks a call pending');
	assert.deepEqual(
		all
			.get(subagent)!
			.events.filter(event => event.kind === 'tool_result')
			.map(event => [event.result?.is_error, event.result?.exit_code]),
		[[true, 2]],
	);
	const old = all.get(legacy)!;
	assert.deepEqual(
		old.events.filter(event => event.kind === 'tool_call' || event.kind === 'tool_result').map(event => [event.kind, event.tool?.call_id ?? event.result?.call_id]),
		[
			['tool_call', 'call_d1'],
			['tool_result', 'call_d1'],
		],
	);
	assert.ok(!old.events.some(event => event.text?.includes('Private reasoning')), 'v0 reasoning_content is never shown');
});

test('grok: updates.jsonl merges chunks, resolves tool updates and keeps calls that never finished pending', () => {
	const stream = byId().get(streamOnly)!;
	assert.equal(stream.summary.title, 'Add a CSV export button to the orders page. Use the existing download helper.');
	assert.equal(stream.summary.human_turns, 2, 'host turns and unnumbered mid-turn user runs are not human');
	assert.equal(stream.summary.assistant_messages, 2);
	assert.equal(stream.summary.tool_calls, 4);
	assert.equal(stream.summary.started, '2026-11-19T10:00:00.000Z');
	assert.equal(stream.summary.modified, '2026-11-19T10:09:30.000Z', 'envelope timestamps (unix seconds) become ISO times');
	assert.equal(stream.loaded.skipped, 2, 'one torn line and one unknown update kind');
	assert.match(stream.loaded.warnings.join('\n'), /line 11: skipped, not valid JSON/);
	assert.doesNotMatch(stream.loaded.warnings.join('\n'), /agent_message_chu|hologram/);

	const firstRow = stream.loaded.rows[0]!;
	assert.equal(firstRow.line, 1);
	assert.ok(Array.isArray(firstRow.raw) && firstRow.raw.length === 2, 'a merged message row keeps every chunk record');
	assert.deepEqual(
		stream.events.filter(event => event.kind === 'user').map(event => [event.line, event.text, event.human]),
		[
			[1, 'Add a CSV export button to the orders page.\nUse the existing download helper.', true],
			[19, 'Why did the tests stop?', true],
			[20, 'Continue from where you left off.', false],
			[22, 'also check the footer', false],
		],
	);
	assert.deepEqual(
		stream.events.filter(event => event.kind === 'assistant').map(event => [event.line, event.text]),
		[
			[4, "I'll look at the orders page first."],
			[14, 'The lint failure is fixed; running the tests now.'],
		],
		'a thought chunk inside a reply does not split it',
	);
	assert.ok(!stream.loaded.rows.some(row => row.line === 5), 'a continuation chunk is merged into its message row');
	assert.ok(!stream.events.some(event => event.text?.includes('Private reasoning')), 'thought chunks are never shown');
	assert.deepEqual(
		stream.events.filter(event => event.kind === 'tool_call').map(event => [event.line, event.tool?.name, event.tool?.call_id, event.tool?.input, event.pending]),
		[
			[6, 'read_file', 'tc-1', {path: 'src/orders/page.tsx'}, undefined],
			[9, 'run_terminal_cmd', 'tc-2', {command: 'npm run lint'}, undefined],
			[17, 'run_terminal_cmd', 'tc-3', {command: 'npm test'}, true],
			[23, 'edit_file', 'tc-4', {path: 'src/orders/footer.tsx'}, undefined],
		],
	);
	assert.deepEqual(
		stream.events.filter(event => event.kind === 'tool_result').map(event => [event.line, event.result]),
		[
			[8, {call_id: 'tc-1', is_error: false, output: 'export default function OrdersPage() {}'}],
			[10, {call_id: 'tc-2', is_error: true, exit_code: 1, output: "src/orders/export.ts:3 'csv' is not defined"}],
			[23, {call_id: 'tc-4', is_error: true, output: 'old_string not found in src/orders/footer.tsx'}],
		],
		'a call created already failed is resolved on its own line; status failed is an error without an exit code',
	);
	const interrupted = stream.events.filter(event => event.interrupted);
	assert.deepEqual(
		interrupted.map(event => [event.line, event.kind]),
		[[18, 'system']],
	);
	const failure = stream.events.find(event => event.error);
	assert.deepEqual([failure?.line, failure?.error], [21, 'upstream 503: model overloaded']);
	assert.deepEqual(
		stream.events.filter(event => event.kind === 'meta').map(event => event.session),
		[
			{id: streamOnly, cwd: '/work/shop', title: 'Add CSV export', model: 'grok-4.5', started: '2026-11-19T10:00:00.000Z', modified: '2026-11-19T10:09:00.000Z'},
			{id: streamOnly},
			{title: 'Add CSV export to orders'},
		],
	);
});

test('grok: a transcript that cannot be read at all is a typed error naming the file', () => {
	const unit = grokAdapter.discover(sessions).map(wholeUnit).find(candidate => candidate.idHint === main)!;
	const missing = join(sessions, 'gone', 'chat_history.jsonl');
	assert.throws(
		() => grokAdapter.loadSession({...unit, key: missing, path: missing}),
		(error: unknown) => error instanceof SessionCorruptError && error.path === missing && error.line === null,
	);
});

test('grok: conformance over the shared third-party fixtures', t => {
	const directory = sharedFixtures(t, 'grok');
	if (!directory) {
		return;
	}

	const cases = [
		{file: 'chat_history.jsonl', id: '019f6851-7ec4-7ef0-97d3-03f3eee38755', title: 'Read hello.py and summarize what it prints without editing files.'},
		// `session_kind: subagent`: the prompt is the parent agent's, so the tool's title is the title.
		{file: 'subagent/chat_history.jsonl', id: '019f6851-7ec4-7ef0-97d3-03f3eee38756', title: 'Count the Python files under the project root'},
	];
	for (const {file, id, title} of cases) {
		// No idHint: the id must come from the session's own summary.json beside the transcript.
		const session = readUnit(grokAdapter, looseUnit(join(directory, file), {variant: 'chat'}));
		assert.equal(session.summary.id, id, `${file}: id from summary.json`);
		assert.equal(session.summary.project, '/tmp/as-agent-lab/grok/project', `${file}: project from summary.json`);
		assert.equal(session.summary.parent_id, null, `${file}: summary.json states no parent`);
		assert.equal(session.summary.title, title, `${file}: first real request, else the tool's title`);
		assert.ok(session.loaded.rows.length > 0);
		assert.equal(session.loaded.skipped, 0, `${file}: every item type is known`);
		for (const event of session.events.filter(event => event.kind === 'user' && event.human)) {
			assert.doesNotMatch(event.text ?? '', /^<user_info>/, `${file}:${event.line} injected text is not human`);
		}

		assert.ok(!session.events.some(event => /summary_text|<opaque>|Confirmed the output/.test(event.text ?? '')), `${file}: reasoning is never shown`);
	}

	const main = readUnit(grokAdapter, looseUnit(join(directory, 'chat_history.jsonl')));
	assert.deepEqual(
		main.events.filter(event => event.interrupted).map(event => event.line),
		[3],
		'prior_turn_interrupt on the first request',
	);
	assert.equal(main.summary.human_turns, 2);
	assert.equal(main.events.filter(event => event.kind === 'tool_call').length, 3, 'two client calls and one backend search');
});
