import {existsSync} from 'node:fs';
import {resolve} from 'node:path';
import * as z from 'zod/mini';
import {lazySchema} from '../../lib/lazy-schema.js';
import {isSourceId} from '../../adapters/types.js';
import {listNarrowRows, recordedProjects} from '../catalog/list.js';
import {withCatalogView} from '../catalog/view.js';
import type {StoreSelection} from '../catalog/targets.js';
import type {Deps} from '../deps.js';
import {EngiError} from '../../lib/errors.js';
import {normalizeSessionId} from '../conversation/ids.js';
import {isLocalDirectory, projectOf} from '../../lib/project.js';
import {readTextInput} from '../../lib/text-input.js';
import {checkpointDraftSchema, checkpointSchema, type CheckpointDraft} from './checkpoint-schema.js';
import {applyCheckpointRules} from './checkpoint-rules.js';
import {appendCheckpoint, checkpointReadRoot, checkpointsPath, checkpointWriteRoot, readCheckpoints} from './checkpoints.js';
import {checkpointLookup, collectCandidates, defaultSince, sessionProjectRoots} from './unfinished.js';

export const checkpointRecordOutputSchema = lazySchema(() => z.object({status: z.literal('recorded'), path: z.string(), inherited: z.array(z.string()), checkpoint: checkpointSchema}));
export const checkpointShowOutputSchema = lazySchema(() => z.object({status: z.literal('ok'), path: z.string(), checkpoint: checkpointSchema}));
const checkpointFileSchema = lazySchema(() => z.object({project: z.string(), path: z.string(), count: z.number(), skipped_lines: z.array(z.number())}));
export const checkpointListOutputSchema = lazySchema(() => z.object({
	status: z.literal('ok'),
	/** The one project listed; null with --all-projects (each checkpoint names its project). */
	project: z.nullable(z.string()),
	path: z.nullable(z.string()),
	count: z.number(),
	/** Lines of `path` that did not parse; with --all-projects, see each file's. */
	skipped_lines: z.array(z.number()),
	checkpoints: z.array(checkpointSchema),
	/** Every checkpoint file read. */
	files: z.array(checkpointFileSchema),
}));

type SessionFacts = {id: string; source: string | null; project: string | null};

/** What the catalog knows of a session id (its source and recorded project), if anything. */
async function sessionFacts(id: string, deps: Deps): Promise<SessionFacts> {
	return withCatalogView({allProjects: true, includeSubagents: true}, deps, view => {
		const row = listNarrowRows(view.db, view.filter).find(candidate => (candidate.id ?? '').toLowerCase() === id.toLowerCase());
		return {id, source: row?.source ?? null, project: row?.project ?? null};
	});
}

/**
 * The one unfinished candidate of a project (the working directory's unless --project), among
 * the stores and since the time given (default: yesterday), or an error listing them.
 */
export async function unambiguousSession(deps: Deps, scope: StoreSelection & {project?: string; since?: string}): Promise<SessionFacts> {
	return withCatalogView({source: scope.source, sourceRoot: scope.sourceRoot, allProjects: false, project: scope.project, since: scope.since ?? defaultSince(deps.now()), includeSubagents: true}, deps, view => {
		const {candidates} = collectCandidates(view.db, view.filter, deps.now(), checkpointLookup(deps.cwd));
		const strong = candidates.filter(candidate => candidate.confidence !== 'low');
		const chosen = candidates.length === 1 ? candidates : strong.length === 1 ? strong : [];
		if (chosen.length === 1) {
			return {id: chosen[0]!.id, source: chosen[0]!.source, project: chosen[0]!.project};
		}

		throw new EngiError(candidates.length === 0 ? 'session_required' : 'session_ambiguous', candidates.length === 0 ? `no unfinished session in ${view.projectRoot}; pass --session <id>` : `multiple candidate sessions found in ${view.projectRoot}; specify --session <id>`, {
			hint: 'engi unfinished lists the candidates',
			details: {project: view.projectRoot, candidates: candidates.map(candidate => ({id: candidate.id, source: candidate.source, title: candidate.title, modified: candidate.modified}))},
		});
	});
}

async function readDraftFile(file: string, stdin: NodeJS.ReadableStream, cwd: string): Promise<CheckpointDraft> {
	const text = await readTextInput(file, stdin, cwd);
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		throw new EngiError('invalid_checkpoint', `${file === '-' ? 'stdin' : file} is not valid JSON`, {hint: 'nothing was written'});
	}

	const parsed = checkpointDraftSchema.safeParse(value);
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		throw new EngiError('invalid_checkpoint', `${file === '-' ? 'stdin' : file}: ${issue?.path.map(String).join('.') || 'checkpoint'}: ${issue?.message ?? 'invalid'}`, {hint: 'nothing was written'});
	}

	return parsed.data;
}

