import type {SessionEvent, SessionInfo, SessionRow} from '../events.js';
import {lastCount, markDiscardedTail} from '../shared/discarded.js';
import {isInjectedText, isRecord, shortError} from '../shared/text.js';
import {dataUrlType, mediaTypeNote, notePromptMedia, type PromptMediaPlace} from '../shared/media.js';
import type {LoadedSession} from '../types.js';
import type {OpencodeMessage, OpencodePart} from './schema.js';
import {isoTime} from './time.js';
import {toolEvents} from './tools.js';

/** One message read from either storage, with its parts in order and where each came from. */
export type MessageInput = {
	readonly line: number;
	readonly raw: unknown;
	readonly message: OpencodeMessage;
	readonly parts: ReadonlyArray<{readonly part: OpencodePart; readonly where: string}>;
};

/** What a session states about itself (database row or storage session file). */
export type SessionContext = {
	readonly facts: SessionInfo;
	/**
	 * A Task child session: its "user" turns are prompts the parent agent wrote, so none of them
	 * is a human request.
	 */
	readonly child: boolean;
	/**
	 * The message `/undo` reverted the session to (`session.revert.messageID`): OpenCode hides it
	 * and every later message, and deletes them when the session continues. A part-level revert
	 * names the message holding the part, and that cleanup removes the whole message too.
	 */
	readonly revertedFrom?: string;
	/**
	 * A fork's copy of the history it was forked from (session/session.ts `fork`; 2.x
	 * session/projector.ts `projectFork`): OpenCode copies the source's messages into the new
	 * session under new ids, each keeping its creation time, so the copies are the session's
	 * opening run of messages created before the session was (`before`, its creation time). The
	 * source session is `from` where it is known. The copy is the source's conversation, read in
	 * that session: here it is one notice.
	 */
	readonly fork?: ForkCopy;
};

/** Parts that carry nothing for the event model: reasoning is never shown, the rest is bookkeeping. */
const silentParts = new Set(['reasoning', 'step-start', 'step-finish', 'snapshot', 'patch', 'agent']);

const maxWarnings = 20;

function timed(timestamp: string | undefined): {timestamp?: string} {
	return timestamp === undefined ? {} : {timestamp};
}

/** A file part as text. Inline `data:` URLs are described, never copied (they hold base64 payloads). */
function fileText(part: OpencodePart): string {
	const url = part.url ?? '';
	const inline = url.startsWith('data:');
	const name = part.filename ?? (inline || url === '' ? 'attachment' : url);
	const mime = part.mime ? ` (${part.mime})` : '';
	const where = inline ? ', inline data' : url !== '' && url !== name ? ` ${url}` : '';
	return `Attached file: ${name}${mime}${where}`;
}

function compactionText(part: OpencodePart): string {
	return `Conversation compacted (${part.auto === false ? 'requested' : 'automatic'}${part.overflow ? ', context overflow' : ''})`;
}

function namedErrorText(value: unknown): string {
	if (!isRecord(value)) {
		return typeof value === 'string' ? value : 'error';
	}

	const name = typeof value['name'] === 'string' ? value['name'] : 'UnknownError';
	const data = value['data'];
	const message = isRecord(data) && typeof data['message'] === 'string' ? data['message'] : undefined;
	return message ? `${name}: ${message}` : name;
}

type PartResult = SessionEvent[] | null;

/** Events of one part; null for a part type this adapter does not know. */
function partEvents(message: OpencodeMessage, part: OpencodePart, base: SessionEvent, context: SessionContext, replayed: boolean): PartResult {
	const messageTime = base.timestamp;
	const partTime = isoTime(part.time?.start ?? part.time?.created) ?? messageTime;
	const shared: SessionEvent = {...base, ...timed(partTime), ...(part.id ? {uuid: part.id} : {})};
	switch (part.type) {
		case 'text': {
			const text = part.text ?? '';
			if (text.trim() === '') {
				return [];
			}

			if (message.role === 'user') {
				if (replayed) {
					return [{...shared, kind: 'user', text, human: false, origin: 'host'}];
				}

				const human = part.synthetic !== true && part.ignored !== true && !context.child && !isInjectedText(text);
				// A child session's prompt is the task its parent agent wrote.
				return [{...shared, kind: 'user', text, human, ...(context.child && !human ? {origin: 'agent' as const} : {})}];
			}

			// A compaction summary is written by the model for itself: never a reply to show as one.
			return [{...shared, kind: message.summary === true ? 'summary' : 'assistant', text, ...messageIdOf(message)}];
		}

		case 'tool':
			return toolEvents(part, shared, messageIdOf(message), failedRequest(message));
		case 'file':
			return [{...shared, kind: 'system', text: fileText(part)}];
		case 'compaction':
			return [{...shared, kind: 'system', text: compactionText(part)}];
		case 'subtask':
			return [{...shared, kind: 'system', text: `Subtask for @${part.agent ?? 'agent'}: ${part.description ?? ''}`.trim()}, ...commandRequest(message, part, shared, context, replayed)];
		case 'retry':
			// A retry that later succeeds is not a failure; the message's own `error` records a final one.
			return [{...shared, kind: 'system', text: `Retrying (attempt ${part.attempt ?? '?'}) after ${namedErrorText(part.error)}`}];
		default:
			return silentParts.has(part.type) ? [] : null;
	}
}

