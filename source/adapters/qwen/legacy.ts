import {basename, dirname} from 'node:path';
import type {SessionEvent, SessionInfo, SessionRow} from '../events.js';
import {projectOfChat} from '../shared/chat-project.js';
import {contentText, functionResponseOf, isShellTool, isToolInjectedText, partsOf, responseTurnOf, shellOutcome, timestampOf, withMediaNotes, withoutReferencedContent} from '../shared/gemini-parts.js';
import {isInjectedText, parseJsonArguments, shortError} from '../shared/text.js';
import {readWholeJson} from '../shared/whole-file.js';
import type {DiscoveredUnit, LoadedSession} from '../types.js';
import {legacyChatVariant} from './discover.js';
import {qwenLegacyChatSchema, qwenLegacyMessageSchema, qwenLegacyToolCallSchema, type QwenLegacyMessage, type QwenLegacyToolCall} from './schema.js';

/**
 * A chat of the releases before the JSONL store: one document, `{sessionId, projectHash,
 * startTime, lastUpdated, messages}`, rewritten whole on every save. Lines are message ordinals.
 */

/** Whether a unit is a legacy document: its discovered variant, else its name (a unit rebuilt from a row may carry none). */
export function isLegacyChat(unit: Pick<DiscoveredUnit, 'path' | 'variant'>): boolean {
	return unit.variant === undefined ? unit.path.endsWith('.json') : unit.variant === legacyChatVariant;
}

/** A call the scheduler had not finished when the document was last saved. */
const pendingStatuses = new Set(['validating', 'scheduled', 'executing', 'awaiting_approval']);

type Base = Omit<SessionEvent, 'kind'>;

function baseOf(message: QwenLegacyMessage, line: number): Base {
	const timestamp = timestampOf(message.timestamp);
	return {line, ...(timestamp ? {timestamp} : {}), ...(message.id ? {uuid: message.id} : {})};
}

/**
 * A user message. One holding a function response is a tool response turn the client recorded
 * (qwen-code's `isApiUserPrompt` rejects any user entry with a `functionResponse`): its results
 * are its call's `toolCalls` entry, and only text before them is shown, as the host's.
 */
function userEvents(message: QwenLegacyMessage, base: Base): SessionEvent[] {
	const parts = partsOf(message.content);
	const firstResponse = parts.findIndex(part => functionResponseOf(part) !== undefined);
	const asked = firstResponse === -1 ? parts : parts.slice(0, firstResponse);
	// What was typed, without the files an @-reference read; an attached image is noted.
	const text = withMediaNotes(withoutReferencedContent(contentText(asked)), asked);
	if (text.trim() === '') {
		return [];
	}

	return [{...base, kind: 'user', text, human: firstResponse === -1 && !isInjectedText(text) && !isToolInjectedText(text)}];
}

/**
 * A call's result: its `functionResponse` (the model-bound result) with the parts the tool returned
 * after it (a read file's text, a note of a read image), else what the UI showed.
 */
function resultEvent(call: QwenLegacyToolCall, base: Base, callId: string | null): SessionEvent {
	const {responses} = responseTurnOf(partsOf(call.result));
	const response = responses.find(found => found.id !== undefined && found.id === callId) ?? responses[0];
	const output = response && response.output !== '' ? response.output : typeof call.resultDisplay === 'string' ? call.resultDisplay : '';
	const shell = isShellTool(call.name ?? '') ? shellOutcome(output) : undefined;
	const exitCode = shell?.exitCode;
	const cancelled = call.status === 'cancelled';
	const failed = call.status === 'error' || cancelled || response?.failed === true || shell?.failed === true;
	return {...base, kind: 'tool_result', result: {call_id: callId, is_error: failed, ...(exitCode === undefined ? {} : {exit_code: exitCode}), output}, ...(cancelled ? {interrupted: true} : {})};
}

