import * as z from 'zod/mini';
import {lazySchema} from '../../engine/util/lazy-schema.js';

/**
 * The VS Code chat records engi reads (formats.md §9). Objects are loose and almost every field
 * optional: public samples omit the whole header, and VS Code reshapes parts between releases.
 * Fields whose shape varies by version (message, parts, tool data) stay `unknown` and are read
 * with small guards instead.
 */
export const vscodeSessionSchema = lazySchema(() => z.looseObject({
	version: z.optional(z.nullable(z.number())),
	sessionId: z.optional(z.nullable(z.string())),
	creationDate: z.optional(z.nullable(z.number())),
	lastMessageDate: z.optional(z.nullable(z.number())),
	customTitle: z.optional(z.nullable(z.string())),
	requests: z.optional(z.nullable(z.array(z.unknown()))),
}));

export const vscodeRequestSchema = lazySchema(() => z.looseObject({
	requestId: z.optional(z.nullable(z.string())),
	responseId: z.optional(z.nullable(z.string())),
	/** A string before v2; `{text, parts[]}` since. */
	message: z.optional(z.unknown()),
	response: z.optional(z.nullable(z.array(z.unknown()))),
	result: z.optional(
		z.nullable(
			z.looseObject({
				errorDetails: z.optional(z.nullable(z.looseObject({message: z.optional(z.nullable(z.string()))}))),
				metadata: z.optional(z.unknown()),
			}),
		),
	),
	/** Deprecated in favour of `modelState`, still written by older builds. */
	isCanceled: z.optional(z.nullable(z.boolean())),
	/** `value`: 0 pending, 1 complete, 2 cancelled, 3 failed, 4 needs input (ResponseModelState). */
	modelState: z.optional(z.nullable(z.looseObject({value: z.optional(z.number()), completedAt: z.optional(z.nullable(z.number()))}))),
	timestamp: z.optional(z.nullable(z.number())),
	modelId: z.optional(z.nullable(z.string())),
}));

export const toolInvocationSchema = lazySchema(() => z.looseObject({
	kind: z.literal('toolInvocationSerialized'),
	toolId: z.optional(z.nullable(z.string())),
	toolCallId: z.optional(z.nullable(z.string())),
	invocationMessage: z.optional(z.unknown()),
	pastTenseMessage: z.optional(z.unknown()),
	/** A boolean before 1.104; since then a ConfirmedReason `{type}` (0 denied … 5 skipped). */
	isConfirmed: z.optional(z.unknown()),
	isComplete: z.optional(z.nullable(z.boolean())),
	resultDetails: z.optional(z.unknown()),
	toolSpecificData: z.optional(z.unknown()),
	/** Tool calls a subagent made, inlined into the parent's response. */
	fromSubAgent: z.optional(z.nullable(z.boolean())),
	subAgentInvocationId: z.optional(z.nullable(z.string())),
}));

/** One line of the `.jsonl` mutation log (objectMutationLog.ts): 0 initial, 1 set, 2 push, 3 delete. */
export const mutationSchema = lazySchema(() => z.looseObject({
	kind: z.number(),
	k: z.optional(z.array(z.union([z.string(), z.number()]))),
	v: z.optional(z.unknown()),
	i: z.optional(z.nullable(z.number())),
}));

export type VscodeSession = z.infer<typeof vscodeSessionSchema>;
export type VscodeRequest = z.infer<typeof vscodeRequestSchema>;
export type ToolInvocation = z.infer<typeof toolInvocationSchema>;
export type Mutation = z.infer<typeof mutationSchema>;
