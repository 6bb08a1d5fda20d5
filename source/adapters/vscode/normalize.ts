import type {SessionEvent, SessionInfo, SessionRow} from '../events.js';
import {lastCount, markDiscardedTail} from '../shared/discarded.js';
import {mediaTypeNote, withNoteLines} from '../shared/media.js';
import {isInjectedText, isRecord, shortError} from '../shared/text.js';
import {SessionCorruptError, type DiscoveredUnit, type LoadedSession} from '../types.js';
import {localPathOfFileUri} from './discover.js';
import type {SessionDocument} from './replay.js';
import {requestsOf} from './requests.js';
import {toolInvocationSchema, vscodeRequestSchema, type VscodeRequest, type VscodeSession} from './schema.js';
import {conversationSummary, markdownText, referenceName, toolContext, toolEvents, type ConversationSummary, type ToolContext} from './tools.js';

type EventBase = Omit<SessionEvent, 'kind'>;
const maxWarnings = 20;

/** ResponseModelState values that end a turn without a full answer. */
const cancelledState = 2;
const failedState = 3;
/** Pending (0) and NeedsInput (4): the turn had not ended when the log was last written. */
const openStates = new Set([0, 4]);

/**
 * A turn still running, or waiting for the person, when its state was saved (the mutation log
 * keeps this live state; a snapshot saves it as cancelled). It gets no cancellation marker here,
 * as a window may still be running it: what it left open (a call, an unanswered request) is
 * what the engine sees.
 */
function isOpenTurn(request: VscodeRequest): boolean {
	return typeof request.modelState?.value === 'number' && openStates.has(request.modelState.value);
}

/** ResponseModelState NeedsInput: the turn stopped until the person answers something. */
const needsInputState = 4;

/**
 * A turn the log left needing input, for a reason the parts do not show as waiting: an MCP
 * elicitation is saved as `rejected` even while pending (ChatElicitationRequestPart.toJSON).
 * A tool awaiting approval is already a pending call, so it needs no marker.
 */
function unexplainedWait(request: VscodeRequest, replied: readonly SessionEvent[]): string | undefined {
	if (request.modelState?.value !== needsInputState || replied.some(event => event.pending === true)) {
		return undefined;
	}

	return 'Waiting for input';
}

/** VS Code stores times as epoch milliseconds. */
function isoFromMs(value: number | null | undefined): string | undefined {
	if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
		return undefined;
	}

	const date = new Date(value);
	return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** The typed request: a plain string before v2, else `message.text` (or its parts joined). */
function messageText(message: unknown): string {
	if (typeof message === 'string') {
		return message;
	}

	if (!isRecord(message)) {
		return '';
	}

	if (typeof message['text'] === 'string') {
		return message['text'];
	}

	const parts = Array.isArray(message['parts']) ? message['parts'] : [];
	return parts.map(part => (isRecord(part) && typeof part['text'] === 'string' ? part['text'] : '')).join('');
}

/**
 * Visible reply text a response part adds: markdown (no `kind`, `markdownContent`,
 * `markdownVuln`) and inline file references inside it. Thinking, progress, edits and the
 * other UI parts add none.
 */
function partText(part: Record<string, unknown>): string | undefined {
	const kind = part['kind'];
	if (kind === undefined || kind === null) {
		return markdownText(part);
	}

	if (kind === 'markdownContent' || kind === 'markdownVuln') {
		return markdownText(part['content']);
	}

	return kind === 'inlineReference' ? referenceName(part) : undefined;
}

/**
 * A request's response parts. Early builds stored the reply as one markdown string, or strings
 * among the parts; VS Code still reads each such string as markdown (ChatSessionStore), so it is
 * reply text here too. Anything else that is not a list holds no parts.
 */
function responseParts(response: unknown): readonly unknown[] {
	if (typeof response === 'string') {
		return [{value: response}];
	}

	return Array.isArray(response) ? response.map(part => (typeof part === 'string' ? {value: part} : part)) : [];
}

