import {win32} from 'node:path';
import type {SessionEvent} from '../events.js';
import {mediaTypeNote, withNoteLines} from '../shared/media.js';
import {isRecord} from '../shared/text.js';
import type {ToolInvocation} from './schema.js';
import {parseBoundedJson} from '../../lib/json-depth.js';

type EventBase = Omit<SessionEvent, 'kind'>;

/**
 * What Copilot's result metadata says about the tool calls of one request: the arguments the
 * model sent (`toolCallRounds[].toolCalls[]`) and the text the tool returned
 * (`toolCallResults[id].content[]`), both keyed by Copilot's id for the call. They are used only
 * when that id (or the model's id inside it, see withStemAliases) equals an invocation's
 * `toolCallId`, never matched by order.
 */
export type ToolContext = {
	readonly args: ReadonlyMap<string, unknown>;
	readonly outputs: ReadonlyMap<string, string>;
};

/** `JSON.parse` when the text is JSON, else the text itself. */
function parseMaybeJson(text: string): unknown {
	try {
		return parseBoundedJson(text);
	} catch {
		return text;
	}
}

/** Text of an IMarkdownString-like value: a plain string or `{value}`. */
export function markdownText(value: unknown): string {
	if (typeof value === 'string') {
		return value;
	}

	return isRecord(value) && typeof value['value'] === 'string' ? value['value'] : '';
}

/** prompt-tsx's JSON node kinds (jsonTypes.ts): a piece holds `children`, a text node holds `text`. */
const pieceNode = 1;
const textNode = 2;

/**
 * The text of a prompt-tsx element as JSON (`{node}`), which Copilot's own tools return as a
 * LanguageModelPromptTsxPart: its text nodes in order, a node marked `lineBreakBefore` on a new
 * line. The tree is as deep as the document, which the reader already bounds.
 */
function promptElementText(node: unknown, out: string[] = []): string[] {
	if (!isRecord(node)) {
		return out;
	}

	if (node['type'] === textNode && typeof node['text'] === 'string') {
		out.push(node['lineBreakBefore'] === true && out.length > 0 ? `\n${node['text']}` : node['text']);
	} else if (node['type'] === pieceNode && Array.isArray(node['children'])) {
		for (const child of node['children']) {
			promptElementText(child, out);
		}
	}

	return out;
}

/** A tool result part's text: a text part's `value` (or `text`), or a prompt-tsx part's element. */
function partText(part: unknown): string {
	if (!isRecord(part)) {
		return '';
	}

	const value = part['value'];
	if (typeof value === 'string') {
		return value;
	}

	if (isRecord(value) && isRecord(value['node'])) {
		return promptElementText(value['node']).join('');
	}

	return typeof part['text'] === 'string' ? part['text'] : '';
}

function partsText(parts: unknown): string {
	if (!Array.isArray(parts)) {
		return '';
	}

	return parts.map(partText).filter(Boolean).join('\n');
}

export function toolContext(metadata: unknown): ToolContext {
	const args = new Map<string, unknown>();
	const outputs = new Map<string, string>();
	if (!isRecord(metadata)) {
		return {args, outputs};
	}

	for (const round of Array.isArray(metadata['toolCallRounds']) ? metadata['toolCallRounds'] : []) {
		const calls = isRecord(round) && Array.isArray(round['toolCalls']) ? round['toolCalls'] : [];
		for (const call of calls) {
			if (isRecord(call) && typeof call['id'] === 'string' && call['arguments'] !== undefined) {
				args.set(call['id'], typeof call['arguments'] === 'string' ? parseMaybeJson(call['arguments']) : call['arguments']);
			}
		}
	}

	const results = metadata['toolCallResults'];
	if (isRecord(results)) {
		for (const [id, result] of Object.entries(results)) {
			const text = isRecord(result) ? partsText(result['content']) : '';
			if (text !== '') {
				outputs.set(id, text);
			}
		}
	}

	return {args: withStemAliases(args), outputs: withStemAliases(outputs)};
}

/** A conversation summary Copilot saved with a request, and the ids of the calls of the round it ends at. */
export type ConversationSummary = {readonly text: string; readonly callIds: ReadonlySet<string>};

/**
 * Copilot's summary of the conversation, made when it compacted the history (it overflowed
 * mid-turn, or `/compact`): `result.metadata.summary` `{toolCallRoundId, text}`, the round being
 * the last one the summary covers (conversation.ts IResultMetadata). The round's calls are
 * named by internal id and by the model's id, as the saved invocations may be.
 */
