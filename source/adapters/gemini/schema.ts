import * as z from 'zod/mini';
import {lazySchema} from '../../engine/util/lazy-schema.js';

/**
 * The Gemini CLI records engi reads (formats.md §4, gemini-cli `chatRecordingTypes.ts`).
 * Objects are loose and every field is optional or unknown-typed: content is a PartListUnion
 * (a string, a part, or a list of parts) and new fields arrive with every release.
 */

/** One `MessageRecord`: `user`, `gemini`, `info`, `error` or `warning` (others are drift). */
export const geminiMessageSchema = lazySchema(() => z.looseObject({
	id: z.string(),
	type: z.optional(z.string()),
	timestamp: z.optional(z.string()),
	content: z.optional(z.unknown()),
	displayContent: z.optional(z.unknown()),
	// Parsed one by one (geminiToolCallSchema) so one odd tool call cannot hide the message.
	toolCalls: z.optional(z.nullable(z.array(z.unknown()))),
	model: z.optional(z.string()),
}));

export type GeminiMessage = z.infer<typeof geminiMessageSchema>;

/** `ToolCallRecord` inside a `gemini` message. `status` is a `CoreToolCallStatus`. */
export const geminiToolCallSchema = lazySchema(() => z.looseObject({
	id: z.optional(z.string()),
	name: z.optional(z.string()),
	args: z.optional(z.unknown()),
	result: z.optional(z.nullable(z.unknown())),
	status: z.optional(z.string()),
	timestamp: z.optional(z.string()),
	resultDisplay: z.optional(z.unknown()),
}));

export type GeminiToolCall = z.infer<typeof geminiToolCallSchema>;

/** Session metadata: the first JSONL line, a `$set` patch, or the legacy document's header. */
export const geminiMetadataSchema = lazySchema(() => z.looseObject({
	sessionId: z.optional(z.string()),
	projectHash: z.optional(z.string()),
	startTime: z.optional(z.string()),
	lastUpdated: z.optional(z.string()),
	summary: z.optional(z.string()),
	directories: z.optional(z.array(z.unknown())),
	kind: z.optional(z.string()),
	messages: z.optional(z.array(z.unknown())),
}));

export type GeminiMetadata = z.infer<typeof geminiMetadataSchema>;

/** `{"$set": {...}}`: merges metadata; with `messages` it replaces the whole message list. */
export const geminiSetSchema = lazySchema(() => z.looseObject({$set: geminiMetadataSchema}));

/** `{"$rewindTo": "<messageId>"}`: deletes that message and everything after it. */
export const geminiRewindSchema = lazySchema(() => z.looseObject({$rewindTo: z.string()}));

/** The legacy (JSON era) `ConversationRecord`: the metadata plus the full `messages` list. */
export const geminiConversationSchema = lazySchema(() => z.looseObject({
	...geminiMetadataSchema.shape,
	messages: z.array(z.unknown()),
}));
