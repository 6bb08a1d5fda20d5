import {any, fields, flag, looseRecord, number, text} from '../shared/loose.js';
import type {CodexEvent, CodexResponseItem} from './schema.js';

/**
 * codexResponseItemSchema, codexEventSchema and codexTurnContextSchema (schema.ts) read by hand
 * (shared/loose.ts): nearly every line of a rollout is one of them. test/adapters/loose-records.test.ts
 * checks these against the schemas.
 */

const responseItemFields = fields({
	type: any, // Required: checked before.
	timestamp: any,
	id: text,
	role: text,
	content: any,
	name: text,
	namespace: text,
	arguments: any,
	input: any,
	call_id: text,
	output: any,
	status: text,
	action: any,
	author: text,
	recipient: text,
	tools: any,
	revised_prompt: text,
	message: text,
});

const eventFields = fields({
	type: any, // Required: checked before.
	message: text,
	reason: text,
	error: any,
	call_id: text,
	exit_code: number,
	status: text,
	success: flag,
	stdout: text,
	stderr: text,
	aggregated_output: text,
	formatted_output: text,
	result: any,
	thread_name: text,
	name: text,
	kind: text,
	images: any,
	local_images: any,
	num_turns: number,
	item: any,
	goal: any,
	turnId: text,
	turn_id: text,
	invocation: any,
	source: text,
	content_items: any,
	codex_error_info: any,
});

const turnContextFields = fields({cwd: text, model: text});

/** What `codexResponseItemSchema.safeParse(value)` gives on success, undefined where it fails. */
export function readCodexResponseItem(value: unknown): CodexResponseItem | undefined {
	return looseRecord(value, responseItemFields, 'type') as CodexResponseItem | undefined;
}

/** What `codexEventSchema.safeParse(value)` gives on success, undefined where it fails. */
export function readCodexEvent(value: unknown): CodexEvent | undefined {
	return looseRecord(value, eventFields, 'type') as CodexEvent | undefined;
}

/** What `codexTurnContextSchema.safeParse(value)` gives on success (it fails only for a non-object). */
export function readCodexTurnContext(value: unknown): {cwd?: string; model?: string} | undefined {
	return looseRecord(value, turnContextFields) as {cwd?: string; model?: string} | undefined;
}
