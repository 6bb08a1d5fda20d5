import * as z from 'zod/mini';
import type {CatalogRow} from '../catalog/scan.js';
import {listCatalogRows} from '../catalog/list.js';
import {openCatalogView, type ScopeInput} from '../catalog/sessions.js';
import type {Deps} from '../deps.js';
import {checkpointSchema, type Checkpoint} from './checkpoint-schema.js';
import {checkpointRootOf, readCheckpoints} from './checkpoints.js';
import {confidenceOf, reasonSchema, reasonsFor} from './reasons.js';

export const candidateSchema = z.object({
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
});

export type Candidate = z.infer<typeof candidateSchema>;

export const unfinishedOutputSchema = z.object({
	status: z.literal('ok'),
	scope: z.object({project: z.nullable(z.string()), all_projects: z.boolean(), since: z.string()}),
	total: z.number(),
	offset: z.number(),
	next_offset: z.nullable(z.number()),
	candidates: z.array(candidateSchema),
	warnings: z.array(z.string()),
});

export type UnfinishedOutput = z.infer<typeof unfinishedOutputSchema>;

const activeWindowMs = 2 * 60 * 1000;

/** A session's latest checkpoint, found where `checkpoint record` puts it; each file is read at most once per call. */
export function checkpointLookup(cwd: string): (projectPath: string | null, session: string) => Checkpoint | undefined {
	const files = new Map<string, Map<string, Checkpoint>>();
	// Many sessions share a project; finding its root walks up the tree, so once per project.
	const roots = new Map<string | null, string>();
	return (projectPath, session) => {
		let root = roots.get(projectPath);
		if (root === undefined) {
			root = checkpointRootOf(projectPath, cwd);
			roots.set(projectPath, root);
		}
		let latest = files.get(root);
		if (!latest) {
			latest = readCheckpoints(root).latest;
			files.set(root, latest);
		}

		return latest.get(session);
	};
}

/** The yesterday-and-today window `unfinished` looks at by default. */
export function defaultSince(now: Date): string {
	return new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1).toISOString();
}

/** Every candidate in scope, newest first, judged from the catalog's tail state and checkpoints. */
export function collectCandidates(rows: readonly CatalogRow[], now: Date, checkpointOf: ReturnType<typeof checkpointLookup>): Candidate[] {
	const listedIds = new Set(rows.filter(row => row.summary.parent_id === null).map(row => `${row.source}\u0000${row.summary.id}`));
	const subagents = new Map<string, number>();
	for (const row of rows) {
		if (row.summary.parent_id) {
			const key = `${row.source}\u0000${row.summary.parent_id}`;
			subagents.set(key, (subagents.get(key) ?? 0) + 1);
		}
	}

	const candidates: Candidate[] = [];
	for (const row of rows) {
		const id = row.summary.id ?? row.key;
		// Subagent work belongs to its parent's candidate; only orphans are listed on their own.
		if (row.summary.parent_id && listedIds.has(`${row.source}\u0000${row.summary.parent_id}`)) {
			continue;
		}

		const checkpoint = checkpointOf(row.summary.project, id);
		if (checkpoint && (checkpoint.status === 'completed' || checkpoint.status === 'superseded')) {
			continue;
		}

		const modified = row.summary.modified ? Date.parse(row.summary.modified) : row.mtime_ms;
		const activeNow = now.getTime() - Math.max(modified, row.mtime_ms) < activeWindowMs;
		const reasons = reasonsFor(row.tail, checkpoint, activeNow);
		if (reasons.length === 0 && !activeNow) {
			continue;
		}

		candidates.push({
			id,
			source: row.source,
			project: row.summary.project ?? 'unknown',
			modified: row.summary.modified,
			title: row.summary.title,
			classification: 'candidate',
			confidence: activeNow && reasons.length === 0 ? 'low' : confidenceOf(reasons),
			reasons,
			...(checkpoint ? {checkpoint} : {}),
			active_now: activeNow,
			path: row.path,
			...(row.summary.parent_id ? {parent_id: row.summary.parent_id} : {}),
			subagents: subagents.get(`${row.source}\u0000${id}`) ?? 0,
		});
	}

	return candidates;
}

export type UnfinishedInput = ScopeInput & {limit: number; offset: number};

/** `engi unfinished`: sessions whose work looks unfinished, with reasons and confidence. */
export function listUnfinished(input: UnfinishedInput, deps: Deps): UnfinishedOutput {
	const now = deps.now();
	const since = input.since ?? defaultSince(now);
	const view = openCatalogView({...input, since, includeSubagents: true}, deps);
	try {
		const rows = listCatalogRows(view.db, view.filter);
		const candidates = collectCandidates(rows, now, checkpointLookup(deps.cwd));
		const page = candidates.slice(input.offset, input.offset + input.limit);
		return {
			status: 'ok',
			scope: {project: view.projectRoot, all_projects: input.allProjects, since: view.since!},
			total: candidates.length,
			offset: input.offset,
			next_offset: input.offset + page.length < candidates.length ? input.offset + page.length : null,
			candidates: page,
			warnings: view.warnings,
		};
	} finally {
		view.close();
	}
}
