import * as z from 'zod/mini';
import {withCatalogView} from '../catalog/view.js';
import type {StoreSelection} from '../catalog/targets.js';
import {normalizeSessionId} from '../conversation/ids.js';
import type {Deps} from '../deps.js';
import {EngiError} from '../../lib/errors.js';
import {withIndex} from '../index/open.js';
import {nodesOfKindByLine} from '../index/store.js';
import {requireKnowledgeBase, type KbPaths} from '../kb/paths.js';
import {lazySchema} from '../../lib/lazy-schema.js';
import type {Database} from '../../lib/sqlite.js';
import {createAssessor} from './assess.js';
import {blockerSchema, type Blocker} from './blockers.js';
import {findCandidate} from './find.js';
import {attemptInScope, jobForAssessment, jobForInterrupted} from './jobs.js';
import {purgeHistory, receiptsBySession, retentionKinds, toOutcome, type PurgeOutcome} from './journal.js';
import {retentionScope, targetSchema} from './plan.js';
import {runPurge, type PurgeJob, type PurgeRun} from './run-purge.js';
import {defaultRetentionDays, retentionWindow} from './window.js';

export const purgeStatuses = ['dry_run', 'purged', 'refused', 'failed', 'already_cleaned'] as const;

export const purgeOutputSchema = lazySchema(() => z.object({
	session_id: z.string(),
	source: z.string(),
	executed: z.boolean(),
	/** dry_run: nothing deleted (eligible says whether --execute would go ahead); refused: nothing deleted; failed: part was. */
	status: z.enum(purgeStatuses),
	eligible: z.boolean(),
	blockers: z.array(blockerSchema),
	/** Exactly what is (or would be) deleted, in order: children and sidecars first. */
	targets: z.array(targetSchema),
	receipt_id: z.nullable(z.string()),
	source_sha256: z.nullable(z.string()),
	attempt_id: z.nullable(z.string()),
	/** The SessionPurgeReceipt or SessionPurgeFailure that closed the attempt. */
	outcome_id: z.nullable(z.string()),
	failure: z.nullable(z.object({code: z.string(), detail: z.string()})),
	deleted_targets: z.array(z.string()),
	already_gone: z.array(z.string()),
	freed_bytes: z.number(),
	other_hard_links: z.array(z.object({path: z.string(), links: z.number()})),
	hard_linked_bytes: z.number(),
	/** Interrupted attempts this run finished (or would finish). */
	resumed_attempt_ids: z.array(z.string()),
}));

export type PurgeOutput = z.infer<typeof purgeOutputSchema>;

export type PurgeInput = StoreSelection & {
	readonly id: string;
	/** Default: defaultRetentionDays; 0 is no window. */
	readonly retentionDays?: number;
	readonly execute: boolean;
};

const empty = {attempt_id: null, outcome_id: null, failure: null, deleted_targets: [], already_gone: [], freed_bytes: 0, other_hard_links: [], hard_linked_bytes: 0};

/** What a purge run did, for the output. */
export function runResult(run: PurgeRun): Pick<PurgeOutput, 'attempt_id' | 'outcome_id' | 'failure' | 'deleted_targets' | 'already_gone' | 'freed_bytes' | 'other_hard_links' | 'hard_linked_bytes'> {
	return {
		attempt_id: run.attemptId,
		outcome_id: run.outcomeId,
		failure: run.failure,
		deleted_targets: run.deletion?.deleted ?? [],
		already_gone: run.deletion?.alreadyGone ?? [],
		freed_bytes: run.deletion?.freedBytes ?? 0,
		other_hard_links: run.deletion?.otherHardLinks ?? [],
		hard_linked_bytes: run.deletion?.hardLinkedBytes ?? 0,
	};
}

function jobOutput(job: PurgeJob, blockers: readonly Blocker[], sizes: ReadonlyMap<string, number>): Omit<PurgeOutput, 'executed' | 'status' | keyof typeof empty> {
	return {
		session_id: job.sessionId,
		source: job.source,
		eligible: blockers.length === 0,
		blockers: [...blockers],
		targets: job.steps.map(step => ({path: step.path, kind: step.kind, bytes: sizes.get(step.path) ?? 0})),
		receipt_id: job.receipt?.id ?? null,
		source_sha256: job.receipt?.source_sha256 ?? null,
		resumed_attempt_ids: [...job.resumes],
	};
}

