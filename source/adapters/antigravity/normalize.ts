import {sep} from 'node:path';
import type {SessionEvent} from '../events.js';
import {exitCodeFromText, isInjectedText, isRecord, shortError} from '../shared/text.js';
import type {DiscoveredUnit, LineState} from '../types.js';
import {conversationWorkspace} from './conversation-db.js';
import {promptedWorkspace} from './history.js';
import {lastConversationWorkspace} from './last-conversations.js';
import {conversationSummary} from './summaries.js';
import {protoSummaryWorkspace} from './summary-proto.js';
import {readAntigravityStep, readAntigravityToolCall} from './records.js';
import type {AntigravityStep, AntigravityToolCall} from './schema.js';
import {invokedConversationIds, invokeSubagentCall, invokeSubagentType} from './subagents.js';
import {modelFromSettings, userRequestText} from './user-input.js';
import {parseBoundedJson} from '../../lib/json-depth.js';

type EventBase = Omit<SessionEvent, 'kind'>;

const systemTypes = new Set(['CONVERSATION_HISTORY', 'EPHEMERAL_MESSAGE', 'SYSTEM_MESSAGE']);
/**
 * An error notice the harness gives the model, from the SYSTEM or the MODEL source, its content
 * `Created At:` lines and then e.g. "Error invalid tool call: …"; the model often goes on after
 * it (seen in public excerpts of real transcripts).
 */
const errorType = 'ERROR_MESSAGE';
/**
 * Tool-result step types seen so far; other MODEL-sourced steps are tool results too.
 * INVOKE_SUBAGENT (the result of `invoke_subagent`) is listed because some builds write it
 * without a source, and TOOL_RESPONSE (the IDE's brains: any tool's output) because it comes
 * from the SYSTEM source.
 */
const toolTypes = new Set(['VIEW_FILE', 'LIST_DIRECTORY', 'RUN_COMMAND', 'CODE_ACTION', 'SEARCH_WEB', 'GREP_SEARCH', 'BROWSER_NAVIGATE', 'TOOL_RESPONSE', invokeSubagentType]);
const conversationTypes = new Set(['USER_INPUT', 'PLANNER_RESPONSE', 'CHECKPOINT', errorType, ...systemTypes]);
/** Sources whose input a person did not type (USER_IMPLICIT: context the host added for them). */
const hostSources = new Set(['SYSTEM', 'MODEL', 'USER_IMPLICIT']);
/** Statuses of a step the run was stopped under: the language server's CANCELED and INTERRUPTED. */
const stoppedStatuses = new Map([
	['CANCELED', 'Step cancelled'],
	['CANCELLED', 'Step cancelled'],
	['INTERRUPTED', 'Step interrupted'],
]);
/** Statuses of a step that has not finished yet (none observed in samples; named defensively). */
const runningStatuses = new Set(['RUNNING', 'PENDING', 'IN_PROGRESS', 'GENERATING', 'QUEUED', 'WAITING']);

function isRunning(status: string | null | undefined): boolean {
	return status !== undefined && status !== null && (runningStatuses.has(status) || status.startsWith('WAITING'));
}

/** `created_at` as a normalised ISO time; trimmed or unparseable values give none. */
function isoTime(value: string | null | undefined): string | undefined {
	const time = value ? Date.parse(value) : Number.NaN;
	return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

function parseMaybeJson(text: string): unknown {
	try {
		return parseBoundedJson(text);
	} catch {
		return text;
	}
}

/** Tool arguments, whose values Antigravity stores JSON-encoded, decoded to plain values. */
function decodeArguments(value: unknown): unknown {
	if (typeof value === 'string') {
		return parseMaybeJson(value);
	}

	if (isRecord(value)) {
		return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, typeof item === 'string' ? parseMaybeJson(item) : item]));
	}

	return value ?? null;
}

/**
 * The IDE names a tool inside Gemini's function-calling namespace (`default_api:view_file`); the
 * tool is the one the CLI names bare, and only the bare name is known to what reads calls.
 */
