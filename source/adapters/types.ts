import type {SessionEvent, SessionInfo, SessionRow} from './events.js';
import type {Unreadable} from './shared/schema.js';

export const sourceIds = ['claude', 'codex', 'opencode', 'gemini', 'qwen', 'grok', 'copilot', 'cursor', 'vscode', 'antigravity'] as const;
export type SourceId = (typeof sourceIds)[number];

export function isSourceId(value: string): value is SourceId {
	return (sourceIds as readonly string[]).includes(value);
}

/** What adapters may know about the machine: environment, home directory, platform. */
export type AdapterContext = {
	readonly env: Readonly<Record<string, string | undefined>>;
	/** Absolute HOME, or undefined when unset (then only explicit roots work). */
	readonly home: string | undefined;
	readonly platform: NodeJS.Platform;
};

/**
 * One readable session unit found on disk: usually a transcript file, or one session inside a
 * database. Discovery only lists directories and stats files; it never parses content.
 */
export type DiscoveredUnit = {
	/** Unique within the catalog: the file path, or `<db path>#<session id>`. */
	readonly key: string;
	/** The file read for this session (the database file for database sessions). */
	readonly path: string;
	/** Every file that makes up the session (transcript plus sidecars), for later retention. */
	readonly paths: readonly string[];
	/** The session id when the layout states it (file stem, directory name, db row). */
	readonly idHint?: string;
	/** Parent session when the layout states it (a subagent directory). */
	readonly parentIdHint?: string;
	/** Project directory when the layout states it (VS Code workspace.json, Grok .cwd file). */
	readonly projectHint?: string;
	/** Session facts a sidecar states (a chat's metadata database), taken as if a record stated them. */
	readonly facts?: SessionInfo;
	/** Adapter-defined variant for files of one source with different formats. */
	readonly variant?: string;
	/**
	 * True when the tool has put the session away (the person archived it): where its store files
	 * archived chats (Codex's `archived_sessions/`, Qwen Code's `chats/archive/`) or marks the row
	 * (OpenCode's `time_archived`). Said by discovery, so a change shows as a new key or
	 * fingerprint, and the session is read again; absent, it is not archived.
	 */
	readonly archived?: boolean;
	/**
	 * Why a unit is listed although its layout is unusual (a transcript not named by a session
	 * id): the catalog reports units with the same note as one warning per root.
	 */
	readonly note?: string;
	/** Size in bytes of `path` (JSONL units grow by appending). */
	readonly size: number;
	/** Changes whenever the unit's content may have changed (size, mtime, inode, db row stamp). */
	readonly fingerprint: string;
	/** File modification time (ms), the fallback for the session's last activity. */
	readonly mtimeMs: number;
};

/** What only reading a unit needs, where a sidecar states it: its files and hints. */
export type UnitDetails = Pick<DiscoveredUnit, 'paths' | 'parentIdHint' | 'projectHint'>;

/**
 * A unit listed without the details a sidecar states: `details` works them out (reading the
 * sidecar) when the unit is read. A warm call compares every unit's key and fingerprint and reads
 * none, so at 15,000 sessions working out (or remembering) each unit's sidecar facts on every
 * call cost more than stating its files.
 */
export type DeferredUnit = Omit<DiscoveredUnit, keyof UnitDetails> & {readonly details: () => UnitDetails};

/** What discovery lists: a whole unit, or one whose details wait until it is read (wholeUnit). */
export type ListedUnit = DiscoveredUnit | DeferredUnit;

/** The unit with its details worked out: what reading it needs. */
export function wholeUnit(unit: ListedUnit): DiscoveredUnit {
	if (!('details' in unit)) {
		return unit;
	}

	const {details, ...listed} = unit;
	return {...listed, ...details()};
}

/** Per-file scratch state a JSONL normaliser may keep while reading lines in order. */
export type LineState = Record<string, unknown>;

export type LoadedSession = {
	/** In increasing `line` order (rows may share a line); paging counts lines. */
	readonly rows: SessionRow[];
	/** Items that could not be read (malformed entries), skipped and counted. */
	readonly skipped: number;
	readonly warnings: string[];
};

/** A small persistent cache the catalog lends to discovery: values are kept per key with a stamp. */
export type DiscoveryMemo = {
	/** The value saved under `key` with exactly this `stamp`, else undefined. */
	get(key: string, stamp: string): unknown;
	set(key: string, stamp: string, value: unknown): void;
};

type AdapterBase = {
	readonly id: SourceId;
	readonly label: string;
	/** Store roots used when no --source-root is given; roots that do not exist are skipped. */
	defaultRoots(context: AdapterContext): string[];
	/**
	 * Turns a user's --source-root into store roots: accepts the tool's home directory (e.g.
	 * ~/.codex) or the store directory itself (e.g. ~/.codex/sessions), or a database file.
	 */
	resolveRoot(path: string): string[];
	/**
	 * False for stores that usually leave tool results out (Cursor's IDE exports): a call
	 * without a result is then not evidence of unfinished work.
	 */
	readonly recordsToolResults?: boolean;
	/**
	 * Lists the session units under a store root. Must not parse transcripts, and should leave
	 * what only a read needs to a DeferredUnit's `details`. `memo` lets a store whose listing is
	 * itself costly (a database queried for per-session stamps) reuse the listing while a cheap
	 * stamp of its files is unchanged.
	 */
	discover(root: string, memo?: DiscoveryMemo): ListedUnit[];
	/**
	 * The command that resumes a session in the tool itself, where the tool has one. `parentId`
	 * is set for subagent and child sessions, which most tools cannot resume on their own; `root`
	 * is the store root the catalog found the session under, and `context` the machine's, for a
	 * tool that finds sessions only in a directory of its own (Claude Code's config directory).
	 */
	nativeResumeCommand(id: string, session?: NativeResumeFacts): string | null;
	/**
	 * Why no command of the tool's own can resume a session kept under this root from a terminal,
	 * where the store knows (a Claude Desktop Cowork task ran in the app's sandbox, a store kept
	 * where the tool cannot be pointed); undefined where nativeResumeCommand answers.
	 */
	nativeResumeUnavailable?(root: string, session?: NativeResumeFacts): string | undefined;
	/**
	 * What retiring one session removes besides its `paths` (see Retirement). Absent, or
	 * undefined for a unit, when the session lives inside a database other sessions share:
	 * engi never writes another program's database, so such a session is never retired.
	 */
	retirement?(unit: DiscoveredUnit, root: string, sessionId: string): Retirement | undefined;
};