export type RecordInput = CheckpointDraft & {
	file?: string;
	/**
	 * Where to write when the session's own project is not on this machine and no project was
	 * named: the dashboard passes its working directory (whose checkpoints it lists) and shows
	 * the file it wrote. The command line passes none, so there it takes --project.
	 */
	fallbackProject?: string;
};

/**
 * Records a checkpoint by the rules of applyCheckpointRules. The session defaults to the one
 * unambiguous unfinished session of the working directory's project; the file is the session's
 * project's (or --project's), never the working directory's by default.
 */
export async function recordCheckpoint(input: RecordInput, stdin: NodeJS.ReadableStream, deps: Deps) {
	const fromFile = input.file === undefined ? {} : await readDraftFile(input.file, stdin, deps.cwd);
	const defined = Object.fromEntries(Object.entries(input).filter(([key, value]) => value !== undefined && key !== 'file' && key !== 'fallbackProject')) as CheckpointDraft;
	const draft: CheckpointDraft = {...fromFile, ...defined};
	const facts = await (draft.session ? sessionFacts(normalizeSessionId(draft.session), deps) : unambiguousSession(deps, {project: draft.project}));
	const here = facts.project !== null && isLocalDirectory(facts.project);
	const root = checkpointWriteRoot(facts.id, facts.project, deps.cwd, draft.project ?? (here ? undefined : input.fallbackProject));
	let inherited: string[] = [];
	// The session's latest checkpoint is read under the project's lock, right before the append.
	const checkpoint = await appendCheckpoint(root, facts.id, previous => {
		const source = draft.source ?? facts.source ?? previous?.source ?? 'unknown';
		if (source !== 'unknown' && !isSourceId(source)) {
			throw new EngiError('invalid_flag_value', `--source: unknown source "${source}"`);
		}

		const rules = applyCheckpointRules(draft, previous);
		inherited = rules.inherited;
		return {session: facts.id, source, project: root, ...rules.fields, updated_at: deps.now().toISOString()};
	}, deps);
	return {status: 'recorded' as const, path: checkpointsPath(root), inherited, checkpoint};
}

export async function showCheckpoint(input: {session?: string; project?: string}, deps: Deps) {
	const facts = await (input.session ? sessionFacts(normalizeSessionId(input.session), deps) : unambiguousSession(deps, {project: input.project}));
	const root = input.project === undefined ? checkpointReadRoot(facts.project, deps.cwd) : projectOf(resolve(deps.cwd, input.project)).root;
	const checkpoint = readCheckpoints(root).latest.get(facts.id);
	if (!checkpoint) {
		throw new EngiError('checkpoint_not_found', `no checkpoint for session ${facts.id} in ${checkpointsPath(root)}`, {hint: 'record one with engi checkpoint record --session <id> --objective <text>'});
	}

	return {status: 'ok' as const, path: checkpointsPath(root), checkpoint};
}

/**
 * The latest checkpoint of each session in a project, newest first; with `allProjects`, in every
 * project that has a checkpoint file: the working directory's and those of the catalog's sessions
 * (the projects the stand-up covers).
 */
export async function listCheckpoints(input: {project?: string; allProjects?: boolean}, deps: Deps) {
	const here = projectOf(input.project === undefined || input.allProjects ? deps.cwd : resolve(deps.cwd, input.project)).root;
	let roots = [here];
	if (input.allProjects) {
		roots = await withCatalogView({allProjects: true, includeSubagents: true}, deps, view =>
			[...new Set([here, ...sessionProjectRoots(recordedProjects(view.db), project => projectOf(project).root)])].filter(root => existsSync(checkpointsPath(root))),
		);
	}

	const files = roots.map(root => ({root, file: readCheckpoints(root)}));
	const checkpoints = files.flatMap(({file}) => [...file.latest.values()]).sort((a, b) => (a.updated_at < b.updated_at ? 1 : a.updated_at > b.updated_at ? -1 : 0));
	return {
		status: 'ok' as const,
		project: input.allProjects ? null : here,
		path: input.allProjects ? null : checkpointsPath(here),
		count: checkpoints.length,
		skipped_lines: input.allProjects ? [] : files[0]!.file.skipped,
		checkpoints,
		files: files.map(({root, file}) => ({project: root, path: checkpointsPath(root), count: file.latest.size, skipped_lines: file.skipped})),
	};
}

