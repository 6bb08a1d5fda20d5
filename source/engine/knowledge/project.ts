import * as z from 'zod/mini';
import type {Deps} from '../deps.js';
import {EngiError} from '../../lib/errors.js';
import {edgesTouching, getNode, momentOf, type Moment} from '../index/store.js';
import {nextOffset} from '../../lib/words.js';
import type {Database} from '../../lib/sqlite.js';
import {withIndex, type IndexHandle} from '../index/open.js';
import {requireKnowledgeBase, type KbPaths} from '../kb/paths.js';
import {historyEntrySchema, nodeHistory} from './history.js';
import {listProjects, resolveProject} from './project-resolve.js';
import {pageTasks, type TaskRecord} from '../index/tasks.js';
import {resultState, resultStates, stateReason, stateReasonSchema} from '../search/result-state.js';
import {indexReasons} from './index-reasons.js';
import type {ExitCode} from '../../lib/errors.js';

const scope = 'recorded tasks; unknown status is not proof of unfinished work';
const briefFields = ['id', 'projects', 'status', 'label', 'updated', 'next_action', 'blockers'] as const;

/** ok: tasks listed; empty: none recorded; degraded: some journal lines could not be read; unavailable: the index could not be opened. */
const stateFields = {state: z.enum(resultStates), reasons: z.array(stateReasonSchema)};

const pageFields = {
	...stateFields,
	scope: z.string(),
	project: z.nullable(z.string()),
	total: z.number(),
	excluded_terminal: z.number(),
	offset: z.number(),
	next_offset: z.nullable(z.number()),
	detail: z.string(),
	projects: z.record(z.string(), z.nullable(z.string())),
};

export const projectBriefSchema = z.object({
	view: z.literal('brief'),
	...pageFields,
	fields: z.array(z.string()),
	rows: z.array(z.tuple([z.string(), z.array(z.string()), z.string(), z.string(), z.string(), z.nullable(z.string()), z.array(z.string())])),
});

const evidenceTaskSchema = z.object({
	id: z.string(),
	projects: z.array(z.string()),
	status: z.string(),
	label: z.string(),
	updated: z.string(),
	next_action: z.nullable(z.string()),
	blockers: z.array(z.string()),
	node: z.record(z.string(), z.unknown()),
	history: z.array(historyEntrySchema),
});

export const projectEvidenceSchema = z.object({
	view: z.literal('evidence'),
	...pageFields,
	project_node: z.nullable(z.object({node: z.record(z.string(), z.unknown()), history: z.array(historyEntrySchema)})),
	tasks: z.array(evidenceTaskSchema),
});

export const projectFullSchema = z.object({view: z.literal('full'), ...stateFields, id: z.string(), render: z.string()});

export const projectOutputSchema = z.discriminatedUnion('view', [projectBriefSchema, projectEvidenceSchema, projectFullSchema]);
export type ProjectOutput = z.infer<typeof projectOutputSchema>;
export type ProjectBrief = z.infer<typeof projectBriefSchema>;

/** Tasks a page shows unless told otherwise. */
export const projectPageSize = 50;

export type ProjectInput = {
	readonly id?: string;
	readonly view?: 'brief' | 'evidence' | 'full';
	readonly limit?: number;
	readonly offset?: number;
};

/**
 * The project/task brief: recorded tasks that are not terminal, with their projects, next
 * actions and blockers, paged; `evidence` adds terminal tasks and each task's journal history;
 * `full` renders one project as a readable page. Each answer has a typed state; one the index
 * could not give is `unavailable` (exit 2).
 */
