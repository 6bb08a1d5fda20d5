import type {SessionEvent} from '../events.js';
import {shortError, stringOf} from '../shared/text.js';
import type {GrokUpdate} from './schema.js';

/**
 * Grok's own extension updates (the `SessionUpdate` variants of grok-build's
 * `extensions/notification.rs`) that carry nothing for the event model: progress and UI state.
 */
const xaiBookkeeping = new Set([
	'diff_review',
	'auto_compact_started',
	'memory_flush_started',
	'memory_flush_completed',
	'memory_capture_activity',
	'memory_dream_queued',
	'memory_dream_started',
	'memory_dream_completed',
	'memory_session_saved',
	'auto_continue_completed',
	'feedback_request',
	'relay_sync_status',
	'auto_recovery_started',
	'hook_annotation',
	'hook_run_started',
	'hook_execution',
	'hooks_changed',
	'plugins_changed',
	'plugin_updates_installed',
	'session_status',
	'session_recap',
	'session_recap_unavailable',
	'todo_capture_progress',
	'last_turn_summary',
	'compaction_checkpoint',
	'task_completed',
	'subagent_spawned',
	'subagent_progress',
	'subagent_finished',
	'task_backgrounded',
	'background_tasks',
	'scheduled_task_created',
	'scheduled_task_fired',
	'scheduled_task_deleted',
	'monitor_event',
	'model_auto_switched',
	'model_changed',
	'tool_call_delta_chunk',
	'image_compressed',
	'image_dropped',
	'memory_files',
	'workflow_updated',
	'goal_updated',
]);

/**
 * One of Grok's extension updates (`_x.ai/session/update`): titles, compaction, cancelled
 * compaction and cancelled turns (user interrupts), exhausted recovery (a failure) and rewinds;
 * the rest is UI state.
 */
export function xaiEvents(update: GrokUpdate, base: Omit<SessionEvent, 'kind'>): SessionEvent[] | null {
	switch (update.sessionUpdate) {
		case 'session_summary_generated': {
			const title = stringOf(update['session_summary']);
			return title ? [{...base, kind: 'meta', session: {title}}] : [];
		}

		case 'auto_compact_completed':
			return [{...base, kind: 'summary', text: stringOf(update['summary_preview']) ?? 'Conversation compacted'}];
		case 'auto_compact_cancelled':
			return [{...base, kind: 'system', text: 'Auto-compaction cancelled by the user', interrupted: true}];
		case 'auto_compact_failed':
		case 'auto_recovery_exhausted': {
			const message = stringOf(update['error']) ?? update.sessionUpdate;
			return [{...base, kind: 'system', text: message, error: shortError(message)}];
		}

		case 'turn_completed':
			return turnEndEvents(update['stop_reason'], base);
		case 'retry_state':
			return retryEvents(update, base);
		case 'rewind_marker': {
			const target = update['target_prompt_index'];
			// What it discarded is worked out where the prompts are counted (updates.ts).
			return [{...base, kind: 'system', text: typeof target === 'number' ? `Rewound to prompt ${target}; later records are on an abandoned branch` : 'Rewound'}];
		}

		default:
			return xaiBookkeeping.has(update.sessionUpdate) ? [] : null;
	}
}

/**
 * Why a turn ended that did not end well: the model or the service stopped it (a usage limit is
 * `rate_limit`; ACP's own abnormal stops besides). Normal ends (`end_turn`, `tool_use`,
 * `stop_sequence`) and unknown ones say nothing.
 */
const abnormalStops = new Map([
	['rate_limit', 'Turn stopped: rate limit reached'],
	['max_tokens', 'Turn stopped: token limit reached'],
	['max_turn_requests', 'Turn stopped: request limit reached'],
	['refusal', 'Turn stopped: the model refused'],
]);

/** `turn_completed`, written after every turn with its usage: a stop the person made, or one forced on the turn. */
function turnEndEvents(reason: unknown, base: Omit<SessionEvent, 'kind'>): SessionEvent[] {
	if (reason === 'cancelled') {
		return [{...base, kind: 'system', text: 'Turn cancelled by the user', interrupted: true}];
	}

	const stopped = typeof reason === 'string' ? abnormalStops.get(reason) : undefined;
	return stopped === undefined ? [] : [{...base, kind: 'system', text: stopped, error: stopped}];
}

/**
 * `retry_state`: a model call being retried (`retrying`, progress) or given up on (`exhausted`,
 * `failed`): the turn then has no reply, and the reason (an API error such as a usage limit) says why.
 */
function retryEvents(update: GrokUpdate, base: Omit<SessionEvent, 'kind'>): SessionEvent[] {
	const state = update['type'];
	if (state !== 'exhausted' && state !== 'failed') {
		return [];
	}

	const message = stringOf(update['reason']) ?? stringOf(update['message']) ?? 'Model call failed after retries';
	return [{...base, kind: 'system', text: message, error: shortError(message)}];
}
