import * as z from 'zod/mini';
import {lazySchema} from '../../lib/lazy-schema.js';
import {candidatePage, candidatesByProject, type JudgedInJs} from '../catalog/candidates.js';
import {listedRowsToJudge, listedSubagentCounts, listNarrowRows, recordedProjects, rowDetails, tailsByKey, type NarrowRow, type SessionFilter} from '../catalog/list.js';
import {withCatalogView, type ScopeInput} from '../catalog/view.js';
import type {Deps} from '../deps.js';
import type {Database} from '../../lib/sqlite.js';
import {nextOffset} from '../../lib/words.js';
import {isLocalDirectory} from '../../lib/project.js';
import {checkpointSchema, type Checkpoint} from './checkpoint-schema.js';
import {checkpointReadRoot, readCheckpoints} from './checkpoints.js';
import {confidenceOf, reasonSchema, reasonsFor, type Confidence, type Reason} from './reasons.js';

export const candidateSchema = lazySchema(() => z.object({
	id: z.string(),
	source: z.string(),
	project: z.string(),
	modified: z.nullable(z.string()),
	title: z.nullable(z.string()),
	classification: z.literal('candidate'),
	confidence: z.enum(['high', 'medium', 'low']),
	reasons: z.array(reasonSchema),
	checkpoint: z.optional(checkpointSchema),
	/** Written within the last two minutes: probably still running, so not judged. */
	active_now: z.boolean(),
	path: z.string(),
	parent_id: z.optional(z.string()),
	subagents: z.number(),
}));

export type Candidate = z.infer<typeof candidateSchema>;

export const unfinishedOutputSchema = lazySchema(() => z.object({
	status: z.literal('ok'),
	scope: z.object({project: z.nullable(z.string()), all_projects: z.boolean(), since: z.string()}),
	total: z.number(),
	offset: z.number(),
	next_offset: z.nullable(z.number()),
	candidates: z.array(candidateSchema),
	warnings: z.array(z.string()),
}));

export type UnfinishedOutput = z.infer<typeof unfinishedOutputSchema>;

const activeWindowMs = 2 * 60 * 1000;

/** Each project root's latest checkpoint per session, every file read at most once per call. */
export function checkpointFiles(): (root: string) => Map<string, Checkpoint> {
	const files = new Map<string, Map<string, Checkpoint>>();
	return root => {
		let latest = files.get(root);
		if (!latest) {
			latest = readCheckpoints(root).latest;
			files.set(root, latest);
		}

		return latest;
	};
}

/** The project roots of the sessions that recorded `recorded` (recordedProjects): where checkpoint files of theirs live. */
export function sessionProjectRoots(recorded: readonly string[], rootOf: (project: string) => string): Set<string> {
	// Only a project on this machine can keep a checkpoint file.
	return new Set(recorded.filter(project => isLocalDirectory(project)).map(project => rootOf(project)));
}

/** A session's latest checkpoint, found where `checkpoint record` puts it. */
export function checkpointLookup(cwd: string, latestIn = checkpointFiles()): (projectPath: string | null, session: string) => Checkpoint | undefined {
	// Many sessions share a project; finding its root walks up the tree, so once per project.
	const roots = new Map<string | null, string>();
	return (projectPath, session) => {
		let root = roots.get(projectPath);
		if (root === undefined) {
			root = checkpointReadRoot(projectPath, cwd);
			roots.set(projectPath, root);
		}

		return latestIn(root).get(session);
	};
}

/** The yesterday-and-today window `unfinished` looks at by default. */
export function defaultSince(now: Date): string {
	return new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1).toISOString();
}

export type Judged = {readonly row: NarrowRow; readonly id: string; readonly checkpoint: Checkpoint | undefined; readonly activeNow: boolean};

const isLive = (checkpoint: Checkpoint | undefined) => checkpoint?.status === 'active' || checkpoint?.status === 'blocked';

/** The sessions in scope that are candidates, judged from narrow columns alone, newest first, with each parent's subagent count. */
export type Judgement = {readonly judged: readonly Judged[]; readonly subagents: ReadonlyMap<string, number>};

/**
 * The candidates in scope, newest first, judged from narrow columns alone: whether a session
 * is a candidate follows from its stored `tail_open` flag, its checkpoint and its time. Nothing
 * is decoded here; describeCandidates decodes the few a page shows.
 */