function isMarkdownPart(part: unknown): boolean {
	return isRecord(part) && (part['kind'] === undefined || part['kind'] === null || part['kind'] === 'markdownContent');
}

/**
 * The parts VS Code still shows of a response a restored checkpoint cut at an undo stop
 * (`shouldBeRemovedOnSend.afterUndoStop`): those before the stop, which it keeps for good when
 * the next request is sent; the rest was undone. As VS Code does, a stop between a code fence's
 * opening markdown and its `codeblockUri` cuts before the fence. Other responses are whole.
 */
function shownParts(parts: readonly unknown[], disablement: unknown): readonly unknown[] {
	const stop = isRecord(disablement) ? disablement['afterUndoStop'] : undefined;
	if (typeof stop !== 'string') {
		return parts;
	}

	let index = parts.findIndex(part => isRecord(part) && part['kind'] === 'undoStop' && part['id'] === stop);
	if (index === -1) {
		return parts;
	}

	const next = parts[index + 1];
	if (index > 0 && isRecord(next) && next['kind'] === 'codeblockUri' && isMarkdownPart(parts[index - 1])) {
		index--;
	}

	return parts.slice(0, index);
}

/** The part kinds VS Code shows as waiting for the person until `isUsed` (chatModel.ts, the chat inbox). */
const askingKinds = new Set(['confirmation', 'questionCarousel', 'planReview']);

