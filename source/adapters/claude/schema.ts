import * as z from 'zod/mini';
import {lazySchema} from '../../engine/util/lazy-schema.js';

/**
 * The Claude Code records engi reads (formats.md §1). Objects are loose: Claude adds fields
 * every release, and a field we do not know must never make a record unreadable.
 */
const contentBlock = lazySchema(() => z.looseObject({type: z.optional(z.string())}));

export const claudeMessageSchema = lazySchema(() => z.looseObject({
	id: z.optional(z.string()),
	role: z.optional(z.string()),
	content: z.optional(z.union([z.string(), z.array(contentBlock)])),
	stop_reason: z.optional(z.nullable(z.string())),
	model: z.optional(z.string()),
}));

export const claudeRecordSchema = lazySchema(() => z.looseObject({
	type: z.string(),
	subtype: z.optional(z.string()),
	uuid: z.optional(z.string()),
	parentUuid: z.optional(z.nullable(z.string())),
	logicalParentUuid: z.optional(z.nullable(z.string())),
	isSidechain: z.optional(z.boolean()),
	isMeta: z.optional(z.boolean()),
	isCompactSummary: z.optional(z.boolean()),
	isApiErrorMessage: z.optional(z.boolean()),
	sessionId: z.optional(z.string()),
	agentId: z.optional(z.string()),
	cwd: z.optional(z.string()),
	timestamp: z.optional(z.string()),
	message: z.optional(claudeMessageSchema),
	toolUseResult: z.optional(z.unknown()),
	toolDenialKind: z.optional(z.string()),
	summary: z.optional(z.string()),
	leafUuid: z.optional(z.string()),
	content: z.optional(z.unknown()),
	customTitle: z.optional(z.string()),
	aiTitle: z.optional(z.string()),
	title: z.optional(z.string()),
	attachment: z.optional(z.unknown()),
}));

export type ClaudeRecord = z.infer<typeof claudeRecordSchema>;
export type ClaudeMessage = z.infer<typeof claudeMessageSchema>;
