import type {SessionEvent} from '../events.js';
import {contentText, functionCallOf, functionResponseOf, isShellTool, isToolInjectedText, partsOf, responseTurnOf, shellOutcome, timestampOf, withMediaNotes, withoutReferencedContent, type Part} from '../shared/gemini-parts.js';
import {isInjectedText, isRecord, outputText, shortError} from '../shared/text.js';
import {readQwenMessage} from './records.js';
import {qwenToolCallResultSchema, type QwenRecord, type QwenToolCallResult} from './schema.js';
import {systemEvents} from './system.js';

/** Hook output Qwen Code appends to the model-bound prompt; never part of what a person typed. */
const hookContextTag = '<qwen:user-prompt-submit-context>';

/** User-role subtypes a person typed. Everything else user-shaped comes from the host. */
const typedSubtypes = new Set([undefined, 'mid_turn_user_message', 'realtime_message']);

/**
 * Session multi-agent records (qwen-code packages/core/src/agents/session-agents/contract.ts):
 * `agent_mention`, a message that @-mentions agents, typed by the person unless an agent posted
 * it (its payload then names an `author`), and `agent_message`, an agent's reply to it. Both are
 * user records on the main chain; an agent_message's `agentId` names its author, not a subagent.
 */
const mentionSubtype = 'agent_mention';
const agentMessageSubtype = 'agent_message';

/** A background subagent's record (a sidechain); a session agent's reply names its author in `agentId` too, but is on the main chain. */
export function isSubagentRecord(record: QwenRecord): boolean {
	return record.isSidechain === true || (record.agentId !== undefined && record.subtype !== mentionSubtype && record.subtype !== agentMessageSubtype);
}

/** A mention an agent of the session posted (with session_send): its payload names the agent. */
function byAgentOfSession(record: QwenRecord): boolean {
	const payload = record.systemPayload;
	return record.subtype === mentionSubtype && isRecord(payload) && payload['author'] !== undefined && payload['author'] !== null;
}

/**
 * An agent's reply (agent_message), the answer to the mention that ran it: Qwen Code writes it as
 * a user record only so that the main model reads it, and shows it as that agent's message. A
 * completed run is a reply; a run that did not complete (failed, cancelled, offline) answered
 * nothing, and is a failure or an interruption. The text is its `displayText`, never the
 * envelope the main model reads.
 */
function agentReplyEvents(record: QwenRecord, base: Base): SessionEvent[] {
	const payload = isRecord(record.systemPayload) ? record.systemPayload : {};
	const reply = typeof payload['displayText'] === 'string' ? payload['displayText'] : '';
	const status = typeof payload['status'] === 'string' ? payload['status'] : 'completed';
	if (status === 'completed') {
		return reply.trim() === '' ? [] : [{...base, kind: 'assistant', text: reply, ...(record.uuid ? {message_id: record.uuid} : {})}];
	}

	const author = isRecord(payload['author']) && typeof payload['author']['name'] === 'string' ? `${payload['author']['name']}'s ` : '';
	const reason = typeof payload['error'] === 'string' && payload['error'].trim() !== '' ? `: ${payload['error'].trim()}` : '';
	const outcome = `Agent ${author}run ${status}${reason}`;
	const text = reply.trim() === '' ? outcome : `${reply}\n(${outcome})`;
	return [{...base, kind: 'system', text, ...(status === 'cancelled' ? {interrupted: true} : {error: shortError(outcome)})}];
}

/**
 * Typed by the person: a prompt, or a mention of agents with no agent as its author. External
 * input of kind `notification` is injected even without a subtype (qwen-code's
 * conversation-branches.ts `isSyntheticUserRecord`).
 */
function typedByPerson(record: QwenRecord): boolean {
	if (record.externalInputKind === 'notification') {
		return false;
	}

	return typedSubtypes.has(record.subtype) || (record.subtype === mentionSubtype && !byAgentOfSession(record));
}