function judgeCandidates(db: Database, filter: SessionFilter, now: Date, checkpointOf: ReturnType<typeof checkpointLookup>): Judgement {
	const rows = listNarrowRows(db, filter);
	// Any session in scope, a subagent too: one a subagent started folds into it, and so up the chain.
	const inScope = new Set(rows.map(row => `${row.source}\u0000${row.id}`));
	const subagents = new Map<string, number>();
	for (const row of rows) {
		if (row.parent_id) {
			const key = `${row.source}\u0000${row.parent_id}`;
			subagents.set(key, (subagents.get(key) ?? 0) + 1);
		}
	}

	const judged: Judged[] = [];
	for (const row of rows) {
		// Subagent work belongs to its parent's candidate; only orphans are listed on their own.
		if (row.parent_id && inScope.has(`${row.source}\u0000${row.parent_id}`)) {
			continue;
		}

		const entry = judge(row, now, checkpointOf);
		if (entry) {
			judged.push(entry);
		}
	}

	return {judged, subagents};
}

/**
 * One listed session as a candidate, or undefined when it is none. A session the person archived
 * in its tool is put away, as one with a completed checkpoint is: never a candidate, whatever its
 * tail or checkpoint says, until the tool unarchives it (its row is read again then; see
 * DiscoveredUnit.archived). (unfoldedSessions leaves archived sessions out for SQLite's count.)
 */
function judge(row: NarrowRow, now: Date, checkpointOf: ReturnType<typeof checkpointLookup>): Judged | undefined {
	if (row.archived === 1) {
		return undefined;
	}

	const id = row.id ?? row.key;
	const checkpoint = checkpointOf(row.project, id);
	if (checkpoint && (checkpoint.status === 'completed' || checkpoint.status === 'superseded')) {
		return undefined;
	}

	// An open tail or a live (active or blocked) checkpoint always gives a reason; a session
	// written right now is listed without guessing. Nothing else can make one a candidate: an
	// imported checkpoint is history, so its transcript's tail decides. (candidatePage asks the
	// same of SQLite for the sessions with no checkpoint.)
	const activeNow = now.getTime() - row.written_ms < activeWindowMs;
	return row.tail_open === 1 || activeNow || isLive(checkpoint) ? {row, id, checkpoint, activeNow} : undefined;
}

/** A session written right now is not judged by its tail; one with a closed tail and no live checkpoint is not a candidate at all. Only the rest need their tails. */
const needsTail = (entry: Judged) => !entry.activeNow && (entry.row.tail_open === 1 || isLive(entry.checkpoint));

const confidenceFor = (reasons: Reason[], activeNow: boolean): Confidence => (activeNow && reasons.length === 0 ? 'low' : confidenceOf(reasons));

/** The given judged sessions as candidates, in their order: their titles, paths and (where their reasons rest on it) tails decoded. */
export function describeCandidates(db: Database, kept: readonly Judged[], subagents: Judgement['subagents']): Candidate[] {
	const columns = rowDetails(
		db,
		kept.map(entry => entry.row.key),
		new Set(kept.filter(entry => needsTail(entry)).map(entry => entry.row.key)),
	);
	return kept.flatMap(({row, id, checkpoint, activeNow}): Candidate[] => {
		const wide = columns.get(row.key);
		if (!wide) {
			return [];
		}

		const reasons = reasonsFor(wide.tail, checkpoint, activeNow);
		return [
			{
				id,
				source: row.source,
				project: row.project ?? 'unknown',
				modified: row.modified,
				title: wide.title,
				classification: 'candidate',
				confidence: confidenceFor(reasons, activeNow),
				reasons,
				...(checkpoint ? {checkpoint} : {}),
				active_now: activeNow,
				path: wide.path,
				...(row.parent_id ? {parent_id: row.parent_id} : {}),
				subagents: subagents.get(`${row.source}\u0000${id}`) ?? 0,
			},
		];
	});
}

/**
 * The confidence each judged session would be listed with, by key, from its tail alone (no
 * title, path or candidate is built): what a summary counts for sessions it does not show. A
 * session whose row is gone meanwhile has none, as describeCandidates would leave it out.
 */
function confidencesOf(db: Database, judged: readonly Judged[]): Map<string, Confidence> {
	const tails = tailsByKey(
		db,
		judged.filter(entry => needsTail(entry)).map(entry => entry.row.key),
	);
	const confidences = new Map<string, Confidence>();
	for (const entry of judged) {
		const tail = tails.get(entry.row.key);
		if (tail !== undefined || !needsTail(entry)) {
			confidences.set(entry.row.key, confidenceFor(reasonsFor(tail ?? null, entry.checkpoint, entry.activeNow), entry.activeNow));
		}
	}

	return confidences;
}

/**
 * The candidates in scope, newest first: all of them, or one page with the total. Only the
 * candidates returned have their tails decoded for reasons.
 */
export function collectCandidates(
	db: Database,
	filter: SessionFilter,
	now: Date,
	checkpointOf: ReturnType<typeof checkpointLookup>,
	page?: {offset: number; limit: number},
): {total: number; candidates: Candidate[]} {
	const {judged, subagents} = judgeCandidates(db, filter, now, checkpointOf);
	const kept = page ? judged.slice(page.offset, page.offset + page.limit) : judged;
	return {total: judged.length, candidates: describeCandidates(db, kept, subagents)};
}