const functionNamespace = 'default_api:';

/** A call's tool name and arguments: top-level (`name`, `args` or `arguments`) or in the IDE's `function` object. */
function toolOf(call: AntigravityToolCall): {name: string; input: unknown} {
	const wrapped = isRecord(call.function) ? call.function : undefined;
	const named = call.name ?? (typeof wrapped?.['name'] === 'string' ? wrapped['name'] : undefined);
	const name = named?.startsWith(functionNamespace) && named.length > functionNamespace.length ? named.slice(functionNamespace.length) : named;
	return {name: name || 'unknown', input: decodeArguments(call.args ?? call.arguments ?? wrapped?.['arguments'])};
}

function plannerEvents(step: AntigravityStep, base: EventBase, state: LineState): SessionEvent[] {
	const shared = {...base, message_id: `step-${base.uuid ?? base.line}`};
	const events: SessionEvent[] = [];
	const failed = step.status === 'ERROR';
	if (!failed && step.content?.trim()) {
		events.push({...shared, kind: 'assistant', text: step.content});
	}

	const awaited: string[] = [];
	for (const raw of step.tool_calls ?? []) {
		const call = readAntigravityToolCall(raw);
		if (!call) {
			continue;
		}

		const tool = toolOf(call);
		awaited.push(tool.name);
		events.push({
			...shared,
			kind: 'tool_call',
			// No tool step names the call it answers, so an id here could never pair: leave none
			// (the engine would otherwise see every call with an id as unanswered).
			tool: {...tool, call_id: null},
			...(isRunning(step.status) ? {pending: true} : {}),
		});
	}

	// A new planner step leaves the calls of the one before without results.
	state[awaitedKey] = awaited.slice(0, maxAwaited);
	return events;
}

/** The line-state key of the tool names a planner step's calls still await results for, in call order. */
const awaitedKey = 'awaitedTools';
/** The line-state key of the last step index read, to see steps that left no line. */
const lastStepKey = 'lastStep';
/** More calls than one planner step makes: the line state stays small. */
const maxAwaited = 64;

/**
 * The tool a result step answers. No step names its call, but results follow their planner step
 * in the order of its calls (parallel calls give consecutive steps), so the next result answers
 * the first call still awaiting one. A step index that skips (a declined call, a turn stopped
 * before its result) leaves the awaited calls unanswered rather than pairing later results with
 * them.
 */
function answeredTool(state: LineState): string | undefined {
	const awaited = state[awaitedKey];
	if (!Array.isArray(awaited) || awaited.length === 0) {
		return undefined;
	}

	state[awaitedKey] = awaited.slice(1);
	return typeof awaited[0] === 'string' ? awaited[0] : undefined;
}

/** Notes the step's index; a jump past the next one drops the calls still awaited. */
function followStepIndex(step: AntigravityStep, state: LineState): void {
	const index = typeof step.step_index === 'number' ? step.step_index : Number.NaN;
	if (Number.isNaN(index)) {
		return;
	}

	const last = state[lastStepKey];
	if (typeof last === 'number' && index > last + 1) {
		state[awaitedKey] = [];
	}

	state[lastStepKey] = index;
}

/** Where the command's own output starts in a RUN_COMMAND step: the template's `Output:` line (tab-indented). */
const outputLine = /^[ \t]*Output:/m;
/**
 * How far into a step's text that line is looked for: past a few `Created At:` lines and the
 * outcome sentence. A command's output without the template is not searched whole for it.
 */
const outputLineWithin = 4096;
const succeeded = /^[ \t]*The command completed successfully\b/m;

/**
 * RUN_COMMAND states its outcome only in text, in the sentence before its `Output:` (after any
 * `Created At:` lines): plain success, or the exit code it failed with. An exit code the output
 * mentions (a grep of docs, a log) is read only when no such sentence says anything.
 */
