import {relative} from 'node:path';
import * as z from 'zod/mini';
import type {Deps} from '../deps.js';
import {requireKnowledgeBase, type KbPaths} from '../kb/paths.js';
import {lazySchema} from '../../lib/lazy-schema.js';
import type {Distillation} from './distillation.js';
import {defaultMaxTurns, readEvidence} from './evidence.js';
import {droppedClaimSchema, filterDistillation} from './filter.js';
import {claimSchema, renderNote, type CandidateNote, type Claim} from './note.js';
import {replaceNote} from './note-store.js';
import {findEntry, pendingNote, reviewNotesOf} from './queue.js';
import {createRedactor, redactionSchema} from './redactor.js';

export const acceptOutputSchema = lazySchema(() => z.object({
	status: z.literal('accepted'),
	ref: z.string(),
	path: z.string(),
	tier: z.literal('distilled'),
	model: z.string(),
	max_turns: z.number(),
	/** The turn numbers the distiller was served, which every claim had to cite from. */
	served: z.array(z.object({from: z.number(), to: z.number()})),
	kept: z.object({verified: z.array(claimSchema), failed: z.array(claimSchema), blockers: z.array(claimSchema), decided: z.array(claimSchema), next: z.nullable(z.string())}),
	/** Every claim the citation filter refused, with the reason: none is dropped silently. */
	dropped: z.array(droppedClaimSchema),
	/** What was masked in the claims before they were written. */
	masked: z.array(redactionSchema),
}));

export type AcceptOutput = z.infer<typeof acceptOutputSchema>;

const claimLimit = 1000;

/**
 * Takes a distillation of a pending candidate through the citation filter, against the very
 * window of turns the distiller was served (`maxTurns`), and writes what survives into the note,
 * masked: tier `distilled`, the model recorded. The note stays pending; only a person promotes.
 */
export async function acceptDistillation(paths: KbPaths, input: {ref: string; maxTurns?: number; distillation: Distillation}, deps: Deps): Promise<AcceptOutput> {
	const maxTurns = input.maxTurns ?? defaultMaxTurns;
	requireKnowledgeBase(paths);
	const entry = await findEntry(paths.candidates, input.ref);
	const note = pendingNote(entry);
	const evidence = await readEvidence(entry, {maxTurns}, deps);
	const {kept, dropped} = filterDistillation(input.distillation, {total: evidence.total, served: new Map(evidence.turns.map(turn => [turn.n, turn]))});
	const redactor = createRedactor();
	const mask = (field: string, claims: readonly Claim[]) => claims.map((claim, index) => ({text: redactor.clip(claim.text.trim(), claimLimit, {field: `${field}[${index}]`, line: null}, {oneLine: true}), turns: claim.turns}));
	const masked = {
		verified: mask('verified', kept.verified),
		failed: mask('failed', kept.failed),
		blockers: mask('blockers', kept.blockers),
		decided: mask('decided', kept.decided),
		next: kept.next === null ? null : redactor.clip(kept.next.trim(), claimLimit, {field: 'next', line: null}, {oneLine: true}),
	};
	const model = redactor.clip(input.distillation.model, 200, {field: 'model', line: null}, {oneLine: true});
	const distilled: CandidateNote = {...note, tier: 'distilled', model, distilled_at: deps.now().toISOString(), max_turns: maxTurns, ...masked};
	await replaceNote(paths, entry, renderNote(distilled, reviewNotesOf(entry)));
	// A refused claim is shown back, masked like everything else engi prints of a transcript's paraphrase.
	const shown = createRedactor();
	return {
		status: 'accepted',
		ref: entry.ref,
		path: relative(paths.root, entry.file),
		tier: 'distilled',
		model,
		max_turns: maxTurns,
		served: evidence.served,
		kept: masked,
		dropped: dropped.map(claim => ({...claim, text: shown.clip(claim.text, 300, {field: claim.field, line: null}, {oneLine: true})})),
		masked: redactor.found,
	};
}
