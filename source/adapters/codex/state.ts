import type {SessionEvent} from '../events.js';
import {rememberId} from '../shared/recent-ids.js';
import type {LineState} from '../types.js';

/**
 * What the normaliser remembers while reading one rollout in order. Plain JSON values only, so
 * the engine can carry it from one scan of a growing file to the next.
 */
export type CodexState = {
	/** The first `session_meta` (or bare header) was read: later ones belong to ancestors. */
	defined?: boolean;
	/** The first `session_meta` is a subagent's naming no parent: its own id ('' if none), until a later one names the parent. */
	orphan?: string;
	/** The session is a spawned subagent thread: its user messages come from the parent agent. */
	subagent?: boolean;
	/** A spawned thread's own agent path (`/root/<task>`), which messages between agents address. */
	agentPath?: string;
	cwd?: string;
	model?: string;
	/** The name session_index.jsonl gives the thread (null: none), looked up once its id is stated. */
	indexedName?: string | null;
	/** The thread id that name was looked up by, to look it up again at a rename the rollout records. */
	namedThread?: string;
	/** The latest tool call ids read (rememberedCallIds): a thread item naming another is a call of its own (thread-items.ts). */
	calls?: Record<string, true>;
	/** The latest tool call ids whose result was emitted (rememberedCallIds), and whether that result was a failure. */
	results?: Record<string, boolean>;
	/**
	 * Commands and code-mode cells left running, by `session:<id>` or `cell:<id>`: the call that
	 * started each; and the polls (`write_stdin`, `wait`) naming one, by their call id (continuations.ts).
	 */
	running?: Record<string, string>;
	polls?: Record<string, string>;
	/** Server-run tool searches (no call_id) not yet answered, oldest first: an output without an id answers the first. */
	searches?: string[];
	/** Digests of prompts and replies seen on one channel whose copy on the other may follow (see echoes.ts). */
	echoes?: Partial<Record<'user' | 'assistant', {item: string[]; event: string[]}>>;
	/** A view_image call awaits the model's next reply: an image-only user message is the picture it attached (messages.ts). */
	viewedImage?: true;
	/** The objective of the thread's goal as last stated (goals.ts). */
	goal?: string;
	/** Lines where the thread's turns start, and whether one is open (see turns.ts). */
	turns?: number[];
	turnOpen?: 'explicit' | 'prompted' | 'implicit';
	/**
	 * While the parent's history a fork copied is read (see fork-copy.ts): the parent's id, the
	 * Unix milliseconds of the fork (with the copied turn without a UUIDv7 id whose task_started
	 * dates it before the fork) or the first ordinal a subagent's own, and whether the copy's
	 * notice was given.
	 */
	forkCopy?: {parent: string; noticed?: true; derived?: 'trimmed' | 'ported' | 'copied'} & ({before: number; startedEarly?: string} | {ownFrom: number} | {keptBefore: number});
	/** A spawned thread's start (Unix milliseconds) while a copy keeping the parent's times may still open (fork-copy.ts, startKeptTimesCopy). */
	spawned?: {at: number; parent?: string; self?: string};
};

export function codexState(state: LineState): CodexState {
	return state as CodexState;
}

/**
 * A tool's outcome can be recorded twice: as `function_call_output` (what the model saw) and as
 * an `exec_command_end`/`patch_apply_end`/`mcp_tool_call_end` event (structured status). The
 * first record to arrive gives the result; the second is repeated only when it reveals a
 * failure the first did not show, so a call never resolves twice with the same outcome.
 */
export function recordResult(state: CodexState, event: SessionEvent): SessionEvent[] {
	const result = event.result;
	if (!result || result.call_id === null) {
		return [event];
	}

	const results = (state.results ??= {});
	const earlier = results[result.call_id];
	if (earlier === undefined || (result.is_error && !earlier)) {
		rememberId(results, result.call_id, result.is_error);
		return [event];
	}

	return [];
}
