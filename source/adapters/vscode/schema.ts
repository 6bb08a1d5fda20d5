import * as z from 'zod/mini';
import {lazySchema} from '../../lib/lazy-schema.js';
import {lenient, optional} from '../shared/schema.js';

/**
 * The VS Code chat records engi reads (formats.md §9). Objects are loose and almost every field
 * optional (an explicit `null` is absent): public samples omit the whole header, and VS Code
 * reshapes parts between releases.
 * Fields whose shape varies by version (message, parts, tool data) stay `unknown` and are read
 * with small guards instead.
 */
export const vscodeSessionSchema = lazySchema(() => z.looseObject({
	version: optional(z.number()),
	sessionId: optional(z.string()),
	creationDate: optional(z.number()),
	lastMessageDate: optional(z.number()),
	customTitle: optional(z.string()),
	/** The title of version 2 sessions, which VS Code reads as `customTitle` since version 3. */
	computedTitle: lenient(z.string()),
	requests: optional(z.array(z.unknown())),
	/** Requests the person queued while a turn ran, not sent yet: `{id, request, kind, sendOptions}` (the mutation log only). */
	pendingRequests: lenient(z.array(z.unknown())),
	/** The session's folder as a URI string, set by the sessions (agents) window, which has no workspace. */
	workingDirectory: lenient(z.string()),
}));

/** `code` is `"canceled"` when the request was stopped rather than failed (ChatResponseModel.state). Built with the request schema, not at import. */
const errorDetailsSchema = () => z.looseObject({message: optional(z.string()), code: lenient(z.string())});

export const vscodeRequestSchema = lazySchema(() => z.looseObject({
	requestId: optional(z.string()),
	responseId: optional(z.string()),
	/** A string before v2; `{text, parts[]}` since. */
	message: z.optional(z.unknown()),
	/** `{variables: IChatRequestVariableEntry[]}`: what was attached (files, symbols, images); read for its images. */
	variableData: z.optional(z.unknown()),
	/** Response parts; early builds stored the reply as one string, or strings among the parts. */
	response: z.optional(z.unknown()),
	result: optional(
		z.looseObject({
			errorDetails: optional(errorDetailsSchema()),
			metadata: z.optional(z.unknown()),
		}),
	),
	/** Where the oldest sessions kept `result.errorDetails` (ChatModel ports it on load). */
	responseErrorDetails: lenient(errorDetailsSchema()),
	/** Set by a restored checkpoint: `{requestId, afterUndoStop?}`. */
	shouldBeRemovedOnSend: z.optional(z.unknown()),
	/** Deprecated in favour of `modelState`, still written by older builds. */
	isCanceled: optional(z.boolean()),
	/** `value`: 0 pending, 1 complete, 2 cancelled, 3 failed, 4 needs input (ResponseModelState). */
	modelState: optional(z.looseObject({value: optional(z.number()), completedAt: optional(z.number())})),
	timestamp: optional(z.number()),
	modelId: optional(z.string()),
	/** A request VS Code sent itself (a background terminal finished, …), not one a person typed. */
	isSystemInitiated: lenient(z.boolean()),
	/** The whole turn, or only its request, is hidden from the transcript: a prompt VS Code sent (a pull request session's bootstrap prompt, …). */
	hiddenFromTranscript: lenient(z.boolean()),
	requestHiddenFromTranscript: lenient(z.boolean()),
	/** The feature that sent the request on the person's behalf (`"agentMerge"`). */
	requestSource: lenient(z.string()),
	/** The confirmation button whose click sent the request (`"Accept"`); its text VS Code made as `<button>: "<title>"`. */
	confirmation: lenient(z.string()),
}));

export const toolInvocationSchema = lazySchema(() => z.looseObject({
	kind: z.literal('toolInvocationSerialized'),
	toolId: optional(z.string()),
	toolCallId: optional(z.string()),
	invocationMessage: z.optional(z.unknown()),
	pastTenseMessage: z.optional(z.unknown()),
	/** A boolean before 1.104; since then a ConfirmedReason `{type}` (0 denied … 5 skipped). */
	isConfirmed: z.optional(z.unknown()),
	isComplete: optional(z.boolean()),
	/** `"hidden"` for a call a preToolUse hook denied (ChatToolInvocation.createCancelled), among others. */
	presentation: lenient(z.string()),
	resultDetails: z.optional(z.unknown()),
	/** The tool's error (IToolResult `toolResultError`: the message it threw, or `true`); saved since 2026 builds. */
	resultError: z.optional(z.unknown()),
	toolSpecificData: z.optional(z.unknown()),
	/** Tool calls a subagent made, inlined into the parent's response. */
	fromSubAgent: optional(z.boolean()),
	subAgentInvocationId: optional(z.string()),
}));

/** One line of the `.jsonl` mutation log (objectMutationLog.ts): 0 initial, 1 set, 2 push, 3 delete. */
export const mutationSchema = lazySchema(() => z.looseObject({
	kind: z.number(),
	k: optional(z.array(z.union([z.string(), z.number()]))),
	v: z.optional(z.unknown()),
	i: optional(z.number()),
}));

export type VscodeSession = z.infer<typeof vscodeSessionSchema>;
export type VscodeRequest = z.infer<typeof vscodeRequestSchema>;
export type ToolInvocation = z.infer<typeof toolInvocationSchema>;
export type Mutation = z.infer<typeof mutationSchema>;
