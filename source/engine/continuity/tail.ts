import type {SessionEvent} from '../../adapters/events.js';
import {liveEvents} from '../conversation/branches.js';
import {clipMasked} from '../search/secrets.js';

export type TailState = {
	/** Only the last window of a large file was read. */
	bounded: boolean;
	/** Line of the last row read. */
	last_line: number;
	/** Newest timestamp among the events read. */
	last_activity: string | null;
	last_human: {line: number; text: string; timestamp: string | null} | null;
	last_assistant: {line: number; timestamp: string | null} | null;
	/** The last human request has no reply after it. */
	unanswered: {line: number} | null;
	/** Tool calls in the final turn with no result (or marked running by the store). */
	pending: Array<{line: number; name: string; call_id: string | null}>;
	/** The last tool result of the final turn, when it failed. */
	failure: {line: number; name: string | null; exit_code: number | null; preview: string} | null;
	/** An interruption, cancellation or request error in the final turn. */
	interruption: {line: number; detail: string} | null;
	/** The final turn closes with the assistant's reply (no tool activity after it). */
	ends_with_reply: boolean;
};

const previewLength = 200;

/** A one-line, secret-masked head of transcript text (the catalog stores it, listings show it). */
function oneLine(text: string, max = previewLength): string {
	return clipMasked(text.trimStart(), max, {oneLine: true}).text;
}

/**
 * What the end of a session says about whether its work finished: the last human request and
 * whether anything answered it, tool calls left without results, the last tool failure and any
 * interruption in the final turn. Subagent (sidechain) records never count as the main turn.
 */
export function computeTail(allEvents: readonly SessionEvent[], bounded: boolean, options: {recordsToolResults?: boolean} = {}): TailState {
	const events = liveEvents(allEvents.filter(event => !event.sidechain));
	const state: TailState = {
		bounded,
		last_line: 0,
		last_activity: null,
		last_human: null,
		last_assistant: null,
		unanswered: null,
		pending: [],
		failure: null,
		interruption: null,
		ends_with_reply: false,
	};
	for (const event of allEvents) {
		// Events the end of a file decides come last, on the earlier lines they were read from.
		state.last_line = Math.max(state.last_line, event.line);
		if (event.timestamp && (state.last_activity === null || event.timestamp > state.last_activity)) {
			state.last_activity = event.timestamp;
		}
	}

	let turnStart = -1;
	events.forEach((event, index) => {
		if (event.kind === 'user' && event.human) {
			turnStart = index;
		}

		if (event.kind === 'assistant' && event.text?.trim()) {
			state.last_assistant = {line: event.line, timestamp: event.timestamp ?? null};
		}
	});
	const lastHuman = events[turnStart];
	if (lastHuman) {
		state.last_human = {line: lastHuman.line, text: oneLine(lastHuman.text ?? ''), timestamp: lastHuman.timestamp ?? null};
	}

	const finalTurn = events.slice(Math.max(0, turnStart));
	const replied = finalTurn.some(event => event.kind === 'assistant' || event.kind === 'tool_call');
	if (state.last_human && !replied) {
		state.unanswered = {line: state.last_human.line};
	}

	// Stores that leave tool results out (some IDE exports) cannot show a call as pending, unless
	// this session shows results after all.
	const recordsResults = options.recordsToolResults !== false || allEvents.some(event => event.kind === 'tool_result');
	const answered = new Set(finalTurn.filter(event => event.kind === 'tool_result' && event.result?.call_id).map(event => event.result!.call_id!));
	const callNames = new Map<string, string>();
	for (const event of finalTurn) {
		if (event.kind !== 'tool_call' || !event.tool) {
			continue;
		}

		if (event.tool.call_id) {
			callNames.set(event.tool.call_id, event.tool.name);
		}

		const unpaired = recordsResults && event.tool.call_id !== null && !answered.has(event.tool.call_id);
		if (event.pending || unpaired) {
			state.pending.push({line: event.line, name: event.tool.name, call_id: event.tool.call_id});
		}
	}

	const lastResult = finalTurn.filter(event => event.kind === 'tool_result').at(-1);
	if (lastResult?.result?.is_error) {
		state.failure = {
			line: lastResult.line,
			name: (lastResult.result.call_id && callNames.get(lastResult.result.call_id)) ?? null,
			exit_code: lastResult.result.exit_code ?? null,
			preview: oneLine(lastResult.result.output, 160),
		};
	}

	// A turn the agent went on with after an error or an interruption (a retried request, a bad
	// call it corrected) is no interrupted turn: only one that stops there, or after it says nothing.
	const stopAt = finalTurn.findLastIndex(event => event.interrupted || (event.error && event.kind !== 'tool_result'));
	const stop = stopAt === -1 || finalTurn.slice(stopAt + 1).some(isReply) ? undefined : finalTurn[stopAt];
	if (stop) {
		state.interruption = {line: stop.line, detail: oneLine(stop.error ?? stop.text ?? 'interrupted', 160)};
	}

	const substantive = finalTurn.filter(event => ['user', 'assistant', 'tool_call', 'tool_result'].includes(event.kind) && !(event.kind === 'user' && !event.human));
	const last = substantive.at(-1);
	state.ends_with_reply = last?.kind === 'assistant' && Boolean(last.text?.trim()) && !last.error;
	return state;
}

/** Words the agent said: an assistant event with text that is no error. */
function isReply(event: SessionEvent): boolean {
	return event.kind === 'assistant' && Boolean(event.text?.trim()) && !event.error && !event.interrupted;
}