function commandExitCode(text: string): number | undefined {
	const output = outputLine.exec(text.length > outputLineWithin ? text.slice(0, outputLineWithin) : text);
	const head = output ? text.slice(0, output.index) : text;
	// The phrase looked for first: a plain search rules out most outputs faster than the pattern.
	if (head.includes('The command completed successfully') && succeeded.test(head)) {
		return 0;
	}

	return exitCodeFromText(head) ?? (output ? exitCodeFromText(text) : undefined);
}

/**
 * The harness's report of a tool it could not run (a missing path, a permission prompt timed out):
 * "Encountered error in step execution", after any `Created At:`/`Completed At:` lines. Its status
 * may still say DONE. Only the opening counts (a viewed file may quote it); one anchored pattern,
 * so a long output is never copied to be looked at.
 */
const stepErrorOpening = /^(?:[ \t]*(?:Created|Completed) At:[^\n]*\n)*\s*Encountered error in step execution/;

function isStepError(output: string): boolean {
	return stepErrorOpening.test(output);
}

/** The call a command's result answers: recent builds type its result GENERIC, like every tool's. */
const commandCall = 'run_command';

/**
 * Whether a tool step is a command's result, which states its outcome in the RUN_COMMAND
 * template: typed so, or a GENERIC step answering a `run_command` call. Another tool's GENERIC
 * result (a viewed file) is never searched for an exit code.
 */
function isCommandResult(step: AntigravityStep, answered: string | undefined): boolean {
	return step.type === 'RUN_COMMAND' || (step.type === 'GENERIC' && answered === commandCall);
}

/**
 * A tool step is the result of a tool call. Antigravity records no id on it, so it keeps
 * `call_id: null`: pairing by order would be a guess. A step not yet finished has no result.
 * `answered` is the call it answers by order, used only to know a command's GENERIC result.
 */
function toolResultEvents(step: AntigravityStep, base: EventBase, answered?: string): SessionEvent[] {
	if (isRunning(step.status)) {
		return [];
	}

	const output = toolOutput(step);
	const exitCode = isCommandResult(step, answered) ? commandExitCode(output) : undefined;
	const failed = (step.status !== undefined && step.status !== null && step.status !== 'DONE') || (exitCode !== undefined && exitCode !== 0) || isStepError(output);
	return [
		{
			...base,
			kind: 'tool_result',
			result: {call_id: null, is_error: failed, ...(exitCode === undefined ? {} : {exit_code: exitCode}), output},
		},
	];
}

/**
 * A tool step's output: its `content`, or where a writer gave the step none, its own `output`
 * field (a RUN_COMMAND written as `{command, output}`). A non-string `output` is no output.
 */
function toolOutput(step: AntigravityStep): string {
	if (step.content !== undefined) {
		return step.content;
	}

	const output = (step as Record<string, unknown>)['output'];
	return typeof output === 'string' ? output : '';
}

/**
 * A command run in the background leaves a RUNNING RUN_COMMAND step; its outcome arrives later as
 * a SYSTEM_MESSAGE: `Task id "<conversation>/task-N" finished with result:`, then the RUN_COMMAND
 * template (status sentence, `Output:`), then a `Log: file://…` line and the closing tag.
 */
const taskFinished = /Task id "[^"\n]+" finished with result:[ \t]*\n/;

/** What a notice reports after its first line: the closing tag and the `Log:` line (a file not read) taken off. */
function taskOutput(rest: string): string {
	const closing = rest.lastIndexOf('</SYSTEM_MESSAGE>');
	let output = (closing === -1 ? rest : rest.slice(0, closing)).trimEnd();
	const lastLine = output.lastIndexOf('\n');
	if (output.slice(lastLine + 1).trimStart().startsWith('Log: file://')) {
		output = output.slice(0, Math.max(lastLine, 0)).trimEnd();
	}

	return output.replace(/^(?:[ \t]*\n)+/, '');
}

