import {any, fields, isString, optionalOf, refused, strictObject, type FieldReader} from '../shared/loose.js';
import {isRecord} from '../shared/text.js';
import {geminiMessageSchema, geminiToolCallSchema, type GeminiMessage, type GeminiToolCall} from './schema.js';

/**
 * geminiMessageSchema and geminiToolCallSchema (schema.ts) read by hand (shared/loose.ts) for the
 * records they accept; whatever the hand reader refuses goes to the schema, which decides and
 * names the field. test/adapters/loose-records.test.ts checks the two agree.
 */

const string = optionalOf(isString);

/** `optional(z.array(z.unknown()))`: a copy of the array, as zod gives. */
const list: FieldReader = value => (value === null ? undefined : Array.isArray(value) ? [...(value as unknown[])] : refused);

const messageFields = fields({id: any, type: string, timestamp: string, content: any, displayContent: any, toolCalls: list, model: string});

const toolCallFields = fields({id: string, name: string, args: any, result: optionalOf(() => true), status: string, timestamp: string, resultDisplay: any});

/** Fast for what the reader accepts; the schema's own answer otherwise. */
export function parseGeminiMessage(value: unknown): ReturnType<typeof geminiMessageSchema.safeParse> {
	const read = isRecord(value) && typeof value['id'] === 'string' ? strictObject(value, messageFields) : refused;
	return read === refused ? geminiMessageSchema.safeParse(value) : {success: true, data: read as GeminiMessage};
}

export function parseGeminiToolCall(value: unknown): ReturnType<typeof geminiToolCallSchema.safeParse> {
	const read = isRecord(value) ? strictObject(value, toolCallFields) : refused;
	return read === refused ? geminiToolCallSchema.safeParse(value) : {success: true, data: read as GeminiToolCall};
}
