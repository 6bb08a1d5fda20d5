import * as z from 'zod/mini';
import {lazySchema} from '../../lib/lazy-schema.js';

export const checkpointStatuses = ['active', 'blocked', 'completed', 'superseded'] as const;
export type CheckpointStatus = (typeof checkpointStatuses)[number];

/** One line of `<project>/.engi/checkpoints.jsonl`: the latest line for a session wins. */
export const checkpointSchema = lazySchema(() => z.object({
	session: z.string().check(z.minLength(1)),
	source: z.string(),
	project: z.string(),
	status: z.enum(checkpointStatuses),
	objective: z.string().check(z.minLength(1)),
	completed_work: z.array(z.string()),
	current_evidence: z.array(z.string()),
	blockers: z.array(z.string()),
	next_action: z.nullable(z.string()),
	verification: z.nullable(z.string()),
	updated_at: z.string(),
}));

export type Checkpoint = z.infer<typeof checkpointSchema>;

/** What `record` accepts: every field optional, inherited from the session's latest checkpoint. */
export const checkpointDraftSchema = lazySchema(() => z.object({
	session: z.optional(z.string()),
	source: z.optional(z.string()),
	project: z.optional(z.string()),
	status: z.optional(z.enum(checkpointStatuses)),
	objective: z.optional(z.string()),
	completed_work: z.optional(z.array(z.string())),
	current_evidence: z.optional(z.array(z.string())),
	blockers: z.optional(z.array(z.string())),
	next_action: z.optional(z.nullable(z.string())),
	verification: z.optional(z.nullable(z.string())),
}));

export type CheckpointDraft = z.infer<typeof checkpointDraftSchema>;
