import {isTerminalStatus} from '../graph/kinds.js';
import {liveEdgeCondition, type Moment} from '../graph/read.js';
import type {Database} from '../util/sqlite.js';

export type TaskRecord = {
	readonly id: string;
	readonly projects: string[];
	readonly status: string;
	readonly label: string;
	readonly updated: string;
	readonly next_action: string | null;
	readonly blockers: string[];
	readonly terminal: boolean;
	readonly node: Record<string, unknown>;
};

function asBlockers(value: unknown): string[] {
	if (Array.isArray(value)) {
		return value.filter((item): item is string => typeof item === 'string' && item.trim() !== '');
	}

	return typeof value === 'string' && value.trim() !== '' ? [value] : [];
}

/**
 * Every recorded task with the projects it currently belongs to (live BELONGS_TO edges to a
 * Project node, duplicates collapsed). Empty status becomes "unknown"; unassigned tasks stay,
 * with no projects, because silence is not proof the work is done.
 */
export function listTasks(db: Database, moment: Moment): TaskRecord[] {
	const live = liveEdgeCondition(moment);
	const memberships = db
		.prepare(
			`SELECT DISTINCT e.from_id AS task, e.to_id AS project FROM edges e JOIN nodes p ON p.id = e.to_id AND p.kind = 'Project'
			 WHERE e.type = 'BELONGS_TO' AND ${live.sql}`,
		)
		.all(...live.params) as Array<{task: string; project: string}>;
	const projectsByTask = new Map<string, Set<string>>();
	for (const {task, project} of memberships) {
		let set = projectsByTask.get(task);
		if (!set) {
			set = new Set();
			projectsByTask.set(task, set);
		}

		set.add(project);
	}

	const rows = db.prepare(`SELECT id, label, status, observed_utc, payload FROM nodes WHERE kind = 'Task'`).all() as Array<{
		id: string;
		label: string | null;
		status: string | null;
		observed_utc: string;
		payload: string;
	}>;
	const tasks = rows.map(row => {
		const node = JSON.parse(row.payload) as Record<string, unknown>;
		const status = row.status?.trim() ? row.status.trim() : 'unknown';
		const nextAction = node['next_action'];
		return {
			id: row.id,
			projects: [...(projectsByTask.get(row.id) ?? [])].sort(),
			status,
			label: row.label?.trim() ? row.label : row.id,
			updated: row.observed_utc,
			next_action: typeof nextAction === 'string' && nextAction.trim() !== '' ? nextAction : null,
			blockers: asBlockers(node['blockers'] ?? node['blocker']),
			terminal: isTerminalStatus(status),
			node,
		};
	});
	const key = (task: TaskRecord) => JSON.stringify(task.projects);
	return tasks.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
