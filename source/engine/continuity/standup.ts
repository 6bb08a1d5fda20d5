import {resolve} from 'node:path';
import * as z from 'zod/mini';
import {lazySchema} from '../../lib/lazy-schema.js';
import {withCatalogView} from '../catalog/view.js';
import type {StoreSelection} from '../catalog/targets.js';
import type {Deps} from '../deps.js';
import {kbPaths} from '../kb/paths.js';
import {resolveRoot} from '../kb/root.js';
import {lastWorkingDay, parseSince} from '../../lib/since.js';
import {projectOf, recordedProjectRoot} from '../../lib/project.js';
import {checkpointSchema, type Checkpoint} from './checkpoint-schema.js';
import {listedSubagentCounts, recordedProjects} from '../catalog/list.js';
import {candidateSchema, candidatesPerProject, checkpointFiles, describeCandidates, sessionProjectRoots, type Candidate, type Judged} from './unfinished.js';
import {plural, shellWord} from '../../lib/words.js';

const taskRowSchema = lazySchema(() => z.object({id: z.string(), projects: z.array(z.string()), status: z.string(), label: z.string(), next_action: z.nullable(z.string()), blockers: z.array(z.string())}));

export const standupOutputSchema = lazySchema(() => z.object({
	status: z.literal('ok'),
	since: z.string(),
	/** The one project the stand-up was narrowed to (--project), or null for every project. */
	project: z.nullable(z.string()),
	generated_at: z.string(),
	totals: z.object({candidates: z.number(), high: z.number(), projects: z.number(), checkpoints_active: z.number(), checkpoints_blocked: z.number(), tasks: z.nullable(z.number())}),
	projects: z.array(
		z.object({
			project: z.string(),
			/** One line: what is open in this project. */
			summary: z.string(),
			/** The newest of its candidates, at most the limit (every one when the stand-up is unlimited). */
			candidates: z.array(candidateSchema),
			/** How many candidates the project has in all. */
			candidates_total: z.number(),
			/** The command that lists every one of them, when some are not shown (null when all are, or the project is unknown). */
			more: z.nullable(z.string()),
			checkpoints: z.array(checkpointSchema),
		}),
	),
	/** Open recorded tasks from the knowledge base, or null when none is configured. */
	tasks: z.nullable(z.object({root: z.string(), total: z.number(), rows: z.array(taskRowSchema)})),
	warnings: z.array(z.string()),
}));

export type StandupOutput = z.infer<typeof standupOutputSchema>;

/** Candidates shown per project unless told otherwise: the stand-up is a summary, `unfinished` the whole list. */
export const standupCandidatesPerProject = 10;

async function openTasks(deps: Deps, rootFlag: string | undefined, warnings: string[]): Promise<StandupOutput['tasks']> {
	let root: string;
	try {
		root = resolveRoot(rootFlag, deps).root;
	} catch {
		return null; // No knowledge base configured: the stand-up is about sessions only.
	}

	try {
		// The index's modules load only when there is a knowledge base to read.
		const [{withIndex}, {pageTasks}, {momentOf}] = await Promise.all([import('../index/open.js'), import('../index/tasks.js'), import('../index/store.js')]);
		const {tasks, indexWarnings} = await withIndex(kbPaths(root), deps, index => {
			const page = pageTasks(index.db, momentOf(deps), {includeTerminal: false, limit: 20, offset: 0});
			return {indexWarnings: index.warnings, tasks: {root, total: page.total, rows: page.tasks.map(task => ({id: task.id, projects: task.projects, status: task.status, label: task.label, next_action: task.next_action, blockers: task.blockers}))}};
		});
		warnings.push(...indexWarnings);
		return tasks;
	} catch (error) {
		warnings.push(`knowledge base ${root} could not be read: ${error instanceof Error ? error.message : 'error'}`);
		return null;
	}
}

/** The command listing every candidate of a project, as `unfinished` pages them. */
function moreCommand(project: string, since: string, source: StoreSelection['source']): string | null {
	if (project === 'unknown') {
		return null; // No --project names the sessions that recorded none.
	}

	const sources = source === undefined ? [] : typeof source === 'string' ? [source] : source;
	return ['engi unfinished --project', shellWord(project), '--since', since, ...sources.flatMap(name => ['--source', shellWord(name)])].join(' ');
}

/**
 * The morning review: across all projects since the last working day, the sessions left
 * unfinished (grouped by project, the newest `limit` of each, every one with `limit: null`),
 * every active or blocked checkpoint with its next action and blockers, and the knowledge
 * base's open tasks. Counts are over every candidate, made by SQLite; only the candidates shown
 * are read whole.
 */
