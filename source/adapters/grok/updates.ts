import type {SessionEvent, SessionRow} from '../events.js';
import {mediaNote, withNoteLines} from '../shared/media.js';
import {exitCodeFromText, isRecord, stringOf, textOf} from '../shared/text.js';
import {interjectionQuery, isGrokInjected} from './chat.js';
import {parseJsonArguments} from '../shared/text.js';
import {acpMethod, isHostTurn, isTerminal, metaNumber, notificationOf, structuredExitCode, toolOutput, xaiMethod, type Notification} from './notification.js';
import type {GrokUpdate} from './schema.js';
import {xaiEvents} from './xai.js';

/**
 * `updates.jsonl`, the authoritative ACP stream (formats.md §6): one JSON-RPC notification per
 * line, `{timestamp, method: "session/update" | "_x.ai/session/update", params:{sessionId,
 * update}}`. Message text arrives as many chunk lines; consecutive chunks of one message are
 * merged into one event whose row is the first chunk's line (that row's `raw` is the list of
 * merged records). Tool calls are resolved by later `tool_call_update` lines, so the whole file
 * is read before a call can be called pending.
 */

/** ACP updates that carry nothing for the event model. */
const acpBookkeeping = new Set(['plan', 'available_commands_update', 'current_mode_update', 'config_option_update', 'usage_update']);

type MessageRun = {
	kind: 'user' | 'assistant';
	key: string;
	row: {events: SessionEvent[]; raw: unknown[]};
	event: SessionEvent;
	parts: string[];
	/** Notes of the media a user message sent (one chunk per content block), in order. */
	notes: string[];
	human: boolean;
};

type CallState = {event: SessionEvent; status: string | undefined; toolKind: string | undefined};

/**
 * ACP tool kinds whose output is a file, a search or a fetch, never a process's: a status such as
 * "exit code 1" in it is text the tool read. Only `execute` (and `other`, or no kind) runs one.
 */
const kindsWithoutExit = new Set(['read', 'edit', 'delete', 'move', 'search', 'think', 'fetch', 'switch_mode']);

function statesNoExit(toolKind: string | undefined): boolean {
	return toolKind !== undefined && kindsWithoutExit.has(toolKind);
}

/**
 * A call's tool name. ACP gives a display `title` and a `kind`, no name; Grok states its own tool
 * in `_meta["x.ai/tool"].name` (`search_replace` where the title reads "Edit"), the name
 * chat_history.jsonl gives the same call. Older writers put that name in the title itself.
 */
function toolName(update: GrokUpdate): string {
	const native = update._meta?.['x.ai/tool'];
	const name = isRecord(native) ? stringOf(native['name'])?.trim() : undefined;
	return name || (update.title ?? update.kind ?? 'unknown');
}

function isEmptyInput(input: unknown): boolean {
	return input === null || (isRecord(input) && Object.keys(input).length === 0);
}

