import {relative} from 'node:path';
import * as z from 'zod/mini';
import {withCatalogView} from '../catalog/view.js';
import type {StoreSelection} from '../catalog/targets.js';
import type {Deps} from '../deps.js';
import {EngiError} from '../../lib/errors.js';
import {withIndex} from '../index/open.js';
import {canonicalJson} from '../journal/canonical.js';
import {requireKnowledgeBase, type KbPaths} from '../kb/paths.js';
import {lazySchema} from '../../lib/lazy-schema.js';
import {sha256Hex} from '../../lib/hash.js';
import type {Assessment} from './assess.js';
import {compactSession, removeUnfinishedCopies} from './compact.js';
import {attemptInScope, jobForAssessment, jobForInterrupted} from './jobs.js';
import {sessionKey, type PurgeAttempt} from './journal.js';
import {assessScope, retentionScope, summarize, summarySchema, targetSchema, type AssessedScope} from './plan.js';
import {runPurge, type PurgeJob} from './run-purge.js';
import {defaultRetentionDays} from './window.js';

const actions = ['purge', 'compact', 'resume'] as const;
const itemStatuses = ['eligible', 'compactable', 'interrupted', 'removed', 'compacted', 'refused', 'failed'] as const;

export const sweepItemSchema = lazySchema(() => z.object({
	session_id: z.string(),
	source: z.string(),
	/** purge: attested; compact: write the compact copy, then purge; resume: finish an interrupted purge. */
	action: z.enum(actions),
	/** Dry run: eligible, compactable or interrupted; executed: removed, compacted (and removed), refused or failed. */
	status: z.enum(itemStatuses),
	bytes: z.number(),
	targets: z.array(targetSchema),
	receipt_id: z.nullable(z.string()),
	compact_path: z.nullable(z.string()),
	compact_bytes: z.nullable(z.number()),
	attempt_id: z.nullable(z.string()),
	outcome_id: z.nullable(z.string()),
	freed_bytes: z.number(),
	/** Bytes of deleted files that other hard links keep on disk (not freed). */
	hard_linked_bytes: z.number(),
	failure: z.nullable(z.object({code: z.string(), detail: z.string()})),
}));

export type SweepItem = z.infer<typeof sweepItemSchema>;

export const sweepOutputSchema = lazySchema(() => z.object({
	...summarySchema.shape,
	executed: z.boolean(),
	/** sha256 over the exact list of planned items (actions, sessions, targets and their bytes). */
	plan_sha256: z.string(),
	planned: z.number(),
	compacted: z.number(),
	removed: z.number(),
	failed: z.number(),
	native_bytes_removed: z.number(),
	hard_linked_bytes: z.number(),
	compact_bytes_written: z.number(),
	/** With --details: every planned item, in order; null otherwise. */
	items: z.nullable(z.array(sweepItemSchema)),
	warnings: z.array(z.string()),
}));

export type SweepOutput = z.infer<typeof sweepOutputSchema>;

export type SweepProgress = {readonly done: number; readonly total: number; readonly item: SweepItem};

export type SweepInput = StoreSelection & {
	/** Default: defaultRetentionDays; 0 is no window. */
	readonly retentionDays?: number;
	readonly execute: boolean;
	/** The plan_sha256 a dry run printed: required to execute, refused when the plan is no longer that. */
	readonly plan?: string;
	readonly details: boolean;
	/** Told after each item; a returned promise is awaited (the dashboard draws its progress bar then). */
	readonly onProgress?: (progress: SweepProgress) => void | Promise<void>;
};

type Planned = {readonly item: SweepItem; readonly boundary: string; readonly assessment?: Assessment; readonly attempt?: PurgeAttempt};

function plannedItem(fields: Pick<SweepItem, 'session_id' | 'source' | 'action' | 'status' | 'bytes' | 'targets' | 'receipt_id'>): SweepItem {
	return {...fields, compact_path: null, compact_bytes: null, attempt_id: null, outcome_id: null, freed_bytes: 0, hard_linked_bytes: 0, failure: null};
}

/**
 * The digest a dry run prints and an execution must match: over what would be done (each item's
 * action, session, receipt and targets with their bytes, paths relative to their store), not
 * over the report, so it names the plan wherever the stores live.
 */
function planDigest(planned: readonly Planned[]): string {
	return sha256Hex(
		canonicalJson(
			planned.map(({item, boundary}) => ({
				action: item.action,
				source: item.source,
				session_id: item.session_id,
				receipt_id: item.receipt_id,
				targets: item.targets.map(target => ({...target, path: relative(boundary, target.path)})),
			})),
		),
	);
}

/**
 * `engi retention sweep`: every retirable session in scope, children first. A dry run prints the
 * counts and the plan's digest; executing needs that digest, re-plans, refuses if anything
 * differs, then retires each item on its own: attested sessions are purged, compactable ones
 * compacted first, purges a killed process left unfinished are finished. One item failing never
 * stops the others.
 */