/** Candidates a page shows unless told otherwise. */
export const unfinishedPageSize = 50;

export type UnfinishedInput = ScopeInput & {readonly limit?: number; readonly offset?: number};

/**
 * The sessions SQL cannot judge, judged here first: the sessions with a checkpoint, wherever any
 * catalogued session's checkpoints are read from. SQLite judges the rest from their narrow
 * columns (see candidatePage).
 */
function judgedInJs(db: Database, filter: SessionFilter, now: Date, cwd: string, latestIn: ReturnType<typeof checkpointFiles>, recorded: readonly string[]) {
	const checkpointOf = checkpointLookup(cwd, latestIn);
	const roots = new Set([checkpointReadRoot(null, cwd), ...recorded.map(project => checkpointReadRoot(project, cwd))]);
	const checkpointed = [...roots].flatMap(root => [...latestIn(root).keys()]);
	const toJudge = listedRowsToJudge(db, filter, checkpointed);
	const candidates = toJudge.flatMap(row => judge(row, now, checkpointOf) ?? []);
	const judged: JudgedInJs = {keys: toJudge.map(row => row.key), candidates: candidates.map(entry => entry.row.key), activeFrom: now.getTime() - activeWindowMs};
	return {checkpointOf, judged, candidates};
}

/**
 * One page of the candidates in scope, the same as collectCandidates cuts, without building a
 * row for every session in scope (at 15,000 sessions that was most of a warm call's own work):
 * SQLite counts and cuts the sessions with an open tail or written right now, and only those
 * it cannot judge are judged here first (judgedInJs).
 */
function pageCandidates(db: Database, filter: SessionFilter, now: Date, cwd: string, page: {offset: number; limit: number}): {total: number; candidates: Candidate[]} {
	const {checkpointOf, judged} = judgedInJs(db, filter, now, cwd, checkpointFiles(), recordedProjects(db));
	const {total, rows} = candidatePage(db, filter, judged, page.offset, page.limit);
	const kept = rows.flatMap(row => judge(row, now, checkpointOf) ?? []);
	return {total, candidates: describeCandidates(db, kept, listedSubagentCounts(db, filter, kept.map(entry => entry.id)))};
}

/** What a summary shows of the candidates of one recorded project: how many, how many of high confidence. */
export type ProjectCount = {readonly project: string | null; readonly total: number; readonly high: number};

/**
 * The candidates in scope by recorded project, as collectCandidates would judge them, without
 * building a row for every session in scope: each project's count and high-confidence count,
 * and the newest `limit` of each project (every one when null), judged, newest first. SQLite
 * counts the sessions it can judge (see candidatesByProject); those judgedInJs judged are
 * counted here.
 */
export function candidatesPerProject(db: Database, filter: SessionFilter, now: Date, cwd: string, checkpoints: {latestIn: ReturnType<typeof checkpointFiles>; recorded: readonly string[]}, limit: number | null): {projects: ProjectCount[]; newest: Judged[]} {
	const {checkpointOf, judged, candidates} = judgedInJs(db, filter, now, cwd, checkpoints.latestIn, checkpoints.recorded);
	const {projects, rows} = candidatesByProject(db, filter, judged, limit);
	const highInJs = new Map<string | null, number>();
	const confidences = confidencesOf(db, candidates);
	for (const entry of candidates) {
		if (confidences.get(entry.row.key) === 'high') {
			highInJs.set(entry.row.project, (highInJs.get(entry.row.project) ?? 0) + 1);
		}
	}

	return {
		projects: projects.map(count => ({...count, high: count.high + (highInJs.get(count.project) ?? 0)})),
		newest: rows.flatMap(row => judge(row, now, checkpointOf) ?? []),
	};
}

/** `engi unfinished`: sessions whose work looks unfinished, with reasons and confidence. */
export async function listUnfinished(input: UnfinishedInput, deps: Deps): Promise<UnfinishedOutput> {
	const now = deps.now();
	const since = input.since ?? defaultSince(now);
	const offset = input.offset ?? 0;
	return withCatalogView({...input, since, includeSubagents: true}, deps, view => {
		const {total, candidates: page} = pageCandidates(view.db, view.filter, now, deps.cwd, {offset, limit: input.limit ?? unfinishedPageSize});
		return {
			status: 'ok',
			scope: {project: view.projectRoot, all_projects: input.allProjects, since: view.since!},
			total,
			offset,
			next_offset: nextOffset(offset, page.length, total),
			candidates: page,
			warnings: view.warnings,
		};
	});
}