export function conversationSummary(metadata: unknown): ConversationSummary | undefined {
	const summary = isRecord(metadata) ? metadata['summary'] : undefined;
	const text = isRecord(summary) && typeof summary['text'] === 'string' ? summary['text'] : '';
	if (!isRecord(metadata) || !isRecord(summary) || text.trim() === '') {
		return undefined;
	}

	const rounds = Array.isArray(metadata['toolCallRounds']) ? metadata['toolCallRounds'] : [];
	const round = rounds.find(candidate => isRecord(candidate) && typeof candidate['id'] === 'string' && candidate['id'] === summary['toolCallRoundId']);
	const calls = isRecord(round) && Array.isArray(round['toolCalls']) ? round['toolCalls'] : [];
	const callIds = new Set<string>();
	for (const call of calls) {
		if (isRecord(call) && typeof call['id'] === 'string') {
			callIds.add(call['id']);
			const at = call['id'].indexOf(internalIdMarker);
			if (at > 0) {
				callIds.add(call['id'].slice(0, at));
			}
		}
	}

	return {text, callIds};
}

/** What Copilot appends to the model's call id to keep its own ids unique (toolCallingLoop.ts createInternalToolCallId). */
const internalIdMarker = '__vscode';

/**
 * The map with each internal id (`<model's id>__vscode-<n>`) also reachable by the model's id:
 * Copilot keys its metadata by the internal id but hands VS Code the model's id as the stream id
 * (`toolCall.id.split('__vscode')[0]`), which current builds save as the invocation's
 * `toolCallId`. A model id two internal ids share (models reuse ids) stays unmatched.
 */
function withStemAliases<T>(byId: Map<string, T>): Map<string, T> {
	const stems = new Map<string, T | undefined>();
	for (const [id, value] of byId) {
		const at = id.indexOf(internalIdMarker);
		if (at > 0 && !byId.has(id.slice(0, at))) {
			const stem = id.slice(0, at);
			stems.set(stem, stems.has(stem) ? undefined : value);
		}
	}

	for (const [stem, value] of stems) {
		if (value !== undefined) {
			byId.set(stem, value);
		}
	}

	return byId;
}

function specificData(part: ToolInvocation): Record<string, unknown> | undefined {
	return isRecord(part.toolSpecificData) ? part.toolSpecificData : undefined;
}

/** Terminal data: `terminal`, or `terminal2`, the name the `commandLine` shape had in mid-2025 builds before it took over `terminal`. */
function isTerminal(data: Record<string, unknown> | undefined): data is Record<string, unknown> {
	return data?.['kind'] === 'terminal' || data?.['kind'] === 'terminal2';
}

/**
 * The command a terminal tool ran: the user's edit wins over the tool's rewrite over the model's.
 * Some saved sessions keep `commandLine` as the plain command string, with no edits.
 */
function terminalCommand(data: Record<string, unknown>): string | undefined {
	const line = data['commandLine'];
	if (typeof line === 'string' && line.trim() !== '') {
		return line;
	}

	if (isRecord(line)) {
		for (const key of ['userEdited', 'toolEdited', 'original']) {
			if (typeof line[key] === 'string') {
				return line[key];
			}
		}
	}

	return typeof data['command'] === 'string' ? data['command'] : undefined; // Pre-1.100 shape.
}

function pickStrings(data: Record<string, unknown>, keys: readonly string[]): Record<string, string> {
	return Object.fromEntries(keys.filter(key => typeof data[key] === 'string').map(key => [key, data[key] as string]));
}

function toolInput(part: ToolInvocation, context: ToolContext): unknown {
	const id = part.toolCallId;
	if (id && context.args.has(id)) {
		return context.args.get(id);
	}

	const data = specificData(part);
	if (isTerminal(data)) {
		const command = terminalCommand(data);
		if (command !== undefined) {
			return {command, ...pickStrings(data, ['language'])};
		}
	}

	if (data?.['kind'] === 'input' && data['rawInput'] !== undefined) {
		return data['rawInput'];
	}

	if (data?.['kind'] === 'subagent') {
		return pickStrings(data, ['agentName', 'description', 'prompt']);
	}

	const details = part.resultDetails;
	if (isRecord(details) && typeof details['input'] === 'string') {
		return parseMaybeJson(details['input']);
	}

	return null;
}

/**
 * The path a URI or Location in `resultDetails` names: its `fsPath`, else its `path`. VS Code
 * writes `fsPath` only once it has computed it, so a URI made on Windows may hold only
 * `path: "/c:/a/b"`, which names `c:\a\b` as fsPath would, wherever the store is read.
 */
