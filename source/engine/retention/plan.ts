import * as z from 'zod/mini';
import {sourceIds} from '../../adapters/types.js';
import {withCatalogView, type CatalogView} from '../catalog/view.js';
import type {StoreSelection} from '../catalog/targets.js';
import type {Deps} from '../deps.js';
import {withIndex} from '../index/open.js';
import {requireKnowledgeBase, type KbPaths} from '../kb/paths.js';
import {lazySchema} from '../../lib/lazy-schema.js';
import type {Database} from '../../lib/sqlite.js';
import {nextOffset} from '../../lib/words.js';
import {createAssessor, type AssessContext, type Assessment, type Assessor} from './assess.js';
import {blockerHistogram, blockerHistogramSchema, blockerSchema} from './blockers.js';
import {loadCandidates, retirementOrder} from './candidates.js';
import {purgeHistory, receiptsBySession, type PurgeHistory, type RetentionReceipt} from './journal.js';
import {defaultRetentionDays, retentionWindow, type RetentionWindow} from './window.js';

const statuses = ['eligible', 'compactable', 'blocked'] as const;

export const targetSchema = lazySchema(() => z.object({path: z.string(), kind: z.enum(['file', 'directory']), bytes: z.number()}));

export const assessmentSchema = lazySchema(() => z.object({
	session_id: z.string(),
	source: z.string(),
	project: z.nullable(z.string()),
	title: z.nullable(z.string()),
	path: z.string(),
	/** Latest activity seen, ISO. */
	modified: z.nullable(z.string()),
	status: z.enum(statuses),
	bytes: z.number(),
	blockers: z.array(blockerSchema),
	/** Child sessions that live apart and are retired first. */
	children: z.array(z.string()),
	/** Units inside the session's own directories (subagents), retired with it. */
	nested: z.number(),
	receipt_id: z.nullable(z.string()),
	/** What retiring it removes, in order; null when its files were not examined (something cheaper blocks it). */
	targets: z.nullable(z.array(targetSchema)),
}));

export type AssessmentEntry = z.infer<typeof assessmentSchema>;

/**
 * `bytes`: every file a retirement would remove for sessions whose files were examined (all of
 * them with --details and in a sweep), the catalogued transcripts' sizes for the rest.
 */
const countsShape = {
	total: z.number(),
	eligible: z.number(),
	compactable: z.number(),
	blocked: z.number(),
	bytes: z.number(),
	eligible_bytes: z.number(),
	compactable_bytes: z.number(),
};

export const summarySchema = lazySchema(() => z.object({
	retention_days: z.number(),
	cutoff_utc: z.string(),
	...countsShape,
	by_source: z.array(z.object({source: z.enum(sourceIds), ...countsShape})),
	blocker_codes: blockerHistogramSchema,
	/** Purge attempts that never reached a receipt or a failure (a killed process); the next sweep finishes them. */
	interrupted: z.number(),
}));

export type RetentionSummary = z.infer<typeof summarySchema>;

export const planOutputSchema = lazySchema(() => z.object({
	...summarySchema.shape,
	/** With --details: one page of sessions, children before parents; null otherwise. */
	sessions: z.nullable(z.array(assessmentSchema)),
	offset: z.number(),
	next_offset: z.nullable(z.number()),
	warnings: z.array(z.string()),
}));

export type PlanOutput = z.infer<typeof planOutputSchema>;

/** Sessions a page of `--details` lists unless told otherwise. */
export const planPageSize = 100;

export type PlanInput = StoreSelection & {
	/** Default: defaultRetentionDays; 0 is no window. */
	readonly retentionDays?: number;
	readonly details: boolean;
	readonly offset?: number;
	/** Default: planPageSize. */
	readonly limit?: number;
};

/** Every session in scope judged, children before parents, with the journal's purge history. */
export type AssessedScope = {
	readonly window: RetentionWindow;
	readonly assessments: Assessment[];
	readonly history: PurgeHistory;
	readonly view: CatalogView;
	/** Judges sessions again (a sweep does, right before each deletion). */
	readonly assessor: Assessor;
	/** Receipts by session, newest first; a sweep adds the ones its compact copies make. */
	readonly receipts: Map<string, RetentionReceipt[]>;
};