/**
 * `engi retention purge <id>`: without `execute`, the exact targets and whatever blocks them;
 * with it, one audited deletion (runPurge). A session the stores no longer hold is finished if an
 * interrupted attempt left part of it, reported `already_cleaned` if a receipt says it was
 * purged (or a refusal found it gone), and not found otherwise.
 */
export async function purgeSession(input: PurgeInput, paths: KbPaths, deps: Deps): Promise<PurgeOutput> {
	const id = normalizeSessionId(input.id);
	const retentionDays = input.retentionDays ?? defaultRetentionDays;
	requireKnowledgeBase(paths);
	return withIndex(paths, deps, async index =>
		withCatalogView(retentionScope(input), deps, async view => {
			const receipts = receiptsBySession(index.db);
			const history = purgeHistory(index.db);
			const found = findCandidate(view, id);
			let job: PurgeJob;
			let blockers: readonly Blocker[];
			let sizes: Map<string, number>;
			if (found) {
				const assessor = createAssessor({index: index.db, deps, window: retentionWindow(retentionDays, deps), receipts, examine: 'all'}, [found.candidate]);
				// A child still in the stores must be purged first: no child counts as gone here.
				const assessment = assessor.assess(found.candidate, () => false, {openFilesMaxAgeMs: 0});
				blockers = assessment.blockers;
				sizes = new Map((assessment.scan?.targets ?? []).map(target => [target.path, target.bytes]));
				job = jobForAssessment(assessment, {history, retentionDays, via: 'purge', reassess: () => assessor.assess(found.candidate, () => false, {openFilesMaxAgeMs: 0, recheck: true}).blockers});
			} else {
				const leftover = history.interrupted.filter(attempt => attemptInScope(attempt, view) && attempt.session_id.toLowerCase() === id.toLowerCase()).at(-1);
				if (!leftover) {
					return goneOrMissing(index.db, id, input);
				}

				const receipt = [...receipts.values()].flat().find(candidate => candidate.id === leftover.receipt_id);
				job = jobForInterrupted(leftover, receipt, {history, retentionDays, via: 'purge', deps});
				blockers = job.reassess();
				sizes = new Map(receipt?.targets.map(pin => [pin.path, pin.bytes]) ?? []);
			}

			const shown = jobOutput(job, blockers, sizes);
			if (!input.execute) {
				return {...shown, executed: false, status: 'dry_run', ...empty};
			}

			const run = await runPurge(job, paths, deps);
			return {...shown, executed: true, status: run.status, ...runResult(run)};
		}),
	);
}

/**
 * A session no store lists: `already_cleaned` when a purge receipt says engi retired it, or a
 * purge refused as `already_cleaned` found its files gone (another process removed them), else
 * not found. The latest such record speaks.
 */
function goneOrMissing(db: Database, id: string, input: PurgeInput): PurgeOutput {
	const ofSession = (outcome: PurgeOutcome) => outcome.session_id.toLowerCase() === id.toLowerCase();
	const purged = nodesOfKindByLine(db, retentionKinds.purged).map(record => toOutcome(record, 'purged')).filter(ofSession);
	const foundGone = nodesOfKindByLine(db, retentionKinds.failure)
		.map(record => toOutcome(record, 'failed'))
		.filter(outcome => ofSession(outcome) && outcome.reason === 'already_cleaned');
	const latest = [...purged, ...foundGone].sort((a, b) => a.line - b.line).at(-1);
	if (!latest) {
		throw new EngiError('session_not_found', `conversation not found: ${id}`, {hint: 'engi retention plan --details lists the sessions retention sees; engi retention log lists what was purged'});
	}

	return {
		session_id: latest.session_id,
		source: latest.source,
		executed: input.execute,
		status: 'already_cleaned',
		eligible: false,
		blockers: [{code: 'already_cleaned', detail: `${latest.kind === 'purged' ? 'purged' : 'found gone'} on ${latest.observed_utc} (${latest.id})`}],
		targets: [],
		receipt_id: null,
		source_sha256: null,
		resumed_attempt_ids: [],
		...empty,
		outcome_id: latest.id,
	};
}

