import * as z from 'zod/mini';
import {lazySchema} from '../../lib/lazy-schema.js';
import {lenient} from '../shared/schema.js';

/**
 * The OpenCode records engi reads (formats.md §3). Objects are loose and every field is lenient:
 * a field we do not know, an explicit `null`, or one whose type changed between versions, becomes
 * undefined instead of making the record unreadable. Only a message's `role` and a part's `type`
 * are required, because without them nothing can be said about the record.
 */

const text = () => lenient(z.string());
const number = () => lenient(z.number());
const flag = () => lenient(z.boolean());

/** A NamedError: `{name, data:{message, …}}`. */
export const namedErrorSchema = lazySchema(() => z.looseObject({
	name: text(),
	data: lenient(z.looseObject({message: text()})),
}));

export const messageTimeSchema = lazySchema(() => z.looseObject({created: number(), completed: lenient(z.number())}));

/** Message `data` (v1.2+ database: without id/sessionID) or a legacy `message/<ses>/<msg>.json`. */
export const opencodeMessageSchema = lazySchema(() => z.looseObject({
	id: text(),
	sessionID: text(),
	role: z.string(),
	time: lenient(messageTimeSchema),
	parentID: text(),
	modelID: text(),
	providerID: text(),
	/** User messages: `{providerID, modelID}`. */
	model: lenient(z.looseObject({providerID: text(), modelID: text()})),
	/** Assistant messages: `{cwd, root}`; some older writers stored a plain path. */
	path: lenient(z.union([z.string(), z.looseObject({cwd: text(), root: text()})])),
	/** Assistant: `true` marks a compaction summary. User: `{title, body, diffs}` (ignored here). */
	summary: z.optional(z.unknown()),
	error: lenient(namedErrorSchema),
	finish: text(),
}));

export type OpencodeMessage = z.infer<typeof opencodeMessageSchema>;

/** A tool part's `state`, discriminated on `status` (pending, running, completed, error). */
export const toolStateSchema = lazySchema(() => z.looseObject({
	status: text(),
	input: z.optional(z.unknown()),
	raw: text(),
	output: z.optional(z.unknown()),
	/** `completed`: the files the tool returned beside its text (an image or a PDF read), file parts. */
	attachments: z.optional(z.unknown()),
	error: z.optional(z.unknown()),
	title: text(),
	metadata: lenient(z.record(z.string(), z.unknown())),
	time: lenient(z.looseObject({start: number(), end: number(), compacted: number()})),
}));

export type ToolState = z.infer<typeof toolStateSchema>;

/** Part `data` (database: without id/sessionID/messageID) or a legacy `part/<msg>/<prt>.json`. */
export const opencodePartSchema = lazySchema(() => z.looseObject({
	id: text(),
	sessionID: text(),
	messageID: text(),
	type: z.string(),
	text: text(),
	synthetic: flag(),
	ignored: flag(),
	time: lenient(z.looseObject({start: number(), end: number(), created: number()})),
	// file
	mime: text(),
	filename: text(),
	url: text(),
	// tool
	callID: text(),
	tool: text(),
	state: lenient(toolStateSchema),
	// subtask
	description: text(),
	agent: text(),
	prompt: text(),
	/** The command whose template became the subtask's prompt (session/prompt.ts `command`), when a command wrote it. */
	command: text(),
	// retry
	attempt: number(),
	error: z.optional(z.unknown()),
	// compaction
	auto: flag(),
	overflow: flag(),
}));

export type OpencodePart = z.infer<typeof opencodePartSchema>;

/**
 * A `session` table row (columns vary by version) or a legacy `session/<project>/<ses>.json`.
 * `time_archived` (legacy files: `time.archived`) is when the person archived the session (ms),
 * cleared when it is unarchived (session/index.ts setArchived, Info.time.archived).
 */
export const opencodeSessionSchema = lazySchema(() => z.looseObject({
	id: text(),
	parent_id: text(),
	parentID: text(),
	/** 2.x: the session a fork was copied from (session/projector.ts projectFork); `parent_id` stays empty. */
	fork_session_id: text(),
	directory: text(),
	title: text(),
	/** Database: JSON text `{id, providerID}`; parsed by the reader. */
	model: z.optional(z.unknown()),
	time_created: number(),
	time_updated: number(),
	time_archived: number(),
	time: lenient(z.looseObject({created: number(), updated: number(), archived: number()})),
	/** Set by `/undo` (database: JSON text; parsed by the reader): `{messageID, partID?, snapshot?, diff?}`. */
	revert: z.optional(z.unknown()),
}));

export type OpencodeSession = z.infer<typeof opencodeSessionSchema>;

/** A session named as another's parent or source; a session is never its own, so naming itself names none. */
export function otherSession(id: string | undefined, named: string | undefined): string | undefined {
	return named === id ? undefined : named;
}
