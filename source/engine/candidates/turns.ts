import type {SessionEvent} from '../../adapters/events.js';
import {authorOf} from '../conversation/author.js';
import {isAbandoned, type LineRanges} from '../conversation/branches.js';
import {commandOf, filesTouched} from '../conversation/tool-calls.js';
import {withoutPrivateSpans} from './private-spans.js';

/**
 * A session as numbered turns: what a candidate's facts cite and what a distiller is shown.
 * Harvest, evidence and the citation filter all number turns here, so turn 12 of a note's
 * command list is turn 12 of the evidence a distiller cites. A turn is one request or message
 * of the live conversation: a user turn (a person's request, or text the host or another agent
 * put in the user's place), an assistant message, or a tool call together with its result.
 * Subagent records and abandoned branches are not the conversation and get no number.
 */
export type ToolStatus = 'ok' | 'failed' | 'no_result';

export type Turn = {
	readonly n: number;
	/** Source line of the event that opened the turn. */
	readonly line: number;
	readonly kind: 'user' | 'assistant' | 'tool';
	/** User turns: a person typed it, or the host or an agent put it there. */
	readonly author?: 'human' | 'host' | 'agent';
	/** Raw text (user text without its private spans), cut to a window; masked by whoever shows it. */
	readonly text: string;
	readonly chars: number;
	readonly privateSpans: number;
	readonly tool?: ToolTurn;
};

export type ToolTurn = {
	readonly name: string;
	readonly callId: string | null;
	/** The shell command it ran, when it ran one (raw window). */
	readonly command: string | undefined;
	readonly files: readonly string[];
	/** What any other call was asked (its input as JSON, raw window); empty for commands and file edits. */
	readonly input: string;
	status: ToolStatus;
	exitCode: number | null;
	resultLine: number | null;
	/** Raw head and tail windows of the result's output, and its length. */
	outputHead: string;
	outputTail: string;
	outputChars: number;
};

/** Enough raw text for any excerpt taken from it, with room for a secret that straddles the cut. */
const textWindow = 8 * 1024;
const outputWindow = 4 * 1024;

const windowOf = (text: string, size: number) => (text.length > size ? text.slice(0, size) : text);

function settle(tool: ToolTurn, result: NonNullable<SessionEvent['result']>, line: number): void {
	const exit = result.exit_code ?? null;
	tool.status = result.is_error || (exit !== null && exit !== 0) ? 'failed' : 'ok';
	tool.exitCode = exit;
	tool.resultLine = line;
	tool.outputChars = result.output.length;
	tool.outputHead = windowOf(result.output, outputWindow);
	tool.outputTail = result.output.length > outputWindow ? result.output.slice(-outputWindow) : '';
}

/**
 * Numbers the turns of events given in file order. `onTurn` sees each turn as it opens; a tool
 * turn's status, exit code and output are filled in when its result arrives, on the same object,
 * so a consumer that keeps a turn sees its final state once every event has been added.
 */
export function createTurnBuilder(options: {abandoned: LineRanges; onTurn: (turn: Turn) => void}) {
	let count = 0;
	const open = new Map<string, ToolTurn>();
	// Calls of stores without call ids are answered by the next result without one.
	const unnamed: ToolTurn[] = [];
	const emit = (turn: Omit<Turn, 'n'>) => {
		count++;
		options.onTurn({n: count, ...turn});
	};

	function add(event: SessionEvent): void {
		if (event.sidechain || isAbandoned(event, options.abandoned)) {
			return;
		}

		switch (event.kind) {
			case 'user': {
				const raw = event.text ?? '';
				if (raw.trim() === '') {
					return;
				}

				const kept = withoutPrivateSpans(raw);
				emit({line: event.line, kind: 'user', author: authorOf(event), text: windowOf(kept.text, textWindow), chars: kept.text.length, privateSpans: kept.spans});
				return;
			}

			case 'assistant': {
				const text = event.text ?? '';
				if (text.trim() !== '') {
					emit({line: event.line, kind: 'assistant', text: windowOf(text, textWindow), chars: text.length, privateSpans: 0});
				}

				return;
			}

			case 'tool_call': {
				if (!event.tool) {
					return;
				}

				const command = commandOf(event);
				const files = filesTouched(event);
				const input = event.tool.input;
				const tool: ToolTurn = {
					name: event.tool.name,
					callId: event.tool.call_id,
					command: command === undefined ? undefined : windowOf(command, textWindow),
					files,
					input: command !== undefined || files.length > 0 || input === undefined || input === null ? '' : windowOf(typeof input === 'string' ? input : (JSON.stringify(input) ?? ''), outputWindow),
					status: 'no_result',
					exitCode: null,
					resultLine: null,
					outputHead: '',
					outputTail: '',
					outputChars: 0,
				};
				if (!event.pending) {
					if (tool.callId === null) {
						unnamed.push(tool);
					} else {
						open.set(tool.callId, tool);
					}
				}

				emit({line: event.line, kind: 'tool', text: '', chars: 0, privateSpans: 0, tool});
				return;
			}

			case 'tool_result': {
				if (!event.result) {
					return;
				}

				const callId = event.result.call_id;
				const tool = callId === null ? unnamed.shift() : open.get(callId);
				if (tool) {
					if (callId !== null) {
						open.delete(callId);
					}

					settle(tool, event.result, event.line);
					return;
				}

				// A result whose call is not in view (before a compaction, on an abandoned branch) is still evidence.
				const orphan: ToolTurn = {name: 'tool', callId, command: undefined, files: [], input: '', status: 'no_result', exitCode: null, resultLine: null, outputHead: '', outputTail: '', outputChars: 0};
				settle(orphan, event.result, event.line);
				emit({line: event.line, kind: 'tool', text: '', chars: 0, privateSpans: 0, tool: orphan});
				return;
			}

			default:
				// System text, compaction summaries and bookkeeping are the host's, not turns of the conversation.
				return;
		}
	}

	return {
		add,
		/** How many turns so far. */
		count: () => count,
	};
}