/** The background command's result a SYSTEM_MESSAGE reports, if it is such a notice. */
function backgroundResultEvents(step: AntigravityStep, base: EventBase): SessionEvent[] | undefined {
	const content = step.content ?? '';
	// The phrase looked for first: a plain search rules out most system messages faster than the pattern.
	const found = content.includes('finished with result:') ? taskFinished.exec(content) : null;
	if (!found) {
		return undefined;
	}

	const output = taskOutput(content.slice(found.index + found[0].length));
	const exitCode = commandExitCode(output);
	return [
		{
			...base,
			kind: 'tool_result',
			result: {call_id: null, is_error: exitCode !== undefined && exitCode !== 0, ...(exitCode === undefined ? {} : {exit_code: exitCode}), output},
		},
	];
}

function userEvents(step: AntigravityStep, base: EventBase, state: LineState): SessionEvent[] {
	const content = step.content ?? '';
	const events: SessionEvent[] = [];
	const model = modelFromSettings(content);
	if (model !== undefined && state['model'] !== model) {
		state['model'] = model;
		events.push({line: base.line, kind: 'meta', ...(base.timestamp ? {timestamp: base.timestamp} : {}), session: {model}});
	}

	const text = userRequestText(content);
	if (text !== undefined) {
		// A request the host queued (not USER_EXPLICIT) is host text, not a person typing.
		const typed = !hostSources.has(step.source ?? '') && !isInjectedText(text);
		events.push({...base, kind: 'user', text, human: typed});
	}

	return events;
}

/** The conversations an INVOKE_SUBAGENT step created, as a fact about this session (its children). */
function childEvents(step: AntigravityStep, base: EventBase): SessionEvent[] {
	const children = invokedConversationIds(step.content ?? '');
	return children.length === 0 ? [] : [{line: base.line, kind: 'meta', ...(base.timestamp ? {timestamp: base.timestamp} : {}), session: {children}}];
}

function isToolStep(step: AntigravityStep): boolean {
	return toolTypes.has(step.type) || (step.source === 'MODEL' && !conversationTypes.has(step.type));
}

function stepEvents(step: AntigravityStep, base: EventBase, state: LineState): SessionEvent[] | null {
	if (step.type === 'USER_INPUT') {
		return userEvents(step, base, state);
	}

	if (step.type === 'PLANNER_RESPONSE') {
		return plannerEvents(step, base, state);
	}

	if (step.type === 'CHECKPOINT') {
		return step.content?.trim() ? [{...base, kind: 'summary', text: step.content}] : [];
	}

	if (step.type === errorType) {
		const text = step.content?.trim() || 'Error';
		return [{...base, kind: 'system', text, error: shortError(text)}];
	}

	if (step.type === 'SYSTEM_MESSAGE') {
		const finished = backgroundResultEvents(step, base);
		if (finished) {
			return finished;
		}
	}

	if (systemTypes.has(step.type)) {
		return step.content?.trim() ? [{...base, kind: 'system', text: step.content}] : [];
	}

	if (isToolStep(step)) {
		// Recent builds type the invoke_subagent result GENERIC like every other: its call says what it is.
		const answered = answeredTool(state);
		const results = toolResultEvents(step, base, answered);
		const spawned = answered === invokeSubagentCall || step.type === invokeSubagentType;
		return spawned ? [...results, ...childEvents(step, base)] : results;
	}

	return null;
}

/**
 * A cancelled or interrupted step is an interruption; a failed conversational step is an interruption with an
 * error. A failed tool step is a tool failure, which its result already says.
 */
function statusEvents(step: AntigravityStep, base: EventBase): SessionEvent[] {
	const stopped = step.status ? stoppedStatuses.get(step.status) : undefined;
	if (stopped) {
		return [{...base, kind: 'system', text: stopped, interrupted: true}];
	}

	if (step.status === 'ERROR' && !isToolStep(step) && step.type !== errorType) {
		const text = step.content?.trim() || 'Step failed';
		return [{...base, kind: 'system', text, interrupted: true, error: shortError(text)}];
	}

	return [];
}