export type Base = Omit<SessionEvent, 'kind'>;

/** Fields every event of a record shares: time, tree links, and the subagent marker. */
export function baseOf(record: QwenRecord, line: number): Base {
	const timestamp = timestampOf(record.timestamp);
	return {
		line,
		...(timestamp ? {timestamp} : {}),
		...(record.uuid ? {uuid: record.uuid} : {}),
		...(record.parentUuid !== undefined ? {parent: record.parentUuid} : {}),
		...(isSubagentRecord(record) ? {sidechain: true} : {}),
	};
}

export function partsOfRecord(record: QwenRecord): Part[] {
	return partsOf(readQwenMessage(record.message)?.parts);
}

/**
 * What the person saw themselves type. A prompt payload (one stating its `hookContext`) makes its
 * displayText authoritative even when empty: the prompt was only what it attached, an image sent
 * alone (qwen-code's transcript-records.ts `projectUserTranscriptForDisplay`). Undefined where
 * the record states no such text, and the model-bound parts are read instead.
 */
export function displayTextOf(record: QwenRecord): string | undefined {
	const payload = record.systemPayload;
	if (!isRecord(payload) || typeof payload['displayText'] !== 'string') {
		return undefined;
	}

	const shown = withoutAttachmentTokens(payload['displayText'], payload['attachmentReferences']);
	return shown.trim() !== '' ? shown : typeof payload['hookContext'] === 'string' ? '' : undefined;
}

/**
 * The daemon appends `\n\n@attachment:///<id>` to a prompt's displayText for each attached
 * resource (`attachmentReferences` entries of type `resource`); it was not typed, and qwen-code's
 * readers take it off (transcript-records.ts `stripGeneratedAttachmentTokens`).
 */
function withoutAttachmentTokens(text: string, references: unknown): string {
	const ids = Array.isArray(references) ? references.flatMap(reference => (isRecord(reference) && reference['type'] === 'resource' && typeof reference['attachmentId'] === 'string' ? [reference['attachmentId']] : [])) : [];
	if (ids.length === 0) {
		return text;
	}

	const tokens = ids.map(id => `@attachment:///${encodeURIComponent(id)}`).join('\n');
	if (text === tokens) {
		return '';
	}

	return text.endsWith(`\n\n${tokens}`) ? text.slice(0, -(tokens.length + 2)) : text;
}

function isHookContext(text: string): boolean {
	return text.trimStart().startsWith(hookContextTag);
}

function userEvents(record: QwenRecord, base: Base, parts: Part[]): SessionEvent[] {
	const byPerson = typedByPerson(record) && (record.provenance === undefined || record.provenance === 'real_user') && !base.sidechain;
	const texts = parts.map(part => (part['thought'] === true ? undefined : part['text'])).filter((text): text is string => typeof text === 'string');
	const typed = texts.filter(text => !isHookContext(text)).join('');
	// `displayText` is what the person saw themselves type (before hook context and expansions);
	// without it, the files an @-reference read are taken off. An image the prompt sent (pasted,
	// or read for an @-reference) is noted after it.
	const shown = displayTextOf(record) ?? withoutReferencedContent(typed.trim() !== '' ? typed : texts.join(''));
	const text = withMediaNotes(shown, parts);
	if (text.trim() === '') {
		return [];
	}

	const human = byPerson && !isHookContext(text) && !isInjectedText(text) && !isToolInjectedText(text);
	// In a subagent's transcript the "user" is the parent agent: its task, or a message sent on.
	const byAgent = !human && (base.sidechain === true || byAgentOfSession(record));
	return [{...base, kind: 'user', text, human, ...(byAgent ? {origin: 'agent' as const} : {})}];
}

