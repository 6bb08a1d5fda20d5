import type {SessionEvent} from '../events.js';
import {mediaNote, notePromptMedia, withNoteLines} from '../shared/media.js';
import {exitCodeFromText, isInjectedText, isRecord, outputText, parseJsonArguments, stringOf, textOf} from '../shared/text.js';
import {readGrokChatItem, readGrokLegacyMessage} from './records.js';
import type {GrokChatItem, GrokLegacyMessage} from './schema.js';

/**
 * `chat_history.jsonl`, the model-facing history (formats.md §6). Version 1 items are tagged by
 * `type`; legacy version 0 lines are role-based OpenAI chat messages. Reasoning is never shown.
 * The file has no timestamps and no ids beyond tool-call ids.
 */
export function normalizeChatLine(value: unknown, line: number, backendCalls: Set<string> = new Set(), callNames: Map<string, string> = new Map()): SessionEvent[] | null {
	if (!isRecord(value)) {
		return null;
	}

	// A line of a type this reader does not know but with a role (a Responses-style
	// `{"type":"message","role":…}`, or a later item type) is read by its role, as a legacy line.
	const typed = typeof value['type'] === 'string' && (chatItemTypes.has(value['type']) || typeof value['role'] !== 'string');
	if (typed) {
		const item = readGrokChatItem(value);
		return item ? chatItemEvents(item, line, backendCalls, callNames) : null;
	}

	if (typeof value['role'] === 'string') {
		const message = readGrokLegacyMessage(value);
		return message ? legacyMessageEvents(message, line, callNames) : null;
	}

	return null;
}

/** The version 1 item types chatItemEvents reads. */
const chatItemTypes = new Set(['user', 'assistant', 'tool_result', 'backend_tool_call', 'system', 'reasoning']);

/** `synthetic_reason` values of user items another agent wrote (the rest are the runtime's, but for an interjection). */
const agentReasons = new Set(['agent_message', 'parent_agent_message']);

/**
 * `synthetic_reason` of the text a person sends while the model is still working (Ctrl+Enter):
 * the runtime only injects it between tool batches, wrapped in its own note, so it is a request.
 */
const typedReasons = new Set(['interjection']);

/**
 * Host text in a user turn: the shared markers plus the context blocks Grok Build writes around a
 * prompt (`<user_info>`, `<git_status>`, `<agent_skills>`), which may also stand alone in a user item.
 */
const grokContextOpenings = ['<user_info>', '<git_status>', '<agent_skills>'];

export function isGrokInjected(text: string): boolean {
	return isInjectedText(text, grokContextOpenings);
}

type ToolCallShape = {id?: string | null | undefined; name?: string | null | undefined; arguments?: unknown};

/** `backendCalls`: ids of the server-run calls read so far, so a copy in a later `raw_output` is not read twice. */
function chatItemEvents(item: GrokChatItem, line: number, backendCalls: Set<string>, callNames: Map<string, string>): SessionEvent[] | null {
	switch (item.type) {
		case 'user':
			return userItemEvents(item, line);
		case 'assistant':
			return [...rawOutputEvents(item.raw_output, line, backendCalls), ...assistantEvents(textOf(item.content), item.tool_calls ?? [], line, callNames)];
		case 'tool_result':
			// A result's pictures (a viewed image, a screenshot) ride in `images`, beside its text.
			return [toolResult(item.tool_call_id ?? null, withNoteLines(outputText(item.content), imageNotes(item.images)), line, callNames)];
		case 'backend_tool_call': {
			const events = backendToolEvents(item.kind, line);
			for (const event of events) {
				if (event.tool?.call_id) {
					backendCalls.add(event.tool.call_id);
				}
			}

			return events;
		}
		case 'system':
		case 'reasoning':
			// The system prompt and the model's reasoning are not conversation to show.
			return [];
		default:
			return null;
	}
}

function hasImage(content: unknown): boolean {
	return Array.isArray(content) && content.some(part => isRecord(part) && part['type'] === 'image');
}

/** A note of each image part (`{type: "image", url}`) of a list: a `data:` URL noted by its media type, an address kept. */
function imageNotes(parts: unknown): string[] {
	return Array.isArray(parts) ? parts.flatMap(part => (isRecord(part) && part['type'] === 'image' ? [mediaNote({type: 'input_image', image_url: part['url']}) ?? '[image]'] : [])) : [];
}

/**
 * A prompt's events with a note of each image part (`{type: "image", url}`: a `data:` URL noted
 * by its media type, an address kept) after the typed text, one a line, as Gemini CLI, Qwen Code,
 * Claude Code and Codex prompts are: on the last request, so a prompt stays one turn; an image
 * sent alone is a request whose text is its note.
 */