/**
 * A command bound to a subagent, which the person ran: OpenCode stores its expanded template as the
 * subtask's prompt in place of the text parts an ordinary command writes (session/prompt.ts
 * `command`), and counts that message as the person's turn (`ensureTitle`). A subtask part without
 * a command was sent by a plugin or the SDK, and a child session's turns are its parent agent's.
 */
function commandRequest(message: OpencodeMessage, part: OpencodePart, shared: SessionEvent, context: SessionContext, replayed: boolean): SessionEvent[] {
	const text = commandText(part);
	if (message.role !== 'user' || context.child || text === undefined) {
		return [];
	}

	// Sent again after an overflow compaction: the host's copy, as a replayed text request is.
	return [{...shared, kind: 'user', text, ...(replayed ? {human: false, origin: 'host' as const} : {human: true})}];
}

/** What a person asked with a command bound to a subagent: its prompt, or the command when that is empty. */
function commandText(part: OpencodePart): string | undefined {
	const command = part.type === 'subtask' ? part.command?.trim() ?? '' : '';
	if (command === '') {
		return undefined;
	}

	const prompt = part.prompt?.trim() ?? '';
	return prompt === '' ? `/${command}` : prompt;
}

/** Whether an assistant message ended in an error that no abort caused (an APIError, an overflow …). */
function failedRequest(message: OpencodeMessage): boolean {
	return message.role === 'assistant' && message.error !== undefined && message.error.name !== 'MessageAbortedError';
}

function messageIdOf(message: OpencodeMessage): {message_id?: string} {
	return message.id ? {message_id: message.id} : {};
}

/** The end of an assistant message: a user abort or a failed request, where the store records one. */
function messageErrorEvents(message: OpencodeMessage, base: SessionEvent): SessionEvent[] {
	const error = message.error;
	if (message.role !== 'assistant' || !error) {
		return [];
	}

	const timestamp = isoTime(message.time?.completed) ?? base.timestamp;
	const event: SessionEvent = {...base, ...timed(timestamp), ...(message.id ? {uuid: message.id} : {})};
	const detail = error.data?.message;
	if (error.name === 'MessageAbortedError') {
		return [{...event, kind: 'system', text: detail ?? 'The operation was aborted.', interrupted: true}];
	}

	const text = namedErrorText(error);
	return [{...event, kind: 'system', text, error: shortError(text)}];
}

function modelOf(message: OpencodeMessage): string | undefined {
	return message.modelID ?? message.model?.modelID;
}

function cwdOf(message: OpencodeMessage): string | undefined {
	const path = message.path;
	return typeof path === 'string' ? path : path?.cwd;
}

/**
 * Folds ordered messages into rows. Session facts go on a meta event at the first row; a model or
 * working directory the session did not state is taken from the first message that states it.
 * Parts of unknown types are skipped and counted, with a warning naming only where they are.
 */
export function rowsFromMessages(context: SessionContext, messages: readonly MessageInput[], skipped: number, warnings: string[]): LoadedSession {
	const rows: SessionRow[] = [];
	let pendingFacts: SessionInfo | undefined = Object.keys(context.facts).length > 0 ? context.facts : undefined;
	let model = context.facts.model;
	let cwd = context.facts.cwd;
	let skippedParts = 0;
	const copies = copiedCount(messages, context.fork);
	const replays = replayWatch();
	messages.forEach((input, index) => {
		const {message, line} = input;
		const replayed = replays.next(input);
		const copied = index < copies;
		// A copy's time is the source's, not this session's: its events carry none.
		const base: SessionEvent = {line, kind: 'meta', ...(copied ? {} : timed(isoTime(message.time?.created)))};
		const events: SessionEvent[] = [];
		const facts: SessionInfo = {...pendingFacts};
		pendingFacts = undefined;
		if (model === undefined && modelOf(message)) {
			model = modelOf(message);
			facts.model = model;
		}

		if (cwd === undefined && cwdOf(message)) {
			cwd = cwdOf(message);
			facts.cwd = cwd;
		}

		if (Object.keys(facts).length > 0) {
			events.push({...base, kind: 'meta', session: facts});
		}

		if (copied) {
			events.push(...(index === 0 ? [forkNotice(base, context.fork?.from)] : []));
			rows.push({line, raw: input.raw, events});
			return;
		}

		// A prompt's pasted media (inline `data:` files) are noted on its request, as other sources do.
		const notes: string[] = [];
		for (const {part, where} of input.parts) {
			if (message.role === 'user' && !replayed && part.type === 'file' && part.url?.startsWith('data:')) {
				notes.push(mediaTypeNote(part.mime ?? dataUrlType(part.url)));
				continue;
			}

			const produced = partEvents(message, part, base, context, replayed);
			if (produced === null) {
				skippedParts++;
				if (warnings.length < maxWarnings) {
					warnings.push(`${where}: skipped a part of an unknown type`);
				}

				continue;
			}

			events.push(...produced);
		}

		events.push(...messageErrorEvents(message, base));
		rows.push({line, raw: input.raw, events: notePromptMedia(events, notes, promptMediaPlace(base, context))});
	});

	markReverted(rows, messages, context.revertedFrom);
	return {rows, skipped: skipped + skippedParts, warnings};
}

