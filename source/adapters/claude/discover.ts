import {basename, dirname, join} from 'node:path';
import {childPath, fileFingerprint, fileUnit, listDirectory, readSmallJson, statOrUndefined, walkFiles} from '../shared/fs.js';
import {factsBook, isOptionalString, type FactsBook} from '../shared/memo.js';
import type {DiscoveredUnit, DiscoveryMemo} from '../types.js';

const sessionFile = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jsonl$/i;
const agentFile = /^agent-[A-Za-z0-9_-]+\.jsonl$/;
const unusualName = 'transcript files not named by a session UUID, listed under their file names';

/**
 * `projects/<dash-encoded cwd>/` holds `<sessionId>.jsonl` sessions, 2.0.x subagents as
 * sibling `agent-<id>.jsonl` files (their records carry the parent's sessionId), and 2.1.x
 * subagents under `<sessionId>/subagents/` (possibly nested in `workflows/<wf>/`), each with
 * an `agent-<id>.meta.json` sidecar. Another `.jsonl` beside them (a renamed copy, an export)
 * is read too and listed under its file name, with a note: its records may repeat another
 * session's id, and that id must keep naming one session. (`history.jsonl`, the prompt
 * history, lives outside `projects/`.) A Claude Desktop Cowork root holds one such `projects`
 * directory per task.
 */
export function discoverClaude(root: string, memo?: DiscoveryMemo): DiscoveredUnit[] {
	const sidecars = factsBook(memo, `${root}#subagent-sidecars`, isSidecarFacts);
	if (basename(root) !== coworkDirectory) {
		const units = discoverProjects(root, sidecars);
		sidecars.save();
		return units;
	}

	const book = factsBook(memo, root, isTaskFacts);
	const units = coworkProjectRoots(root).flatMap(projects => taskUnits(projects, book, sidecars));
	book.save();
	sidecars.save();
	return units;
}

/** What discovery keeps of a Cowork task's state file: whether the person archived the task. */
type TaskFacts = {readonly archived: boolean};
const isTaskFacts = (value: unknown): value is TaskFacts => typeof value === 'object' && value !== null && typeof (value as {archived?: unknown}).archived === 'boolean';

/**
 * The sessions of one Cowork task (`…/local_<id>/.claude/projects`). Claude Desktop keeps the
 * task's title, its folder and whether the person archived it (`isArchived`) in the state file
 * beside the task's directory, `local_<id>.json`, which changes without any transcript changing:
 * its status is part of each session's fingerprint (a renamed or archived task is read again),
 * and the archive mark is read only when that status changes (the facts book keeps it).
 */
function taskUnits(projects: string, book: FactsBook<TaskFacts>, sidecars: FactsBook<SidecarFacts>): DiscoveredUnit[] {
	const task = dirname(dirname(projects));
	const stateFile = `${task}.json`;
	const state = statOrUndefined(stateFile);
	const stamp = state?.isFile() ? fileFingerprint(state) : 'none';
	const {archived} = book.facts(task, stamp, () => ({archived: state?.isFile() === true && coworkTaskArchived(stateFile)}));
	return discoverProjects(projects, sidecars).map(unit => ({...unit, fingerprint: `${unit.fingerprint}|${stamp}`, ...(archived ? {archived: true} : {})}));
}

/** Whether a Cowork task's state file says the person archived it (`isArchived: true`); a file being written says nothing. */
function coworkTaskArchived(stateFile: string): boolean {
	const state = readSmallJson(stateFile);
	return typeof state === 'object' && state !== null && (state as {isArchived?: unknown}).isArchived === true;
}

/** Claude Desktop's store of Cowork tasks (paths.ts): each task's Claude Code config directory is inside it. */
export const coworkDirectory = 'local-agent-mode-sessions';

/** What a Cowork tree holds beside the tasks: files a person gave or got, plugins, skills. Never sessions. */
const coworkContent = new Set(['uploads', 'outputs', 'cowork_plugins', 'skills-plugin']);

/**
 * The `projects` directories of the Cowork tasks under `root`: a task is a `local_<id>` directory
 * (`<account>/<workspace>/local_<id>`, a scheduled one `…/agent/local_ditto_<id>`) whose Claude
 * Code config directory is `.claude`. Only directories are listed, to a small depth, and never
 * inside a task or its uploads: the walk costs a few directory reads per task.
 */
