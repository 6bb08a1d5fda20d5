import {any, fields, looseObject, object, text} from '../shared/loose.js';
import {isRecord} from '../shared/text.js';
import type {CursorMarkerLine, CursorMessageLine} from './schema.js';

/**
 * cursorMessageLineSchema and cursorMarkerLineSchema (schema.ts) read by hand (shared/loose.ts):
 * every agent-transcript line is one of them. test/adapters/loose-records.test.ts checks these
 * against the schemas.
 */

const messageLineFields = fields({
	role: any, // Required: checked before.
	message: object(fields({content: any})),
});

const markerLineFields = fields({
	type: any, // Required: checked before.
	status: text,
	error: any,
	message: any,
});

/** What `cursorMessageLineSchema.safeParse(value)` gives on success, undefined where it fails. */
export function readCursorMessageLine(value: unknown): CursorMessageLine | undefined {
	return isRecord(value) && typeof value['role'] === 'string' ? (looseObject(value, messageLineFields) as CursorMessageLine) : undefined;
}

/** What `cursorMarkerLineSchema.safeParse(value)` gives on success, undefined where it fails. */
export function readCursorMarkerLine(value: unknown): CursorMarkerLine | undefined {
	return isRecord(value) && typeof value['type'] === 'string' ? (looseObject(value, markerLineFields) as CursorMarkerLine) : undefined;
}
