import {resolve} from 'node:path';
import * as z from 'zod/mini';
import {lazySchema} from '../../lib/lazy-schema.js';
import {withCatalogView} from '../catalog/view.js';
import type {StoreSelection} from '../catalog/targets.js';
import type {Deps} from '../deps.js';
import {pageTasks} from '../index/tasks.js';
import {momentOf} from '../index/store.js';
import {withIndex} from '../index/open.js';
import {kbPaths} from '../kb/paths.js';
import {resolveRoot} from '../kb/root.js';
import {lastWorkingDay, parseSince} from '../../lib/since.js';
import {projectOf, recordedProjectRoot} from '../../lib/project.js';
import {checkpointSchema, type Checkpoint} from './checkpoint-schema.js';
import {candidateSchema, checkpointFiles, checkpointLookup, collectCandidates, sessionProjectRoots, type Candidate} from './unfinished.js';
import {plural} from '../../lib/words.js';

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
			candidates: z.array(candidateSchema),
			checkpoints: z.array(checkpointSchema),
		}),
	),
	/** Open recorded tasks from the knowledge base, or null when none is configured. */
	tasks: z.nullable(z.object({root: z.string(), total: z.number(), rows: z.array(taskRowSchema)})),
	warnings: z.array(z.string()),
}));

export type StandupOutput = z.infer<typeof standupOutputSchema>;

async function openTasks(deps: Deps, rootFlag: string | undefined, warnings: string[]): Promise<StandupOutput['tasks']> {
	let root: string;
	try {
		root = resolveRoot(rootFlag, deps).root;
	} catch {
		return null; // No knowledge base configured: the stand-up is about sessions only.
	}

	try {
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

/**
 * The morning review: across all projects since the last working day, the sessions left
 * unfinished (grouped by project), every active or blocked checkpoint with its next action and
 * blockers, and the knowledge base's open tasks.
 */
export async function buildStandup(input: {since?: string; source?: StoreSelection['source']; project?: string; rootFlag?: string; cached?: boolean}, deps: Deps): Promise<StandupOutput> {
	const now = deps.now();
	const since = input.since === undefined ? lastWorkingDay(now).toISOString() : parseSince(input.since, now).toISOString();
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

	const {candidates, warnings, knownProjects} = await withCatalogView({allProjects: true, since, source: input.source, includeSubagents: true, cached: input.cached}, deps, view => ({
		candidates: collectCandidates(view.db, view.filter, now, checkpointLookup(deps.cwd, latestIn)).candidates,
		knownProjects: sessionProjectRoots(view.db, rootOf),
		warnings: [...view.warnings],
	}));

	const groups = new Map<string, {candidates: Candidate[]; checkpoints: Checkpoint[]}>();
	const group = (project: string) => {
		let entry = groups.get(project);
		if (!entry) {
			entry = {candidates: [], checkpoints: []};
			groups.set(project, entry);
		}

		return entry;
	};

	for (const candidate of candidates) {
		group(candidate.project === 'unknown' ? 'unknown' : rootOf(candidate.project)).candidates.push(candidate);
	}

	for (const root of knownProjects) {
		for (const checkpoint of latestIn(root).values()) {
			if (checkpoint.status === 'active' || checkpoint.status === 'blocked') {
				group(root).checkpoints.push(checkpoint);
			}
		}
	}

	const only = input.project === undefined ? null : projectOf(resolve(deps.cwd, input.project)).root;
	const projects = [...groups.entries()]
		.filter(([project]) => only === null || project === only)
		.map(([project, entry]) => {
			const high = entry.candidates.filter(candidate => candidate.confidence === 'high').length;
			const blocked = entry.checkpoints.filter(checkpoint => checkpoint.status === 'blocked').length;
			const parts = [`${plural(entry.candidates.length, 'unfinished session')}${high > 0 ? ` (${high} high)` : ''}`];
			if (entry.checkpoints.length > 0) {
				parts.push(`${plural(entry.checkpoints.length - blocked, 'active checkpoint')}, ${blocked} blocked`);
			}

			return {project, summary: parts.join('; '), candidates: entry.candidates, checkpoints: entry.checkpoints.sort((a, b) => (a.updated_at < b.updated_at ? 1 : -1))};
		})
		.sort((a, b) => b.candidates.length + b.checkpoints.length - (a.candidates.length + a.checkpoints.length) || (a.project < b.project ? -1 : 1));
	const tasks = await openTasks(deps, input.rootFlag, warnings);
	const checkpoints = projects.flatMap(project => project.checkpoints);
	const shown = projects.flatMap(project => project.candidates);
	return {
		status: 'ok',
		since,
		project: only,
		generated_at: now.toISOString(),
		totals: {
			candidates: shown.length,
			high: shown.filter(candidate => candidate.confidence === 'high').length,
			projects: projects.length,
			checkpoints_active: checkpoints.filter(checkpoint => checkpoint.status === 'active').length,
			checkpoints_blocked: checkpoints.filter(checkpoint => checkpoint.status === 'blocked').length,
			tasks: tasks?.total ?? null,
		},
		projects,
		tasks,
		warnings,
	};
}
