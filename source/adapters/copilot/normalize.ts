import {basename, dirname, join} from 'node:path';
import type {SessionEvent, SessionInfo} from '../events.js';
import {withoutStatedTitles} from '../shared/host-text.js';
import {withNoteLines} from '../shared/media.js';
import {beginsScan} from '../shared/scan-start.js';
import {isInjectedText, isRecord, parseJsonArguments} from '../shared/text.js';
import type {DiscoveredUnit, LineState} from '../types.js';
import {attachmentNotes} from './attachments.js';
import {readCopilotAssistantMessage, readCopilotEnvelope, readCopilotSessionData, readCopilotTool, readCopilotUserMessage} from './records.js';
import {copilotStartSchema, type CopilotEnvelope} from './schema.js';
import {workspaceName} from './discover.js';
import {metaEvent, modelEvent, sessionEvents} from './session-events.js';
import {copilotState, type CopilotState} from './state.js';
import {backgroundWorkEnd, toolCallEvent, toolResultEvent} from './tools.js';

type Base = Omit<SessionEvent, 'kind'>;

/**
 * Namespaces of the ~130 Copilot event types. Types in these namespaces that engi does not read
 * (usage, hooks, permissions, deltas, MCP status…) are known bookkeeping and give `[]`; a type
 * outside them is unknown and counted as skipped.
 */
const knownNamespaces = new Set([
	'session',
	'user',
	'assistant',
	'tool',
	'tool_search',
	'model',
	'factory',
	'mcp_app',
	'subagent',
	'hook',
	'system',
	'permission',
	'user_input',
	'elicitation',
	'sampling',
	'mcp',
	'external_tool',
	'command',
	'commands',
	'skill',
	'skills',
	'pending_messages',
	'model_call',
	'auto_mode_switch',
	'session_limits_exhausted',
	'managed_settings',
	'capabilities',
	'exit_plan_mode',
	'tools',
	'background_tasks',
	'factory_run',
	'custom_agents',
	'mcp_servers',
	'extensions',
	'canvas',
	'binary_asset',
	'custom_notification',
	'ui',
	// The sandbox's configuration record and a note that the prompt cache was invalidated.
	'sandbox',
	'prompt_cache_break',
]);

/** `source` of a message a person typed (absent in most builds); others are skill, autopilot, command… */
const humanSource = 'user';

/** Copilot's own wrapper for notices it injects as user turns. */
const notificationPrefix = '<system_notification>';

/** The skill body Copilot injects as a user turn once a skill loads (some builds give it no `source`). */
const skillContextPrefix = '<skill-context';

/** A whole `<skill-context …>…</skill-context>` block at the start of a message. */
const leadingSkillContext = /^\s*<skill-context\b[^>]*>[\s\S]*?<\/skill-context>/;

/** One events.jsonl line to events. */
export function normalizeCopilotLine(value: unknown, line: number, lineState: LineState, unit: DiscoveredUnit): SessionEvent[] | null {
	const envelope = readCopilotEnvelope(value);
	if (!envelope) {
		return null;
	}

	if (envelope.ephemeral) {
		// Transient events are never meant to reach the file; if one does, it carries nothing.
		return [];
	}

	const state = copilotState(lineState);
	const base: Base = {
		line,
		...timestampOf(envelope.timestamp),
		...(envelope.id ? {uuid: envelope.id} : {}),
		// Events a subagent emits carry its agentId; they belong to the parent's tool call.
		...(envelope.agentId || (isRecord(envelope.data) && typeof envelope.data['parentToolCallId'] === 'string') ? {sidechain: true} : {}),
	};
	const events = eventsOf(envelope, base, state, unit.idHint);
	if (events !== null) {
		const begins = beginsScan(lineState);
		const lookUp = begins || envelope.type === titleChange;
		return state.workspaceName === null && !lookUp ? events : withWorkspaceName(events, base, state, unit, lookUp);
	}

	const namespace = envelope.type.includes('.') ? envelope.type.slice(0, envelope.type.indexOf('.')) : envelope.type;
	return knownNamespaces.has(namespace) ? [] : null;
}

/** The record of a new session name: a rename, or a name Copilot generated (github/copilot-cli#2622); ephemeral in later builds. */
const titleChange = 'session.title_changed';

/**
 * The name in the session directory's workspace.yaml is the session's name as Copilot shows it
 * now: a rename is synced there, and titles its events gave earlier give way to it. Read at the
 * first record a scan reads, and again at each change of name the log records: the catalog reads
 * a grown log on from the state it kept, so a name read once per file would stay the one of its
 * first scan, where a read of the whole file gives the file's name now. A VS Code transcript in
 * this format has no such file beside it.
 */
