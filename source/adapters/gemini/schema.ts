import * as z from 'zod/mini';
import {lazySchema} from '../../lib/lazy-schema.js';
import {optional} from '../shared/schema.js';

/**
 * The Gemini CLI records engi reads (formats.md §4, gemini-cli `chatRecordingTypes.ts`).
 * Objects are loose and every field is optional (an explicit `null` is absent) or unknown-typed:
 * content is a PartListUnion (a string, a part, or a list of parts) and new fields arrive with
 * every release.
 */

/** One `MessageRecord`: `user`, `gemini`, `info`, `error` or `warning` (others are drift). */
export const geminiMessageSchema = lazySchema(() => z.looseObject({
	id: z.string(),
	type: optional(z.string()),
	timestamp: optional(z.string()),
	content: z.optional(z.unknown()),
	displayContent: z.optional(z.unknown()),
	// Parsed one by one (geminiToolCallSchema) so one odd tool call cannot hide the message.
	toolCalls: optional(z.array(z.unknown())),
	model: optional(z.string()),
}));

export type GeminiMessage = z.infer<typeof geminiMessageSchema>;

/** `ToolCallRecord` inside a `gemini` message. `status` is a `CoreToolCallStatus`. */
export const geminiToolCallSchema = lazySchema(() => z.looseObject({
	id: optional(z.string()),
	name: optional(z.string()),
	args: z.optional(z.unknown()),
	result: optional(z.unknown()),
	status: optional(z.string()),
	timestamp: optional(z.string()),
	resultDisplay: z.optional(z.unknown()),
}));

export type GeminiToolCall = z.infer<typeof geminiToolCallSchema>;

/** Session metadata: the first JSONL line, a `$set` patch, or the legacy document's header. */
export const geminiMetadataSchema = lazySchema(() => z.looseObject({
	sessionId: optional(z.string()),
	projectHash: optional(z.string()),
	startTime: optional(z.string()),
	lastUpdated: optional(z.string()),
	summary: optional(z.string()),
	directories: optional(z.array(z.unknown())),
	kind: optional(z.string()),
	messages: optional(z.array(z.unknown())),
}));

export type GeminiMetadata = z.infer<typeof geminiMetadataSchema>;

/** `{"$set": {...}}`: merges metadata; with `messages` it replaces the whole message list. */
export const geminiSetSchema = lazySchema(() => z.looseObject({$set: geminiMetadataSchema}));

/** The legacy (JSON era) `ConversationRecord`: the metadata plus the full `messages` list. */
export const geminiConversationSchema = lazySchema(() => z.looseObject({
	...geminiMetadataSchema.shape,
	messages: z.array(z.unknown()),
}));