function toolEvents(raw: unknown, base: Base): SessionEvent[] {
	const parsed = qwenLegacyToolCallSchema.safeParse(raw);
	if (!parsed.success) {
		return [];
	}

	const call = parsed.data;
	const callId = call.id ?? null;
	const pending = call.status !== undefined && pendingStatuses.has(call.status);
	const callEvent: SessionEvent = {...base, kind: 'tool_call', tool: {name: call.name ?? 'unknown', call_id: callId, input: parseJsonArguments(call.args)}, ...(pending ? {pending: true} : {})};
	return pending || call.status === undefined ? [callEvent] : [callEvent, resultEvent(call, base, callId)];
}

function assistantEvents(message: QwenLegacyMessage, base: Base): SessionEvent[] {
	const text = contentText(message.content);
	const shared = message.id ? {...base, message_id: message.id} : base;
	const events: SessionEvent[] = text.trim() === '' ? [] : [{...shared, kind: 'assistant', text}];
	return [...events, ...(message.toolCalls ?? []).flatMap(call => toolEvents(call, shared))];
}

/** One message to events; null for a type the document never holds (counted as skipped). */
function messageEvents(message: QwenLegacyMessage, line: number): SessionEvent[] | null {
	const base = baseOf(message, line);
	const text = contentText(message.content).trim();
	switch (message.type) {
		case 'user':
			return userEvents(message, base);
		case 'qwen':
			return assistantEvents(message, base);
		case 'error':
			return [{...base, kind: 'system', text, error: shortError(text || 'error')}];
		case 'info':
		case 'warning':
			return text ? [{...base, kind: 'system', text}] : [];
		default:
			return null;
	}
}

type ChatFacts = {sessionId?: string | undefined; projectHash?: string | undefined; startTime?: string | undefined; lastUpdated?: string | undefined};

/** `tmp/<sha256 of the project root>/chats/session-*.json`: the hash its directory is named by. */
function directoryHash(path: string): string | undefined {
	const name = basename(dirname(dirname(path)));
	return /^[0-9a-f]{64}$/i.test(name) ? name : undefined;
}

/**
 * The document's id and times, and its project: the directory names only a hash of the project
 * root (Qwen Code's `getProjectHash`, as in Gemini CLI's hash directories), so the project is the
 * path the chat mentions that has that hash.
 */
function factsOf(chat: ChatFacts, messages: readonly unknown[], path: string): SessionInfo {
	const started = timestampOf(chat.startTime);
	const modified = timestampOf(chat.lastUpdated);
	const cwd = projectOfChat(messages, chat.projectHash ?? directoryHash(path));
	return {...(chat.sessionId ? {id: chat.sessionId} : {}), ...(cwd === undefined ? {} : {cwd}), ...(started ? {started} : {}), ...(modified ? {modified} : {})};
}

export function loadLegacyQwenChat(unit: DiscoveredUnit): LoadedSession {
	const parsed = qwenLegacyChatSchema.safeParse(readWholeJson(unit.path, 'legacy JSON chat'));
	if (!parsed.success) {
		return {rows: [], skipped: 1, warnings: ['document: skipped, not a Qwen Code chat (no messages list)']};
	}

	const {messages, ...chat} = parsed.data;
	const facts = factsOf(chat, messages, unit.path);
	const rows: SessionRow[] = Object.keys(facts).length === 0 ? [] : [{line: 1, raw: chat, events: [{line: 1, kind: 'meta', session: facts}]}];
	let skipped = 0;
	let modelStated = false;
	messages.forEach((raw, index) => {
		const line = index + 1;
		const message = qwenLegacyMessageSchema.safeParse(raw);
		const events = message.success ? messageEvents(message.data, line) : null;
		if (!message.success || events === null) {
			skipped++;
			return;
		}

		if (!modelStated && message.data.type === 'qwen' && message.data.model) {
			modelStated = true;
			events.unshift({line, kind: 'meta', session: {model: message.data.model}});
		}

		rows.push({line, raw, events});
	});
	return {rows, skipped, warnings: []};
}
