import type {LineState} from '../types.js';

/**
 * What the normaliser remembers while reading one events.jsonl in order. Plain JSON values
 * only, so the engine can carry it from one scan of a growing file to the next.
 */
export type CopilotState = {
	/** `session.start` was read; a later one (a resumed log) restates nothing. */
	started?: boolean;
	cwd?: string;
	model?: string;
	/** The name the session's workspace.yaml holds (null: none), looked up at its first line. */
	workspaceName?: string | null;
	/** The latest tool call ids emitted as tool_call events (rememberedCallIds), each with its tool's name (true: none known). */
	calls?: Record<string, string | boolean>;
	/** Shells and agents a call started in the background (`shell:<id>`, `agent:<id>`): the call whose outcome a later notice reports. */
	background?: Record<string, string>;
	/** Calls whose background work's end was read: a repeated notice restates nothing. */
	backgroundEnds?: Record<string, string>;
};

export function copilotState(state: LineState): CopilotState {
	return state as CopilotState;
}