/**
 * One transcript step to events. `step_index` is the step's identity; thinking is never
 * shown. Types this adapter does not know, from anything but the model, are skipped.
 */
export function normalizeAntigravityLine(value: unknown, line: number, state: LineState, unit: DiscoveredUnit): SessionEvent[] | null {
	const step = readAntigravityStep(value);
	if (!step) {
		return null;
	}

	const events = normalizeStep(step, line, state);
	if (events === null || line !== 1) {
		return events;
	}

	const workspace = workspaceEvent(line, unit, step);
	return workspace ? [workspace, ...events] : events;
}

/**
 * What the app's own records say of a conversation its transcript never states, given with the
 * first line, the conversation's first step, so a scan that continues a grown transcript does
 * not look again (conversation-db.ts, summaries.ts, history.ts):
 * - where it ran, when the prompt index named no workspace by id (`projectHint`): the step
 *   database's, else the summary table's, else the IDE's summary list's (summary-proto.ts), else
 *   the folder the CLI's cache of each folder's last conversation names it under
 *   (last-conversations.ts), else the one an older build's prompt index line gives the first request;
 * - for a subagent, the conversation that started it, which only the summary table names.
 * The summary table is read here, by the reader, so that no warm call loads it.
 */
function workspaceEvent(line: number, unit: DiscoveredUnit, step: AntigravityStep): SessionEvent | undefined {
	const app = appDirectoryOf(unit.path);
	const summary = app === undefined || unit.idHint === undefined ? undefined : conversationSummary(app, unit.idHint);
	const database = unit.paths.find(path => path.endsWith('.db'));
	const listed = () => (app === undefined || unit.idHint === undefined ? undefined : protoSummaryWorkspace(app, unit.idHint));
	const cached = () => (app === undefined || unit.idHint === undefined ? undefined : lastConversationWorkspace(app, unit.idHint));
	const cwd = unit.projectHint !== undefined ? undefined : ((database === undefined ? undefined : conversationWorkspace(database)) ?? summary?.workspace ?? listed() ?? cached() ?? promptWorkspace(unit.path, step));
	const parent = summary?.parent;
	return cwd === undefined && parent === undefined ? undefined : {line, kind: 'meta', session: {...(cwd === undefined ? {} : {cwd}), ...(parent === undefined ? {} : {parent_id: parent})}};
}

/**
 * The app directory of a conversation's file, which holds its prompt index and summary table: above
 * the brain a transcript lies in (`<app>/brain/<id>/…`), or the folder of step databases
 * (`<app>/conversations/<id>.db`).
 */
function appDirectoryOf(path: string): string | undefined {
	const folder = [`${sep}brain${sep}`, `${sep}conversations${sep}`].map(name => path.lastIndexOf(name)).find(at => at > 0);
	return folder === undefined ? undefined : path.slice(0, folder);
}

function promptWorkspace(path: string, step: AntigravityStep): string | undefined {
	const app = step.type === 'USER_INPUT' ? appDirectoryOf(path) : undefined;
	const prompt = app === undefined ? undefined : userRequestText(step.content ?? '');
	const time = step.created_at ? Date.parse(step.created_at) : Number.NaN;
	return prompt === undefined || Number.isNaN(time) ? undefined : promptedWorkspace(app!, prompt, time);
}

function normalizeStep(step: AntigravityStep, line: number, state: LineState): SessionEvent[] | null {
	followStepIndex(step, state);
	const timestamp = isoTime(step.created_at);
	const base: EventBase = {
		line,
		...(timestamp ? {timestamp} : {}),
		...(step.step_index === undefined || step.step_index === null ? {} : {uuid: String(step.step_index)}),
	};
	const events = stepEvents(step, base, state);
	if (events === null) {
		return null;
	}

	return [...events, ...statusEvents(step, base)];
}