function withWorkspaceName(events: SessionEvent[], base: Base, state: CopilotState, unit: DiscoveredUnit, lookUp: boolean): SessionEvent[] {
	if (state.workspaceName !== undefined && !lookUp) {
		return withoutStatedTitles(events);
	}

	const known = state.workspaceName;
	const name = basename(unit.path) === 'events.jsonl' ? workspaceName(join(dirname(unit.path), 'workspace.yaml')) : undefined;
	state.workspaceName = name ?? null;
	if (name === undefined) {
		return events;
	}

	if (known === undefined) {
		return [...metaEvent(base, {title: name}), ...events];
	}

	// Without its time: a read of the whole file states this name at the first line, and drops this record's title.
	const rest = withoutStatedTitles(events);
	return name === known ? rest : [{line: base.line, kind: 'meta', session: {title: name}}, ...rest];
}

/** The events for the types engi reads, or null to fall back on the namespace rule. */
function eventsOf(envelope: CopilotEnvelope, base: Base, state: CopilotState, ownId: string | undefined): SessionEvent[] | null {
	const data = envelope.data ?? {};
	switch (envelope.type) {
		case 'session.start':
		case 'session.resume':
			return startEvents(envelope.type, data, base, state);
		case 'user.message':
			return userEvents(data, base);
		case 'assistant.message':
			return assistantEvents(data, base, state);
		case 'tool.execution_start': {
			const tool = readCopilotTool(data);
			return toolCallEvent(state, base, tool.toolCallId, tool.toolName, tool.arguments);
		}

		case 'tool.execution_complete':
			return [toolResultEvent(state, base, readCopilotTool(data))];
		case 'permission.completed':
			return denialFeedback(data, base);
		case 'system.notification':
			// The notice is the host's text; the end of background work is also its call's outcome.
			return [...sessionEvents(envelope.type, readCopilotSessionData(data), base, state, ownId), ...backgroundWorkEnd(state, base, data['kind'])];
		case 'abort': {
			const reason = readCopilotSessionData(data).reason;
			return [{...base, kind: 'system', text: `Aborted${reason ? ` (${reason})` : ''}`, interrupted: true}];
		}

		default:
			return envelope.type.startsWith('session.') || envelope.type.startsWith('subagent.') || envelope.type.startsWith('system.')
				? sessionEvents(envelope.type, readCopilotSessionData(data), base, state, ownId)
				: null;
	}
}

/** `session.start` states the session; `session.resume` only a working directory not yet known. */
function startEvents(type: string, data: unknown, base: Base, state: CopilotState): SessionEvent[] {
	const start = copilotStartSchema.parse(data);
	const facts: SessionInfo = {};
	if (type === 'session.start' && !state.started) {
		state.started = true;
		if (start.sessionId) {
			facts.id = start.sessionId;
		}

		const started = timestampOf(start.startTime).timestamp;
		if (started) {
			facts.started = started;
		}

		if (start.detachedFromSpawningParentSessionId) {
			facts.parent_id = start.detachedFromSpawningParentSessionId;
		}
	}

	const cwd = start.context?.cwd ?? start.context?.gitRoot;
	if (cwd && state.cwd === undefined) {
		state.cwd = cwd;
		facts.cwd = cwd;
	}

	if (start.selectedModel && start.selectedModel !== state.model) {
		state.model = start.selectedModel;
		facts.model = start.selectedModel;
	}

	return metaEvent(base, facts);
}

/**
 * A user message is human only when a person typed it: no `source` (or `user`), not an
 * autopilot continuation, not a subagent's prompt, not input relayed from another session, and
 * not host-injected text. Also how a session-store.db turn's prompt is read (session-store-load.ts).
 */
