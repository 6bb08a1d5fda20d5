import type {SessionEvent} from '../events.js';
import {mediaTypeNote, withNoteLines} from '../shared/media.js';
import {isRecord, outputText} from '../shared/text.js';
import type {OpencodePart, ToolState} from './schema.js';
import {isoTime} from './time.js';
import {parseBoundedJson} from '../../lib/json-depth.js';

/**
 * The errors OpenCode writes when a user abort cuts a tool off: a running tool
 * (session/processor.ts), and a subtask's task call (session/prompt.ts, handleSubtask).
 */
const abortedToolErrors = new Set(['Tool execution aborted', 'Cancelled']);

/**
 * The errors of a permission the person rejected without a message (permission/next.ts
 * RejectedError) and of a question they dismissed (question/index.ts RejectedError). Unlike a
 * rejection with feedback, either stops the agent's loop there (session/processor.ts `blocked`),
 * so the person ended the turn. Older builds stored `error.toString()`, with "Error: " before it.
 */
const turnEndingRejection = /^(?:Error: )?(?:The user rejected permission to use this specific tool call\.|The user dismissed this question)$/;

/**
 * The error the processor gives every tool part still open when a step's stream ends, whatever
 * ended it (session/processor.ts): a user abort, but also a failed request or a context overflow.
 */
const cutOffToolError = 'Tool execution aborted';

/**
 * Whether the person ended the turn at this failed call: an abort, or a rejection that stops the
 * loop. A call cut off when its message failed (`failedRequest`: the message's error is no
 * MessageAbortedError) ended with the request, not by the person.
 */
function stoppedByPerson(state: ToolState, failedRequest: boolean): boolean {
	const error = typeof state.error === 'string' ? state.error.trim() : '';
	// Newer builds also set metadata.interrupted on every part they cut off, a failed request's too.
	if (failedRequest && error === cutOffToolError) {
		return false;
	}

	return state.metadata?.['interrupted'] === true || abortedToolErrors.has(error) || turnEndingRejection.test(error);
}

/**
 * The tool a call OpenCode could not run becomes (session/llm.ts, experimental_repairToolCall): an
 * unknown tool or arguments that do not parse. It "completes" with the rejection (tool/invalid.ts).
 */
const rejectedCallTool = 'invalid';

/** Tool input: an object as stored; JSON text (older writers, a pending call's `raw`) parsed when it parses. */
function toolInput(state: ToolState | undefined): unknown {
	const input = state?.input;
	if (typeof input === 'string') {
		return parseOr(input);
	}

	const empty = input === undefined || input === null || (typeof input === 'object' && Object.keys(input).length === 0);
	if (empty && state?.raw) {
		return parseOr(state.raw);
	}

	return input ?? null;
}

function parseOr(text: string): unknown {
	try {
		return parseBoundedJson(text);
	} catch {
		return text;
	}
}

/** A note of each file part a completed tool returned (`attachments`), by its media type; its `data:` URL is never copied. */
function attachmentNotes(attachments: unknown): string[] {
	return Array.isArray(attachments) ? attachments.flatMap(part => (isRecord(part) && part['type'] === 'file' ? [mediaTypeNote(part['mime'])] : [])) : [];
}

function exitOf(state: ToolState): number | undefined {
	const exit = state.metadata?.['exit'];
	return typeof exit === 'number' && Number.isFinite(exit) ? exit : undefined;
}

/**
 * How the shell tool ended a command it killed, from the note it appends after the output
 * (tool/bash.ts): early 1.x wrote "(Command timed out after N ms)" or "(Command was aborted)",
 * later builds a `<bash_metadata>` block (now `<shell_metadata>`) saying "… terminated command after
 * exceeding timeout N ms" or "User aborted the command". The part still says `completed`, and a
 * killed process has no exit code, so only a result without one can end so; the note counts only
 * at the end, where the tool puts it (a command may print the same words itself).
 */
function killedBy(state: ToolState, exit: number | undefined): 'timeout' | 'abort' | undefined {
	// Only the output's end can hold the notes: the last few KiB are looked at (a slice, not a copy).
	const notes = exit === undefined && typeof state.output === 'string' ? trailingNotes(state.output.slice(-notesWindow).trimEnd()) : '';
	if (/^User aborted the command$|^\(Command was aborted\)$/m.test(notes)) {
		return 'abort';
	}

	return /terminated command after exceeding timeout|^\(Command timed out after \d+ ms\)$/m.test(notes) ? 'timeout' : undefined;
}