export async function buildStandup(input: {since?: string; source?: StoreSelection['source']; project?: string; rootFlag?: string; cached?: boolean; limit?: number | null}, deps: Deps): Promise<StandupOutput> {
	const now = deps.now();
	const since = input.since === undefined ? lastWorkingDay(now).toISOString() : parseSince(input.since, now).toISOString();
	const limit = input.limit === undefined ? standupCandidatesPerProject : input.limit;
	// Finding a project's root walks up the tree; hundreds of candidates share a few projects.
	const roots = new Map<string, string>();
	// Candidates and the checkpoint lists read the same files: each once.
	const latestIn = checkpointFiles();
	const rootOf = (project: string) => {
		let root = roots.get(project);
		if (root === undefined) {
			root = recordedProjectRoot(project);
			roots.set(project, root);
		}

		return root;
	};

	const only = input.project === undefined ? null : projectOf(resolve(deps.cwd, input.project)).root;
	type Group = {judged: Judged[]; candidates: Candidate[]; total: number; high: number; checkpoints: Checkpoint[]};
	const groups = new Map<string, Group>();
	const group = (project: string) => {
		let entry = groups.get(project);
		if (!entry) {
			entry = {judged: [], candidates: [], total: 0, high: 0, checkpoints: []};
			groups.set(project, entry);
		}

		return entry;
	};

	const groupOf = (project: string | null) => group(project === null || project === 'unknown' ? 'unknown' : rootOf(project));
	const warnings = await withCatalogView({allProjects: true, since, source: input.source, includeSubagents: true, cached: input.cached}, deps, view => {
		// Counted by recorded project; only the newest `limit` of each come out, several projects
		// may share a root, and the newest of a root are among the newest of its projects.
		// Where checkpoints are read from follows from every recorded project: asked once.
		const recorded = recordedProjects(view.db);
		const {projects: counts, newest} = candidatesPerProject(view.db, view.filter, now, deps.cwd, {latestIn, recorded}, limit);
		for (const count of counts) {
			const entry = groupOf(count.project);
			entry.total += count.total;
			entry.high += count.high;
		}

		for (const judged of newest) {
			groupOf(judged.row.project).judged.push(judged);
		}

		for (const root of sessionProjectRoots(recorded, rootOf)) {
			for (const checkpoint of latestIn(root).values()) {
				if (checkpoint.status === 'active' || checkpoint.status === 'blocked') {
					group(root).checkpoints.push(checkpoint);
				}
			}
		}

		const shown = [...groups].filter(([project]) => only === null || project === only).map(([, entry]) => entry);
		for (const entry of shown) {
			entry.judged = entry.judged.slice(0, limit ?? entry.judged.length);
		}

		const subagents = listedSubagentCounts(view.db, view.filter, shown.flatMap(entry => entry.judged.map(judged => judged.id)));
		for (const entry of shown) {
			entry.candidates = describeCandidates(view.db, entry.judged, subagents);
		}

		return [...view.warnings];
	});

	const projects = [...groups.entries()]
		.filter(([project]) => only === null || project === only)
		.map(([project, entry]) => {
			const blocked = entry.checkpoints.filter(checkpoint => checkpoint.status === 'blocked').length;
			const parts = [`${plural(entry.total, 'unfinished session')}${entry.high > 0 ? ` (${entry.high} high)` : ''}`];
			if (entry.checkpoints.length > 0) {
				parts.push(`${plural(entry.checkpoints.length - blocked, 'active checkpoint')}, ${blocked} blocked`);
			}

			return {
				project,
				summary: parts.join('; '),
				candidates: entry.candidates,
				candidates_total: entry.total,
				more: entry.total > entry.candidates.length ? moreCommand(project, since, input.source) : null,
				checkpoints: entry.checkpoints.sort((a, b) => (a.updated_at < b.updated_at ? 1 : -1)),
				high: entry.high,
			};
		})
		.sort((a, b) => b.candidates_total + b.checkpoints.length - (a.candidates_total + a.checkpoints.length) || (a.project < b.project ? -1 : 1));
	const tasks = await openTasks(deps, input.rootFlag, warnings);
	const checkpoints = projects.flatMap(project => project.checkpoints);
	return {
		status: 'ok',
		since,
		project: only,
		generated_at: now.toISOString(),
		totals: {
			candidates: projects.reduce((sum, project) => sum + project.candidates_total, 0),
			high: projects.reduce((sum, project) => sum + project.high, 0),
			projects: projects.length,
			checkpoints_active: checkpoints.filter(checkpoint => checkpoint.status === 'active').length,
			checkpoints_blocked: checkpoints.filter(checkpoint => checkpoint.status === 'blocked').length,
			tasks: tasks?.total ?? null,
		},
		projects: projects.map(({high: _high, ...project}) => project),
		tasks,
		warnings,
	};
}
