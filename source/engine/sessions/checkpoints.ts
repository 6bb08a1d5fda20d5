import {closeSync, existsSync, fsyncSync, mkdirSync, openSync, statSync, writeFileSync} from 'node:fs';
import {endsWithNewline, writeAll} from '../util/files.js';
import {join, resolve} from 'node:path';
import {EngiError} from '../errors.js';
import {withExclusiveLock} from '../kb/lock.js';
import {decodeLine, forEachLine} from '../util/lines.js';
import {gitRoot, isLocalDirectory, projectOf} from '../util/project.js';
import {checkpointSchema, type Checkpoint} from './checkpoint-schema.js';

export function checkpointsPath(projectRoot: string): string {
	return join(projectRoot, '.engi', 'checkpoints.jsonl');
}

/**
 * Where a session's checkpoints are read: its recorded project's file when that project is on
 * this machine, else the working directory's project's, which is where `checkpoint record
 * --project .` put them for a session recorded elsewhere (a copied transcript, another machine).
 * Checkpoints are found by session id, so looking in the working directory cannot misattribute.
 */
export function checkpointReadRoot(recorded: string | null, cwd: string): string {
	return recorded && isLocalDirectory(recorded) ? projectOf(recorded).root : projectOf(cwd).root;
}

/**
 * Where `checkpoint record` writes: the --project given (an existing directory in a project),
 * else the session's recorded project when it is on this machine. A session whose project is
 * unknown or not here needs --project; the working directory is never taken silently.
 */
export function checkpointWriteRoot(session: string, recorded: string | null, cwd: string, projectFlag?: string): string {
	if (projectFlag !== undefined) {
		return projectDirectory(resolve(cwd, projectFlag), projectFlag, recorded);
	}

	if (recorded && isLocalDirectory(recorded)) {
		return projectOf(recorded).root;
	}

	throw new EngiError('project_not_here', recorded ? `session ${session} was recorded in ${recorded}, which is not a directory on this machine` : `the project of session ${session} is not known`, {
		hint: 'say which project keeps its checkpoints with --project <dir> (e.g. --project .)',
	});
}

/**
 * The project root a --project names, refusing anything that is not an existing directory inside
 * a project (a git work tree, a directory that already keeps `.engi/` checkpoints, or the
 * session's own recorded directory), so a typo or `--project /etc` never creates `.engi/`.
 */
function projectDirectory(path: string, typed: string, recorded: string | null): string {
	let isDirectory: boolean;
	try {
		isDirectory = statSync(path).isDirectory();
	} catch {
		throw new EngiError('project_not_found', `--project ${typed}: no such directory (${path})`, {hint: 'pass an existing project directory'});
	}

	if (!isDirectory) {
		throw new EngiError('project_not_directory', `--project ${typed}: ${path} is not a directory`, {hint: 'pass the project\'s directory'});
	}

	const {root} = projectOf(path);
	const isProject = gitRoot(path) !== undefined || existsSync(join(root, '.engi')) || (recorded !== null && isLocalDirectory(recorded) && projectOf(recorded).root === root);
	if (!isProject) {
		throw new EngiError('not_a_project', `--project ${typed}: ${path} is not inside a project (no git work tree, no .engi/)`, {
			hint: 'pass a directory inside a git work tree, or the session\'s own working directory',
		});
	}

	return root;
}

export type CheckpointFile = {
	/** Latest checkpoint per session, in file order of their latest line. */
	readonly latest: Map<string, Checkpoint>;
	/** Lines that did not parse as checkpoints (skipped, counted). */
	readonly skipped: number[];
};

/** Reads a project's checkpoints; a missing file is an empty one. Bad lines are skipped and counted. */
export function readCheckpoints(projectRoot: string): CheckpointFile {
	const path = checkpointsPath(projectRoot);
	const latest = new Map<string, Checkpoint>();
	const skipped: number[] = [];
	if (!existsSync(path)) {
		return {latest, skipped};
	}

	forEachLine(path, raw => {
		const text = decodeLine(raw);
		if (text.trim() === '') {
			return;
		}

		try {
			const parsed = checkpointSchema.safeParse(JSON.parse(text));
			if (parsed.success) {
				latest.delete(parsed.data.session);
				latest.set(parsed.data.session, parsed.data);
				return;
			}
		} catch {}

		skipped.push(raw.number);
	});
	return {latest, skipped};
}

/**
 * Appends one checkpoint under the project's lock, as one write plus fsync, so concurrent
 * records never tear or interleave. Creates `.engi/.gitignore` with `*` so checkpoints stay out
 * of the project's history.
 */
export async function appendCheckpoint(projectRoot: string, checkpoint: Checkpoint): Promise<void> {
	const parsed = checkpointSchema.safeParse(checkpoint);
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		throw new EngiError('invalid_checkpoint', `checkpoint ${issue?.path.map(String).join('.') || 'record'}: ${issue?.message ?? 'invalid'}`, {hint: 'nothing was written'});
	}

	const directory = join(projectRoot, '.engi');
	mkdirSync(directory, {recursive: true});
	const ignore = join(directory, '.gitignore');
	if (!existsSync(ignore)) {
		writeFileSync(ignore, '*\n');
	}

	const line = Buffer.from(JSON.stringify(parsed.data) + '\n');
	await withExclusiveLock(directory, 'checkpoints', () => {
		const path = checkpointsPath(projectRoot);
		// A torn last line (crash mid-write) must not swallow the new record.
		const needsNewline = !endsWithNewline(path);
		const fd = openSync(path, 'a');
		try {
			writeAll(fd, needsNewline ? Buffer.concat([Buffer.from('\n'), line]) : line);
			fsyncSync(fd);
		} finally {
			closeSync(fd);
		}
	});
}
