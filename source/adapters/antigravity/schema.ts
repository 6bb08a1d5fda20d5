import * as z from 'zod/mini';
import {lazySchema} from '../../lib/lazy-schema.js';
import {optional} from '../shared/schema.js';

/**
 * One step of an Antigravity `transcript.jsonl` (formats.md §10). Antigravity is closed source
 * and its fields drift between builds, so everything but `type` is optional (an explicit `null`
 * is absent) and loose.
 */
export const antigravityToolCallSchema = lazySchema(() => z.looseObject({
	name: optional(z.string()),
	/** Values are JSON-encoded strings (`"DirectoryPath":"\"/tmp/repo\""`). */
	args: z.optional(z.unknown()),
	/** The same as `args` in some builds. */
	arguments: z.optional(z.unknown()),
	/** Some builds give a call an id, but no tool step names the call it answers. */
	id: optional(z.string()),
	/**
	 * The IDE's chat-completions shape, `{name, arguments}` with `arguments` as JSON text, in
	 * place of the top-level fields. Read by hand (any JSON type may be here).
	 */
	function: z.optional(z.unknown()),
}));

export const antigravityStepSchema = lazySchema(() => z.looseObject({
	step_index: optional(z.union([z.number(), z.string()])),
	/** `USER_EXPLICIT`, `SYSTEM` or `MODEL`. */
	source: optional(z.string()),
	type: z.string(),
	/** `DONE` when finished; `CANCELED`, `ERROR` and in-progress states otherwise. */
	status: optional(z.string()),
	created_at: optional(z.string()),
	content: optional(z.string()),
	/** Reasoning: never shown. */
	thinking: z.optional(z.unknown()),
	tool_calls: optional(z.array(z.unknown())),
	truncated_fields: optional(z.array(z.unknown())),
}));

export type AntigravityStep = z.infer<typeof antigravityStepSchema>;
export type AntigravityToolCall = z.infer<typeof antigravityToolCallSchema>;