/** How much of an output's end can hold the tool's closing notes. */
const notesWindow = 4096;

/** The tool's own notes closing an output: its metadata block, or the early builds' lines after a blank one. */
function trailingNotes(output: string): string {
	const block = /<(bash|shell)_metadata>([^<]*)<\/\1_metadata>$/.exec(output);
	if (block) {
		return block[2]!.trim();
	}

	return /(?:\n\n\((?:Command timed out after \d+ ms|Command was aborted)\))+$/.exec(output)?.[0].trim() ?? '';
}

function errorTextOf(state: ToolState): string {
	const error = typeof state.error === 'string' ? state.error : outputText(state.error);
	const partial = state.metadata?.['output'];
	// An interrupted call keeps what it printed so far beside the error; both are evidence.
	return typeof partial === 'string' && partial.trim() !== '' ? `${partial}\n${error}` : error;
}

/**
 * How OpenCode words a permission the person rejected with a message (permission/next.ts,
 * CorrectedError), stored as `error.toString()`: what they typed follows. The agent goes on from
 * those words, which reach it only here.
 */
const rejectedWithFeedback = /^(?:Error: )?The user rejected permission to use this specific tool call with the following feedback: /;

/** The person's request inside a tool call they rejected with a message, or nothing. */
function rejectionFeedback(state: ToolState, base: SessionEvent): SessionEvent[] {
	const error = typeof state.error === 'string' ? state.error : '';
	const prefix = rejectedWithFeedback.exec(error);
	const feedback = prefix ? error.slice(prefix[0].length).trim() : '';
	return feedback === '' ? [] : [{...base, kind: 'user', text: feedback, human: true}];
}

/**
 * A tool part to a call and, once the tool finished, its result. `pending`/`running` parts were
 * cut off when nothing updated them again, so the call is marked pending. A bash command that
 * exits non-zero still has `status: "completed"`; its code is in `metadata.exit`. So does a call
 * OpenCode rejected, stored as the `invalid` tool. `failedRequest`: the part's message ended in an
 * error other than an abort.
 */
export function toolEvents(part: OpencodePart, base: SessionEvent, messageId: {message_id?: string}, failedRequest = false): SessionEvent[] {
	const state = part.state;
	const status = state?.status;
	const callId = part.callID ?? null;
	const started = isoTime(state?.time?.start) ?? base.timestamp;
	const call: SessionEvent = {
		...base,
		...(started ? {timestamp: started} : {}),
		...messageId,
		kind: 'tool_call',
		tool: {name: part.tool ?? 'unknown', call_id: callId, input: toolInput(state)},
	};
	if (!state || status === 'pending' || status === 'running') {
		return [{...call, pending: true}];
	}

	const ended = isoTime(state.time?.end) ?? started;
	const resultBase: SessionEvent = {...base, ...(ended ? {timestamp: ended} : {}), ...messageId, kind: 'tool_result'};
	if (status === 'completed' || status === 'success') {
		const exit = exitOf(state);
		const killed = killedBy(state, exit);
		const failed = part.tool === rejectedCallTool || (exit !== undefined && exit !== 0) || killed !== undefined;
		return [
			call,
			{
				...resultBase,
				result: {call_id: callId, is_error: failed, ...(exit === undefined ? {} : {exit_code: exit}), output: withNoteLines(outputText(state.output), attachmentNotes(state.attachments))},
				...(killed === 'abort' ? {interrupted: true} : {}),
			},
		];
	}

	if (status === 'error') {
		const output = errorTextOf(state);
		// The bash tool keeps its status in metadata.exit only (tool/bash.ts); its output text, here
		// what an aborted command printed so far, is the command's own and may quote any status.
		const exit = exitOf(state);
		const interrupted = stoppedByPerson(state, failedRequest);
		return [
			call,
			{
				...resultBase,
				result: {call_id: callId, is_error: true, ...(exit === undefined ? {} : {exit_code: exit}), output},
				...(interrupted ? {interrupted: true} : {}),
			},
			...rejectionFeedback(state, resultBase),
		];
	}

	// A status no OpenCode version is known to write: show the call, claim nothing about its end.
	return [call];
}
