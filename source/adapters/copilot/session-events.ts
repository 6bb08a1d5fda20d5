import type {SessionEvent, SessionInfo} from '../events.js';
import {isRecord, shortError, stringOf} from '../shared/text.js';
import type {CopilotSessionData} from './schema.js';
import type {CopilotState} from './state.js';

type Base = Omit<SessionEvent, 'kind'>;

/**
 * Session-level events (`session.*`, `subagent.*`, `system.*`): errors, compaction, truncation,
 * shutdown, handoff, model and title changes, subagent lifecycle and injected notifications. Types of
 * these namespaces not listed here are bookkeeping and give `[]`.
 */
export function sessionEvents(type: string, data: CopilotSessionData, base: Base, state: CopilotState, ownId?: string): SessionEvent[] {
	switch (type) {
		case 'session.error': {
			const message = data.message ?? data.errorType ?? 'Session error';
			return [{...base, kind: 'system', text: message, error: shortError(message)}];
		}

		case 'session.warning':
			return data.message ? [{...base, kind: 'system', text: data.message}] : [];
		case 'session.info':
			return data.infoType === 'folder_trust' ? trustedFolderEvents(data.message, base, state) : data.infoType === 'fork' ? forkedFromEvents(data.message, base, ownId) : [];
		case 'session.model_change':
			return modelEvent(base, state, data.newModel);
		case 'session.auto_mode_resolved':
			// An auto-mode session names the model it settled on here (a subagent's is not the session's).
			return base.sidechain ? [] : modelEvent(base, state, data.chosenModel);
		case 'session.title_changed':
			return data.title ? metaEvent(base, {title: data.title}) : [];
		case 'session.compaction_complete':
			return compactionEvents(data, base);
		case 'session.truncation':
			return [{...base, kind: 'system', text: truncationText(data)}];
		case 'session.shutdown':
			return [shutdownEvent(data, base)];
		case 'session.handoff':
			// A session handed over (from a cloud agent's, say) opens with what was done there.
			return data.summary?.trim() ? [{...base, kind: 'summary', text: data.summary}] : [];

		case 'subagent.started':
		case 'subagent.completed':
		case 'subagent.failed':
			return subagentEvents(type, data, base);
		case 'system.notification':
			// Injected into the conversation for the model; never a request a person made.
			return data.content?.trim() ? [{...base, kind: 'user', text: data.content, human: false}] : [];
		default:
			return [];
	}
}

/** "Folder <path> has been added to trusted folders." */
const trustedFolder = /^Folder (.+?) has been added to trusted folders\b/;

/**
 * Builds before `session.start` carried a `context` (0.0.x) state the folder they ran in only
 * here: trusting it is the first thing a run in a new folder does. A folder a start or resume
 * already named stays the session's.
 */
function trustedFolderEvents(message: string | undefined, base: Base, state: CopilotState): SessionEvent[] {
	const folder = message === undefined ? undefined : trustedFolder.exec(message)?.[1];
	if (folder === undefined || state.cwd !== undefined) {
		return [];
	}

	state.cwd = folder;
	return metaEvent(base, {cwd: folder});
}

/**
 * `/fork` notes the fork in both sessions as a `fork` notice: the source's says "Forked this
 * session into …", the fork's "Forked from <source> [before event <id>] as <fork>.", a session
 * named either by its id or as `"name" (id)`. The source is the fork's parent, as a branch's is.
 * A fork may copy its source's history (github/copilot-cli#3285), and a source that was itself a
 * fork holds a notice of its own: a notice whose fork is another session than this one (its
 * directory's name) names that session's parent, not this one's.
 */
const sessionRef = String.raw`(?:"[^"\n]*" \()?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b`;
const forkedFrom = new RegExp(`^Forked from ${sessionRef}`, 'i');
const forkedAs = new RegExp(` as ${sessionRef}\\)?\\.?\\s*$`, 'i');

function forkedFromEvents(message: string | undefined, base: Base, ownId: string | undefined): SessionEvent[] {
	const parent = message === undefined ? undefined : forkedFrom.exec(message)?.[1];
	if (parent === undefined) {
		return [];
	}

	const fork = forkedAs.exec(message!)?.[1];
	return fork !== undefined && ownId !== undefined && fork.toLowerCase() !== ownId.toLowerCase() ? [] : metaEvent(base, {parent_id: parent});
}

/** `shutdownType: "error"` says why in `errorReason` (newer builds). */
function shutdownEvent(data: CopilotSessionData, base: Base): SessionEvent {
	const kind = data.shutdownType ?? 'unknown';
	const text = `Session shut down (${kind})`;
	if (kind !== 'error') {
		return {...base, kind: 'system', text};
	}

	const reason = data.errorReason?.trim();
	return reason ? {...base, kind: 'system', text: `${text}: ${reason}`, error: shortError(reason)} : {...base, kind: 'system', text, error: 'Session ended with an error'};
}

function compactionEvents(data: CopilotSessionData, base: Base): SessionEvent[] {
	if (data.success === false) {
		const message = stringOf(data.error) ?? 'Compaction failed';
		return [{...base, kind: 'system', text: message, error: shortError(message)}];
	}

	return [{...base, kind: 'summary', text: data.summaryContent?.trim() ? data.summaryContent : 'Conversation compacted'}];
}

function truncationText(data: CopilotSessionData): string {
	const removed = data.messagesRemovedDuringTruncation;
	return removed === undefined ? 'Conversation truncated' : `Conversation truncated (${removed} messages removed)`;
}

function subagentEvents(type: string, data: CopilotSessionData, base: Base): SessionEvent[] {
	const name = data.agentDisplayName ?? data.agentName ?? 'subagent';
	// A cancelled subagent still reports `completed`: cancellation is not a failure to Copilot.
	const phase = type === 'subagent.completed' && data.cancelled === true ? 'cancelled' : type.slice('subagent.'.length);
	if (type === 'subagent.failed') {
		const message = stringOf(data.error) ?? (isRecord(data.error) ? stringOf(data.error['message']) : undefined) ?? `Subagent ${name} failed`;
		return [{...base, kind: 'system', text: `Subagent ${name} failed: ${message}`, error: shortError(message)}];
	}

	return [{...base, kind: 'system', text: `Subagent ${name} ${phase}`}];
}

export function modelEvent(base: Base, state: CopilotState, model: string | undefined): SessionEvent[] {
	if (!model || model === state.model) {
		return [];
	}

	state.model = model;
	return metaEvent(base, {model});
}

export function metaEvent(base: Base, session: SessionInfo): SessionEvent[] {
	return Object.keys(session).length === 0 ? [] : [{line: base.line, kind: 'meta', ...(base.timestamp ? {timestamp: base.timestamp} : {}), session}];
}