/** What the catalog knows of a session that its tool's own resume command may need. */
export type NativeResumeFacts = {
	readonly parentId: string | null;
	readonly root?: string;
	/** The session's file (its unit's path): a database or a store file, where the root holds several. */
	readonly path?: string;
	readonly context?: AdapterContext;
};

/** The footprint of a session that can be retired on its own. */
export type Retirement = {
	/**
	 * Directories that belong to this session alone (a Claude session's `<id>/` holding its
	 * subagents, a Copilot or Grok session directory): removed with every file in them.
	 */
	readonly directories: readonly string[];
	/**
	 * Files of this session alone that are neither among its `paths` nor in its directories, found
	 * only by its id (Gemini CLI's `logs/session-<id>.jsonl`): removed with its own files.
	 */
	readonly files?: readonly string[];
	/** The directory no removal may leave: the store root, or the tool's directory that holds the root and the session's sidecars. */
	readonly boundary: string;
};

/**
 * What the catalog needs of a source to list its sessions and retire them: everything but
 * reading one. Stores load with every command; readers only when a session is read (stores.ts).
 */
export type SourceStore = AdapterBase & {readonly format: 'jsonl' | 'document' | 'database'};

/** Append-only JSONL stores: the engine streams lines and asks the adapter to normalise each. */
export type JsonlAdapter = AdapterBase & {
	readonly format: 'jsonl';
	/**
	 * Normalises one parsed line. Return [] for records that carry nothing for the event model
	 * (bookkeeping types); return `null` for a record type this adapter does not know, and an
	 * `Unreadable` naming the field for a known record that does not match its schema, so the
	 * engine counts it as skipped (with that reason).
	 */
	normalizeLine(value: unknown, line: number, state: LineState, unit: DiscoveredUnit, offset?: number): SessionEvent[] | Unreadable | null;
	/**
	 * What only the end of the file decides, from the state normalizeLine left after the last line
	 * (a prompt Claude Code still held queued when the file ends): records to read after the last,
	 * each with its events, the state untouched. Asked only by a read that reaches the end. A file
	 * that grows is read on from the state, never from these, so the catalog judges only the tail
	 * with them and keeps them out of what it carries forward (the summary, the search text).
	 */
	atEnd?(state: LineState, unit: DiscoveredUnit): EndRecord[];
	/**
	 * Units of this store that are one JSON document rather than lines (Codex's 2025 `.json`
	 * rollouts), which discovery marks with `variant`: they are read whole through `loadSession`,
	 * as a document store's are, and a changed one is read again from the start (rows.ts readerFor).
	 */
	readonly documents?: {readonly variant: string; loadSession(unit: DiscoveredUnit): LoadedSession};
};

/** A record JsonlAdapter.atEnd reads after the last line: the native record its events come from. */
export type EndRecord = {readonly raw: unknown; readonly events: SessionEvent[]};

/** Whole-document or database stores: the adapter loads every row of one session. */
export type DocumentAdapter = AdapterBase & {
	readonly format: 'document' | 'database';
	/** Throws SessionCorruptError (naming file:line, never content) when the unit cannot be read at all. */
	loadSession(unit: DiscoveredUnit): LoadedSession;
	/**
	 * The rows at a few places, each read back from where a loaded row's `offset` said (one line
	 * of a file, one message of a database) without loading the document: what search snippets
	 * need. Undefined when a place cannot be read that way; the caller then loads the session.
	 */
	rowsAt?(unit: DiscoveredUnit, places: readonly RowPlace[]): SessionRow[] | undefined;
	/**
	 * The rows on a few lines of a document whose rows record no place to read back (a VS Code
	 * session), normalising only those lines: rows as loadSession gives them, less the events
	 * other lines decide (session facts, rewind markers), so enough for their text and record,
	 * not for pairing. Undefined when the document cannot be read; the caller then loads it.
	 */
	rowsOnLines?(unit: DiscoveredUnit, lines: ReadonlySet<number>): SessionRow[] | undefined;
};

/** A row's line and its `offset` (see SessionRow.offset); for JSONL sources, the byte offset of the line. */
export type RowPlace = {readonly line: number; readonly offset: number};

export type SourceAdapter = JsonlAdapter | DocumentAdapter;

/** A session that cannot be read at all. The message names the file and line, never its content. */
export class SessionCorruptError extends Error {
	override readonly name = 'SessionCorruptError';
	constructor(
		readonly path: string,
		readonly line: number | null,
		readonly reason: string,
	) {
		super(`${path}${line === null ? '' : `:${line}`}: ${reason}`);
	}
}

export type {SessionEvent, SessionRow};