function assistantEvents(record: QwenRecord, base: Base, parts: Part[]): SessionEvent[] {
	const shared = record.uuid ? {...base, message_id: record.uuid} : base;
	const text = contentText(parts);
	const events: SessionEvent[] = text.trim() === '' ? [] : [{...shared, kind: 'assistant', text}];
	for (const part of parts) {
		const call = functionCallOf(part);
		if (call) {
			events.push({...shared, kind: 'tool_call', tool: {name: call.name, call_id: call.id ?? null, input: call.input}});
		}
	}

	return events;
}

function structuredExitCode(result: QwenToolCallResult | undefined): number | undefined {
	const display = result?.resultDisplay;
	const candidate = typeof result?.exitCode === 'number' ? result.exitCode : isRecord(display) ? display['exitCode'] : undefined;
	return typeof candidate === 'number' ? candidate : undefined;
}

function errorTextOf(result: QwenToolCallResult | undefined): string {
	const error = result?.error;
	return isRecord(error) && typeof error['message'] === 'string' ? error['message'] : error === undefined || error === null ? '' : outputText(error);
}

/**
 * Tool results: one per `functionResponse` part, paired by its id (or the record's `callId`).
 * `toolCallResult.status` `error`/`cancelled` or a response `error` mark a failure; a
 * cancellation is also an interruption. Shell output states the exit code as text.
 */
function toolResultEvents(record: QwenRecord, base: Base, parts: Part[]): SessionEvent[] {
	const parsed = qwenToolCallResultSchema.safeParse(record.toolCallResult);
	const result = parsed.success ? parsed.data : undefined;
	const responses = responseTurnOf(parts).responses;
	if (responses.length === 0 && result) {
		const display = result.resultDisplay;
		responses.push({id: result.callId, name: undefined, output: typeof display === 'string' ? display : errorTextOf(result), failed: false});
	}

	const status = result?.status ?? '';
	const cancelled = status === 'cancelled';
	return responses.map(response => {
		const output = response.output !== '' ? response.output : errorTextOf(result);
		const stated = structuredExitCode(result);
		const shell = isShellTool(response.name ?? '') ? shellOutcome(output, stated) : undefined;
		const exitCode = shell ? shell.exitCode : stated;
		return {
			...base,
			kind: 'tool_result',
			result: {
				call_id: response.id ?? result?.callId ?? null,
				is_error: status === 'error' || cancelled || response.failed || (shell ? shell.failed : exitCode !== undefined && exitCode !== 0),
				...(exitCode === undefined ? {} : {exit_code: exitCode}),
				output,
			},
			...(cancelled ? {interrupted: true} : {}),
		};
	});
}

/**
 * A user record holding a function response is a tool response turn (qwen-code's
 * `isApiUserPrompt` rejects any user entry with a `functionResponse`): its results, and any
 * text before them as the host's, never a person's request.
 */
function responseTurnEvents(record: QwenRecord, base: Base, parts: Part[]): SessionEvent[] {
	const {leading} = responseTurnOf(parts);
	const shown: SessionEvent[] = leading.trim() === '' ? [] : [{...base, kind: 'user', text: leading, human: false}];
	return [...shown, ...toolResultEvents(record, base, parts)];
}

/**
 * One Qwen Code record to events; null for a record type this adapter does not know. Any
 * record may carry function calls or responses in its parts, so those are read by part, not
 * by record type.
 */
export function normalizeQwenRecord(record: QwenRecord, line: number): SessionEvent[] | null {
	const base = baseOf(record, line);
	const parts = partsOfRecord(record);
	switch (record.type) {
		case 'user':
			if (record.subtype === agentMessageSubtype) {
				return agentReplyEvents(record, base);
			}

			return parts.some(part => functionResponseOf(part) !== undefined) ? responseTurnEvents(record, base, parts) : [...userEvents(record, base, parts), ...toolResultEvents(record, base, [])];
		case 'assistant':
			return assistantEvents(record, base, parts);
		case 'tool_result':
			return toolResultEvents(record, base, parts);
		case 'system':
			return systemEvents(record, base);
		default:
			return null;
	}
}
