import type {SessionEvent} from '../events.js';
import {isInjectedText, outputText, parseJsonArguments, shortError} from '../shared/text.js';
import {contentText, functionResponseOf, isShellTool, isStateSnapshot, isToolInjectedText, partText, partsOf, shellOutcome, timestampOf, visibleText, withMediaNotes, withoutReferencedContent, type Part} from '../shared/gemini-parts.js';
import {contentCallEvents, contentCalls, contentResultEvents, hasFunctionResponse, type ContentCalls} from './content-calls.js';
import {parseGeminiToolCall} from './records.js';
import type {GeminiMessage, GeminiToolCall} from './schema.js';

/** Tool calls the scheduler had not finished when the record was last written. */
const pendingStatuses = new Set(['validating', 'scheduled', 'executing', 'awaiting_approval']);
/** Statuses after which the call has a result (or never will). */
const settledStatuses = new Set(['success', 'error', 'cancelled']);

/** The UI line gemini-cli records when the user cancels a request (`useGeminiStream.ts`). */
const cancelledText = 'Request cancelled.';

/**
 * The model turn gemini-cli puts in the history when a new prompt follows a tool response that
 * got no answer (a failed stream, a cancelled call), so the prompt stays a turn of its own
 * (`INTERRUPTED_RESPONSE_PLACEHOLDER`, geminiChat.ts); the history sync records it as a `gemini`
 * message. It marks an interrupted turn, and is no reply of the model's.
 */
const interruptedPlaceholder = '[The previous response was interrupted before it completed.]';

/**
 * The nudges gemini-cli's client sends on its own through the chat, which records them as user
 * messages: `Please continue.` when the next-speaker check says the model should go on, and
 * `System: Please continue.` to retry after an invalid stream (client.ts `sendMessageStream`).
 * A person who typed exactly the first asked for nothing new either.
 */
const continuationNudges = new Set(['Please continue.', 'System: Please continue.']);

/** The feedback gemini-cli's loop recovery sends the model the same way (client.ts `_recoverFromLoop`). */
const loopFeedback = 'System: Potential loop detected.';

function isHostNudge(text: string): boolean {
	const trimmed = text.trim();
	return continuationNudges.has(trimmed) || trimmed.startsWith(loopFeedback);
}

/** A slash command (`/compress`, `/memory add …`) or the `?` help shortcut, not a request. */
const slashCommand = /^(\/[a-z][\w:-]*|\?)(\s|$)/i;

export type MessageOrigin = {
	/**
	 * False when a person cannot have typed the message's user text: in a subagent chat the
	 * "user" is the parent agent, and a message that only ever appeared inside a `$set.messages`
	 * checkpoint (never as its own record) was written by the history sync (session context, a
	 * compression summary).
	 */
	readonly typedByPerson: boolean;
	/** A subagent chat: its user text is the parent agent's task. */
	readonly byAgent?: boolean;
	/** The chat's tool calls recorded in `toolCalls`, and the calls waiting for content responses. */
	readonly calls?: ContentCalls;
};

function base(message: GeminiMessage, line: number): Omit<SessionEvent, 'kind'> {
	const timestamp = timestampOf(message.timestamp);
	return {line, ...(timestamp ? {timestamp} : {}), uuid: message.id};
}

/** Hook output gemini-cli wraps as `<hook_context>…</hook_context>` (client.ts, gemini.tsx). */
const hookContextTag = '<hook_context>';
const leadingHookContext = /^\s*<hook_context>[\s\S]*?<\/hook_context>\s*/;

/**
 * The text a person typed in a user message's content. A BeforeAgent hook appends its context to
 * the request as a part of its own, and a headless run prepends the SessionStart hook's context
 * to the prompt; neither is the request. Content that is nothing but hook context stays whole
 * (and is then no human request).
 */