/**
 * Where a user message's media notes go: its last request, or, for media sent without a word, a
 * request of their notes alone (the person's, or in a child session the task its parent wrote).
 */
function promptMediaPlace(base: SessionEvent, context: SessionContext): PromptMediaPlace {
	return {
		isRequest: event => event.kind === 'user' && (event.human === true || (context.child && event.origin === 'agent')),
		alone: text => [{...base, kind: 'user', text, human: !context.child, ...(context.child ? {origin: 'agent' as const} : {})}],
	};
}

/** What a person typed in a user message: its text parts that are neither synthetic nor ignored, and the commands they ran. */
function typedText(input: MessageInput): string {
	return input.parts
		.map(({part}) => (part.type === 'text' && part.synthetic !== true && part.ignored !== true ? (part.text ?? '').trim() : (commandText(part) ?? '')))
		.filter(text => text !== '' && !replayedMedia.test(text))
		.join('\n');
}

/** What a replay writes in place of a media attachment it drops (session/compaction.ts). */
const replayedMedia = /^\[Attached [^\]\n]*\]$/;

/**
 * A compaction forced by a request too large for the model (compaction part `overflow`) ends
 * with OpenCode sending that request again (session/compaction.ts, `replay`): a new user message
 * right after the summary, holding copies of the request's parts (a media file as a line of text).
 * The copy is the host's, not a second request from the person. Watches the messages in order
 * and tells, for each, whether it is such a copy.
 */
function replayWatch() {
	let request: string | undefined;
	let overflowed = false;
	let afterSummary = false;
	return {
		next(input: MessageInput): boolean {
			const {message} = input;
			const follows = afterSummary;
			afterSummary = overflowed && message.role === 'assistant' && message.summary === true;
			if (message.role !== 'user') {
				return false;
			}

			overflowed = input.parts.some(({part}) => part.type === 'compaction' && part.overflow === true);
			const typed = typedText(input);
			const replayed = follows && typed !== '' && typed === request;
			if (typed !== '' && !replayed) {
				request = typed;
			}

			return replayed;
		},
	};
}

/**
 * Times before 1e11 ms (1973) are no epoch milliseconds (a writer that stored seconds): they say
 * nothing of when a message was created relative to its session.
 */
const earliestMillis = 1e11;

/**
 * What says a session may open with a fork's copy: its creation time, the source where it is known,
 * and whether the session says it is a fork (2.x `fork_session_id`, or the "(fork #N)" title 1.x
 * gives it).
 */
export type ForkCopy = {readonly before: number; readonly from?: string; readonly stated: boolean};

/**
 * How many of the opening messages were created before the session: a fork's copy of its source's
 * history. Every message being older says so only with the session saying it is a fork: OpenCode's
 * move of the JSON tree into the database dates a session that states no creation time at the move.
 */
export function copiedCount(messages: readonly MessageInput[], fork: ForkCopy | undefined): number {
	if (fork === undefined || fork.before < earliestMillis) {
		return 0;
	}

	const own = messages.findIndex(input => {
		const created = input.message.time?.created;
		return created === undefined || created < earliestMillis || created >= fork.before;
	});
	return own === -1 ? (fork.stated ? messages.length : 0) : own;
}

function forkNotice(base: SessionEvent, from: string | undefined): SessionEvent {
	const source = from === undefined ? 'the session this one was forked from' : `session ${from}, which this one was forked from`;
	return {...base, kind: 'system', text: `History copied from ${source}; it is read in that session`};
}

/** Labels what an `/undo` discarded as a rewind does (shared/discarded.ts). */
function markReverted(rows: SessionRow[], messages: readonly MessageInput[], revertedFrom: string | undefined): void {
	const first = revertedFrom === undefined ? -1 : messages.findIndex(input => input.message.id === revertedFrom);
	markDiscardedTail(rows, first, count => `Reverted with /undo: ${lastCount(count, 'message')} discarded when the session continues`);
}
