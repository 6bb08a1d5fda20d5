import * as z from 'zod/mini';
import type {Deps} from '../deps.js';
import {EngiError} from '../../lib/errors.js';
import {pauseAt} from '../../lib/test-pause.js';
import {canonicalUtc} from '../../lib/time.js';
import {withIndex, writeIndexState} from '../index/open.js';
import {momentOf, type Moment} from '../index/store.js';
import {readDreamRun, writeDreamRun, type DreamRun} from '../index/upkeep-state.js';
import type {EventDraft} from '../journal/append.js';
import {requireKnowledgeBase, type KbPaths} from '../kb/paths.js';
import {changesNothing} from '../knowledge/effective.js';
import {writeEvents} from '../knowledge/write.js';
import type {Database} from '../../lib/sqlite.js';
import {archiveExpired, coOccurrenceEdges, extractEntities, flagTrivia, recalculateDecay, transitionLifecycles, type StepCounts} from './dream-steps.js';
import {upkeepSettings} from './settings.js';
import {syncWiki} from './wiki-sync.js';

/** Inkstone's deterministic steps, in order; 8–14 need a model and are not run by engi. */
export const dreamSteps = ['decay', 'lifecycle', 'entities', 'trivia', 'wiki_sync', 'archive', 'co_occurrence'] as const;

export const dreamOutputSchema = z.object({
	as_of: z.string(),
	dry_run: z.boolean(),
	/** True when this call went on with a run that was stopped between steps. */
	resumed: z.boolean(),
	appended: z.number(),
	steps: z.array(
		z.object({
			step: z.number(),
			name: z.enum(dreamSteps),
			/** done: ran now; already_done: ran in the stopped run this one resumed; skipped: not asked for, or not run in a dry run. */
			status: z.enum(['done', 'already_done', 'skipped']),
			counts: z.record(z.string(), z.number()),
			/** Events appended (in a dry run: that would be). */
			appended: z.number(),
			ms: z.number(),
		}),
	),
});

export type DreamOutput = z.infer<typeof dreamOutputSchema>;

/** `1-7`, `1,3,5` or `2`: the steps asked for, in order. */
export function parseSteps(text: string | undefined): number[] {
	if (text === undefined) {
		return dreamSteps.map((_name, index) => index + 1);
	}

	const steps = new Set<number>();
	for (const part of text.split(',')) {
		const range = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
		const from = Number(range?.[1]);
		const to = Number(range?.[2] ?? range?.[1]);
		if (!range || from < 1 || to > dreamSteps.length || from > to) {
			throw new EngiError('invalid_steps', `--steps takes step numbers 1-${dreamSteps.length} as a list or a range (1-7, 1,3,5), got ${text}`, {hint: 'steps 8-14 need a model; engi does not run them'});
		}

		for (let step = from; step <= to; step++) {
			steps.add(step);
		}
	}

	return [...steps].sort((a, b) => a - b);
}

type StepResult = {counts: StepCounts; drafts?: EventDraft[]};

/** Steps that save derived state in the index and append nothing. */
const derivedOnly: ReadonlySet<string> = new Set(['decay', 'lifecycle', 'trivia']);

/** One step against the index, ages as of the run's moment: derived state saved (unless a dry run), or the events it would make. */
function runStep(step: number, db: Database, moment: Moment, current: Moment, paths: KbPaths, dryRun: boolean): StepResult {
	const {rules} = upkeepSettings(paths);
	switch (dreamSteps[step - 1]) {
		case 'decay': {
			return {counts: recalculateDecay(db, moment, rules, !dryRun)};
		}

		case 'lifecycle': {
			return {counts: transitionLifecycles(db, moment, rules, !dryRun)};
		}

		case 'entities': {
			return extractEntities(db);
		}

		case 'trivia': {
			return {counts: flagTrivia(db, moment, !dryRun)};
		}

		case 'archive': {
			return archiveExpired(db, moment, rules);
		}

		default: {
			// The MENTIONS edges step 3 of this very run appended are later than the run's moment.
			return coOccurrenceEdges(db, current);
		}
	}
}

