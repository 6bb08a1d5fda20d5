import * as z from 'zod/mini';
import {lazySchema} from '../../lib/lazy-schema.js';
import {lenient} from '../shared/schema.js';

/**
 * The Copilot CLI session events engi reads (formats.md §7; github/copilot-sdk
 * `session-events.ts`). Every line is `{type, data, id, timestamp, parentId, agentId?,
 * ephemeral?}`. Objects are loose and fields optional; a field of an unexpected type, or `null`,
 * reads as absent (`lenient`) rather than making the event unreadable.
 */
const text = lazySchema(() => lenient(z.string()));
const flag = lazySchema(() => lenient(z.boolean()));
const anything = lazySchema(() => z.optional(z.unknown()));

export const copilotEnvelopeSchema = lazySchema(() => z.looseObject({
	type: z.string(),
	data: lenient(z.looseObject({})),
	id: text,
	timestamp: anything,
	parentId: text,
	agentId: text,
	ephemeral: flag,
}));

const contextSchema = lazySchema(() => lenient(z.looseObject({cwd: text, gitRoot: text})));

/** `session.start` / `session.resume`. */
export const copilotStartSchema = lazySchema(() => z.looseObject({
	sessionId: text,
	startTime: anything,
	resumeTime: anything,
	selectedModel: text,
	context: contextSchema,
	/** The session whose context this one continues (a headless run its shutdown launched): its parent. */
	detachedFromSpawningParentSessionId: text,
}));

export const copilotUserMessageSchema = lazySchema(() => z.looseObject({
	content: text,
	source: text,
	isAutopilotContinuation: flag,
	parentToolCallId: text,
	/** `{integrity, origin: "authenticated-cross-session", version}`: input relayed from another session. */
	crossSession: anything,
	/** The text as the model received it: the typed text inside the runtime's envelopes (`<current_datetime>`, `<cross_session_message>`). */
	transformedContent: text,
	/** Files, selections, GitHub references and blobs sent with the message (attachments.ts). */
	attachments: anything,
}));

const toolRequestSchema = lazySchema(() => z.looseObject({toolCallId: text, name: text, arguments: anything, type: text}));

export const copilotAssistantMessageSchema = lazySchema(() => z.looseObject({
	messageId: text,
	/** The model call's response id, shared by the chunks one response was split into (`chunkIndex`/`chunkCount`). */
	apiCallId: text,
	/** The model that produced this message, where the runtime knew it. */
	model: text,
	content: text,
	toolRequests: lenient(z.array(toolRequestSchema)),
	parentToolCallId: text,
}));

/** `tool.execution_start` and `tool.execution_complete`. */
export const copilotToolSchema = lazySchema(() => z.looseObject({
	toolCallId: text,
	toolName: text,
	arguments: anything,
	success: flag,
	result: anything,
	error: anything,
	/** `tool.execution_complete` of a shell call (newer builds): `{exitCode}`. */
	shellExecution: anything,
	parentToolCallId: text,
}));

/** The remaining session-level payloads engi reads, field by field. */
export const copilotSessionDataSchema = lazySchema(() => z.looseObject({
	message: text,
	infoType: text,
	errorType: text,
	reason: text,
	newModel: text,
	/** `session.auto_mode_resolved`: the model an auto-mode session settled on. */
	chosenModel: text,
	title: text,
	success: flag,
	error: anything,
	summaryContent: text,
	/** `session.handoff`: the work done in the session this one was handed off from. */
	summary: text,
	shutdownType: text,
	errorReason: text,
	content: text,
	agentName: text,
	agentDisplayName: text,
	toolCallId: text,
	/** `subagent.completed`: the subagent was torn down by cancellation rather than finishing. */
	cancelled: flag,
	tokensRemovedDuringTruncation: lenient(z.number()),
	messagesRemovedDuringTruncation: lenient(z.number()),
}));

export type CopilotEnvelope = z.infer<typeof copilotEnvelopeSchema>;
export type CopilotSessionData = z.infer<typeof copilotSessionDataSchema>;
export type CopilotTool = z.infer<typeof copilotToolSchema>;
