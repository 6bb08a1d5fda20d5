import {EngiError} from '../../lib/errors.js';
import type {Checkpoint, CheckpointDraft} from './checkpoint-schema.js';

/** What a checkpoint says about the work, beyond whose it is and when it was written. */
export type CheckpointFields = Pick<Checkpoint, 'status' | 'objective' | 'completed_work' | 'current_evidence' | 'blockers' | 'next_action' | 'verification'>;

const fieldNames = ['status', 'completed_work', 'current_evidence', 'blockers', 'next_action', 'verification', 'objective'] as const;

/**
 * The one rule set for a new checkpoint, used by `checkpoint record` and the dashboard's form
 * alike. Fields not given are inherited from the session's latest checkpoint, except blockers:
 * they belong to a status and are inherited only while the status stays the same, so a session
 * marked completed (or active again) no longer carries the blockers it had. The first checkpoint
 * of a session needs an objective, and a blocked checkpoint at least one blocker.
 */
export function applyCheckpointRules(draft: CheckpointDraft, previous: Partial<CheckpointFields> | undefined): {fields: CheckpointFields; inherited: string[]} {
	const objective = draft.objective ?? previous?.objective;
	if (!objective?.trim()) {
		throw new EngiError('objective_required', 'objective: the first checkpoint of a session needs an objective', {hint: 'e.g. --objective "stream the parser"; nothing was written'});
	}

	const status = draft.status ?? previous?.status ?? 'active';
	const keepsBlockers = previous?.status === status;
	const blockers = draft.blockers ?? (keepsBlockers ? previous?.blockers : undefined) ?? [];
	if (status === 'blocked' && blockers.length === 0) {
		throw new EngiError('blocker_required', 'blockers: a blocked checkpoint needs at least one blocker', {hint: 'e.g. --blocker "waiting for review"; nothing was written'});
	}

	const inherited = previous ? fieldNames.filter(key => draft[key] === undefined && (key !== 'blockers' || keepsBlockers)) : [];
	return {
		fields: {
			status,
			objective,
			completed_work: draft.completed_work ?? previous?.completed_work ?? [],
			current_evidence: draft.current_evidence ?? previous?.current_evidence ?? [],
			blockers,
			next_action: draft.next_action ?? previous?.next_action ?? null,
			verification: draft.verification ?? previous?.verification ?? null,
		},
		inherited,
	};
}
