import {any, fields, looseRecord, number, object, objects, text} from '../shared/loose.js';
import type {GrokChatItem, GrokLegacyMessage} from './schema.js';

/**
 * grokChatItemSchema and grokLegacyMessageSchema (schema.ts) read by hand (shared/loose.ts): every
 * chat_history.jsonl line is one of them. test/adapters/loose-records.test.ts checks these
 * against the schemas.
 */

const chatItemFields = fields({
	type: any, // Required: checked before.
	content: any,
	synthetic_reason: text,
	prior_turn_interrupt: text,
	prompt_index: number,
	tool_calls: objects(fields({id: text, name: text, arguments: any})),
	tool_call_id: text,
	images: any,
	model_id: text,
	kind: any,
	raw_output: any,
});

const legacyMessageFields = fields({
	role: any, // Required: checked before.
	content: any,
	tool_calls: objects(fields({id: text, function: object(fields({name: text, arguments: any}))})),
	tool_call_id: text,
});

/** What `grokChatItemSchema.safeParse(value)` gives on success, undefined where it fails. */
export function readGrokChatItem(value: unknown): GrokChatItem | undefined {
	return looseRecord(value, chatItemFields, 'type') as GrokChatItem | undefined;
}

/** What `grokLegacyMessageSchema.safeParse(value)` gives on success, undefined where it fails. */
export function readGrokLegacyMessage(value: unknown): GrokLegacyMessage | undefined {
	return looseRecord(value, legacyMessageFields, 'role') as GrokLegacyMessage | undefined;
}
