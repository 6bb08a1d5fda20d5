import type {SessionEvent} from '../events.js';
import {rememberId} from '../shared/recent-ids.js';
import {isRecord} from '../shared/text.js';
import {recordResult, type CodexState} from './state.js';
import {headerOf} from './tool-output.js';

type ToolResult = NonNullable<SessionEvent['result']>;

/**
 * A command that outlives its call. Unified exec answers `exec_command` after its yield time with
 * `Process running with session ID N` in the header above `Output:` (codex-rs core unified_exec
 * handler, format_response); the model polls or feeds it with `write_stdin {session_id: N}`, and
 * the answer that says `Process exited with code X` is the command's outcome. Code mode does the
 * same with cells: `Script running with cell ID N`, then `wait {cell_id: N}` until `Script
 * completed` or `Script failed`. The outcome is the starting call's: a poll only delivered it.
 */
const runningHeader = /^(?:Process running with session ID|Script running with cell ID) (\S{1,64})\s*$/m;
const finishedHeader = /^(?:Process exited with code -?\d+|Script (?:completed|failed|terminated))\s*$/m;

/** The poll tools, and the argument naming what they continue. */
const pollArguments: Record<string, {field: string; kind: string}> = {
	write_stdin: {field: 'session_id', kind: 'session'},
	wait: {field: 'cell_id', kind: 'cell'},
};

/** A `write_stdin` or `wait` call naming a command or cell left running: remembered as its poll. */
export function notePoll(state: CodexState, name: string | undefined, callId: string | undefined, input: unknown): void {
	const poll = name === undefined ? undefined : pollArguments[name];
	if (!poll || callId === undefined || !isRecord(input)) {
		return;
	}

	const target = input[poll.field];
	// Ids are short numbers; anything else names no session this state would hold.
	const known = typeof target === 'number' || (typeof target === 'string' && target.length <= 64);
	const started = known ? ownKey(state.running, `${poll.kind}:${String(target)}`) : undefined;
	if (started !== undefined) {
		rememberId((state.polls ??= {}), callId, started);
	}
}

/**
 * The events of a tool output: its result, and when it is a poll's answer telling that the
 * command or cell it waited on finished, that outcome as the starting call's result, the poll's
 * own no failure. A header saying the work still runs remembers which call started it.
 */
export function continuedResults(state: CodexState, event: SessionEvent): SessionEvent[] {
	const result = event.result;
	if (!result?.call_id) {
		return recordResult(state, event);
	}

	const header = headerOf(result.output);
	const started = ownKey(state.polls, result.call_id);
	const running = runningHeader.exec(header);
	if (running) {
		const kind = running[0].startsWith('Process') ? 'session' : 'cell';
		rememberId((state.running ??= {}), `${kind}:${running[1]}`, started ?? result.call_id);
		return recordResult(state, event);
	}

	if (started === undefined || !finishedHeader.test(header)) {
		return recordResult(state, event);
	}

	delete state.polls![result.call_id];
	const {exit_code: _exit, ...delivered} = result;
	const outcome: ToolResult = {...result, call_id: started};
	// The outcome is news whatever it is (the starting call's own result said only "running").
	rememberId((state.results ??= {}), started, result.is_error);
	return [...recordResult(state, {...event, result: {...delivered, is_error: false}}), {...event, result: outcome}];
}

function ownKey(record: Record<string, string> | undefined, key: string): string | undefined {
	return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}
