import * as z from 'zod/mini';
import {lazySchema} from '../../lib/lazy-schema.js';
import {epochIso} from '../shared/epoch.js';
import {optional} from '../shared/schema.js';

/**
 * The Claude Code records engi reads (formats.md §1). Objects are loose: Claude adds fields
 * every release, and a field we do not know must never make a record unreadable. An explicit
 * `null` (tools that re-serialise transcripts write them) is an absent field; only the tree links
 * keep `null` as a value of its own (a root record).
 */
const contentBlock = lazySchema(() =>
	z.union([
		z.looseObject({type: optional(z.string())}),
		// A bare string among the blocks (written by some SDK clients) is a text block.
		z.pipe(z.string(), z.transform((text): {[key: string]: unknown; type?: string} => ({type: 'text', text}))),
	]),
);

/** A block written without its list: an object with a string `type`, as every block has. */
const loneBlock = lazySchema(() => z.looseObject({type: z.string()}));

export const claudeMessageSchema = lazySchema(() => z.looseObject({
	id: optional(z.string()),
	role: optional(z.string()),
	// A lone block object instead of the list (tools that write transcripts by hand, one block per
	// record): the list of that one block.
	content: optional(z.union([z.string(), z.array(contentBlock), z.pipe(loneBlock, z.transform(block => [block]))])),
	stop_reason: z.optional(z.nullable(z.string())),
	model: optional(z.string()),
}));

export const claudeRecordSchema = lazySchema(() => z.looseObject({
	type: z.string(),
	subtype: optional(z.string()),
	uuid: optional(z.string()),
	parentUuid: z.optional(z.nullable(z.string())),
	logicalParentUuid: z.optional(z.nullable(z.string())),
	isSidechain: optional(z.boolean()),
	isMeta: optional(z.boolean()),
	isCompactSummary: optional(z.boolean()),
	/** A record shown in the transcript but never sent to the model (the compaction summary, and the like). */
	isVisibleInTranscriptOnly: optional(z.boolean()),
	isApiErrorMessage: optional(z.boolean()),
	isAbortedMidStream: optional(z.boolean()),
	sessionId: optional(z.string()),
	agentId: optional(z.string()),
	cwd: optional(z.string()),
	/** An ISO string; a Unix epoch number (ms or s: tools that re-serialise transcripts write one) reads as its ISO time, a number that is no time as absent. */
	timestamp: optional(z.union([z.string(), z.pipe(z.number(), z.transform(value => epochIso(value)))])),
	message: optional(claudeMessageSchema),
	toolUseResult: z.optional(z.unknown()),
	toolDenialKind: optional(z.string()),
	summary: optional(z.string()),
	leafUuid: optional(z.string()),
	content: z.optional(z.unknown()),
	customTitle: optional(z.string()),
	aiTitle: optional(z.string()),
	title: optional(z.string()),
	attachment: z.optional(z.unknown()),
	/** A `system` `api_error` record's failure: `{message, formatted?, status?, connection?: {code, message}}`. */
	error: z.optional(z.unknown()),
	/** 2.x: the tool call whose run wrote this user record (a skill's load and expansion): not a person's. */
	sourceToolUseID: optional(z.string()),
	/** 2.x: where a prompt came from (`{kind: "human"}`, `{kind: "task-notification"}`, `{kind, from, senderTaskId}`). */
	origin: z.optional(z.unknown()),
	/** 2.x: a record /branch or --fork-session copied from the parent: `{sessionId, messageUuid}`. */
	forkedFrom: z.optional(z.unknown()),
	/** 2.1.x: a `continued-in` record's session, where a conversation sent to the background goes on. */
	continuedInSessionId: optional(z.string()),
	/** Line 1 of a session claude-code-tools' `aichat trim` made: `{parent_file, trimmed_at, …}` (normalize.ts, trimmedFrom). */
	trim_metadata: z.optional(z.unknown()),
	/** Line 1 of a session claude-code-tools wrote from another's: `{parent_session_id, continued_at, ported_from?, …}` (normalize.ts, derivedFrom). */
	continue_metadata: z.optional(z.unknown()),
}));

export type ClaudeRecord = z.infer<typeof claudeRecordSchema>;
export type ClaudeMessage = z.infer<typeof claudeMessageSchema>;