/** The stores retention reads: all projects, subagents too (they are retired with or before their parents). */
export function retentionScope(selection: StoreSelection) {
	return {source: selection.source, sourceRoot: selection.sourceRoot, allProjects: true, includeSubagents: true};
}

export function assessScope(view: CatalogView, index: Database, deps: Deps, days: number, examine: AssessContext['examine']): AssessedScope {
	const window = retentionWindow(days, deps);
	const candidates = loadCandidates(view).sort(retirementOrder);
	const receipts = receiptsBySession(index);
	const assessor = createAssessor({index, deps, window, receipts, examine}, candidates);
	// One listing of open files for the whole pass, however long it takes (a judgement of many
	// sessions at one moment); every deletion judges its session again with a listing of its own.
	const assessments = candidates.map(candidate => assessor.assess(candidate, child => child.status !== 'blocked', {openFilesMaxAgeMs: Number.POSITIVE_INFINITY}));
	return {window, assessments, history: purgeHistory(index), view, assessor, receipts};
}

export function summarize(scope: AssessedScope): RetentionSummary {
	type Counts = Omit<RetentionSummary['by_source'][number], 'source'>;
	const empty = (): Counts => ({total: 0, eligible: 0, compactable: 0, blocked: 0, bytes: 0, eligible_bytes: 0, compactable_bytes: 0});
	const all = empty();
	const bySource = new Map(scope.view.targets.map(target => [target.adapter.id as string, empty()]));
	for (const item of scope.assessments) {
		for (const counts of [all, bySource.get(item.candidate.unit.source)]) {
			if (counts) {
				counts.total++;
				counts[item.status]++;
				counts.bytes += item.bytes;
				if (item.status !== 'blocked') {
					counts[`${item.status}_bytes`] += item.bytes;
				}
			}
		}
	}

	return {
		retention_days: scope.window.days,
		cutoff_utc: scope.window.cutoff,
		...all,
		by_source: [...bySource].map(([source, counts]) => ({source: source as RetentionSummary['by_source'][number]['source'], ...counts})),
		blocker_codes: blockerHistogram(scope.assessments.map(item => item.blockers)),
		interrupted: scope.history.interrupted.length,
	};
}

export function assessmentEntry(item: Assessment): AssessmentEntry {
	const {unit} = item.candidate;
	return {
		session_id: unit.session_id,
		source: unit.source,
		project: unit.project,
		title: unit.title,
		path: unit.path,
		modified: item.newest === null ? null : new Date(item.newest).toISOString(),
		status: item.status,
		bytes: item.bytes,
		blockers: item.blockers,
		children: item.candidate.children.map(child => child.unit.session_id),
		nested: item.candidate.nested.length,
		receipt_id: item.receipt?.id ?? null,
		targets: item.scan ? item.scan.targets.map(target => ({path: target.path, kind: target.kind, bytes: target.bytes})) : null,
	};
}

/** `engi retention plan`: what could be retired now and what blocks the rest, by source and by code. */
export async function planRetention(input: PlanInput, paths: KbPaths, deps: Deps): Promise<PlanOutput> {
	requireKnowledgeBase(paths);
	return withIndex(paths, deps, index =>
		withCatalogView(retentionScope(input), deps, view => {
			const {offset = 0, limit = planPageSize} = input;
			const scope = assessScope(view, index.db, deps, input.retentionDays ?? defaultRetentionDays, input.details ? 'all' : 'summary');
			const page = input.details ? scope.assessments.slice(offset, offset + limit) : [];
			return {
				...summarize(scope),
				sessions: input.details ? page.map(item => assessmentEntry(item)) : null,
				offset,
				next_offset: input.details ? nextOffset(offset, page.length, scope.assessments.length) : null,
				warnings: [...view.warnings, ...index.warnings],
			};
		}),
	);
}
