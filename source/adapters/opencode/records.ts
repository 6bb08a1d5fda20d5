import {any, fields, flag, looseRecord, number, object, record, text, type FieldReader} from '../shared/loose.js';
import type {OpencodeMessage, OpencodePart} from './schema.js';

/**
 * opencodeMessageSchema and opencodePartSchema (schema.ts) read by hand (shared/loose.ts): a
 * database session holds a message row and a few part rows per turn, and zod cost more than
 * the rest of reading them. test/adapters/loose-records.test.ts checks these against the schemas.
 */

const namedError = object(fields({name: text, data: object(fields({message: text}))}));

/** `path`: a plain path (some older writers) or `{cwd, root}`, as the schema's union reads it. */
const pathObject: FieldReader = object(fields({cwd: text, root: text}));

const messageFields = fields({
	id: text,
	sessionID: text,
	role: any, // Required: checked before.
	time: object(fields({created: number, completed: number})),
	parentID: text,
	modelID: text,
	providerID: text,
	model: object(fields({providerID: text, modelID: text})),
	path: (value: unknown) => (typeof value === 'string' ? value : pathObject(value)),
	summary: any,
	error: namedError,
	finish: text,
});

const toolState = object(fields({
	status: text,
	input: any,
	raw: text,
	output: any,
	attachments: any,
	error: any,
	title: text,
	metadata: record,
	time: object(fields({start: number, end: number, compacted: number})),
}));

const partFields = fields({
	id: text,
	sessionID: text,
	messageID: text,
	type: any, // Required: checked before.
	text,
	synthetic: flag,
	ignored: flag,
	time: object(fields({start: number, end: number, created: number})),
	mime: text,
	filename: text,
	url: text,
	callID: text,
	tool: text,
	state: toolState,
	description: text,
	agent: text,
	prompt: text,
	command: text,
	attempt: number,
	error: any,
	auto: flag,
	overflow: flag,
});

/** What `opencodeMessageSchema.safeParse(value)` gives on success, undefined where it fails. */
export function readOpencodeMessage(value: unknown): OpencodeMessage | undefined {
	return looseRecord(value, messageFields, 'role') as OpencodeMessage | undefined;
}

/** What `opencodePartSchema.safeParse(value)` gives on success, undefined where it fails. */
export function readOpencodePart(value: unknown): OpencodePart | undefined {
	return looseRecord(value, partFields, 'type') as OpencodePart | undefined;
}
