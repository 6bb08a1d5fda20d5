import * as z from 'zod/mini';
import {lazySchema} from '../../lib/lazy-schema.js';
import {optional} from '../shared/schema.js';

/**
 * One Qwen Code `ChatRecord` (formats.md §5, qwen-code `chatRecordingService.ts`). Every field is
 * optional (an explicit `null` is absent, except a root's `parentUuid`) and objects are loose: the
 * record has dozens of subtypes and grows every release.
 * `message` is a Gemini `Content` (`{role, parts}`), read with the Gemini part helpers.
 */
export const qwenMessageSchema = lazySchema(() => z.looseObject({
	role: optional(z.string()),
	parts: optional(z.array(z.unknown())),
}));

export const qwenToolCallResultSchema = lazySchema(() => z.looseObject({
	callId: optional(z.string()),
	status: optional(z.string()),
	resultDisplay: z.optional(z.unknown()),
	error: z.optional(z.unknown()),
	exitCode: z.optional(z.unknown()),
}));

export const qwenRecordSchema = lazySchema(() => z.looseObject({
	type: z.string(),
	subtype: optional(z.string()),
	uuid: optional(z.string()),
	parentUuid: z.optional(z.nullable(z.string())),
	sessionId: optional(z.string()),
	timestamp: optional(z.string()),
	cwd: optional(z.string()),
	model: optional(z.string()),
	// Parsed on their own (qwenMessageSchema, qwenToolCallResultSchema): an odd shape there must
	// not make the rest of the record unreadable.
	message: z.optional(z.unknown()),
	toolCallResult: z.optional(z.unknown()),
	systemPayload: z.optional(z.unknown()),
	provenance: optional(z.string()),
	externalInputKind: optional(z.string()),
	agentId: optional(z.string()),
	isSidechain: optional(z.boolean()),
	forkedFrom: z.optional(z.unknown()),
}));

export type QwenRecord = z.infer<typeof qwenRecordSchema>;
export type QwenToolCallResult = z.infer<typeof qwenToolCallResultSchema>;

/**
 * The chat document of releases before the JSONL store (`~/.qwen/tmp/<sha256 of cwd>/chats/
 * session-*.json`, which Qwen Code's VS Code companion still reads): gemini-cli's
 * `ConversationRecord` as Qwen Code forked it, its assistant messages typed `qwen`.
 */
export const qwenLegacyMessageSchema = lazySchema(() => z.looseObject({
	id: optional(z.string()),
	type: optional(z.string()),
	timestamp: optional(z.string()),
	content: z.optional(z.unknown()),
	toolCalls: optional(z.array(z.unknown())),
	model: optional(z.string()),
}));

export const qwenLegacyToolCallSchema = lazySchema(() => z.looseObject({
	id: optional(z.string()),
	name: optional(z.string()),
	args: z.optional(z.unknown()),
	result: z.optional(z.unknown()),
	resultDisplay: z.optional(z.unknown()),
	status: optional(z.string()),
	timestamp: optional(z.string()),
}));

export const qwenLegacyChatSchema = lazySchema(() => z.looseObject({
	sessionId: optional(z.string()),
	projectHash: optional(z.string()),
	startTime: optional(z.string()),
	lastUpdated: optional(z.string()),
	messages: z.array(z.unknown()),
}));

export type QwenLegacyMessage = z.infer<typeof qwenLegacyMessageSchema>;
export type QwenLegacyToolCall = z.infer<typeof qwenLegacyToolCallSchema>;