function withImageNotes(events: SessionEvent[], content: unknown): SessionEvent[] {
	const notes = imageNotes(content);
	// A person's request takes the notes; a runtime-written prompt only when it is all there is.
	const typed = events.some(event => event.kind === 'user' && event.human === true);
	return notePromptMedia(events, notes, {isRequest: event => event.kind === 'user' && (event.human === true || !typed), alone: () => []});
}

/**
 * A user item. `synthetic_reason` marks text the runtime wrote, not typed as a prompt (an
 * interjection is the exception: a person's words the runtime injected mid-turn); compaction
 * summaries are summaries. `prior_turn_interrupt` on a real user item says the PREVIOUS turn was
 * cancelled, so the interruption comes first, at the same line.
 */
function userItemEvents(item: GrokChatItem, line: number): SessionEvent[] {
	const events: SessionEvent[] = [];
	if (item.prior_turn_interrupt) {
		events.push({line, kind: 'system', text: `Previous turn interrupted (${item.prior_turn_interrupt})`, interrupted: true});
	}

	const text = textOf(item.content);
	const reason = item.synthetic_reason ?? undefined;
	if (reason === 'compaction_meta') {
		events.push({line, kind: 'summary', text});
	} else if (text.trim() !== '' || hasImage(item.content)) {
		const typed = reason === undefined || typedReasons.has(reason);
		events.push(...withImageNotes(userTextEvents(text, line, typed, reason !== undefined && agentReasons.has(reason) ? {origin: 'agent'} : {}), item.content));
	}

	return events;
}

/** The note Grok Build writes before an interjection's `<user_query>` (format_interjection). */
const interjectionNote = 'The user sent a message while you were working:';

/** The person's words of an interjection as the runtime wrote it, else undefined. */
export function interjectionQuery(text: string): string | undefined {
	if (!text.trimStart().startsWith(interjectionNote)) {
		return undefined;
	}

	const query = /<user_query>([\s\S]*?)<\/user_query>/.exec(text)?.[1]?.trim();
	return query === '' ? undefined : query;
}

/** What a person typed: Grok Build wraps a prompt in `<user_query>`, after the context blocks it adds (`<user_info>`, `<git_status>`, …). */
const userQueryPattern = /<user_query>([\s\S]*?)<\/user_query>/g;

function contextEvents(text: string, line: number): SessionEvent[] {
	const trimmed = text.trim();
	return trimmed === '' ? [] : [{line, kind: 'user', text: trimmed, human: false}];
}

/**
 * A user turn's text. Each `<user_query>` is a request, human when the item is one a person
 * typed; the text around it is the runtime's context. Text without the wrapper (older builds,
 * version 0 files) is the request itself unless it opens as host text.
 */
function userTextEvents(text: string, line: number, typed: boolean, origin: Pick<SessionEvent, 'origin'>): SessionEvent[] {
	const events: SessionEvent[] = [];
	let consumed = 0;
	for (const match of text.matchAll(userQueryPattern)) {
		events.push(...contextEvents(text.slice(consumed, match.index), line));
		const query = (match[1] ?? '').trim();
		if (query !== '') {
			events.push({line, kind: 'user', text: query, human: typed && !isGrokInjected(query), ...origin});
		}

		consumed = match.index + match[0].length;
	}

	if (consumed === 0) {
		return [{line, kind: 'user', text, human: typed && !isGrokInjected(text), ...origin}];
	}

	events.push(...contextEvents(text.slice(consumed), line));
	return events;
}


function assistantEvents(text: string, calls: readonly ToolCallShape[], line: number, callNames: Map<string, string>): SessionEvent[] {
	const events: SessionEvent[] = [];
	if (text.trim() !== '') {
		events.push({line, kind: 'assistant', text});
	}

	for (const call of calls) {
		if (call.id && call.name) {
			callNames.set(call.id, call.name);
		}

		events.push({line, kind: 'tool_call', tool: {name: call.name ?? 'unknown', call_id: call.id ?? null, input: parseJsonArguments(call.arguments)}});
	}

	return events;
}

/** Grok's shell tools (run_terminal_cmd and the like); the names of its other tools say none of these. */
const shellToolName = /terminal|shell|bash|command|exec/i;

/**
 * chat_history has no error flag on results: only an exit status stated in a shell tool's output
 * tells. A result of another tool (a file read, a search) that mentions "exit code 1" is no
 * failure; one whose call was not read (a row read on its own) is read as any stated status.
 */