export async function sweepRetention(input: SweepInput, paths: KbPaths, deps: Deps): Promise<{output: SweepOutput; failed: boolean}> {
	requireKnowledgeBase(paths);
	const retentionDays = input.retentionDays ?? defaultRetentionDays;
	if (input.execute && input.plan === undefined) {
		throw new EngiError('plan_required', 'engi retention sweep --execute needs --plan <sha256> from a dry run', {hint: 'run engi retention sweep first, check what it plans, then pass its plan_sha256'});
	}

	return withIndex(paths, deps, async index =>
		withCatalogView(retentionScope(input), deps, async view => {
			const scope = assessScope(view, index.db, deps, retentionDays, 'retirable');
			const planned = planItems(scope);
			const digest = planDigest(planned);
			const summary = summarize(scope);
			const report = (items: SweepItem[], executed: boolean): SweepOutput => ({
				...summary,
				executed,
				plan_sha256: digest,
				planned: planned.length,
				compacted: items.filter(item => item.status === 'compacted').length,
				removed: items.filter(item => item.status === 'removed' || item.status === 'compacted').length,
				failed: items.filter(item => item.status === 'failed' || item.status === 'refused').length,
				native_bytes_removed: items.reduce((sum, item) => sum + item.freed_bytes, 0),
				hard_linked_bytes: items.reduce((sum, item) => sum + item.hard_linked_bytes, 0),
				compact_bytes_written: items.reduce((sum, item) => sum + (item.compact_bytes ?? 0), 0),
				items: input.details ? items : null,
				warnings: [...view.warnings, ...index.warnings],
			});
			if (!input.execute) {
				return {output: report(planned.map(entry => entry.item), false), failed: false};
			}

			if (input.plan !== digest) {
				throw new EngiError('plan_changed', `the plan is no longer ${input.plan}: the sessions or their files changed since the dry run (now ${digest})`, {
					exitCode: 2,
					hint: 'run engi retention sweep again, check the new plan, and pass its plan_sha256',
					details: {plan_sha256: digest},
				});
			}

			removeUnfinishedCopies(paths);
			const context: ItemContext = {scope, removed: new Set(), paths, deps, retentionDays};
			const done: SweepItem[] = [];
			for (const entry of planned) {
				done.push(await executeItem(entry, context));
				await input.onProgress?.({done: done.length, total: planned.length, item: done.at(-1)!});
			}

			const output = report(done, true);
			return {output, failed: output.failed > 0};
		}),
	);
}

/** What a sweep would do, in order: unfinished purges of sessions no store lists any more, then every session not blocked, children first. */
function planItems(scope: AssessedScope): Planned[] {
	const listed = new Set(scope.assessments.map(item => sessionKey(item.candidate.unit.source, item.candidate.unit.session_id)));
	const resumes = scope.history.interrupted
		.filter(attempt => attemptInScope(attempt, scope.view) && !listed.has(sessionKey(attempt.source, attempt.session_id)))
		.map(attempt => ({
			attempt,
			boundary: attempt.boundary,
			item: plannedItem({session_id: attempt.session_id, source: attempt.source, action: 'resume', status: 'interrupted', bytes: 0, targets: attempt.targets.map(target => ({...target, bytes: 0})), receipt_id: attempt.receipt_id || null}),
		}));
	const sessions = scope.assessments
		.filter(item => item.status !== 'blocked')
		.map(assessment => ({
			assessment,
			boundary: assessment.candidate.retirement?.boundary ?? assessment.candidate.unit.root,
			item: plannedItem({
				session_id: assessment.candidate.unit.session_id,
				source: assessment.candidate.unit.source,
				action: assessment.status === 'eligible' ? ('purge' as const) : ('compact' as const),
				status: assessment.status === 'eligible' ? ('eligible' as const) : ('compactable' as const),
				bytes: assessment.bytes,
				targets: (assessment.scan?.targets ?? []).map(target => ({path: target.path, kind: target.kind, bytes: target.bytes})),
				receipt_id: assessment.receipt?.id ?? null,
			}),
		}));
	return [...resumes, ...sessions];
}

type ItemContext = {
	readonly scope: AssessedScope;
	/** Sessions this sweep retired so far, by catalog key: their parents no longer wait for them. */
	readonly removed: Set<string>;
	readonly paths: KbPaths;
	readonly deps: Deps;
	readonly retentionDays: number;
};

async function executeItem(entry: Planned, context: ItemContext): Promise<SweepItem> {
	const item = {...entry.item};
	const {scope} = context;
	try {
		let job: PurgeJob;
		if (entry.attempt) {
			const receipt = [...scope.receipts.values()].flat().find(candidate => candidate.id === entry.attempt!.receipt_id);
			job = jobForInterrupted(entry.attempt, receipt, {history: scope.history, retentionDays: context.retentionDays, via: 'sweep', deps: context.deps});
		} else {
			const {candidate} = entry.assessment!;
			const reassess = () => scope.assessor.assess(candidate, child => context.removed.has(child.candidate.unit.key), {recheck: true});
			let assessment = entry.assessment!;
			if (item.action === 'compact') {
				const compaction = await compactSession(assessment, scope.view.db, context.paths, context.deps);
				item.compact_path = compaction.path;
				item.compact_bytes = compaction.bytes;
				item.receipt_id = compaction.receipt.id;
				const key = sessionKey(candidate.unit.source, candidate.unit.session_id);
				scope.receipts.set(key, [compaction.receipt, ...(scope.receipts.get(key) ?? [])]);
				assessment = reassess(); // Now attested by its compact copy.
			}

			job = jobForAssessment(assessment, {history: scope.history, retentionDays: context.retentionDays, via: 'sweep', reassess: () => reassess().blockers});
		}

		const run = await runPurge(job, context.paths, context.deps);
		if (run.status === 'purged' && entry.assessment) {
			context.removed.add(entry.assessment.candidate.unit.key);
		}

		return {
			...item,
			status: run.status === 'purged' ? (item.action === 'compact' ? 'compacted' : 'removed') : run.status,
			attempt_id: run.attemptId,
			outcome_id: run.outcomeId,
			freed_bytes: run.deletion?.freedBytes ?? 0,
			hard_linked_bytes: run.deletion?.hardLinkedBytes ?? 0,
			failure: run.failure,
		};
	} catch (error) {
		// One session's trouble (a full disk, a file that changed mid-compaction) is its own.
		return {...item, status: 'failed', failure: {code: error instanceof EngiError ? error.code : 'internal_error', detail: error instanceof Error ? error.message : String(error)}};
	}
}