function locationPath(value: unknown): string {
	const uri = isRecord(value) && isRecord(value['uri']) ? value['uri'] : value;
	if (!isRecord(uri)) {
		return '';
	}

	if (typeof uri['fsPath'] === 'string') {
		return uri['fsPath'];
	}

	const path = typeof uri['path'] === 'string' ? uri['path'] : '';
	return /^\/[A-Za-z]:(?:\/|$)/.test(path) ? path.slice(1).replaceAll('/', '\\') : path;
}

/** Text parts of `resultDetails.output`; base64 data and resource references are not text. */
function detailsOutput(details: unknown): string {
	if (Array.isArray(details)) {
		return details.map(locationPath).filter(Boolean).join('\n');
	}

	if (!isRecord(details)) {
		return '';
	}

	const output = details['output'];
	if (typeof output === 'string') {
		return output;
	}

	const items = Array.isArray(output) ? output : [];
	return items
		.map(item => {
			if (!isRecord(item) || typeof item['value'] !== 'string') {
				return '';
			}

			const isText = item['isText'] === true || (typeof item['mimeType'] === 'string' && item['mimeType'].startsWith('text/'));
			return isText ? item['value'] : '';
		})
		.filter(Boolean)
		.join('\n');
}

/**
 * A note of each embed in `resultDetails.output` that is no text (a screenshot, a read image):
 * VS Code shows these as the tool's images; the base64 `value` is never copied. A tool's one
 * binary output (a generated image) is saved as `output: {type: "data", mimeType, base64Data}`.
 */
function detailsMediaNotes(details: unknown): string[] {
	const output = isRecord(details) ? details['output'] : undefined;
	if (isRecord(output) && output['type'] === 'data') {
		return [mediaTypeNote(output['mimeType'])];
	}

	const items = Array.isArray(output) ? output : [];
	return items.flatMap(item => {
		if (!isRecord(item) || item['type'] !== 'embed' || item['isText'] === true) {
			return [];
		}

		const type = item['mimeType'];
		return typeof type === 'string' && type.startsWith('text/') ? [] : [mediaTypeNote(type)];
	});
}

/** What the tool gave back, with its images noted. */
function toolOutput(part: ToolInvocation, context: ToolContext): string {
	return withNoteLines(toolText(part, context), detailsMediaNotes(part.resultDetails));
}

function toolText(part: ToolInvocation, context: ToolContext): string {
	const data = specificData(part);
	const terminal = isTerminal(data) && isRecord(data['terminalCommandOutput']) ? data['terminalCommandOutput']['text'] : undefined;
	const candidates = [
		typeof terminal === 'string' ? terminal : '',
		detailsOutput(part.resultDetails),
		part.toolCallId ? (context.outputs.get(part.toolCallId) ?? '') : '',
		data?.['kind'] === 'subagent' && typeof data['result'] === 'string' ? data['result'] : '',
		typeof part.resultError === 'string' ? part.resultError : '',
		markdownText(part.pastTenseMessage),
	];
	return candidates.find(text => text !== '') ?? '';
}

function toolExitCode(part: ToolInvocation, context: ToolContext): number | undefined {
	const data = specificData(part);
	if (!isTerminal(data)) {
		return undefined;
	}

	const state = data['terminalCommandState'];
	if (isRecord(state) && typeof state['exitCode'] === 'number') {
		return state['exitCode'];
	}

	// The terminal's own text is the command's output and holds no status of the tool's; the
	// tool's result text states one only as its last line.
	const result = detailsOutput(part.resultDetails) || (part.toolCallId ? (context.outputs.get(part.toolCallId) ?? '') : '');
	return closingExitCode(result);
}

/**
 * run_in_terminal's result text is the command's output, then the tool's notes, the last of them
 * "Command exited with code N" for a non-zero exit (the execute strategies' additionalInformation);
 * a status the command printed in its output is not the tool's.
 */
function closingExitCode(text: string): number | undefined {
	const trimmed = text.trimEnd();
	const last = trimmed.slice(trimmed.lastIndexOf('\n') + 1);
	const match = /^Command exited with code (-?\d+)$/.exec(last.trim());
	return match ? Number(match[1]) : undefined;
}

/** ConfirmedReason types (ToolConfirmKind) a person's answer leaves: Denied and Skipped. */
const deniedReason = 0;
const skippedReason = 5;

/**
 * How the person answered a tool's confirmation, when they did not let it run: `false` before
 * 1.104, since then a ConfirmedReason `{type}`. A denial throws in VS Code's invokeTool and
 * Copilot's loop stops there; a skip tells the model the tool was skipped and the loop goes on.
 */