function coworkProjectRoots(root: string): string[] {
	const found: string[] = [];
	const visit = (directory: string, depth: number) => {
		for (const entry of listDirectory(directory)) {
			if (!entry.isDirectory() || coworkContent.has(entry.name)) {
				continue;
			}

			const path = childPath(directory, entry.name);
			if (entry.name.startsWith('local_')) {
				const claude = subdirectory(path, '.claude');
				const projects = claude === undefined ? undefined : subdirectory(claude, 'projects');
				if (projects !== undefined) {
					found.push(projects);
				}
			} else if (depth < maxCoworkDepth) {
				visit(path, depth + 1);
			}
		}
	};

	visit(root, 0);
	return found;
}

/**
 * The directory `name` inside `directory`, found by listing it as the rest of the walk does: never
 * through a link (a task's sessions are its own, not another task's or a tree outside the store),
 * and a directory that cannot be listed is noted (listDirectory) rather than passed over unsaid.
 */
function subdirectory(directory: string, name: string): string | undefined {
	return listDirectory(directory).some(entry => entry.name === name && entry.isDirectory()) ? childPath(directory, name) : undefined;
}

/** `<account>/<workspace>/agent/local_ditto_<id>`: tasks sit three levels down at most. */
const maxCoworkDepth = 3;

/** One `projects` directory: each working directory's sessions and their subagents. */
function discoverProjects(root: string, sidecars: FactsBook<SidecarFacts>): DiscoveredUnit[] {
	const units: DiscoveredUnit[] = [];
	for (const project of listDirectory(root)) {
		if (!project.isDirectory()) {
			continue;
		}

		const directory = join(root, project.name);
		for (const entry of listDirectory(directory)) {
			const path = childPath(directory, entry.name);
			if (entry.isFile() && sessionFile.test(entry.name)) {
				push(units, fileUnit(path, {idHint: entry.name.slice(0, -'.jsonl'.length)}));
			} else if (entry.isFile() && agentFile.test(entry.name)) {
				push(units, fileUnit(path, {idHint: entry.name.slice(0, -'.jsonl'.length)}));
			} else if (entry.isFile() && entry.name.endsWith('.jsonl')) {
				push(units, fileUnit(path, {idHint: entry.name.slice(0, -'.jsonl'.length), note: unusualName}));
			} else if (entry.isDirectory()) {
				units.push(...subagentUnits(join(path, 'subagents'), entry.name, sidecars));
			}
		}
	}

	return units;
}

/**
 * The subagents of session `session`. Claude Code keeps them flat in `subagents/` however deep
 * they were started; the sidecar of one a subagent started names that agent (`parentAgentId`,
 * beside `spawnDepth`), and it is listed under that agent. One whose starting agent left no
 * transcript here stays under the session. A sidecar is read only when it changes (the facts
 * book keeps what it said); stating it costs what checking that it exists did.
 */
function subagentUnits(subagents: string, session: string, sidecars: FactsBook<SidecarFacts>): DiscoveredUnit[] {
	const files = walkFiles(subagents, name => agentFile.test(name), 3);
	const agents = new Set(files.map(file => basename(file, '.jsonl')));
	const units: DiscoveredUnit[] = [];
	for (const file of files) {
		const id = basename(file, '.jsonl');
		const meta = file.replace(/\.jsonl$/, '.meta.json');
		const sidecar = statOrUndefined(meta);
		const started = sidecar?.isFile() ? sidecars.facts(meta, fileFingerprint(sidecar), () => ({parentAgent: sidecarParentAgent(meta)})).parentAgent : undefined;
		const parent = started !== undefined && `agent-${started}` !== id && agents.has(`agent-${started}`) ? `agent-${started}` : session;
		push(units, fileUnit(file, {idHint: id, parentIdHint: parent, paths: sidecar?.isFile() ? [file, meta] : [file]}));
	}

	return units;
}

/** What discovery keeps of a subagent's sidecar: the agent that started it, when one did. */
type SidecarFacts = {readonly parentAgent?: string};
const isSidecarFacts = (value: unknown): value is SidecarFacts => typeof value === 'object' && value !== null && isOptionalString((value as {parentAgent?: unknown}).parentAgent);

/** A sidecar's `parentAgentId`, when it is a plain agent id; a file being written, or any other value, names none. */
function sidecarParentAgent(meta: string): string | undefined {
	const sidecar = readSmallJson(meta);
	const parent = typeof sidecar === 'object' && sidecar !== null ? (sidecar as {parentAgentId?: unknown}).parentAgentId : undefined;
	return typeof parent === 'string' && /^[A-Za-z0-9_-]+$/.test(parent.trim()) ? parent.trim() : undefined;
}

function push(units: DiscoveredUnit[], unit: DiscoveredUnit | undefined): void {
	if (unit) {
		units.push(unit);
	}
}
