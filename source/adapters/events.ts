import * as z from 'zod/mini';
import {lazySchema} from '../lib/lazy-schema.js';

/**
 * The one event model every native store is normalised to (DESIGN §5). A source row (a JSONL
 * line, a document item, a database message) becomes zero or more events that share its `line`.
 * Engine logic (titles, unfinished work, briefs, search) reads only these events, never a
 * store's native shapes.
 */
export const eventKinds = ['user', 'assistant', 'tool_call', 'tool_result', 'system', 'summary', 'meta'] as const;
export type EventKind = (typeof eventKinds)[number];

export const sessionInfoSchema = lazySchema(() => z.object({
	/** The session id the record states (may differ from the file name in resumed sessions). */
	id: z.optional(z.string()),
	/** Working directory (the project) recorded by the tool. */
	cwd: z.optional(z.string()),
	/** Parent session of a subagent, fork or child thread. */
	parent_id: z.optional(z.string()),
	/**
	 * Sessions this one started whose own records do not name it (an Antigravity subagent is a
	 * conversation of its own; only the parent's INVOKE_SUBAGENT step links them): the catalog
	 * makes this session their parent, whichever of the two it reads first.
	 */
	children: z.optional(z.array(z.string())),
	/** A title the tool itself recorded (custom or generated), used when no human request exists. */
	title: z.optional(z.string()),
	model: z.optional(z.string()),
	/** ISO time the tool says the session started. */
	started: z.optional(z.string()),
	/** ISO time the tool says the session was last active (for stores whose records carry no times). */
	modified: z.optional(z.string()),
}));

export type SessionInfo = z.infer<typeof sessionInfoSchema>;

export const sessionEventSchema = lazySchema(() => z.object({
	/** 1-based source position: JSONL physical line, document item or database message ordinal. */
	line: z.number(),
	kind: z.enum(eventKinds),
	/** Plain text of a user, assistant, system or summary event. */
	text: z.optional(z.string()),
	/**
	 * On `user` events: true only for text a person typed. Slash-command envelopes, expanded
	 * commands, compaction summaries, AGENTS.md and environment injections, queued notifications
	 * and other host-injected text are `false`.
	 */
	human: z.optional(z.boolean()),
	/**
	 * On `user` events that are not `human`: who wrote the text, where the store says so. `agent`
	 * for prompts an agent wrote (a subagent's task, a message from another agent), `host` for the
	 * tool's own injections. Unset, a subagent's (sidechain) text is taken as the agent's, any
	 * other as the host's.
	 */
	origin: z.optional(z.enum(['agent', 'host'])),
	tool: z.optional(
		z.object({
			name: z.string(),
			/** The id that pairs this call with its result; null when the store has none. */
			call_id: z.nullable(z.string()),
			input: z.unknown(),
		}),
	),
	result: z.optional(
		z.object({
			call_id: z.nullable(z.string()),
			is_error: z.boolean(),
			/** Exit status when the store records one (structured or parsed from text). */
			exit_code: z.optional(z.nullable(z.number())),
			output: z.string(),
		}),
	),
	timestamp: z.optional(z.string()),
	/** Record identity where the store has one (uuid, message id, step index as text…). */
	uuid: z.optional(z.string()),
	/**
	 * The record this one replies to, where the store keeps a tree (Claude, Qwen); a compaction
	 * boundary names the record it continues. Records that show nothing keep their place in the
	 * tree with a `meta` event holding only `uuid` and `parent`.
	 */
	parent: z.optional(z.nullable(z.string())),
	/** Subagent records inlined in the parent's file. */
	sidechain: z.optional(z.boolean()),
	/**
	 * On a rewind a store without a tree records as a marker (Codex `thread_rolled_back`, Grok
	 * `rewind_marker`, Gemini `$rewindTo`): the first line it discarded. The records from there
	 * up to the marker are an abandoned branch, as the siblings a tree store's rewind leaves are.
	 */
	rewound_from: z.optional(z.number()),
	/**
	 * With `rewound_from`, the last line discarded, where the store keeps a rewind as the session's
	 * state instead of as a record after what it discards (OpenCode's `session.revert`): the records
	 * from `rewound_from` through this line are abandoned. Without it they end before the marker.
	 */
	rewound_through: z.optional(z.number()),
	/** The user interrupted or cancelled here (Claude's marker, Codex turn_aborted, an abort…). */
	interrupted: z.optional(z.boolean()),
	/** A failed request or API error at this point, as a short message. */
	error: z.optional(z.string()),
	/** A tool call the store marks as still running or never finished. */
	pending: z.optional(z.boolean()),
	/** Groups records the store split from one response (Claude `message.id`). */
	message_id: z.optional(z.string()),
	/** Session facts stated by this record; usually on `meta` events. */
	session: z.optional(sessionInfoSchema),
}));

export type SessionEvent = z.infer<typeof sessionEventSchema>;

/** One source row and the events it normalises to. `raw` is the native record, untouched. */
export type SessionRow = {
	readonly line: number;
	readonly raw: unknown;
	readonly events: SessionEvent[];
	/**
	 * Where the adapter can read this row back alone (DocumentAdapter.rowsAt), set by loaders
	 * that can: the byte offset of the one line `raw` was read from, or for a database the
	 * message's rowid.
	 */
	readonly offset?: number;
};
