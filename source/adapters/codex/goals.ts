import type {SessionEvent} from '../events.js';
import {isRecord} from '../shared/text.js';
import type {CodexEvent} from './schema.js';
import type {CodexState} from './state.js';

/**
 * `thread_goal_updated {threadId, turnId?, goal: {objective, status, tokensUsed, …}}` (codex-rs
 * protocol ThreadGoalUpdatedEvent, camelCase). Codex writes one whenever the thread's goal changes:
 * when the person sets or edits it (/goal, outside any turn: no `turnId`), and from inside a turn as
 * the goal's usage is counted or the model's goal tools act (`turnId` set). The person's /goal
 * writes no user_message, and the turns Codex then runs open with its own
 * `<codex_internal_context source="goal">` prompt, so a new objective set outside a turn is the
 * request. The same objective again (usage, pause, resume, completion) asks nothing new.
 */
export function goalEvents(event: CodexEvent, base: Omit<SessionEvent, 'kind'>, state: CodexState): SessionEvent[] {
	const goal = isRecord(event.goal) ? event.goal : undefined;
	const objective = typeof goal?.['objective'] === 'string' ? goal['objective'].trim() : '';
	if (objective === '' || objective === state.goal) {
		return [];
	}

	state.goal = objective;
	const inTurn = Boolean(event.turnId ?? event.turn_id);
	// A subagent thread's goal, or one a turn set, is no person's request.
	return inTurn || state.subagent === true ? [] : [{...base, kind: 'user', text: objective, human: true}];
}
