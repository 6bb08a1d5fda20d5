import {any, fields, isBoolean, isString, nullableString, optionalOf, refused, strictObject, type FieldReader} from '../shared/loose.js';
import {isRecord} from '../shared/text.js';
import {qwenMessageSchema, qwenRecordSchema, type QwenRecord} from './schema.js';

/**
 * qwenRecordSchema and qwenMessageSchema (schema.ts) read by hand (shared/loose.ts) for the
 * records they accept; whatever the hand reader refuses goes to the schema, which decides and
 * names the field. test/adapters/loose-records.test.ts checks the two agree.
 */

const string = optionalOf(isString);

const recordFields = fields({
	type: any, // Required: checked before.
	subtype: string,
	uuid: string,
	parentUuid: nullableString,
	sessionId: string,
	timestamp: string,
	cwd: string,
	model: string,
	message: any,
	toolCallResult: any,
	systemPayload: any,
	provenance: string,
	externalInputKind: string,
	agentId: string,
	isSidechain: optionalOf(isBoolean),
	forkedFrom: any,
});

/** `optional(z.array(z.unknown()))`: a copy of the array, as zod gives. */
const list: FieldReader = value => (value === null ? undefined : Array.isArray(value) ? [...(value as unknown[])] : refused);

const messageFields = fields({role: string, parts: list});

/** Fast for what the reader accepts; the schema's own answer otherwise. */
export function parseQwenRecord(value: unknown): ReturnType<typeof qwenRecordSchema.safeParse> {
	const read = isRecord(value) && typeof value['type'] === 'string' ? strictObject(value, recordFields) : refused;
	return read === refused ? qwenRecordSchema.safeParse(value) : {success: true, data: read as QwenRecord};
}

/** A record's `message` as qwenMessageSchema reads it, or undefined where the schema refuses it. */
export function readQwenMessage(value: unknown): {role?: string; parts?: unknown[]} | undefined {
	const read = isRecord(value) ? strictObject(value, messageFields) : refused;
	if (read !== refused) {
		return read as {role?: string; parts?: unknown[]};
	}

	const parsed = qwenMessageSchema.safeParse(value);
	return parsed.success ? parsed.data : undefined;
}