export async function getProject(paths: KbPaths, given: ProjectInput, deps: Deps): Promise<{output: ProjectOutput; exitCode: ExitCode}> {
	const input = {id: given.id, view: given.view ?? 'brief', limit: given.limit ?? projectPageSize, offset: given.offset ?? 0};
	if (input.view === 'full' && !input.id) {
		throw new EngiError('project_id_required', '--view full requires a project id', {hint: 'engi project <id> --view full'});
	}

	requireKnowledgeBase(paths);
	// Only an index that cannot be opened makes the answer "unavailable"; a failure past that is an error.
	let opened = false;
	try {
		const output = await withIndex(paths, deps, index => {
			opened = true;
			return projectPage(index, paths, input, deps);
		});
		return {output, exitCode: 0};
	} catch (error) {
		if (opened) {
			throw error;
		}

		const reasons = [stateReason('index_unavailable', `the index could not be opened: ${error instanceof Error ? error.message : 'error'}`)];
		const unavailable = {state: 'unavailable' as const, reasons, scope, project: input.id ?? null, total: 0, excluded_terminal: 0, offset: input.offset, next_offset: null, detail: `engi project ${input.id ?? '<project-id>'} --view evidence`, projects: {}};
		const output: ProjectOutput =
			input.view === 'full'
				? {view: 'full', state: 'unavailable', reasons, id: input.id!, render: ''}
				: input.view === 'evidence'
					? {view: 'evidence', ...unavailable, project_node: null, tasks: []}
					: {view: 'brief', ...unavailable, fields: [...briefFields], rows: []};
		return {output, exitCode: 2};
	}
}

function projectPage(index: IndexHandle, paths: KbPaths, input: {id: string | undefined; view: 'brief' | 'evidence' | 'full'; limit: number; offset: number}, deps: Deps): ProjectOutput {
	const db = index.db;
	const moment = momentOf(deps);
	const reasons = indexReasons(paths, index);
	const project = input.id ? resolveProject(db, input.id) : undefined;
	const projects = Object.fromEntries((project ? [project] : listProjects(db)).map(ref => [ref.id, ref.label]));
	if (input.view === 'full') {
		const all = pageTasks(db, moment, {project: project!.id, includeTerminal: true, limit: Number.MAX_SAFE_INTEGER, offset: 0});
		return {view: 'full', state: resultState(1, reasons), reasons, id: project!.id, render: renderProjectPage(project!.id, projects[project!.id] ?? null, all.tasks, db, moment)};
	}

	const page = pageTasks(db, moment, {project: project?.id, includeTerminal: input.view === 'evidence', limit: input.limit, offset: input.offset});
	const common = {
		state: resultState(page.total, reasons),
		reasons,
		scope,
		project: project?.id ?? null,
		total: page.total,
		excluded_terminal: input.view === 'brief' ? page.terminal : 0,
		offset: input.offset,
		next_offset: nextOffset(input.offset, page.tasks.length, page.total),
		detail: `engi project ${project?.id ?? '<project-id>'} --view evidence`,
		projects,
	};
	if (input.view === 'brief') {
		return {
			view: 'brief',
			...common,
			fields: [...briefFields],
			rows: page.tasks.map(task => [task.id, task.projects, task.status, task.label, task.updated, task.next_action, task.blockers]),
		};
	}

	return {
		view: 'evidence',
		...common,
		project_node: project ? {node: getNode(db, project.id)!.payload, history: nodeHistory(db, project.id)} : null,
		tasks: page.tasks.map(task => ({
			id: task.id,
			projects: task.projects,
			status: task.status,
			label: task.label,
			updated: task.updated,
			next_action: task.next_action,
			blockers: task.blockers,
			node: getNode(db, task.id)!.payload,
			history: nodeHistory(db, task.id),
		})),
	};
}

function renderProjectPage(id: string, label: string | null, tasks: TaskRecord[], db: Database, moment: Moment): string {
	const node = getNode(db, id, moment)!;
	const body = typeof node.payload['body'] === 'string' ? node.payload['body'] : '';
	const lines = [`# ${label ?? id}`, '', `id: ${id}`, `updated: ${node.observed_utc}`];
	if (body) {
		lines.push('', body);
	}

	lines.push('', `## Tasks (${tasks.length}, terminal included)`);
	for (const task of tasks) {
		lines.push(`- [${task.status}] ${task.label} (${task.id})`);
		if (task.next_action) {
			lines.push(`  next: ${task.next_action}`);
		}

		if (task.blockers.length > 0) {
			lines.push(`  blockers: ${task.blockers.join('; ')}`);
		}
	}

	const related = edgesTouching(db, id, moment).filter(edge => !(edge.type === 'BELONGS_TO' && tasks.some(task => task.id === edge.from_id)));
	if (related.length > 0) {
		lines.push('', '## Other links');
		for (const edge of related) {
			lines.push(`- ${edge.from_id} -${edge.type}-> ${edge.to_id}`);
		}
	}

	return lines.join('\n') + '\n';
}
