import type {SessionEvent} from '../events.js';
import {functionCallOf, functionResponseOf, isShellTool, responseTurnOf, shellOutcome, type Part} from '../shared/gemini-parts.js';
import {isRecord} from '../shared/text.js';

/**
 * Tool calls and results that live in a message's content instead of its `toolCalls`. gemini-cli's
 * history sync (`updateMessagesFromHistory`) writes a model turn's parts, `functionCall`s
 * included, into its message; records the history turns it has not seen as messages whose content
 * is the turn's parts (a resumed chat's `<id>_response` turns, and the turns a compression keeps,
 * re-recorded under new ids while the originals are removed); and newer builds record every tool
 * response turn as a `user` message. A part whose call a `toolCalls` entry records is a copy of
 * it; any other is the only record of that call or result.
 */
export type ContentCalls = {
	/** Call ids that `toolCalls` entries record anywhere in the chat. */
	readonly recorded: ReadonlySet<string>;
	/** The last model turn's calls that had no id, by name in order, for the next turn's responses. */
	open: Map<string, string[]>;
};

export function contentCalls(recorded: ReadonlySet<string> = new Set()): ContentCalls {
	return {recorded, open: new Map()};
}

/** The ids of every `toolCalls` entry in some messages. */
export function recordedCallIds(messages: readonly unknown[]): Set<string> {
	const ids = new Set<string>();
	for (const message of messages) {
		const calls = isRecord(message) && Array.isArray(message['toolCalls']) ? message['toolCalls'] : [];
		for (const call of calls) {
			if (isRecord(call) && typeof call['id'] === 'string') {
				ids.add(call['id']);
			}
		}
	}

	return ids;
}

export function hasFunctionResponse(parts: readonly Part[]): boolean {
	return parts.some(part => functionResponseOf(part) !== undefined);
}

type Shared = Omit<SessionEvent, 'kind'>;

/**
 * A model turn's `functionCall` parts that no `toolCalls` entry records. A part without an id
 * copies the message's recorded call of the same name and rank (the stream's parts may lack the
 * id the scheduler gave the call); an unrecorded one gets an id of its own for its response,
 * which the tool pairs by name and order in the next turn (`ensureStableToolIds`).
 */
export function contentCallEvents(parts: readonly Part[], recordedNames: readonly string[], messageId: string, state: ContentCalls, shared: Shared): SessionEvent[] {
	state.open = new Map();
	const unmatched = [...recordedNames];
	const events: SessionEvent[] = [];
	parts.forEach((part, index) => {
		const call = functionCallOf(part);
		if (!call || (call.id !== undefined && state.recorded.has(call.id))) {
			return;
		}

		const copied = call.id === undefined ? unmatched.indexOf(call.name) : -1;
		if (copied !== -1) {
			unmatched.splice(copied, 1);
			return;
		}

		const id = call.id ?? `${messageId}#${index}`;
		if (call.id === undefined) {
			state.open.set(call.name, [...(state.open.get(call.name) ?? []), id]);
		}

		events.push({...shared, kind: 'tool_call', tool: {name: call.name, call_id: id, input: call.input}});
	});
	return events;
}

/**
 * A tool response turn's results, one per `functionResponse` part that no `toolCalls` entry
 * already answers; the parts after a response (text or media the tool returned) are its output.
 * A response without an id answers the previous turn's id-less call of its name, in order.
 * `leading` is text before any response, which answers no call.
 */
export function contentResultEvents(parts: readonly Part[], state: ContentCalls, shared: Shared): {results: SessionEvent[]; leading: string} {
	const {responses, leading} = responseTurnOf(parts);
	const results: SessionEvent[] = [];
	for (const response of responses) {
		const name = response.name ?? 'unknown';
		// An id-less response answers the previous turn's id-less call of its name, in order.
		const id = response.id ?? state.open.get(name)?.shift() ?? null;
		if (response.id !== undefined && state.recorded.has(response.id)) {
			continue; // A toolCalls entry already gives this result.
		}

		const shell = isShellTool(name) ? shellOutcome(response.output) : undefined;
		const exitCode = shell?.exitCode;
		results.push({
			...shared,
			kind: 'tool_result',
			result: {call_id: id, is_error: response.failed || shell?.failed === true, ...(exitCode === undefined ? {} : {exit_code: exitCode}), output: response.output},
		});
	}

	state.open = new Map();
	return {results, leading};
}
