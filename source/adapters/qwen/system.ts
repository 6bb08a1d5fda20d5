import type {SessionEvent} from '../events.js';
import {contentText, partsOf} from '../shared/gemini-parts.js';
import {isRecord, shortError} from '../shared/text.js';
import type {QwenRecord} from './schema.js';

type Base = Omit<SessionEvent, 'kind'>;
type Payload = Record<string, unknown>;

function text(payload: Payload, key: string): string | undefined {
	const value = payload[key];
	return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** The summary a compression checkpoint hands the model: the first turn of the new history. */
function compressionSummary(payload: Payload): string {
	const history = Array.isArray(payload['compressedHistory']) ? payload['compressedHistory'] : [];
	const first: unknown = history[0];
	const summary = isRecord(first) ? contentText(partsOf(first['parts'])) : '';
	return summary.trim() !== '' ? summary : 'Conversation compressed';
}

/** An API failure recorded as UI telemetry (`…api_error` events carry the message). */
function telemetryEvents(payload: Payload, base: Base): SessionEvent[] {
	const event = payload['uiEvent'];
	const name = isRecord(event) ? event['event.name'] : undefined;
	if (!isRecord(event) || typeof name !== 'string' || !/api_error$/.test(name)) {
		return [];
	}

	const message = text(event, 'error_message') ?? text(event, 'error') ?? 'API error';
	return [{...base, kind: 'system', text: message, error: shortError(message)}];
}

/** A settled turn: `cancelled` is a user abort, `error` a failed request. */
function turnResultEvents(payload: Payload, base: Base): SessionEvent[] {
	const error = isRecord(payload['error']) ? text(payload['error'], 'message') : undefined;
	switch (payload['state']) {
		case 'cancelled':
			return [{...base, kind: 'system', text: 'Turn cancelled', interrupted: true}];
		case 'error':
			return [{...base, kind: 'system', text: error ?? 'Turn failed', error: shortError(error ?? 'Turn failed')}];
		default:
			return [];
	}
}

/** Session facts stated by a system record, as a meta event. */
function metaEvent(base: Base, session: NonNullable<SessionEvent['session']>): SessionEvent[] {
	const {line, timestamp} = base;
	return [{line, kind: 'meta', ...(timestamp ? {timestamp} : {}), session}];
}

/**
 * System records Qwen Code appends beside the conversation's tail (`updateActiveTail: false` in
 * its ChatRecordingService): a title or session-source re-anchor, an artifact event or snapshot.
 * Each names the tail as its parent, but the next record continues the tail, so in the tree the
 * record is a sibling of the conversation, never a branch of it; Qwen's own loader never takes
 * one for the leaf and reads the newest title wherever it hangs.
 */
const sideSubtypes = new Set(['custom_title', 'session_source', 'session_artifact_event', 'session_artifact_snapshot']);

export function isSideRecord(record: QwenRecord): boolean {
	return record.type === 'system' && record.subtype !== undefined && sideSubtypes.has(record.subtype);
}

/**
 * `system` records. Slash and @-commands, notifications and rewinds are shown as system events
 * (never human requests); compression checkpoints are summaries; titles, models and parent
 * sessions are meta facts. Unknown subtypes (Qwen adds them often) carry nothing to show.
 */
export function systemEvents(record: QwenRecord, base: Base): SessionEvent[] {
	const payload: Payload = isRecord(record.systemPayload) ? record.systemPayload : {};
	switch (record.subtype) {
		case 'chat_compression':
			return [{...base, kind: 'summary', text: compressionSummary(payload)}];
		case 'slash_command': {
			const command = text(payload, 'rawCommand');
			return payload['phase'] !== 'result' && command ? [{...base, kind: 'system', text: command}] : [];
		}

		case 'at_command': {
			const shown = text(payload, 'userText') ?? text(payload, 'message');
			return shown ? [{...base, kind: 'system', text: shown, ...(payload['status'] === 'error' ? {error: shortError(shown)} : {})}] : [];
		}

		case 'notification':
		case 'background_task_completed':
		case 'cron': {
			const shown = text(payload, 'displayText');
			return shown ? [{...base, kind: 'system', text: shown}] : [];
		}

		case 'rewind':
			return [{...base, kind: 'system', text: 'Conversation rewound; later records are on an abandoned branch'}];
		case 'custom_title': {
			const title = text(payload, 'customTitle');
			return title ? metaEvent(base, {title}) : [];
		}

		case 'session_model': {
			const model = text(payload, 'modelId');
			return model ? metaEvent(base, {model}) : [];
		}

		case 'parent_session': {
			const parent = text(payload, 'parentSessionId');
			return parent ? metaEvent(base, {parent_id: parent}) : [];
		}

		case 'ui_telemetry':
			return telemetryEvents(payload, base);
		case 'turn_result':
			return turnResultEvents(payload, base);
		default:
			// session_notes, file_history_snapshot, attribution_snapshot, session_artifact_*,
			// branch_checkpoint, goal_*, managed_session_* … restore UI or runtime state only.
			return [];
	}
}