function typedText(content: unknown): string {
	const texts = partsOf(content).flatMap(part => visibleText(part) ?? []);
	const typed = texts.filter(text => !text.trimStart().startsWith(hookContextTag)).join('');
	const text = typed.trim() !== '' ? typed : texts.join('');
	const prompt = text.replace(leadingHookContext, '');
	return prompt.trim() !== '' ? prompt : text;
}

/**
 * A tool response turn the history sync recorded as a user message: its function responses are
 * results (those no `toolCalls` entry gives), and no text in it is a human request.
 */
function responseTurnEvents(message: GeminiMessage, line: number, calls: ContentCalls): SessionEvent[] {
	const {results, leading} = contentResultEvents(partsOf(message.content), calls, base(message, line));
	return leading.trim() === '' ? results : [{...base(message, line), kind: 'user', text: leading, human: false}, ...results];
}

/**
 * A tool response turn recorded flattened to text. Builds of late 2025 recorded a user turn as
 * `partListUnionToString` of its parts unless every part was a function response, so a tool that
 * returned parts beside its response (read_many_files' files, read_file's image) left a user
 * message of "[Function Response: <name>]" and those parts' text. The call's `toolCalls` entry
 * holds the same result, so the copy is read as nothing.
 */
const flattenedResponse = /^\[Function Response: [^\]\n]*\]/;

function userEvents(message: GeminiMessage, line: number, origin: MessageOrigin): SessionEvent[] {
	const calls = origin.calls ?? contentCalls();
	if (hasFunctionResponse(partsOf(message.content))) {
		return responseTurnEvents(message, line, calls);
	}

	calls.open = new Map();
	if (flattenedResponse.test(contentText(message.content))) {
		return [];
	}

	// `displayContent` is what the person saw and typed (without expanded @file contents); without
	// it, the content's referenced-file blocks are taken off. The media the prompt sent (an
	// @-referenced image) is only in `content`, and is noted after it.
	const shown = typedText(message.displayContent);
	const typed = shown.trim() !== '' ? shown : withoutReferencedContent(typedText(message.content));
	const text = withMediaNotes(typed, message.content);
	if (text.trim() === '') {
		return [];
	}

	if (isStateSnapshot(text)) {
		return [{...base(message, line), kind: 'summary', text}];
	}

	const human = origin.typedByPerson && !isInjectedText(text) && !isToolInjectedText(text) && !slashCommand.test(text.trimStart()) && !isHostNudge(text);
	return [{...base(message, line), kind: 'user', text, human, ...(origin.byAgent && !human ? {origin: 'agent' as const} : {})}];
}

/**
 * The parts of a call's `result` that answer it. gemini-cli's history sync writes a call's whole
 * response turn into its result ("to ensure sibling parts are preserved"), so a call made beside
 * others also holds their responses; a response and the parts after it (media the tool returned)
 * are its own call's. A result naming no response with the call's id is taken whole.
 */
function ownParts(parts: Part[], callId: string | undefined): Part[] {
	const owners = parts.map(part => functionResponseOf(part)).filter(response => response !== undefined);
	if (callId === undefined || !owners.some(response => response.id === callId)) {
		return parts;
	}

	let owner = owners[0]?.id;
	return parts.filter(part => {
		const response = functionResponseOf(part);
		owner = response ? response.id : owner;
		return owner === callId;
	});
}

/** The text of a tool call's `result` parts: function-response outputs or errors, text parts, media notes. */
function resultOf(call: GeminiToolCall): {output: string; failed: boolean} {
	let failed = false;
	const pieces: string[] = [];
	for (const part of ownParts(partsOf(call.result), call.id)) {
		const response = functionResponseOf(part);
		if (response) {
			failed ||= response.failed;
			pieces.push(response.output);
		} else {
			pieces.push(partText(part) ?? ''); // Text, or a note of the media the tool returned.
		}
	}

	const output = pieces.filter(Boolean).join('\n');
	return {output: output !== '' ? output : typeof call.resultDisplay === 'string' ? call.resultDisplay : outputText(call.resultDisplay), failed};
}

