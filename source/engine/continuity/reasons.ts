import * as z from 'zod/mini';
import {lazySchema} from '../../lib/lazy-schema.js';
import type {Checkpoint} from './checkpoint-schema.js';
import type {TailState} from './tail.js';

export const reasonCodes = [
	'checkpoint_active',
	'checkpoint_blocked',
	'interrupted_or_cancelled',
	'trailing_user_request_unanswered',
	'pending_tool_call',
	'unresolved_tool_failure',
	'recent_activity_uncheckpointed',
	'bounded_tail_incomplete',
] as const;

export type ReasonCode = (typeof reasonCodes)[number];

export const reasonSchema = lazySchema(() => z.object({code: z.enum(reasonCodes), detail: z.string(), line: z.nullable(z.number())}));
export type Reason = z.infer<typeof reasonSchema>;
export type Confidence = 'high' | 'medium' | 'low';

/**
 * Why a session looks unfinished, from its checkpoint and the tail of its transcript. Every
 * reason cites the line it rests on. `recent_activity_uncheckpointed` is only given when the
 * tail shows activity without a closing reply and nothing more specific applies. A tail not
 * read (null: not decoded, as for a session being written right now) gives no reason.
 */
export function reasonsFor(tail: TailState | null, checkpoint: Checkpoint | undefined, activeNow: boolean): Reason[] {
	const reasons: Reason[] = [];
	if (checkpoint?.status === 'active') {
		reasons.push({code: 'checkpoint_active', detail: checkpoint.next_action ? `next: ${checkpoint.next_action}` : checkpoint.objective, line: null});
	} else if (checkpoint?.status === 'blocked') {
		reasons.push({code: 'checkpoint_blocked', detail: checkpoint.blockers.length > 0 ? `blocked: ${checkpoint.blockers.join('; ')}` : checkpoint.objective, line: null});
	}

	if (activeNow || tail === null) {
		return reasons; // Still being written: its tail says nothing yet.
	}

	if (tail.interruption) {
		reasons.push({code: 'interrupted_or_cancelled', detail: tail.interruption.detail, line: tail.interruption.line});
	}

	if (tail.unanswered) {
		reasons.push({code: 'trailing_user_request_unanswered', detail: tail.last_human?.text ?? 'the last request has no reply', line: tail.unanswered.line});
	}

	for (const call of tail.pending.slice(0, 5)) {
		reasons.push({code: 'pending_tool_call', detail: `${call.name} has no result`, line: call.line});
	}

	if (tail.failure) {
		const exit = tail.failure.exit_code === null ? '' : ` (exit ${tail.failure.exit_code})`;
		reasons.push({code: 'unresolved_tool_failure', detail: `${tail.failure.name ?? 'tool'} failed${exit}: ${tail.failure.preview}`, line: tail.failure.line});
	}

	if (reasons.length === 0 && !tail.ends_with_reply && tail.last_line > 0) {
		reasons.push({code: 'recent_activity_uncheckpointed', detail: 'recent activity ends without a closing reply and has no checkpoint', line: tail.last_line});
	}

	if (reasons.length > 0 && tail.bounded) {
		reasons.push({code: 'bounded_tail_incomplete', detail: 'the transcript is large; only its last MiB was read', line: null});
	}

	return reasons;
}

/**
 * What the tail alone says of a session, with no checkpoint and not written right now: whether
 * it gives a reason to be a candidate (`open`; a session whose tail is closed is one only
 * through a checkpoint or by being written right now), and the confidence it would be listed
 * with. The catalog stores both beside the tail at scan time, so listings decode only the
 * sessions that can be candidates and summaries count confidences without reading a tail.
 */
export function tailJudgement(tail: TailState): {open: boolean; confidence: Confidence} {
	const reasons = reasonsFor(tail, undefined, false);
	return {open: reasons.length > 0, confidence: confidenceOf(reasons)};
}

export function confidenceOf(reasons: readonly Reason[]): Confidence {
	const codes = new Set(reasons.map(reason => reason.code));
	if (codes.has('checkpoint_active') || codes.has('checkpoint_blocked') || codes.has('interrupted_or_cancelled') || codes.has('trailing_user_request_unanswered')) {
		return 'high';
	}

	return codes.has('pending_tool_call') || codes.has('unresolved_tool_failure') ? 'medium' : 'low';
}