function toolResult(callId: string | null, output: string, line: number, callNames: Map<string, string>): SessionEvent {
	const name = callId === null ? undefined : callNames.get(callId);
	if (callId !== null) {
		callNames.delete(callId);
	}

	const exitCode = name === undefined || shellToolName.test(name) ? exitCodeFromText(output) : undefined;
	return {
		line,
		kind: 'tool_result',
		result: {call_id: callId, is_error: exitCode !== undefined && exitCode !== 0, ...(exitCode === undefined ? {} : {exit_code: exitCode}), output},
	};
}

/** Statuses of a server-run call still under way (Responses-API output item statuses). */
const runningStatuses = new Set(['in_progress', 'searching', 'interpreting', 'generating', 'pending']);

/**
 * A server-run tool (web or X search, code interpreter). Its output stays on the server and the
 * item records the call's own outcome: a completed (or finished, status-less) call gets its
 * result here, a failed one a failed result, and only one still under way is pending.
 */
function backendToolEvents(kind: unknown, line: number): SessionEvent[] {
	const details = isRecord(kind) ? kind : {};
	const name = stringOf(details['tool_type']) ?? (typeof kind === 'string' ? kind : 'backend_tool');
	const callId = stringOf(details['id']) ?? null;
	const status = stringOf(details['status']);
	const running = status !== undefined && runningStatuses.has(status);
	const call: SessionEvent = {line, kind: 'tool_call', tool: {name, call_id: callId, input: backendInput(details)}, ...(running ? {pending: true} : {})};
	if (running) {
		return [call];
	}

	const failed = status === 'failed' || status === 'incomplete';
	return [call, {line, kind: 'tool_result', result: {call_id: callId, is_error: failed, output: backendOutput(details)}}];
}

/** Responses-API output item types of calls the server ran, by the `tool_type` a backend_tool_call gives them. */
const rawOutputTools = new Map([
	['web_search_call', 'web_search'],
	['code_interpreter_call', 'code_interpreter'],
]);

/**
 * Server-run calls in an older build's `raw_output` (the model's output items, kept on the
 * assistant item before backend_tool_call items existed). Grok's own upgrader reads them the
 * same way and skips one a backend_tool_call item already holds.
 */
function rawOutputEvents(rawOutput: unknown, line: number, backendCalls: Set<string>): SessionEvent[] {
	const items = Array.isArray(rawOutput) ? rawOutput : [];
	return items.flatMap(item => {
		const toolType = isRecord(item) && typeof item['type'] === 'string' ? rawOutputTools.get(item['type']) : undefined;
		const id = isRecord(item) ? stringOf(item['id']) : undefined;
		if (!isRecord(item) || toolType === undefined || (id !== undefined && backendCalls.has(id))) {
			return [];
		}

		if (id !== undefined) {
			backendCalls.add(id);
		}

		return backendToolEvents({...item, tool_type: toolType}, line);
	});
}

/** What a server-run call was asked to do: a search's action, or the code a code interpreter ran. */
function backendInput(details: Record<string, unknown>): unknown {
	if (details['action'] !== undefined) {
		return details['action'];
	}

	return typeof details['code'] === 'string' ? {code: details['code']} : null;
}

/**
 * What a server-run call reports of its output: the sources a search found, the logs a code
 * interpreter printed (its `outputs`, Responses-API `logs` items; images stay on the server).
 */
function backendOutput(details: Record<string, unknown>): string {
	const action = isRecord(details['action']) ? details['action'] : {};
	const sources = Array.isArray(action['sources']) ? action['sources'] : [];
	const outputs = Array.isArray(details['outputs']) ? details['outputs'] : [];
	const urls = sources.flatMap(source => (isRecord(source) && typeof source['url'] === 'string' ? [source['url']] : []));
	const logs = outputs.flatMap(output => (isRecord(output) && typeof output['logs'] === 'string' ? [output['logs']] : []));
	return [...urls, ...logs].join('\n');
}

function legacyMessageEvents(message: GrokLegacyMessage, line: number, callNames: Map<string, string>): SessionEvent[] | null {
	const text = textOf(message.content);
	switch (message.role) {
		case 'system':
			return [];
		case 'user':
			return text.trim() === '' && !hasImage(message.content) ? [] : withImageNotes(userTextEvents(text, line, true, {}), message.content);
		case 'assistant':
			// `reasoning_content` is never shown.
			return assistantEvents(
				text,
				(message.tool_calls ?? []).map(call => ({id: call.id, name: call.function?.name, arguments: call.function?.arguments})),
				line,
				callNames,
			);
		case 'tool':
			return [toolResult(message.tool_call_id ?? null, outputText(message.content), line, callNames)];
		default:
			return null;
	}
}
