import * as z from 'zod/mini';
import {lazySchema} from '../../engine/util/lazy-schema.js';

/**
 * One step of an Antigravity `transcript.jsonl` (formats.md §10). Antigravity is closed source
 * and its fields drift between builds, so everything but `type` is optional and loose.
 */
export const antigravityToolCallSchema = lazySchema(() => z.looseObject({
	name: z.optional(z.nullable(z.string())),
	/** Values are JSON-encoded strings (`"DirectoryPath":"\"/tmp/repo\""`). */
	args: z.optional(z.unknown()),
	/** The same as `args` in some builds. */
	arguments: z.optional(z.unknown()),
	/** Some builds give a call an id, but no tool step names the call it answers. */
	id: z.optional(z.nullable(z.string())),
}));

export const antigravityStepSchema = lazySchema(() => z.looseObject({
	step_index: z.optional(z.nullable(z.union([z.number(), z.string()]))),
	/** `USER_EXPLICIT`, `SYSTEM` or `MODEL`. */
	source: z.optional(z.nullable(z.string())),
	type: z.string(),
	/** `DONE` when finished; `CANCELED`, `ERROR` and in-progress states otherwise. */
	status: z.optional(z.nullable(z.string())),
	created_at: z.optional(z.nullable(z.string())),
	content: z.optional(z.nullable(z.string())),
	/** Reasoning: never shown. */
	thinking: z.optional(z.unknown()),
	tool_calls: z.optional(z.nullable(z.array(z.unknown()))),
	truncated_fields: z.optional(z.nullable(z.array(z.unknown()))),
}));

export type AntigravityStep = z.infer<typeof antigravityStepSchema>;
export type AntigravityToolCall = z.infer<typeof antigravityToolCallSchema>;