export function userEvents(data: Record<string, unknown>, base: Base): SessionEvent[] {
	const message = readCopilotUserMessage(data);
	const text = message.content ?? '';
	const said = withNoteLines(text, attachmentNotes(message.attachments));
	if (said.trim() === '') {
		return [];
	}

	// The `crossSession` label marks what the SDK calls non-human input: another session sent it.
	if (isRecord(message.crossSession) || (text !== '' && sentByAnotherSession(text, message.transformedContent))) {
		return [{...base, kind: 'user', text: said, human: false, origin: 'agent'}];
	}

	const typed = (message.source === undefined || message.source.toLowerCase() === humanSource) && !message.isAutopilotContinuation;
	const skill = leadingSkillContext.exec(text);
	const asked = skill ? text.slice(skill[0].length).trim() : '';
	if (skill && asked !== '') {
		// With a skill loaded, later builds put its block in front of the next prompt, in the same
		// message: the block is the host's, the words after it are what the person typed.
		const host: SessionEvent = {...base, kind: 'user', text: skill[0].trim(), human: false, origin: 'host'};
		const request = withNoteLines(asked, attachmentNotes(message.attachments));
		return [host, {...base, kind: 'user', text: request, human: typed && !base.sidechain && !isInjectedText(asked, [notificationPrefix, skillContextPrefix])}];
	}

	return [{...base, kind: 'user', text: said, human: typed && !base.sidechain && !isInjectedText(text, [notificationPrefix, skillContextPrefix])}];
}

/** The permission result of a person answering "No, and tell Copilot what to do differently". */
const deniedByPerson = 'denied-interactively-by-user';

/**
 * What a person typed when denying a tool's permission. The agent goes on from those words, and
 * no `user.message` repeats them: they are a request. A hook's or a rule's denial is not theirs.
 * A denial with `forceReject` ends the agent's turn there: the person interrupted it.
 */
function denialFeedback(data: Record<string, unknown>, base: Base): SessionEvent[] {
	const result = data['result'];
	if (!isRecord(result) || result['kind'] !== deniedByPerson) {
		return [];
	}

	const feedback = result['feedback'];
	const events: SessionEvent[] = typeof feedback === 'string' && feedback.trim() !== '' ? [{...base, kind: 'user', text: feedback.trim(), human: true}] : [];
	if (result['forceReject'] === true) {
		events.push({...base, kind: 'system', text: 'Tool permission denied; turn ended', interrupted: true});
	}

	return events;
}

/** The envelope Copilot wraps a message from another session in (`send_session_message`), naming its sender. */
const crossSessionTag = '<cross_session_message>';

/**
 * Builds that write no `crossSession` label say a message came from another session only in
 * `transformedContent`, the text the model received: the typed text inside a
 * `<cross_session_message>` envelope. The typed text is repeated there verbatim, so the tag must
 * be found outside it: a prompt that quotes the tag stays a prompt.
 */
function sentByAnotherSession(content: string, transformed: string | undefined): boolean {
	if (transformed === undefined || !transformed.includes(crossSessionTag)) {
		return false;
	}

	const at = transformed.indexOf(content);
	const around = at === -1 ? transformed : transformed.slice(0, at) + transformed.slice(at + content.length);
	return around.includes(crossSessionTag);
}

/** The call Copilot ends an autonomous turn with; its `summary` argument is the answer the person sees. */
const closingTool = 'task_complete';

function closingSummary(input: unknown): string | undefined {
	const args = parseJsonArguments(input);
	const summary = isRecord(args) ? args['summary'] : undefined;
	return typeof summary === 'string' && summary.trim() !== '' ? summary : undefined;
}

/**
 * Reply text plus one tool call per request. A response split at reasoning boundaries comes as
 * several messages, each with its own `messageId` but the model call's `apiCallId`: that groups
 * them (builds without it gave the chunks one `messageId`).
 */
function assistantEvents(data: Record<string, unknown>, base: Base, state: CopilotState): SessionEvent[] {
	const message = readCopilotAssistantMessage(data);
	const replyId = message.apiCallId || message.messageId;
	const shared = replyId ? {...base, message_id: replyId} : base;
	// A session whose start selects no model (an `auto` session, older builds) names it only on
	// the messages the model wrote; a change of model shows there too. A subagent's messages name
	// the subagent's model, not the session's.
	const events: SessionEvent[] = base.sidechain ? [] : modelEvent(base, state, message.model);
	if (message.content && message.content.trim() !== '') {
		events.push({...shared, kind: 'assistant', text: message.content});
	}

	for (const request of message.toolRequests ?? []) {
		const closing = request.name === closingTool ? closingSummary(request.arguments) : undefined;
		if (closing !== undefined) {
			events.push({...shared, kind: 'assistant', text: closing});
		}

		events.push(...toolCallEvent(state, shared, request.toolCallId, request.name, request.arguments));
	}

	return events;
}

/** An ISO-8601 time, or nothing: collages and hand-made files hold placeholders here. */
function timestampOf(value: unknown): {timestamp?: string} {
	return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value)) ? {timestamp: value} : {};
}
