import * as z from 'zod/mini';
import {lazySchema} from '../../lib/lazy-schema.js';
import {lenient} from '../shared/schema.js';

/**
 * The Cursor agent-transcript lines engi reads (formats.md §8). Lines carry no timestamps, ids
 * or working directory. Objects are loose and content is taken as it comes (blocks are checked
 * one by one): a field we do not know, or an explicit `null`, must never make a line unreadable.
 */
export type CursorBlock = Record<string, unknown>;

/** `{"role":"user"|"assistant","message":{"content":[…]}}`. */
export const cursorMessageLineSchema = lazySchema(() => z.looseObject({
	role: z.string(),
	message: lenient(z.looseObject({content: z.optional(z.unknown())})),
}));

export type CursorMessageLine = z.infer<typeof cursorMessageLineSchema>;

/** `{"type":"turn_ended","status":"success"}` and other typed marker lines. */
export const cursorMarkerLineSchema = lazySchema(() => z.looseObject({
	type: z.string(),
	status: lenient(z.string()),
	error: z.optional(z.unknown()),
	message: z.optional(z.unknown()),
}));

export type CursorMarkerLine = z.infer<typeof cursorMarkerLineSchema>;
