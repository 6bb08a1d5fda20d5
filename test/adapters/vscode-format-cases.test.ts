import assert from 'node:assert/strict';
import {mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';
import test from 'node:test';
import {wholeUnit} from '../../source/adapters/types.js';
import {adapters} from '../../source/adapters/index.js';
import type {DocumentAdapter} from '../../source/adapters/types.js';
import {looseUnit, readUnit} from '../helpers/adapters.js';
import {localPathOfFileUri} from '../../source/adapters/vscode/discover.js';
import {tempDir} from '../helpers/temp.js';
import {computeTail} from '../../source/engine/continuity/tail.js';
import {soleWorkspaceFolder, withoutCommentsAndTrailingCommas} from '../../source/adapters/shared/code-workspace.js';

const vscodeAdapter = adapters.vscode as DocumentAdapter;

/**
 * VS Code chat format features found missing or mishandled, each in a small fixture written from
 * the shapes VS Code (chatModel.ts, chatSessionOperationLog.ts) and Copilot Chat
 * (commonTypes.ts) persist.
 */
const cases = fileURLToPath(new URL('../fixtures/format-cases/vscode', import.meta.url));
const read = (name: string) => readUnit(vscodeAdapter, looseUnit(join(cases, name), {idHint: name.replace(/\.jsonl?$/, '')}));
const markers = (name: string) =>
	read(name)
		.events.filter(event => event.kind === 'system')
		.map(event => [event.line, event.interrupted ?? false, event.error ?? null]);

test('vscode format: a stopped request carries Copilot\'s "Canceled" errorDetails, an interruption and not a failure', () => {
	assert.deepEqual(markers('cancelled-request.jsonl'), [[1, true, null]]);
	assert.deepEqual(markers('cancelled-and-failed.json'), [
		[1, true, null],
		[2, true, null],
		[3, false, 'Sorry, your request failed. Please try again. Reason: Server error: 502'],
	]);
});

test('vscode format: the pre-result `responseErrorDetails` of old sessions is a failed request', () => {
	assert.deepEqual(markers('v1-response-error-details.json'), [[2, false, 'Oops, your response got filtered. Vote down if you think this shouldn\'t have happened.']]);
});

test('vscode format: a version 2 session\'s `computedTitle` is its title', () => {
	const session = read('v2-computed-title.json');
	assert.equal(session.events.find(event => event.kind === 'meta')?.session?.title, 'Debounce search input');
});

test('vscode format: a request VS Code sent on its own (`isSystemInitiated`) is not a human request', () => {
	const session = read('system-initiated.jsonl');
	assert.deepEqual(
		session.events.filter(event => event.kind === 'user').map(event => [event.line, event.human]),
		[
			[1, false],
			[2, true],
		],
	);
	assert.equal(session.summary.title, 'Now bump the package version to 2.4.0');
	assert.equal(session.summary.human_turns, 1);
});

/**
 * When a command Copilot left running in a background terminal ends, VS Code sends the chat a
 * request of its own whose text is `[Terminal <id> notification: command completed with exit code
 * N. …]` (or, without an id, `[Terminal notification: command completed.]`) followed by
 * `Terminal output:`, with no `isSystemInitiated` flag in older builds (evidence:
 * Veverke/ChatWizard test/fixtures/copilot/session-with-terminal-notifications.jsonl; exported
 * Copilot chats in public repositories show it as a "User" turn after a background command;
 * microsoft/vscode-copilot-chat's own tests send the id-less form as a system-initiated request). It is
 * the host's notice, not a request the person typed.
 */
test('vscode format: a background terminal\'s "[Terminal … notification: …]" request is VS Code\'s, not the person\'s', () => {
	const session = read('terminal-notification.jsonl');
	assert.deepEqual(
		session.events.filter(event => event.kind === 'user').map(event => [event.line, event.human]),
		[
			[1, true],
			[2, false],
			[3, true],
			[4, false],
		],
	);
	assert.equal(session.summary.human_turns, 2);
	assert.equal(session.summary.title, 'Start the dev server for the atlas site and check the home page renders');
});

test('vscode format: requests a restored checkpoint disabled (`shouldBeRemovedOnSend`, formerly `isHidden`) are an abandoned branch', () => {
	const rewinds = (name: string) =>
		read(name)
			.events.filter(event => event.rewound_from !== undefined)
			.map(event => [event.line, event.rewound_from, event.rewound_through]);
	assert.deepEqual(rewinds('checkpoint-restored.jsonl'), [[1, 2, 3]]);
	assert.deepEqual(rewinds('hidden-old.json'), [[1, 2, 2]]);
});

test('vscode format: Copilot chat kept by a VS Code fork (Cursor, Windsurf, Positron, Antigravity) is found under that fork\'s own User directory', () => {
	const home = join(cases, 'fork-home');
	const roots = vscodeAdapter.defaultRoots({home, env: {}, platform: 'linux'});
	for (const fork of ['Cursor', 'Windsurf', 'Positron', 'Antigravity']) {
		assert.ok(roots.includes(join(home, '.config', fork, 'User')), `${fork}'s User directory is a default root`);
	}

	assert.ok(vscodeAdapter.defaultRoots({home: '/Users/dev', env: {}, platform: 'darwin'}).includes('/Users/dev/Library/Application Support/Positron/User'));
	const sessions = roots.flatMap(root => vscodeAdapter.discover(root).map(wholeUnit)).map(unit => readUnit(vscodeAdapter, unit));
	assert.deepEqual(
		sessions.map(session => [session.summary.id, session.summary.project ?? null, session.summary.title]).sort(),
		[
			['2b7d9e41-0a5c-4f86-b3e2-6c1a8f4d7e90', null, 'What does the --frozen-lockfile flag change in pnpm install?'],
			['8c1f4a27-6d3e-4b95-a2c8-0f7e5d9b3a61', '/home/dev/analysis/tide-gauges', 'Plot the hourly tide readings in gauges.csv against the moon phase'],
		],
	);
});

test('vscode format: VSCodium Insiders keeps its chats under its own "VSCodium - Insiders" User directory, a default root', () => {
	const home = join(cases, 'vscodium-insiders-home');
	const roots = vscodeAdapter.defaultRoots({home, env: {}, platform: 'linux'});
	assert.ok(roots.includes(join(home, '.config', 'VSCodium - Insiders', 'User')));
	assert.ok(vscodeAdapter.defaultRoots({home: '/Users/dev', env: {}, platform: 'darwin'}).includes('/Users/dev/Library/Application Support/VSCodium - Insiders/User'));
	const sessions = roots.flatMap(root => vscodeAdapter.discover(root).map(wholeUnit)).map(unit => readUnit(vscodeAdapter, unit));
	assert.deepEqual(
		sessions.map(session => [session.summary.id, session.summary.project ?? null, session.summary.title]),
		[['a41d7c3e-2f90-4b6a-8e15-d7c0b9e2f4a3', '/home/dev/code/loom-cli', 'Which flag makes loom print its parsed config and exit?']],
	);
});

test('vscode format: Copilot Chat 0.51+ keeps a session as an event log in the workspace\'s GitHub.copilot-chat/transcripts, read when the chat store has no copy', () => {
	const root = join(cases, 'transcripts-home', '.config', 'Code', 'User');
	const units = vscodeAdapter.discover(root).map(wholeUnit);
	assert.deepEqual(units.map(unit => [unit.idHint, unit.variant]).sort(), [
		['61f0b3d8-9a24-4c7e-b5d1-2e8f4a6c9b07', 'snapshot'],
		['d4c2a9e7-3b18-4f60-9e25-7a1c0b8f6d34', 'transcript'],
	]);
	const transcript = units.find(unit => unit.variant === 'transcript');
	assert.ok(transcript);
	const session = readUnit(vscodeAdapter, transcript);
	assert.equal(session.summary.id, 'd4c2a9e7-3b18-4f60-9e25-7a1c0b8f6d34');
	assert.equal(session.summary.project, '/home/dev/projects/kite-ledger');
	assert.equal(session.summary.title, 'Why does the ledger import skip rows dated on the 31st?');
	assert.equal(session.summary.started, '2026-08-14T09:02:11.400Z');
	assert.deepEqual(
		session.events.filter(event => ['user', 'assistant', 'tool_call', 'tool_result'].includes(event.kind)).map(event => [event.kind, event.line, event.tool?.name ?? event.result?.call_id ?? null]),
		[
			['user', 2, null],
			['assistant', 4, null],
			['tool_call', 4, 'read_file'],
			['tool_result', 6, 'call_ledger01'],
			['assistant', 7, null],
		],
	);
	assert.equal(session.loaded.skipped, 0);
});

test('vscode format: in a GitHub Codespace the VS Code server keeps its User directory in ~/.vscode-remote/data/User, a default root beside ~/.vscode-server', () => {
	const home = join(cases, 'codespace-home');
	const roots = vscodeAdapter.defaultRoots({home, env: {}, platform: 'linux'});
	assert.ok(roots.includes(join(home, '.vscode-remote', 'data', 'User')));
	const sessions = roots.flatMap(root => vscodeAdapter.discover(root).map(wholeUnit)).map(unit => readUnit(vscodeAdapter, unit));
	assert.deepEqual(
		sessions.map(session => [session.summary.id, session.summary.project ?? null, session.summary.title]),
		[['5e8a2c71-4b9d-4f03-a6e1-9c3d7b2f0a58', '/workspaces/harbor-tides', 'Why does the tide table show two high waters on the 14th?']],
	);
});

test('vscode format: an old session\'s reply kept as a plain string, or as strings in the response list, is the reply text', () => {
	// VS Code's ChatSessionStore turns such a response (or each string in it) into markdown when
	// it reads a stored session: early builds persisted replies that way.
	const session = read('v1-string-response.json');
	assert.equal(session.loaded.skipped, 0);
	assert.deepEqual(
		session.events.filter(event => event.kind === 'user' || event.kind === 'assistant').map(event => [event.line, event.kind, event.text]),
		[
			[1, 'user', 'What does `git stash pop` do when there is a conflict?'],
			[1, 'assistant', 'It applies the stash but keeps it in the list, so you can resolve the conflict and drop it yourself.'],
			[2, 'user', 'How do I drop it afterwards?'],
			[2, 'assistant', 'Run `git stash drop` to remove the newest entry.'],
		],
	);
});

test('vscode format: a request hidden from the transcript (`hiddenFromTranscript`, `requestHiddenFromTranscript`) or sent by a feature (`requestSource`) is not a human request', () => {
	// VS Code sends such prompts itself (a pull request session's bootstrap prompt, Agent Merge)
	// and does not show them as the person's turn.
	const session = read('hidden-from-transcript.json');
	assert.deepEqual(
		session.events.filter(event => event.kind === 'user').map(event => [event.line, event.human]),
		[
			[1, false],
			[2, false],
			[3, false],
			[4, true],
		],
	);
	assert.equal(session.summary.title, 'Does the cache get cleared when a host is removed?');
	assert.equal(session.summary.human_turns, 1);
});

test('vscode format: in a turn still open when the log was written (modelState pending or needs input), a tool nobody approved yet is a pending call, not a result', () => {
	// Since 1.104 a serialized tool is always `isComplete` (ChatToolInvocation.toJSON), so only a
	// missing `isConfirmed` says the tool was still waiting for the person's approval.
	const session = read('awaiting-approval.jsonl');
	assert.deepEqual(
		session.events.filter(event => event.line === 2 && event.kind !== 'user').map(event => [event.kind, event.tool?.name ?? null, event.pending ?? false]),
		[
			['assistant', null, false],
			['tool_call', 'run_in_terminal', true],
		],
	);
});

test('vscode format: a session\'s own `workingDirectory` (the sessions window) is its project, where no workspace folder names one', () => {
	const session = read('working-directory.json');
	assert.equal(session.summary.project, '/home/dev/projects/ferry-times');
});

test('vscode format: a terminal tool saved as `terminal2` (the 2025 shape with `commandLine`) gives the command it ran', () => {
	const session = read('terminal2-tool.json');
	assert.deepEqual(session.events.find(event => event.kind === 'tool_call')?.tool?.input, {command: 'cargo build --release --locked', language: 'sh'});
});

test('vscode format: a terminal tool whose `commandLine` is a plain string gives that command', () => {
	const session = read('terminal-string-command.json');
	assert.deepEqual(session.events.find(event => event.kind === 'tool_call')?.tool?.input, {command: 'cat .nvmrc', language: 'sh'});
});

test('vscode format: a request the person queued while a turn ran (`pendingRequests`) is their request, still unanswered, after the live ones', () => {
	// The log keeps the queue (chatSessionOperationLog.ts) and VS Code restores it with the session.
	const session = read('queued-request.jsonl');
	assert.deepEqual(
		session.events.filter(event => event.kind === 'user' || event.kind === 'assistant').map(event => [event.line, event.kind, event.human ?? null]),
		[
			[1, 'user', true],
			[1, 'assistant', null],
			[2, 'user', true],
		],
	);
	assert.equal(session.events.at(-1)?.text, 'Also print the files it would touch');
	assert.equal(session.summary.human_turns, 2);
});

test('vscode format: a request a checkpoint disabled after an undo stop (`afterUndoStop`) keeps only the reply before that stop', () => {
	// VS Code shows the response up to the stop and drops the rest when the next request is sent
	// (ChatResponseModel.response, finalizeUndoState): the work after it was undone.
	const session = read('undo-stop-restored.json');
	assert.deepEqual(
		session.events.filter(event => event.kind !== 'meta').map(event => [event.kind, event.text ?? event.tool?.call_id ?? event.result?.call_id]),
		[
			['user', 'Rename the env var to APP_MODE and update the docs'],
			['assistant', 'Renaming it in the config loader first.'],
			['tool_call', 'call_env1'],
			['tool_result', 'call_env1'],
		],
	);
});

test('vscode format: a log push whose `i` lies past the end of the array pads it, as VS Code\'s replay does, so later entries land on the element they name', () => {
	// ObjectMutationLog sets the array's length to `i` before pushing: a longer length leaves a
	// gap. The gap is no request (skipped and counted); the pushed request keeps its index.
	const session = read('push-past-end.jsonl');
	assert.deepEqual(
		session.events.filter(event => event.kind === 'user' || event.kind === 'assistant').map(event => [event.line, event.kind, event.text]),
		[
			[1, 'user', 'List the cron jobs defined in deploy/'],
			[1, 'assistant', 'There are two: nightly-backup and cache-warm.'],
			[3, 'user', 'When does cache-warm run?'],
			[3, 'assistant', 'Every day at 05:30 UTC.'],
		],
	);
	assert.equal(session.loaded.skipped, 1);
	assert.deepEqual(session.loaded.warnings, ['request 2: skipped, not a chat request']);
});

test('vscode format: a log entry whose array index (a push\'s `i`, a set\'s or delete\'s last key) is not a whole number, or lies far past the end, is a skipped entry, never an exception or a vast array', t => {
	const directory = mkdtempSync(join(tmpdir(), 'engi-vscode-push-'));
	t.after(() => rmSync(directory, {recursive: true, force: true}));
	const path = join(directory, 'hostile.jsonl');
	const request = (id: string) => ({requestId: id, message: {text: `question ${id}`}, response: [{value: `answer ${id}`}]});
	writeFileSync(path, [{kind: 0, v: {requests: [request('a'), request('b')]}}, {kind: 2, k: ['requests'], i: 0.5}, {kind: 2, k: ['requests'], i: 1e12, v: [request('c')]}, {kind: 2, k: ['requests'], i: -1}, {kind: 1, k: ['requests', 4e9], v: request('d')}, {kind: 3, k: ['requests', 3e9]}].map(line => JSON.stringify(line)).join('\n') + '\n');
	const session = readUnit(vscodeAdapter, looseUnit(path));
	assert.equal(session.events.filter(event => event.kind === 'user').length, 2);
	assert.equal(session.loaded.skipped, 5);
});

test('vscode format: a Copilot tool result kept as a prompt-tsx element (`toolCallResults` content `{value: {node}}`) gives its text as the tool output', () => {
	// Copilot Chat's own tools answer with LanguageModelPromptTsxPart(renderPromptElementJSON(…)):
	// a tree of pieces whose text nodes (type 2) hold what the model was shown.
	const session = read('prompt-tsx-tool-result.json');
	assert.equal(
		session.events.find(event => event.kind === 'tool_result')?.result?.output,
		'1 match\nsrc/net/backoff.ts:14: export const retryDelay = (attempt: number) => 2 ** attempt * 100;',
	);
});

test('vscode format: a response that ends asking the person to confirm (an unused `confirmation` part, Copilot\'s "Continue to iterate?") is a paused turn', () => {
	// VS Code counts an unused confirmation as the response needing input (chatModel.ts
	// getPendingConfirmations): the agent stopped at its round limit until the person answers.
	assert.deepEqual(markers('continue-to-iterate.json'), [[1, true, null]]);
	assert.equal(read('continue-to-iterate.json').events.find(event => event.kind === 'system')?.text, 'Waiting for confirmation: Continue to iterate?');
});

test('vscode format: a response waiting on the person\'s answers (an unused `questionCarousel`) or plan review (an unused `planReview`) is a paused turn', () => {
	// VS Code counts an unused question carousel or plan review as the response needing input,
	// like an unused confirmation; one the person answered (`isUsed`) is not waiting.
	assert.deepEqual(markers('question-carousel.json'), [[2, true, null]]);
	assert.equal(read('question-carousel.json').events.find(event => event.kind === 'system')?.text, 'Waiting for an answer: Where do tenant limits come from?');
	assert.deepEqual(markers('plan-review.json'), [[1, true, null]]);
	assert.equal(read('plan-review.json').events.find(event => event.kind === 'system')?.text, 'Waiting for plan review: Review plan');
});

test('vscode format: a turn the log left needing the person\'s input (modelState 4) for no reason engi reads otherwise (an MCP elicitation, saved as rejected) is a paused turn', () => {
	assert.deepEqual(markers('needs-input-elicitation.jsonl'), [[1, true, null]]);
	assert.equal(read('needs-input-elicitation.jsonl').events.at(-1)?.text, 'Waiting for input');
	// A turn whose wait engi reads already (an unapproved tool, a question) gets no second marker.
	assert.deepEqual(markers('awaiting-approval.jsonl'), []);
	assert.deepEqual(markers('plan-review.json'), [[1, true, null]]);
});

test('vscode format: a terminal call\'s exit status without terminalCommandState is the "Command exited with code N" line closing the tool\'s result, not a status the command printed', () => {
	// runInTerminalTool: the result is the output, then the execute strategy's notes, the last "Command exited with code N" when N > 0.
	const session = read('terminal-exit-status.json');
	assert.deepEqual(
		session.events.filter(event => event.kind === 'tool_result').map(event => [event.result?.call_id, event.result?.is_error, event.result?.exit_code]),
		[
			['call_mig01', false, undefined],
			['call_mig02', true, 3],
		],
	);
});

test('vscode format: the images a tool returned (resultDetails.output embeds that are not text, {type: "embed", mimeType: "image/png", value, isText: false}) are noted after its output, the bytes never copied', () => {
	// microsoft/vscode src/vs/workbench/contrib/chat/test/common/chatImageExtraction.test.ts: a tool invocation's
	// IToolResultInputOutputDetails output holds image embeds beside text ones, which VS Code shows as the tool's images.
	const session = read('tool-result-images.json');
	assert.equal(session.loaded.skipped, 0);
	assert.deepEqual(
		session.events.filter(event => event.kind === 'tool_result').map(event => [event.result?.call_id, event.result?.is_error, event.result?.output]),
		[
			['call_quilt1', false, 'Captured 390x844\n[image: image/png]'],
			['call_quilt2', false, 'Ran `screenshot`\n[image: image/jpeg]'],
		],
	);
	assert.doesNotMatch(JSON.stringify(session.events), /iVBORw0KGgo|9j\/4AAQ/);
});

test('vscode format: a request\'s image attachments (variableData.variables entries of kind "image", or isImage in older builds) are noted after its text; other attachments are not, and no byte or name is copied', () => {
	// microsoft/vscode src/vs/workbench/contrib/chat/common/chatModel.ts: IChatRequestModel.variableData {variables:
	// IChatRequestVariableEntry[]}; IImageVariableEntry {kind: "image", mimeType?, isPasted?, isURL?}; the older
	// IBaseChatRequestVariableEntry flagged an image with isImage and carried mimeType.
	const session = read('image-attachments.json');
	assert.deepEqual(
		session.events.filter(event => event.kind === 'user').map(event => [event.line, event.human, event.text]),
		[
			[1, true, 'Why is the legend overlapping the chart here?\n[image: image/png]'],
			[2, true, '[image]'],
		],
		'an image sent alone is a request; a media type that is no string is not copied',
	);
	assert.equal(session.summary.human_turns, 2);
	assert.equal(session.summary.title, 'Why is the legend overlapping the chart here? [image: image/png]');
	assert.doesNotMatch(JSON.stringify(session.events), /9j\/4AAQ|Pasted Image|after-fix|legend\.ts/);
});

test('vscode format: a response\'s `warning` parts (what the chat view shows the person, e.g. a quota or a setup problem) are notices in their place, never reply text', () => {
	const session = read('warning-parts.json');
	assert.equal(session.loaded.skipped, 0);
	assert.deepEqual(
		session.events.filter(event => ['user', 'assistant', 'system'].includes(event.kind)).map(event => [event.line, event.kind, event.text]),
		[
			[1, 'user', 'Summarise the open TODOs in src/parser.'],
			[1, 'system', 'You have reached the limit of premium requests for this month. Switched to the base model.'],
			[1, 'assistant', 'There are three: the lexer\'s unicode escapes, error recovery after a missing brace, and the unused `peek2` helper.'],
			[2, 'user', 'And in src/emit?'],
			[2, 'system', 'Chat took too long to get ready. Please ensure you are signed in to GitHub and that the extension `GitHub.copilot-chat` is installed and enabled.'],
		],
	);
});

test('vscode format: a response\'s `hook` parts (a hook\'s `stopReason` when it blocked, else its `systemMessage`, both shown to the person) are notices in their place, never reply text', () => {
	const session = read('hook-parts.json');
	assert.deepEqual(
		session.events.filter(event => ['assistant', 'system'].includes(event.kind)).map(event => [event.kind, event.text]),
		[
			['assistant', 'Removing the generated output first.'],
			['system', 'PreToolUse hook blocked: rm -rf is blocked by the workspace policy hook'],
			['assistant', 'The policy hook blocked the delete, so I left the folder in place.'],
			['system', 'Stop hook: Remember to run the linter before committing'],
		],
	);
});

test('vscode format: a subagent call saved again under the same toolCallId (its later, finished update) is one call with its final result, not a pending call beside a finished one', () => {
	const session = read('subagent-repeated-call.json');
	const calls = session.events.filter(event => event.kind === 'tool_call' && event.tool?.call_id === 'call_sub01');
	assert.deepEqual(calls.map(event => event.pending ?? false), [false]);
	assert.equal(
		session.events.find(event => event.kind === 'tool_result' && event.result?.call_id === 'call_sub01')?.result?.output,
		'Three callers: http/request.ts, http/proxy.ts, tests/header.test.ts',
	);
	assert.equal(session.events.filter(event => event.kind === 'tool_call').length, 2);
});

test('vscode format: the request a confirmation button sent (`confirmation`, text `<button>: "<title>"`) is no human request', () => {
	// VS Code's chat list sends a clicked confirmation as a request of its own, its text made from the
	// button and the confirmation's title and `confirmation` set to the button (vshulcz/deja-vu
	// internal/sources/copilot_chat_hosttext_test.go, TestCopilotChatReplaysAConfirmationBeforeIndexing).
	const session = read('confirmation-request.jsonl');
	assert.deepEqual(
		session.events.filter(event => event.kind === 'user').map(event => [event.line, event.human]),
		[
			[1, true],
			[2, false],
		],
	);
	assert.equal(session.summary.title, 'Set up a test runner for the billing module');
	assert.equal(session.summary.human_turns, 1);
	assert.equal(session.events.some(event => event.kind === 'system' && event.interrupted === true), false, 'the confirmation was answered');
});

test('vscode format: a workspace.json written on Windows (`file:///c%3A/…`) names that Windows folder wherever the store is read, never a POSIX path `/c:/…`', () => {
	// VS Code writes the folder as a file URI whose path starts with the drive letter, its colon
	// percent-encoded (evidence: vibe-log/vibe-log-cli src/lib/readers/cursor.ts, which decodes
	// Cursor's workspaceStorage/<hash>/workspace.json the same way). A store copied off a Windows
	// machine is read on Linux and macOS too, where Node's fileURLToPath keeps the leading slash.
	const root = join(cases, 'windows-store', 'User');
	const sessions = vscodeAdapter.discover(root).map(wholeUnit).map(unit => readUnit(vscodeAdapter, unit));
	assert.deepEqual(
		sessions.map(session => [session.summary.id, session.summary.project ?? null]).sort(),
		[
			['3a8e5c21-0f6b-4d97-a2c4-8b1e7f9d6c05', 'c:\\Users\\rhea\\src\\lantern-map'],
			['9d3b6f12-7a40-4c8e-b1d5-2f6e0a9c8b47', 'c:\\Users\\rhea\\src\\lantern-map'],
		],
	);
	assert.equal(localPathOfFileUri('file:///D:/Work/tide%20tables'), 'D:\\Work\\tide tables');
	assert.equal(localPathOfFileUri('file:///home/rhea/src/lantern-map'), '/home/rhea/src/lantern-map');
	assert.equal(localPathOfFileUri('file:///c%3A/a%2Fb'), undefined, 'an encoded separator names no folder');
	// A folder on a network share, or in WSL opened from Windows by its UNC path, is that UNC path on any platform.
	assert.equal(localPathOfFileUri('file://wsl.localhost/Ubuntu/home/rhea/ferry'), '\\\\wsl.localhost\\Ubuntu\\home\\rhea\\ferry');
	assert.equal(localPathOfFileUri('file://wsl%24/Ubuntu/home/rhea'), '\\\\wsl$\\Ubuntu\\home\\rhea');
	assert.equal(localPathOfFileUri('file://localhost/home/rhea/ferry'), '/home/rhea/ferry');
});

test('vscode format: a Windows file URI kept in a reply (inline reference with a backslashed fsPath, a result location with only `path: "/c:/…"`) reads as on Windows: the file\'s name, the folder c:\\…', () => {
	// VS Code serialises a URI as {fsPath, _sep: 1, external, path, scheme} on Windows, fsPath and
	// external only once computed, so a location may hold `path` alone (vs/base/common/uri.ts).
	const root = join(cases, 'windows-store', 'User');
	const unit = vscodeAdapter.discover(root).map(wholeUnit).find(found => found.idHint === '3a8e5c21-0f6b-4d97-a2c4-8b1e7f9d6c05');
	assert.ok(unit);
	const {events} = readUnit(vscodeAdapter, unit);
	assert.deepEqual(events.filter(event => event.kind === 'assistant').map(event => event.text), ['The offset is added in grid.ts before the markers are drawn.']);
	assert.deepEqual(events.filter(event => event.kind === 'tool_result').map(event => event.result?.output), ['c:\\Users\\rhea\\src\\lantern-map\\src\\grid.ts']);
});

test('vscode format: a multi-root window\'s workspace.json names its .code-workspace file; the one folder that file lists is the project, several name none', t => {
	// VS Code writes `{"workspace": <config file URI>}` instead of `{"folder": …}` for a window
	// opened on a .code-workspace file (evidence: jhlee0409/claude-code-history-viewer
	// src-tauri/src/providers/vscode.rs read_workspace_folder, its issue #444). The file is JSON
	// with comments and trailing commas; each `folders` entry is a `path` relative to the file's
	// directory (or absolute), or a `uri`.
	const fixtures = join(cases, 'multi-root');
	const user = join(tempDir(t), 'User');
	const chat = readFileSync(join(fixtures, 'chat.json'), 'utf8');
	const store = (hash: string, config: string, id: string) => {
		const workspace = join(user, 'workspaceStorage', hash);
		mkdirSync(join(workspace, 'chatSessions'), {recursive: true});
		writeFileSync(join(workspace, 'workspace.json'), JSON.stringify({workspace: pathToFileURL(join(fixtures, config)).href}));
		writeFileSync(join(workspace, 'chatSessions', `${id}.json`), chat.replace('SESSION_ID', id));
	};

	store('5b0c', 'one-root.code-workspace', '7c1e9a40-2d35-4f6b-8e07-a1b2c3d4e5f6');
	store('8d2f', 'two-roots.code-workspace', '0e4b6c82-9a13-4d57-b2f8-6a7b8c9d0e1f');
	const sessions = vscodeAdapter.discover(user).map(wholeUnit).map(unit => readUnit(vscodeAdapter, unit));
	assert.deepEqual(
		sessions.map(session => [session.summary.id, session.summary.project ?? null]).sort(),
		[
			['0e4b6c82-9a13-4d57-b2f8-6a7b8c9d0e1f', null],
			['7c1e9a40-2d35-4f6b-8e07-a1b2c3d4e5f6', join(fixtures, 'kiln-ledger')],
		],
	);
	assert.equal(sessions.find(session => session.summary.id?.startsWith('7c1e'))?.summary.title, 'Why does the kiln schedule skip Sundays?');
	assert.deepEqual(JSON.parse(withoutCommentsAndTrailingCommas('{"a": "x\\"//y", /* note, */ "b": [1, {"c": "/*"},], // end\n}')), {a: 'x"//y', b: [1, {c: '/*'}]});
	const odd = join(tempDir(t), 'odd.code-workspace');
	for (const text of ['{"folders": {"path": "a"}}', '{"folders": [7, {"path": 3}]}', '{"folders": [{"uri": "vscode-remote://ssh-remote+kiln/home/oren"}]}', '[', '"folders"']) {
		writeFileSync(odd, text);
		assert.equal(soleWorkspaceFolder(odd, localPathOfFileUri), undefined, text);
	}
});

/**
 * microsoft/vscode languageModelToolsService.ts (invokeTool): a tool the person denies
 * (ConfirmedReason type 0, `false` before 1.104) throws a CancellationError, and Copilot Chat's
 * tool-calling loop stops there (toolCalling.tsx `toolCallErrorToResult` marks it cancelled,
 * toolCallingLoop.ts `buildPrompt2` throws, `_runLoop` breaks): the person ended the turn. A
 * skipped one (type 5) returns "The user chose to skip the tool call…" and the model goes on: no
 * failure. A preToolUse hook's denial (ChatToolInvocation.createCancelled, saved hidden) is
 * answered with the hook's reason and the loop goes on: a failure, not the person's stop.
 */
test('vscode format: a tool the person denied ends the turn (an interruption), one they skipped is no failure, one a hook denied is a failure', () => {
	const session = read('declined-and-skipped-tools.json');
	assert.deepEqual(
		session.events.filter(event => event.kind === 'tool_result').map(event => [event.result?.call_id, event.result?.is_error, event.interrupted ?? false, event.result?.output]),
		[
			['call_kite1', false, false, 'Skipped by the person; not run'],
			['call_kite2', true, false, 'Denied by PreToolUse hook: writes under /etc are blocked'],
			['call_kite3', true, true, ''],
			['call_kite4', true, true, ''],
		],
	);
	const tail = computeTail(session.events, false);
	assert.equal(tail.interruption?.line, 3, 'the last turn stopped at the denied call');
});

/**
 * microsoft/vscode chatToolInvocation.ts (toJSON) saves `resultError`, IToolResult's
 * `toolResultError: string | boolean`, which invokeTool sets to the error's message when the
 * tool threw (languageModelToolsService.ts); its past-tense message still reads as done.
 */
test('vscode format: a tool saved with a `resultError` (the message the tool threw, or true) failed, its message the output', () => {
	const session = read('tool-result-error.json');
	assert.deepEqual(
		session.events.filter(event => event.kind === 'tool_result').map(event => [event.result?.call_id, event.result?.is_error, event.result?.output]),
		[
			['call_lark1', true, 'ENOENT: no such file or directory, open \'/home/ana/lark/pnpm-lock.yaml\''],
			['call_lark2', true, 'Ran list'],
			['call_lark3', false, 'Listed assets'],
		],
	);
});

/**
 * microsoft/vscode chatToolInvocation.ts (toJSON): a result whose details are one binary output
 * (IToolResultOutputDetails, e.g. a generated image) is saved as
 * `resultDetails.output = {type: "data", mimeType, base64Data}` (IToolResultOutputDetailsSerialized).
 */
test('vscode format: a tool\'s single binary output saved as `{type: "data", mimeType, base64Data}` is noted by its media type, the bytes never copied', () => {
	const session = read('tool-result-data.json');
	assert.deepEqual(
		session.events.filter(event => event.kind === 'tool_result').map(event => [event.result?.call_id, event.result?.is_error, event.result?.output]),
		[['call_heron1', false, 'Generated image\n[image: image/png]']],
	);
	assert.doesNotMatch(JSON.stringify(session.events), /iVBORw0KGgo/);
});

/**
 * microsoft/vscode chatSessionOperationLog.ts (responsePartSchema): the log compares a
 * `questionCarousel`, `confirmation` or `planReview` part by its kind alone, so the person's
 * answer (`isUsed`) is never written; the part stays unused in the log. A response that goes on
 * after it (reply text, a tool call) shows it was answered.
 */
test('vscode format: an asking part the response went on past (the log never records `isUsed`) was answered, not a paused turn', () => {
	assert.deepEqual(markers('answered-carousel-log.jsonl'), []);
	const tail = computeTail(read('answered-carousel-log.jsonl').events, false);
	assert.equal(tail.interruption ?? null, null);
	// One still last in its response waits, as before.
	assert.deepEqual(markers('continue-to-iterate.json'), [[1, true, null]]);
});

/**
 * microsoft/vscode chatService.ts: `info` parts (IChatInfoMessage, e.g. the note invokeTool adds
 * when Autopilot skips a high-risk call) and `systemNotification` parts are shown to the person
 * and read into the response's text by chatModel.ts (AbstractResponse.partsToRepr), like warnings.
 */
test('vscode format: a response\'s `info` and `systemNotification` parts are notices in their place, never reply text', () => {
	const session = read('info-notices.json');
	assert.deepEqual(
		session.events.filter(event => ['assistant', 'system'].includes(event.kind)).map(event => [event.kind, event.text]),
		[
			['assistant', 'Removing the old output folders.'],
			['system', 'Autopilot skipped "Run in Terminal" because it was assessed as high-risk: it deletes the home folder.'],
			['system', 'Switched to the moth-site workspace'],
			['assistant', 'I removed only `dist/` and `.cache/` instead.'],
		],
	);
});

/**
 * microsoft/vscode-copilot-chat toolCallingLoop.ts keys its result metadata (toolCallRounds,
 * toolCallResults) by an internal id, the model's id plus `__vscode-<n>`, and hands VS Code the
 * model's id as the stream id (toolCalling.tsx `toolCall.id.split('__vscode')[0]`); VS Code saves
 * that as the invocation's `toolCallId` (languageModelToolsService.ts `dto.chatStreamToolCallId ??
 * dto.callId`). A model id reused within the request (two internal ids) matches neither.
 */
test('vscode format: a tool invocation saved under the model\'s call id finds its arguments and result under Copilot\'s internal id (`<id>__vscode-<n>`)', () => {
	const session = read('internal-tool-call-ids.json');
	assert.deepEqual(
		session.events.filter(event => event.kind === 'tool_call').map(event => [event.tool?.call_id, event.tool?.input]),
		[
			['toolu_01WrenConfig', {filePath: '/home/ana/wren/src/config.ts', startLine: 1, endLine: 40}],
			['call_dup', null],
		],
	);
	assert.deepEqual(
		session.events.filter(event => event.kind === 'tool_result').map(event => event.result?.output),
		['export const retryBudget = Number(process.env.WREN_RETRIES ?? 3);', 'Read env.ts'],
	);
});

/**
 * microsoft/vscode chatToolInvocation.ts (toJSON): "persist the serialized call as 'skipped' if
 * we were waiting for postapproval": a tool whose results wait for the person's approval is saved
 * as skipped (ConfirmedReason type 5) with no result details. In a turn the log left open it is
 * a call still waiting on the person, not one they skipped.
 */
test('vscode format: in a turn still open, a tool saved as skipped is one whose results wait for approval: a pending call', () => {
	const session = read('post-approval-pending.jsonl');
	assert.deepEqual(
		session.events.filter(event => event.kind === 'tool_call' || event.kind === 'tool_result').map(event => [event.kind, event.pending ?? false]),
		[['tool_call', true]],
	);
	assert.deepEqual(markers('post-approval-pending.jsonl'), []);
});

/**
 * microsoft/vscode-copilot-chat conversation.ts (`IResultMetadata.summary: {toolCallRoundId,
 * text}`): when Copilot compacts an agent conversation (the history overflowed mid-turn, or
 * `/compact`), the summary it made is saved in that request's result metadata, naming the last
 * tool-call round it covers. It is the session's compaction summary, in its place: after that
 * round's calls when the round is the request's own, else before the request's reply.
 */
test('vscode format: Copilot\'s conversation summary (`result.metadata.summary`) is a summary event after the round it covers', () => {
	const session = read('conversation-summary.json');
	assert.deepEqual(
		session.events.filter(event => event.kind !== 'meta').map(event => [event.line, event.kind, event.kind === 'summary' ? event.text : (event.tool?.call_id ?? event.result?.call_id ?? null)]),
		[
			[1, 'user', null],
			[1, 'assistant', null],
			[2, 'user', null],
			[2, 'tool_call', 'toolu_01KestrelRetry'],
			[2, 'tool_result', 'toolu_01KestrelRetry'],
			[2, 'summary', 'The person asked for a map of the kestrel sync module, then for an idempotent retry stage; retry.ts was read.'],
			[2, 'tool_call', 'toolu_01KestrelEdit'],
			[2, 'tool_result', 'toolu_01KestrelEdit'],
			[2, 'assistant', null],
			[3, 'user', null],
			[3, 'summary', 'Kestrel sync: the retry stage was made idempotent in retry.ts.'],
			[3, 'assistant', null],
		],
	);
});
