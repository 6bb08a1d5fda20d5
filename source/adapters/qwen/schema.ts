import * as z from 'zod/mini';
import {lazySchema} from '../../engine/util/lazy-schema.js';

/**
 * One Qwen Code `ChatRecord` (formats.md §5, qwen-code `chatRecordingService.ts`). Every field is
 * optional and objects are loose: the record has dozens of subtypes and grows every release.
 * `message` is a Gemini `Content` (`{role, parts}`), read with the Gemini part helpers.
 */
export const qwenMessageSchema = lazySchema(() => z.looseObject({
	role: z.optional(z.string()),
	parts: z.optional(z.nullable(z.array(z.unknown()))),
}));

export const qwenToolCallResultSchema = lazySchema(() => z.looseObject({
	callId: z.optional(z.string()),
	status: z.optional(z.string()),
	resultDisplay: z.optional(z.unknown()),
	error: z.optional(z.unknown()),
	exitCode: z.optional(z.unknown()),
}));

export const qwenRecordSchema = lazySchema(() => z.looseObject({
	type: z.string(),
	subtype: z.optional(z.string()),
	uuid: z.optional(z.string()),
	parentUuid: z.optional(z.nullable(z.string())),
	sessionId: z.optional(z.string()),
	timestamp: z.optional(z.string()),
	cwd: z.optional(z.string()),
	model: z.optional(z.string()),
	// Parsed on their own (qwenMessageSchema, qwenToolCallResultSchema): an odd shape there must
	// not make the rest of the record unreadable.
	message: z.optional(z.unknown()),
	toolCallResult: z.optional(z.unknown()),
	systemPayload: z.optional(z.unknown()),
	provenance: z.optional(z.string()),
	agentId: z.optional(z.string()),
	isSidechain: z.optional(z.boolean()),
	forkedFrom: z.optional(z.unknown()),
}));

export type QwenRecord = z.infer<typeof qwenRecordSchema>;
export type QwenToolCallResult = z.infer<typeof qwenToolCallResultSchema>;
