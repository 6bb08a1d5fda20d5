import * as z from 'zod/mini';
import {lazySchema} from '../../lib/lazy-schema.js';
import {lenient, optional} from '../shared/schema.js';

/**
 * The Grok Build records engi reads (formats.md §6). Objects are loose and fields optional:
 * the CLI adds fields every release, and a field we do not know must never make a record
 * unreadable.
 */

/** A field that reads as absent when a writer stored `null` or an unexpected shape, never failing the record. */
const tolerantString = lazySchema(() => lenient(z.string()));
const tolerantNumber = lazySchema(() => lenient(z.number()));

/** `summary.json` in a session directory: the session's own facts. */
export const grokSummarySchema = lazySchema(() => z.looseObject({
	info: lenient(z.looseObject({id: tolerantString, cwd: tolerantString})),
	session_summary: tolerantString,
	generated_title: tolerantString,
	created_at: tolerantString,
	updated_at: tolerantString,
	last_active_at: tolerantString,
	current_model_id: tolerantString,
	parent_session_id: tolerantString,
	/** `subagent` for a session a parent agent spawned. */
	session_kind: tolerantString,
}));

export type GrokSummary = z.infer<typeof grokSummarySchema>;

/** v1 `ConversationItem` tool call: arguments is a JSON string. */
const chatToolCall = lazySchema(() => z.looseObject({id: tolerantString, name: tolerantString, arguments: z.optional(z.unknown())}));

/** `chat_history.jsonl` v1: one `ConversationItem`, tagged by `type`. */
export const grokChatItemSchema = lazySchema(() => z.looseObject({
	type: z.string(),
	content: z.optional(z.unknown()),
	synthetic_reason: tolerantString,
	prior_turn_interrupt: tolerantString,
	prompt_index: tolerantNumber,
	tool_calls: lenient(z.array(chatToolCall)),
	tool_call_id: tolerantString,
	/** `tool_result`: the images the tool returned, `{type: "image", url}` parts. */
	images: z.optional(z.unknown()),
	model_id: tolerantString,
	kind: z.optional(z.unknown()),
	/** Older builds: the assistant turn's Responses-API output items, server-run calls among them. */
	raw_output: z.optional(z.unknown()),
}));

export type GrokChatItem = z.infer<typeof grokChatItemSchema>;

/** `chat_history.jsonl` v0 (legacy): role-based OpenAI chat messages. */
export const grokLegacyMessageSchema = lazySchema(() => z.looseObject({
	role: z.string(),
	content: z.optional(z.unknown()),
	tool_calls: lenient(
		z.array(
			z.looseObject({
				id: tolerantString,
				function: lenient(z.looseObject({name: tolerantString, arguments: z.optional(z.unknown())})),
			}),
		),
	),
	tool_call_id: tolerantString,
}));

export type GrokLegacyMessage = z.infer<typeof grokLegacyMessageSchema>;

/**
 * `updates.jsonl`: `{timestamp (unix seconds), method, params:{sessionId, update, _meta?{agentTimestampMs, eventId, …}}}`.
 * Very old writers stored the bare notification `{sessionId, update}` with no envelope.
 */
export const grokUpdateSchema = lazySchema(() => z.looseObject({
	sessionUpdate: z.string(),
	content: z.optional(z.unknown()),
	toolCallId: tolerantString,
	title: tolerantString,
	kind: tolerantString,
	status: tolerantString,
	rawInput: z.optional(z.unknown()),
	rawOutput: z.optional(z.unknown()),
	messageId: tolerantString,
	_meta: lenient(z.record(z.string(), z.unknown())),
}));

export type GrokUpdate = z.infer<typeof grokUpdateSchema>;

export const grokNotificationSchema = lazySchema(() => z.looseObject({
	sessionId: tolerantString,
	update: grokUpdateSchema,
	/** The agent's own stamp of the update: `agentTimestampMs` (milliseconds), `eventId`, `promptId`. */
	_meta: lenient(z.record(z.string(), z.unknown())),
}));

export const grokEnvelopeSchema = lazySchema(() => z.looseObject({
	timestamp: lenient(z.union([z.number(), z.string()])),
	method: optional(z.string()),
	params: z.optional(z.unknown()),
}));