export function createUpdatesReducer() {
	const rows: SessionRow[] = [];
	const calls = new Map<string, CallState>();
	const resolved = new Set<string>();
	let run: MessageRun | undefined;
	let sawPromptIndex = false;
	/** Lines where the live conversation's prompts start, in order: what a rewind counts. */
	let promptStarts: number[] = [];
	let statedSessionId: string | undefined;

	function sessionFacts(notification: Notification, line: number): SessionEvent[] {
		const id = notification.sessionId;
		if (!id || id === statedSessionId) {
			return [];
		}

		statedSessionId = id;
		return [{line, kind: 'meta', ...(notification.timestamp ? {timestamp: notification.timestamp} : {}), session: {id}}];
	}

	/** Ends the open message: its text is now whole, so a user turn can be judged human or not. */
	function closeRun(): void {
		if (!run) {
			return;
		}

		const {event, row} = run;
		if (run.kind === 'user') {
			const typed = run.parts.join('\n');
			event.human = run.human && !isGrokInjected(typed);
			// An interjection starts no prompt, so it has no promptIndex: its note tells it from the runtime's injections.
			const interjected = event.human ? undefined : interjectionQuery(typed);
			if (interjected !== undefined) {
				event.human = true;
			}

			event.text = withNoteLines(interjected ?? typed, run.notes);
		} else {
			event.text = run.parts.join('');
			if (event.text.trim() === '') {
				row.events.splice(row.events.indexOf(event), 1);
			}
		}

		run = undefined;
	}

	function chunkText(update: GrokUpdate): string {
		return textOf(update.content);
	}

	/**
	 * Adds one chunk's content to the open message: a prompt sends each of its ACP content blocks
	 * as a chunk of its own, so an image (`{type: "image", data, mimeType}`) is a chunk, noted by
	 * its media type and never copied; a reply's chunks are text.
	 */
	function addContent(open: MessageRun, update: GrokUpdate): void {
		const note = open.kind === 'user' ? mediaNote(update.content) : undefined;
		if (note === undefined) {
			open.parts.push(chunkText(update));
		} else {
			open.notes.push(note);
		}
	}

	/** A user or agent message chunk: continues the open message, or starts a new one. */
	function addChunk(notification: Notification, value: unknown, line: number, facts: SessionEvent[]): void {
		const {update} = notification;
		const kind = update.sessionUpdate === 'user_message_chunk' ? 'user' : 'assistant';
		const promptIndex = metaNumber(update, 'promptIndex');
		const host = isHostTurn(update);
		const key = kind === 'user' ? `${promptIndex ?? '-'}:${host}` : (update.messageId ?? '');
		if (run && run.kind === kind && run.key === key) {
			addContent(run, update);
			run.row.raw.push(value);
			run.row.events.push(...facts);
			return;
		}

		closeRun();
		if (kind === 'assistant' && host) {
			// Grok's own replay treats a host-turn agent chunk as a boundary, not as reply text.
			rows.push({line, raw: value, events: facts});
			return;
		}

		if (promptIndex !== undefined) {
			sawPromptIndex = true;
		}

		const event: SessionEvent = {line, kind, ...(notification.timestamp ? {timestamp: notification.timestamp} : {}), ...(update.messageId ? {message_id: update.messageId} : {})};
		const row = {line, raw: [value], events: [...facts, event]};
		rows.push(row);
		// Once the stream numbers prompts, an unnumbered user run is a mid-turn injection, not a prompt.
		const human = kind === 'user' && !host && (promptIndex !== undefined || !sawPromptIndex);
		if (human) {
			promptStarts.push(line);
		}

		run = {kind, key, row, event, parts: [], notes: [], human};
		addContent(run, update);
	}

	function resultEvent(update: GrokUpdate, callId: string, base: Omit<SessionEvent, 'kind'>): SessionEvent {
		resolved.add(callId);
		const output = toolOutput(update);
		const toolKind = update.kind ?? calls.get(callId)?.toolKind;
		const exitCode = structuredExitCode(update.rawOutput) ?? (statesNoExit(toolKind) ? undefined : exitCodeFromText(output));
		const failed = update.status === 'failed' || (exitCode !== undefined && exitCode !== 0);
		return {...base, kind: 'tool_result', result: {call_id: callId, is_error: failed, ...(exitCode === undefined ? {} : {exit_code: exitCode}), output}};
	}

	function toolCallEvents(update: GrokUpdate, base: Omit<SessionEvent, 'kind'>): SessionEvent[] {
		const id = update.toolCallId ?? undefined;
		if (id !== undefined && calls.has(id)) {
			return toolCallUpdateEvents(update, base); // A re-sent call updates the first one.
		}

		const event: SessionEvent = {...base, kind: 'tool_call', tool: {name: toolName(update), call_id: id ?? null, input: parseJsonArguments(update.rawInput)}};
		if (id === undefined) {
			return [event];
		}

		calls.set(id, {event, status: update.status ?? 'pending', toolKind: update.kind});
		return isTerminal(update.status) ? [event, resultEvent(update, id, base)] : [event];
	}

	function toolCallUpdateEvents(update: GrokUpdate, base: Omit<SessionEvent, 'kind'>): SessionEvent[] {
		const id = update.toolCallId ?? undefined;
		if (id === undefined) {
			return [];
		}

		const call = calls.get(id);
		if (call) {
			// Arguments can arrive after the call, or grow (a `{}` while streaming): an update's rawInput
			// replaces the call's (ACP updates carry the fields that changed); an empty one adds nothing.
			const input = parseJsonArguments(update.rawInput);
			if (call.event.tool && (call.event.tool.input === null || !isEmptyInput(input))) {
				call.event.tool.input = input ?? call.event.tool.input;
			}

			call.status = update.status ?? call.status;
		}

		return isTerminal(update.status) && !resolved.has(id) ? [resultEvent(update, id, base)] : [];
	}

	function acpEvents(update: GrokUpdate, base: Omit<SessionEvent, 'kind'>): SessionEvent[] | null {
		switch (update.sessionUpdate) {
			case 'tool_call':
				return toolCallEvents(update, base);
			case 'tool_call_update':
				return toolCallUpdateEvents(update, base);
			case 'session_info_update': {
				const title = stringOf(update['title']);
				return title ? [{...base, kind: 'meta', session: {title}}] : [];
			}

			default:
				return acpBookkeeping.has(update.sessionUpdate) ? [] : null;
		}
	}

	/**
	 * `rewind_marker {target_prompt_index: n}`: the conversation goes back to just before its
	 * prompt number n (from 0), as Grok's own replay truncates it; that prompt and everything
	 * after it up to the marker is an abandoned branch, and later prompts count from n again.
	 */
	function rewind(update: GrokUpdate): Pick<SessionEvent, 'rewound_from'> {
		const target = update['target_prompt_index'];
		if (typeof target !== 'number' || !Number.isInteger(target) || target < 0) {
			return {};
		}

		const from = promptStarts[target];
		promptStarts = promptStarts.slice(0, target);
		return from === undefined ? {} : {rewound_from: from};
	}

	/** Adds one parsed line; false when it is no session update this reader knows (skipped). */
	function add(value: unknown, line: number): boolean {
		const notification = notificationOf(value);
		if (!notification || (notification.method !== acpMethod && notification.method !== xaiMethod)) {
			return false;
		}

		const {update} = notification;
		const base = {line, ...(notification.timestamp ? {timestamp: notification.timestamp} : {})};
		let events: SessionEvent[] | null;
		if (notification.method === acpMethod && (update.sessionUpdate === 'user_message_chunk' || update.sessionUpdate === 'agent_message_chunk')) {
			addChunk(notification, value, line, sessionFacts(notification, line));
			return true;
		}

		if (notification.method === acpMethod && update.sessionUpdate === 'agent_thought_chunk') {
			// Reasoning is never shown; it ends a user message but not the reply it interleaves with.
			if (run?.kind === 'user') {
				closeRun();
			}

			events = [];
		} else {
			closeRun();
			events = notification.method === acpMethod ? acpEvents(update, base) : xaiEvents(update, base);
			if (events && notification.method === xaiMethod && update.sessionUpdate === 'rewind_marker') {
				const discarded = rewind(update);
				events = events.map(event => ({...event, ...discarded}));
			}
		}

		if (events === null) {
			return false;
		}

		rows.push({line, raw: value, events: [...sessionFacts(notification, line), ...events]});
		return true;
	}

	/** Closes the last message and marks calls that never reached `completed` or `failed` as pending. */
	function finish(): SessionRow[] {
		closeRun();
		for (const [id, call] of calls) {
			if (!resolved.has(id) && (call.status === 'pending' || call.status === 'in_progress')) {
				call.event.pending = true;
			}
		}

		return rows;
	}

	return {add, finish};
}