function toolEvents(raw: unknown, message: GeminiMessage, line: number): SessionEvent[] {
	const parsed = parseGeminiToolCall(raw);
	if (!parsed.success) {
		return [];
	}

	const call = parsed.data;
	const name = call.name ?? 'unknown';
	const callId = call.id ?? null;
	const timestamp = timestampOf(call.timestamp) ?? timestampOf(message.timestamp);
	const shared = {line, ...(timestamp ? {timestamp} : {}), uuid: message.id, message_id: message.id};
	const status = call.status ?? '';
	const pending = pendingStatuses.has(status);
	const events: SessionEvent[] = [{...shared, kind: 'tool_call', tool: {name, call_id: callId, input: parseJsonArguments(call.args)}, ...(pending ? {pending: true} : {})}];
	const hasResult = call.result !== undefined && call.result !== null;
	if (pending || !(settledStatuses.has(status) || hasResult)) {
		return events;
	}

	const {output, failed} = resultOf(call);
	// run_shell_command reports `success` even when the command failed: only the text says so.
	const shell = isShellTool(name) ? shellOutcome(output) : undefined;
	const exitCode = shell?.exitCode;
	const cancelled = status === 'cancelled';
	events.push({
		line,
		...(timestamp ? {timestamp} : {}),
		uuid: message.id,
		kind: 'tool_result',
		result: {
			call_id: callId,
			is_error: status === 'error' || cancelled || failed || shell?.failed === true,
			...(exitCode === undefined ? {} : {exit_code: exitCode}),
			output,
		},
		...(cancelled ? {interrupted: true} : {}),
	});
	return events;
}

function geminiEvents(message: GeminiMessage, line: number, calls: ContentCalls): SessionEvent[] {
	const events: SessionEvent[] = [];
	const text = contentText(message.content);
	if (text.trim() === interruptedPlaceholder) {
		events.push({...base(message, line), kind: 'system', text: text.trim(), interrupted: true});
	} else if (text.trim() !== '') {
		events.push({...base(message, line), kind: 'assistant', text, message_id: message.id});
	}

	const recordedNames: string[] = [];
	for (const call of message.toolCalls ?? []) {
		const toolCall = toolEvents(call, message, line);
		recordedNames.push(...toolCall.flatMap(event => (event.kind === 'tool_call' && event.tool ? [event.tool.name] : [])));
		events.push(...toolCall);
	}

	events.push(...contentCallEvents(partsOf(message.content), recordedNames, message.id, calls, {...base(message, line), message_id: message.id}));
	return events;
}

function uiEvents(message: GeminiMessage, line: number): SessionEvent[] {
	// Media the model could not take in a function response (a read audio file) is sent as a
	// turn of its own, recorded as an `info` message of nothing but that media: it is noted.
	const text = withMediaNotes(contentText(message.content), message.content).trim();
	switch (message.type) {
		case 'info':
			if (text === cancelledText) {
				return [{...base(message, line), kind: 'system', text, interrupted: true}];
			}

			return text ? [{...base(message, line), kind: 'system', text}] : [];
		case 'error':
			return [{...base(message, line), kind: 'system', text, error: shortError(text || 'error')}];
		default:
			return text ? [{...base(message, line), kind: 'system', text}] : [];
	}
}

/**
 * One message of the resulting conversation to events, or null for a message type Gemini CLI
 * does not write (schema drift such as `type: "model"`), which the loader counts as skipped.
 */
export function normalizeGeminiMessage(message: GeminiMessage, line: number, origin: MessageOrigin): SessionEvent[] | null {
	switch (message.type) {
		case 'user':
			return userEvents(message, line, origin);
		case 'gemini':
			return geminiEvents(message, line, origin.calls ?? contentCalls());
		case 'info':
		case 'error':
		case 'warning':
			return uiEvents(message, line);
		default:
			return null;
	}
}