/**
 * `engi dream`: Inkstone's deterministic maintenance steps 1–7 over the knowledge base, as of one
 * moment for the whole run. Derived state (decay, lifecycle, trivia) goes to the index; what
 * becomes truth (entity nodes and MENTIONS edges, archive marks, co-occurrence edges) is appended
 * to the journal through its locked, fsynced append, with provenance `engi dream`; step 5 is
 * `engi wiki sync`. Progress is saved in the index after each step, so a run stopped between
 * steps resumes where it stopped, at the same moment; a run with nothing new appends nothing.
 * Another process keeping the index locked past the busy timeout stops the run between steps
 * with the retryable error index_busy; the next run resumes at the step that could not save.
 * `--dry-run` appends and saves nothing and leaves wiki sync out; each step counts against the
 * graph as it stands, so step 7 does not see the mentions step 3 would add.
 */
export async function dream(paths: KbPaths, input: {steps?: string; dryRun: boolean}, deps: Deps): Promise<DreamOutput> {
	requireKnowledgeBase(paths);
	const requested = parseSteps(input.steps);
	// A run's progress and derived state live in the index file: one in memory (another process
	// keeping the file locked) would lose them, so dream then stops typed, retryable (index_busy).
	const onFile = {onBusy: 'fail'} as const;
	const saved = input.dryRun ? undefined : await withIndex(paths, deps, index => readDreamRun(index.db), onFile);
	const resumed = saved !== undefined && saved.steps.join(',') === requested.join(',');
	let run: DreamRun = resumed ? saved : {as_of: canonicalUtc(deps.now()), steps: requested, done: []};
	const moment = momentOf({...deps, now: () => new Date(run.as_of)});
	const output: DreamOutput = {as_of: run.as_of, dry_run: input.dryRun, resumed, appended: 0, steps: []};
	for (let step = 1; step <= dreamSteps.length; step++) {
		const name = dreamSteps[step - 1]!;
		const entry = {step, name, status: 'skipped' as DreamOutput['steps'][number]['status'], counts: {} as StepCounts, appended: 0, ms: 0};
		output.steps.push(entry);
		if (!requested.includes(step) || (input.dryRun && name === 'wiki_sync')) {
			continue;
		}

		if (run.done.includes(step)) {
			entry.status = 'already_done';
			continue;
		}

		const started = performance.now();
		if (name === 'wiki_sync') {
			const synced = await syncWiki(paths, deps);
			entry.counts = {...synced.output.counts, edges_asserted: synced.output.edges.asserted, edges_retracted: synced.output.edges.retracted};
			entry.appended = synced.output.appended;
		} else if (input.dryRun) {
			const result = await withIndex(paths, deps, index => {
				const done = runStep(step, index.db, moment, momentOf(deps), paths, true);
				return {counts: done.counts, appended: (done.drafts ?? []).filter(draft => !changesNothing(index.db, draft)).length};
			});
			entry.counts = result.counts;
			entry.appended = result.appended;
		} else if (derivedOnly.has(name)) {
			// Outside writeEvents: its checks run in a read transaction, where this write could not wait for another process's.
			entry.counts = await withIndex(paths, deps, index => writeIndexState(paths, index, `was to take dream's step ${step} (${name})`, db => runStep(step, db, moment, momentOf(deps), paths, false).counts), onFile);
		} else {
			let counts: StepCounts = {};
			const written = await writeEvents(paths, deps, index => {
				const done = runStep(step, index.db, moment, momentOf(deps), paths, false);
				counts = done.counts;
				return done.drafts ?? [];
			});
			entry.counts = counts;
			entry.appended = written.events.length;
		}

		entry.status = 'done';
		entry.ms = Math.round(performance.now() - started);
		output.appended += entry.appended;
		if (!input.dryRun) {
			run = {...run, done: [...run.done, step]};
			const finished = requested.every(wanted => run.done.includes(wanted));
			await withIndex(paths, deps, index => writeIndexState(paths, index, `was to take dream's progress after step ${step} (${name})`, db => writeDreamRun(db, finished ? undefined : run)), onFile);
			pauseAt(deps.env, `dream-after-step-${step}`);
		}
	}

	return output;
}