/** A non-blank string field, else undefined. */
function nonBlank(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** The marker text for a part that asks the person: its title, or its first question's. */
function askingText(part: Record<string, unknown>): string {
	if (part['kind'] === 'questionCarousel') {
		const first = Array.isArray(part['questions']) ? part['questions'][0] : undefined;
		const title = isRecord(first) ? nonBlank(first['title']) : undefined;
		return title ? `Waiting for an answer: ${title}` : 'Waiting for an answer';
	}

	const title = nonBlank(part['title']);
	const waiting = part['kind'] === 'planReview' ? 'Waiting for plan review' : 'Waiting for confirmation';
	return title ? `${waiting}: ${title}` : waiting;
}

/** A part that shows the response went on: reply text or a tool call. */
function isProgress(part: unknown): boolean {
	if (!isRecord(part)) {
		return false;
	}

	return part['kind'] === 'toolInvocationSerialized' || (partText(part)?.trim() ?? '') !== '';
}

/**
 * The question a response left waiting for the person: an unused `confirmation` part (Copilot's
 * "Continue to iterate?" at its round limit, …), `questionCarousel` (the ask-questions tool) or
 * `planReview` (a plan to approve). VS Code counts one as the response needing input until
 * `isUsed`. The mutation log never records `isUsed` (it compares these parts by kind alone), so
 * one the response went on past, with text or a tool call, was answered.
 */
function waitingConfirmation(parts: readonly unknown[]): string | undefined {
	const index = parts.findLastIndex(candidate => isRecord(candidate) && typeof candidate['kind'] === 'string' && askingKinds.has(candidate['kind']) && candidate['isUsed'] !== true);
	const part = parts[index];
	return isRecord(part) && !parts.slice(index + 1).some(isProgress) ? askingText(part) : undefined;
}

/**
 * The tool parts a later part of the same response saves again under the same `toolCallId`: a
 * subagent call's updates are each kept, and only the last holds its final state and result.
 */
function supersededToolParts(parts: readonly unknown[]): ReadonlySet<unknown> {
	const last = new Map<string, unknown>();
	const superseded = new Set<unknown>();
	for (const part of parts) {
		if (isRecord(part) && part['kind'] === 'toolInvocationSerialized' && typeof part['toolCallId'] === 'string' && part['toolCallId'] !== '') {
			const earlier = last.get(part['toolCallId']);
			if (earlier !== undefined) {
				superseded.add(earlier);
			}

			last.set(part['toolCallId'], part);
		}
	}

	return superseded;
}

/** Reply text runs (VS Code streams markdown in many small parts) and tool events, in order. */
function responseEvents(parts: readonly unknown[], base: EventBase, context: ToolContext, openTurn: boolean): SessionEvent[] {
	const events: SessionEvent[] = [];
	const superseded = supersededToolParts(parts);
	let text = '';
	const flush = () => {
		if (text.trim() !== '') {
			events.push({...base, kind: 'assistant', text});
		}

		text = '';
	};

	for (const part of parts) {
		if (!isRecord(part)) {
			continue;
		}

		const added = partText(part);
		if (added !== undefined) {
			text += added;
			continue;
		}

		if (typeof part['kind'] === 'string' && noticeKinds.has(part['kind'])) {
			flush();
			events.push(...noticeEvents(part, base));
			continue;
		}

		if (part['kind'] === hookKind) {
			flush();
			events.push(...hookEvents(part, base));
			continue;
		}

		const tool = superseded.has(part) ? undefined : toolInvocationSchema.safeParse(part);
		if (tool?.success) {
			flush();
			events.push(...toolEvents(tool.data, base, context, openTurn));
		}
	}

	flush();
	return events;
}

/**
 * Response parts the chat view shows as notices, each `{content}`: a warning
 * (`IChatWarningMessage`: a quota switch, a setup problem), an info note (`IChatInfoMessage`:
 * Autopilot skipping a risky call) and a system notification (`IChatSystemNotificationPart`).
 */
const noticeKinds = new Set(['warning', 'info', 'systemNotification']);

/** The notice where it stood: the person saw it, but it is not the model's reply. */
function noticeEvents(part: Record<string, unknown>, base: EventBase): SessionEvent[] {
	const text = markdownText(part['content']).trim();
	return text === '' ? [] : [{...base, kind: 'system', text}];
}

/** A response part recording a hook's run (`IChatHookPart`); what it says is shown to the person. */
const hookKind = 'hook';

/**
 * A hook's message as a notice where it stood: `stopReason` when the hook blocked the step,
 * else its `systemMessage`. Named by its `hookType`; neither is the model's reply.
 */
function hookEvents(part: Record<string, unknown>, base: EventBase): SessionEvent[] {
	const hookType = nonBlank(part['hookType']);
	const stopped = nonBlank(part['stopReason']);
	const message = stopped ?? nonBlank(part['systemMessage']);
	if (message === undefined) {
		return [];
	}

	const label = hookType ? `${hookType} hook` : 'Hook';
	return [{...base, kind: 'system', text: `${label}${stopped ? ' blocked' : ''}: ${message.trim()}`}];
}

type ErrorDetails = NonNullable<VscodeRequest['responseErrorDetails']>;

/** The request's error details; the oldest sessions kept them beside the response, not in `result`. */
function errorDetailsOf(request: VscodeRequest): ErrorDetails | undefined {
	return request.result?.errorDetails ?? request.responseErrorDetails;
}

/**
 * Details that say the request was stopped: Copilot Chat ends a cancelled request with its
 * CanceledResult, `{message: "Canceled"}` (never localised: it is compared like an error name),
 * and VS Code does not count `code: "canceled"` as a failure (ChatResponseModel.state).
 */
function isCancellation(details: ErrorDetails): boolean {
	return details.code === 'canceled' || details.message === 'Canceled';
}

function wasCancelled(request: VscodeRequest): boolean {
	const details = errorDetailsOf(request);
	return request.isCanceled === true || request.modelState?.value === cancelledState || (details !== undefined && isCancellation(details));
}

function requestError(request: VscodeRequest): string | undefined {
	const details = errorDetailsOf(request);
	if (details && !isCancellation(details)) {
		return details.message?.trim() || 'Request failed';
	}

	return request.modelState?.value === failedState ? 'Request failed' : undefined;
}

/**
 * A request VS Code or one of its features sent, or one it hides from the transcript: not what a
 * person typed. A clicked confirmation button is sent as a request whose text VS Code made.
 */
function sentByVscode(request: VscodeRequest): boolean {
	const clicked = request.confirmation !== undefined && request.confirmation.trim() !== '';
	return clicked || request.isSystemInitiated === true || request.hiddenFromTranscript === true || request.requestHiddenFromTranscript === true || request.requestSource !== undefined;
}

/**
 * The notice VS Code sends as a request (older builds with no flag) when a command left running in
 * a background terminal ends: `[Terminal <id> notification: command completed with exit code N. …]`,
 * or without the id, then `Terminal output:`. Only that opening counts: a person who quotes it
 * later in a prompt writes on otherwise.
 */
const terminalNotice = /^\s*\[Terminal (?:[^\s\]]+ )?notification: /;

/**
 * Notes of the images a request attached, one each: `variableData.variables` entries of kind
 * `image` (IImageVariableEntry, a pasted or dropped picture, or an image URL) or, in builds before
 * entries had kinds, flagged `isImage`; each noted by its `mimeType`, its `value` (the bytes, or
 * the URL) and its name never copied. Files, symbols and other context are references, no media.
 */
function imageNotes(variableData: unknown): string[] {
	const variables = isRecord(variableData) && Array.isArray(variableData['variables']) ? variableData['variables'] : [];
	return variables.flatMap(entry => (isRecord(entry) && (entry['kind'] === 'image' || entry['isImage'] === true) ? [mediaTypeNote(entry['mimeType'], 'image')] : []));
}

/**
 * The reply with Copilot's conversation summary in its place: after the last event of the calls
 * of the round it ends at, when that round is this request's own; else (it covers only earlier
 * requests, as `/compact` does) before the reply.
 */
function withSummary(replied: SessionEvent[], summary: ConversationSummary | undefined, base: EventBase): SessionEvent[] {
	if (summary === undefined) {
		return replied;
	}

	const callOf = (event: SessionEvent) => event.tool?.call_id ?? event.result?.call_id ?? null;
	const last = replied.findLastIndex(event => {
		const id = callOf(event);
		return id !== null && summary.callIds.has(id);
	});
	const event: SessionEvent = {...base, kind: 'summary', text: summary.text};
	return [...replied.slice(0, last + 1), event, ...replied.slice(last + 1)];
}

/**
 * One request: the user's message, the reply's text and tool events, then a marker for a
 * confirmation it waits on, a cancellation or a failure. A last request with no response and
 * no result is left as it is: the engine sees a trailing unanswered request.
 */
function requestEvents(request: VscodeRequest, line: number): SessionEvent[] {
	const asked = isoFromMs(request.timestamp);
	const answered = isoFromMs(request.modelState?.completedAt) ?? asked;
	const askedBase: EventBase = {line, ...(asked ? {timestamp: asked} : {})};
	const answeredBase: EventBase = {line, ...(answered ? {timestamp: answered} : {})};
	const messageId = request.responseId ?? request.requestId ?? `request-${line}`;
	const events: SessionEvent[] = [];
	const text = messageText(request.message);
	const said = withNoteLines(text, imageNotes(request.variableData));
	if (said.trim() !== '') {
		const typed = !sentByVscode(request) && !isInjectedText(text) && !terminalNotice.test(text);
		events.push({...askedBase, kind: 'user', text: said, human: typed, ...(request.requestId ? {uuid: request.requestId} : {})});
	}

	const parts = shownParts(responseParts(request.response), request.shouldBeRemovedOnSend);
	const replied = responseEvents(parts, {...answeredBase, message_id: messageId}, toolContext(request.result?.metadata), isOpenTurn(request));
	events.push(...withSummary(replied, conversationSummary(request.result?.metadata), answeredBase));
	const waiting = waitingConfirmation(parts) ?? unexplainedWait(request, replied);
	if (waiting !== undefined) {
		events.push({...answeredBase, kind: 'system', text: waiting, interrupted: true});
	}

	if (wasCancelled(request)) {
		events.push({...answeredBase, kind: 'system', text: 'Request cancelled', interrupted: true});
	}

	const error = requestError(request);
	if (error !== undefined) {
		events.push({...answeredBase, kind: 'system', text: error, error: shortError(error)});
	}

	return events;
}

function sessionFacts(session: VscodeSession, unit: DiscoveredUnit): SessionInfo {
	const started = isoFromMs(session.creationDate);
	const modified = isoFromMs(session.lastMessageDate);
	// Version 2 named it `computedTitle`; VS Code reads that as `customTitle` since version 3.
	const title = [session.customTitle, session.computedTitle].find(candidate => candidate?.trim());
	// The workspace folder, else the folder a sessions-window chat was started in.
	const cwd = unit.projectHint ?? localPathOfFileUri(session.workingDirectory);
	return {
		...(session.sessionId ? {id: session.sessionId} : {}),
		...(cwd ? {cwd} : {}),
		...(title ? {title} : {}),
		...(started ? {started} : {}),
		...(modified ? {modified} : {}),
	};
}

/**
 * The rows on some lines of a session document, normalising only their requests: a search
 * snippet needs 3 of a session's lines, and normalising every request was most of reading one.
 * Each row is the one sessionRows gives for its line, without what other lines decide: the
 * session facts and model changes (meta events) and the marker naming discarded requests (a
 * system event); neither is searchable text. A line whose request is not a chat request has no
 * row, as in sessionRows. Undefined when the document is not a chat session.
 */
export function rowsOnLines(document: SessionDocument, lines: ReadonlySet<number>): SessionRow[] | undefined {
	const listed = requestsOf(document);
	if (!listed) {
		return undefined;
	}

	const rows: SessionRow[] = [];
	for (const line of [...lines].sort((x, y) => x - y)) {
		const raw = Number.isInteger(line) && line >= 1 ? listed.requests[line - 1] : undefined;
		const request = raw === undefined ? undefined : vscodeRequestSchema.safeParse(raw);
		if (request?.success) {
			rows.push({line, raw, events: requestEvents(request.data, line)});
		}
	}

	return rows;
}

/**
 * A session document to rows, one per request (`line` = 1-based request index, `raw` = the
 * request as stored or replayed). Session facts go on the first row; the model whenever the
 * request's `modelId` first names it or changes. Requests that are not objects are skipped.
 */
export function sessionRows(document: SessionDocument, unit: DiscoveredUnit): LoadedSession {
	const listed = requestsOf(document);
	if (!listed) {
		throw new SessionCorruptError(unit.path, null, 'not a chat session document');
	}

	const rows: SessionRow[] = [];
	const warnings = [...document.warnings];
	let skipped = document.skipped;
	let model: string | undefined;
	const facts = sessionFacts(listed.session, unit);
	const {kept, requests} = listed;
	let firstDiscarded = -1;
	for (const [index, raw] of requests.entries()) {
		const line = index + 1;
		if (index === kept) {
			firstDiscarded = rows.length;
		}

		const request = vscodeRequestSchema.safeParse(raw);
		if (!request.success) {
			skipped++;
			if (warnings.length < maxWarnings) {
				warnings.push(`request ${line}: skipped, not a chat request`);
			}

			continue;
		}

		const stated: SessionInfo = rows.length === 0 ? {...facts} : {};
		if (request.data.modelId && request.data.modelId !== model) {
			model = request.data.modelId;
			stated.model = model;
		}

		const events = requestEvents(request.data, line);
		if (Object.keys(stated).length > 0) {
			const at = isoFromMs(request.data.timestamp);
			events.unshift({line, kind: 'meta', ...(at ? {timestamp: at} : {}), session: stated});
		}

		rows.push({line, raw, events});
	}

	markDiscardedTail(rows, firstDiscarded, count => `Request edited or undone: ${lastCount(count, 'request')} no longer in the conversation`);
	return {rows, skipped, warnings};
}
