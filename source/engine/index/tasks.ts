import {terminalStatuses} from '../graph/kinds.js';
import {liveEdgeCondition, type Moment} from './store.js';
import {parseStored, type Database} from '../../lib/sqlite.js';

export type TaskRecord = {
	readonly id: string;
	readonly projects: string[];
	readonly status: string;
	readonly label: string;
	readonly updated: string;
	readonly next_action: string | null;
	readonly blockers: string[];
	readonly terminal: boolean;
};

export type TaskPage = {
	readonly tasks: TaskRecord[];
	/** Tasks that match (before paging). */
	readonly total: number;
	/** Terminal tasks among all tasks in scope, whether listed or not. */
	readonly terminal: number;
};

export type TaskQuery = {
	readonly project?: string;
	readonly includeTerminal: boolean;
	readonly limit: number;
	readonly offset: number;
};

/**
 * Recorded tasks with the projects they currently belong to (live BELONGS_TO edges to a
 * Project node, duplicates collapsed), sorted by the JSON text of that project list and then
 * id, and paged inside SQLite so a large journal never materialises every task in JavaScript.
 * Empty status reads "unknown"; unassigned tasks stay, because silence is not proof of done.
 */
export function pageTasks(db: Database, moment: Moment, query: TaskQuery): TaskPage {
	const live = liveEdgeCondition(moment);
	const terminalList = [...terminalStatuses];
	const placeholders = terminalList.map(() => '?').join(', ');
	const scope = `
		WITH membership AS (
			SELECT e.from_id AS task, json_group_array(DISTINCT e.to_id ORDER BY e.to_id) AS projects
			FROM edges e JOIN nodes p ON p.id = e.to_id AND p.kind = 'Project'
			WHERE e.type = 'BELONGS_TO' AND ${live.sql}
			GROUP BY e.from_id
		),
		tasks AS (
			SELECT t.id, t.label, t.status, t.observed_utc, t.next_action, t.blockers,
				coalesce(m.projects, '[]') AS projects,
				lower(trim(coalesce(t.status, ''))) IN (${placeholders}) AS terminal
			FROM nodes t LEFT JOIN membership m ON m.task = t.id
			WHERE t.kind = 'Task'
		)`;
	const params = [...live.params, ...terminalList];
	const projectFilter = query.project === undefined ? '' : 'AND EXISTS (SELECT 1 FROM json_each(tasks.projects) WHERE value = ?)';
	const projectParams = query.project === undefined ? [] : [query.project];
	const counts = db
		.prepare(`${scope} SELECT count(*) AS total, coalesce(sum(terminal), 0) AS terminal FROM tasks WHERE 1 ${projectFilter}`)
		.get(...params, ...projectParams) as {total: number; terminal: number};
	const rows = db
		.prepare(
			`${scope} SELECT * FROM tasks WHERE (? OR NOT terminal) ${projectFilter} ORDER BY projects, id LIMIT ? OFFSET ?`,
		)
		.all(...params, query.includeTerminal ? 1 : 0, ...projectParams, query.limit, query.offset) as Array<{
		id: string;
		label: string | null;
		status: string | null;
		observed_utc: string;
		next_action: string | null;
		blockers: string | null;
		projects: string;
		terminal: number;
	}>;
	return {
		total: query.includeTerminal ? counts.total : counts.total - counts.terminal,
		terminal: counts.terminal,
		tasks: rows.map(row => ({
			id: row.id,
			projects: parseStored<string[]>(row.projects, 'index'),
			status: row.status?.trim() ? row.status.trim() : 'unknown',
			label: row.label?.trim() ? row.label : row.id,
			updated: row.observed_utc,
			next_action: row.next_action?.trim() ? row.next_action : null,
			blockers: row.blockers === null ? [] : parseStored<string[]>(row.blockers, 'index'),
			terminal: row.terminal === 1,
		})),
	};
}
