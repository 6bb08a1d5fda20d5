import * as z from 'zod/mini';
import {lazySchema} from '../../lib/lazy-schema.js';
import {withLocatedSession} from '../conversation/locate.js';
import type {Deps} from '../deps.js';
import {checkpointSchema} from './checkpoint-schema.js';
import {untrustedNotice} from './brief.js';
import {reasonsFor, reasonSchema} from './reasons.js';
import {ambiguousSchema, chooseTarget, engiReadCommand, notFoundSchema, resumeCommands, type TargetInput} from './resume.js';
import {checkpointLookup} from './unfinished.js';
import {adapterContext} from '../catalog/targets.js';

export const pickupOutputSchema = lazySchema(() => z.union([
	z.object({
		status: z.literal('ok'),
		target: z.object({id: z.string(), source: z.string(), project: z.string(), title: z.nullable(z.string()), modified: z.nullable(z.string()), path: z.string(), parent_id: z.nullable(z.string())}),
		checkpoint: z.nullable(checkpointSchema),
		/** Why the session looks unfinished, each pointing at the line it rests on. */
		reasons: z.array(reasonSchema),
		/** `engi read` commands returning every cited line. */
		evidence: z.array(z.string()),
		resume_command: z.string(),
		native_resume_command: z.nullable(z.string()),
		/** Why the tool's own resume cannot run from a terminal, where the store says (then native_resume_command is null). */
		native_resume_unavailable: z.optional(z.string()),
		notice: z.string(),
	}),
	ambiguousSchema,
	notFoundSchema,
]));

export type PickupOutput = z.infer<typeof pickupOutputSchema>;

/**
 * `engi pickup`: one session to continue, with its checkpoint, the evidence behind it and the
 * commands that resume it (engi's brief and the tool's own). It runs nothing: the commands are
 * for the person or agent to run.
 */
export async function pickupSession(input: TargetInput, deps: Deps): Promise<PickupOutput> {
	const target = await chooseTarget(input, deps);
	if ('status' in target) {
		return target;
	}

	return withLocatedSession({id: target.id, ...target.stores}, deps, located => {
		const {row} = located;
		const id = row.summary.id ?? row.key;
		const checkpoint = checkpointLookup(deps.cwd)(row.summary.project, id);
		const reasons = reasonsFor(row.tail, checkpoint, false);
		const lines = [...new Set([row.summary.first_human_line, ...reasons.map(reason => reason.line)].filter((line): line is number => typeof line === 'number'))].sort((a, b) => a - b);
		const commands = resumeCommands(located, adapterContext(deps));
		return {
			status: 'ok',
			target: {id, source: row.source, project: row.summary.project ?? 'unknown', title: row.summary.title, modified: row.summary.modified, path: row.path, parent_id: row.summary.parent_id},
			checkpoint: checkpoint ?? null,
			reasons,
			evidence: lines.length === 0 ? [] : [engiReadCommand(located, lines.slice(0, 100))],
			resume_command: commands.resume,
			native_resume_command: commands.native,
			...(commands.nativeUnavailable === undefined ? {} : {native_resume_unavailable: commands.nativeUnavailable}),
			notice: untrustedNotice,
		};
	});
}
