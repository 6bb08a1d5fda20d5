import * as z from 'zod/mini';
import {lazySchema} from '../../lib/lazy-schema.js';

/**
 * Why a session may not be retired yet. Each is a gate `purge` checks again right before it
 * deletes anything; `already_cleaned` is the end state retention aims for, not a failure.
 */
export const blockerCodes = [
	'inside_retention_window',
	'modified_time_unknown',
	'session_active',
	'session_activity_unknown',
	'checkpoint_open',
	'unfinished_candidate',
	'child_sessions_present',
	'attestation_missing',
	'source_changed',
	'knowledge_provenance_missing',
	'source_not_separable',
	'assessment_error',
	'already_cleaned',
] as const;

export type BlockerCode = (typeof blockerCodes)[number];

export const blockerSchema = lazySchema(() => z.object({code: z.enum(blockerCodes), detail: z.string()}));
export type Blocker = z.infer<typeof blockerSchema>;

/** Every code with how many sessions it blocks, zeros included, in the order above. */
export const blockerHistogramSchema = lazySchema(() => z.object(Object.fromEntries(blockerCodes.map(code => [code, z.number()])) as Record<BlockerCode, z.ZodMiniNumber>));

export function blockerHistogram(lists: Iterable<readonly Blocker[]>): Record<BlockerCode, number> {
	const counts = Object.fromEntries(blockerCodes.map(code => [code, 0])) as Record<BlockerCode, number>;
	for (const blockers of lists) {
		// Blockers come ordered by code, so a session counts once per code.
		blockers.forEach((blocker, index) => {
			if (index === 0 || blockers[index - 1]!.code !== blocker.code) {
				counts[blocker.code]++;
			}
		});
	}

	return counts;
}

/**
 * A session nothing blocks but the missing receipt: the sweep can write its compact copy (which
 * is the receipt's knowledge) and retire it in the same run.
 */
export function isCompactable(blockers: readonly Blocker[]): boolean {
	return blockers.length > 0 && blockers.every(blocker => blocker.code === 'attestation_missing');
}