function refusal(confirmed: unknown): 'denied' | 'skipped' | undefined {
	if (confirmed === false || (isRecord(confirmed) && confirmed['type'] === deniedReason)) {
		return 'denied';
	}

	return isRecord(confirmed) && confirmed['type'] === skippedReason ? 'skipped' : undefined;
}

/**
 * A preToolUse hook's denial is saved as denied too, but hidden (`presentation: "hidden"`), with
 * the hook's reason as its invocation message; Copilot is answered with that reason and goes on.
 */
function deniedByHook(part: ToolInvocation): boolean {
	return part.presentation === 'hidden';
}

/** A saved `resultError`: the message the tool threw (an empty one says nothing), or `true`. */
function isResultError(error: unknown): boolean {
	return error === true || (typeof error === 'string' && error.trim() !== '');
}

/** What the person's skip leaves as the tool's output: the tool never ran. */
const skippedOutput = 'Skipped by the person; not run';

/**
 * A tool invocation becomes a call and, once complete, its result (paired by `toolCallId`). An
 * invocation saved before it completed is a pending call; so is one saved in a turn still open
 * (`openTurn`) that nobody had approved yet: since 1.104 a saved invocation is always
 * `isComplete`, `isConfirmed` is absent while it waits for approval, and a call whose results
 * wait for approval is saved as skipped. A call the person denied (or skipped, outside an open
 * turn) or a hook denied never ran (refusedResult); tools that report an error and terminal
 * commands with a non-zero exit status are failures.
 */
export function toolEvents(part: ToolInvocation, base: EventBase, context: ToolContext, openTurn = false): SessionEvent[] {
	const callId = part.toolCallId ?? null;
	const data = specificData(part);
	const sidechain = part.fromSubAgent === true || (Boolean(part.subAgentInvocationId) && data?.['kind'] !== 'subagent');
	const shared = sidechain ? {...base, sidechain: true} : base;
	const refused = refusal(part.isConfirmed);
	// In an open turn a skip may be VS Code's stand-in for results awaiting the person's approval (toJSON).
	const awaitingApproval = openTurn && (part.isConfirmed === undefined || part.isConfirmed === null || refused === 'skipped');
	const complete = !awaitingApproval && (part.isComplete !== false || refused !== undefined);
	const call: SessionEvent = {
		...shared,
		kind: 'tool_call',
		tool: {name: part.toolId ?? 'unknown', call_id: callId, input: toolInput(part, context)},
		...(complete ? {} : {pending: true}),
	};
	if (!complete) {
		return [call];
	}

	if (refused !== undefined) {
		return [call, refusedResult(part, shared, refused)];
	}

	const output = toolOutput(part, context);
	const exitCode = toolExitCode(part, context);
	const reportedError = (isRecord(part.resultDetails) && part.resultDetails['isError'] === true) || isResultError(part.resultError);
	return [
		call,
		{
			...shared,
			kind: 'tool_result',
			result: {
				call_id: callId,
				is_error: reportedError || (exitCode !== undefined && exitCode !== 0),
				...(exitCode === undefined ? {} : {exit_code: exitCode}),
				output,
			},
		},
	];
}

/**
 * The result of a call that never ran. Skipped by the person: no failure, the model went on.
 * Denied by a hook: a failure, its reason the output. Denied by the person: a failure where
 * the person stopped the turn (what follows, if anything, decides whether it stayed stopped).
 * Its past-tense message describes work never done, so it is no output.
 */
function refusedResult(part: ToolInvocation, base: EventBase, refused: 'denied' | 'skipped'): SessionEvent {
	const call_id = part.toolCallId ?? null;
	if (refused === 'skipped') {
		return {...base, kind: 'tool_result', result: {call_id, is_error: false, output: skippedOutput}};
	}

	if (deniedByHook(part)) {
		return {...base, kind: 'tool_result', result: {call_id, is_error: true, output: markdownText(part.invocationMessage)}};
	}

	return {...base, kind: 'tool_result', result: {call_id, is_error: true, output: ''}, interrupted: true};
}

/** The name an inline file reference shows in the reply text. */
export function referenceName(part: Record<string, unknown>): string {
	if (typeof part['name'] === 'string') {
		return part['name'];
	}

	const reference = part['inlineReference'];
	if (isRecord(reference) && typeof reference['name'] === 'string') {
		return reference['name']; // A workspace symbol.
	}

	const path = locationPath(isRecord(reference) && isRecord(reference['location']) ? reference['location'] : reference);
	// Either separator: a Windows fsPath (`c:\a\b.ts`) read off Windows is still one file's name.
	return path === '' ? '' : win32.basename(path);
}
