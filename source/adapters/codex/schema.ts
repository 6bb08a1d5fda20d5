import * as z from 'zod/mini';
import {lazySchema} from '../../lib/lazy-schema.js';
import {lenient} from '../shared/schema.js';

/**
 * The Codex rollout records engi reads (formats.md §2). Objects are loose and every field is
 * optional: Codex adds fields and event types every release, and collages of real files show
 * placeholders where numbers or ids used to be. A field of an unexpected type, or `null`, reads
 * as absent (`lenient`) instead of making the whole record unreadable.
 */
const text = lazySchema(() => lenient(z.string()));
const count = lazySchema(() => lenient(z.number()));
const flag = lazySchema(() => lenient(z.boolean()));
const anything = lazySchema(() => z.optional(z.unknown()));

/** Line 1 of a bare-era rollout: `{id, timestamp, instructions, git}` (some builds add cwd/model). */
export const codexBareHeaderSchema = lazySchema(() => z.looseObject({
	id: z.string(),
	timestamp: anything,
	cwd: text,
	model: text,
	instructions: anything,
	git: anything,
}));

/**
 * A TypeScript-era rollout (spring 2025), one JSON document: `{session: {timestamp, id,
 * instructions}, items: [ResponseItem…]}`. `cwd` is no field that CLI wrote, but other readers
 * of these files take it where a document states it.
 */
export const codexRolloutDocumentSchema = lazySchema(() => z.looseObject({
	session: z.catch(z.optional(z.looseObject({id: text, timestamp: anything, cwd: text, model: text})), undefined),
	items: z.array(z.unknown()),
}));

/** `session_meta`: the session's identity. `source` is a string or `{subagent: …}`. */
export const codexSessionMetaSchema = lazySchema(() => z.looseObject({
	id: text,
	session_id: text,
	timestamp: anything,
	cwd: text,
	originator: text,
	cli_version: text,
	source: anything,
	thread_source: text,
	forked_from_id: text,
	/** Where the history this rollout continues lies: `{thread_id, end_ordinal_exclusive, end_byte_offset}` (fork-copy.ts). */
	history_base: anything,
	parent_thread_id: text,
	subagent_history_start_ordinal: count,
	agent_path: text,
	model: text,
}));

/** `turn_context`: written at the start of each turn; where the model name lives. */
export const codexTurnContextSchema = lazySchema(() => z.looseObject({cwd: text, model: text}));

/**
 * `compacted`: the compaction summary and the history that replaced everything before it, as items
 * or (newer builds) as entries, each an item `inline` or a `reference` to an earlier one.
 */
export const codexCompactedSchema = lazySchema(() => z.looseObject({message: text, replacement_history: anything, replacement_history_entries: anything}));

/** A Responses-API item, wrapped as `response_item` or bare in the pre-envelope era. */
export const codexResponseItemSchema = lazySchema(() => z.looseObject({
	type: z.string(),
	timestamp: anything,
	id: text,
	role: text,
	content: anything,
	name: text,
	/** The tool's namespace (`mcp__<server>` for an MCP tool, `functions` for Codex's own; codex-rs tool_name.rs). */
	namespace: text,
	arguments: anything,
	input: anything,
	call_id: text,
	output: anything,
	status: text,
	action: anything,
	author: text,
	recipient: text,
	tools: anything,
	revised_prompt: text,
	message: text,
}));

/** An `event_msg` payload; only the fields of the event types engi reads. */
export const codexEventSchema = lazySchema(() => z.looseObject({
	type: z.string(),
	message: text,
	reason: text,
	error: anything,
	call_id: text,
	exit_code: count,
	status: text,
	success: flag,
	stdout: text,
	stderr: text,
	aggregated_output: text,
	formatted_output: text,
	result: anything,
	thread_name: text,
	name: text,
	/** `user_message`: `plain`, or (older builds) `user_instructions` / `environment_context`. */
	kind: text,
	/** `user_message`: the image URLs a prompt sent, and the paths of local images it sent. */
	images: anything,
	local_images: anything,
	/** `thread_rolled_back`: how many of the last turns were dropped. */
	num_turns: count,
	/** `item_completed`: the finished thread item (thread-items.ts). */
	item: anything,
	/** `thread_goal_updated`: the goal (`{objective, status, …}`) and the turn that changed it, if any (goals.ts). */
	goal: anything,
	turnId: text,
	turn_id: text,
	/** `mcp_tool_call_end`: the call it ends, `{server, tool, arguments}`. */
	invocation: anything,
	/** `exec_command_end`: who ran the command (`agent`, `user_shell`, `unified_exec_startup`, …). */
	source: text,
	/** `dynamic_tool_call_response`: what the client's tool returned (`inputText` / `inputImage` items). */
	content_items: anything,
	/** `error`: its kind, `"thread_rollback_failed"` or `{"active_turn_not_steerable": {…}}` and the like. */
	codex_error_info: anything,
}));

export type CodexSessionMeta = z.infer<typeof codexSessionMetaSchema>;
export type CodexResponseItem = z.infer<typeof codexResponseItemSchema>;
export type CodexEvent = z.infer<typeof codexEventSchema>;
