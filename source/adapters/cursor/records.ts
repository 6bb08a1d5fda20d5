import {any, fields, looseRecord, object, text} from '../shared/loose.js';
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
	return looseRecord(value, messageLineFields, 'role') as CursorMessageLine | undefined;
}

/** What `cursorMarkerLineSchema.safeParse(value)` gives on success, undefined where it fails. */
export function readCursorMarkerLine(value: unknown): CursorMarkerLine | undefined {
	return looseRecord(value, markerLineFields, 'type') as CursorMarkerLine | undefined;
}
