import {closeSync, existsSync, mkdirSync, openSync, statSync, writeFileSync} from 'node:fs';
import {join, resolve} from 'node:path';
import type {Deps} from '../deps.js';
import {EngiError, writeError} from '../../lib/errors.js';
import {repairLinesLocked} from '../journal/line-repair.js';
import {withExclusiveLock} from '../kb/lock.js';
import {appendDurably, endsWithNewline} from '../../lib/files.js';
import {JsonTooDeepError, parseBoundedJson} from '../../lib/json-depth.js';
import {decodeLine, forEachLine} from '../../lib/lines.js';
import {gitRoot, isLocalDirectory, projectOf} from '../../lib/project.js';
import {pauseAt} from '../../lib/test-pause.js';
import {utcDate} from '../../lib/time.js';
import {maskValue} from '../search/secrets.js';
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
	/** Lines that did not parse as checkpoints (skipped, counted; the next record quarantines them). */
	readonly skipped: number[];
};

/** A checkpoint line's checkpoint, or why it is not one. */
function parseCheckpointLine(text: string): {readonly checkpoint: Checkpoint} | {readonly reason: 'not_json' | 'too_deep' | 'not_a_checkpoint'} {
	let value: unknown;
	try {
		value = parseBoundedJson(text);
	} catch (error) {
		return {reason: error instanceof JsonTooDeepError ? 'too_deep' : 'not_json'};
	}

	const parsed = checkpointSchema.safeParse(value);
	return parsed.success ? {checkpoint: parsed.data} : {reason: 'not_a_checkpoint'};
}

/**
 * Reads a project's checkpoints; a missing file is an empty one. Bad lines are skipped and
 * counted. Secrets are masked (a file written before they were masked on write may hold some).
 */
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

		const parsed = parseCheckpointLine(text);
		if ('checkpoint' in parsed) {
			latest.delete(parsed.checkpoint.session);
			latest.set(parsed.checkpoint.session, parsed.checkpoint);
		} else {
			skipped.push(raw.number);
		}
	});
	for (const [session, checkpoint] of latest) {
		latest.set(session, maskValue(checkpoint) as Checkpoint);
	}

	return {latest, skipped};
}

/**
 * Records a session's next checkpoint under the project's lock. `build` gets the session's
 * latest checkpoint as the file holds it now, read under the lock, so two records made at once
 * each see the other's fields; it may throw to refuse, and then nothing is written. The new
 * line is appended with one write and an fsync, its text with secrets masked; the stored
 * checkpoint is returned. Lines that are not checkpoints (a torn write, a
 * bad hand edit) are first moved verbatim to `<project>/.engi/quarantine/checkpoints/<UTC
 * date>.jsonl`, as the journal's are: a directory of its own, so a project that is also a
 * knowledge base never mixes them with the journal's quarantine. `.engi/.gitignore` (`*`) keeps
 * it all out of the project's history.
 */
export async function appendCheckpoint(
	projectRoot: string,
	session: string,
	build: (previous: Checkpoint | undefined) => Checkpoint,
	deps: Deps,
	/** True when the latest checkpoint already records what `build` would (a promotion run again): it is returned and nothing is written. */
	already?: (previous: Checkpoint) => boolean,
): Promise<Checkpoint> {
	const directory = join(projectRoot, '.engi');
	const path = checkpointsPath(projectRoot);
	try {
		mkdirSync(directory, {recursive: true, mode: 0o700});
		const ignore = join(directory, '.gitignore');
		if (!existsSync(ignore)) {
			writeFileSync(ignore, '*\n', {mode: 0o600});
		}
	} catch (error) {
		throw writeError(directory, error);
	}

	return withExclusiveLock(directory, 'checkpoints', lock => {
		let file = readCheckpoints(projectRoot);
		if (file.skipped.length > 0 || !endsWithNewline(path)) {
			repairLinesLocked({
				path,
				classify: text => {
					const parsed = parseCheckpointLine(text);
					return 'reason' in parsed ? parsed.reason : undefined;
				},
				quarantineFile: join(directory, 'quarantine', 'checkpoints', `${utcDate(deps.now())}.jsonl`),
				lock,
				deps,
			});
			file = readCheckpoints(projectRoot);
		}

		const previous = file.latest.get(session);
		if (previous !== undefined && already?.(previous)) {
			return previous;
		}

		const parsed = checkpointSchema.safeParse(build(previous));
		if (!parsed.success) {
			const issue = parsed.error.issues[0];
			throw new EngiError('invalid_checkpoint', `checkpoint ${issue?.path.map(String).join('.') || 'record'}: ${issue?.message ?? 'invalid'}`, {hint: 'nothing was written'});
		}

		const stored = maskValue(parsed.data) as Checkpoint;
		let fd: number;
		try {
			fd = openSync(path, 'a', 0o600);
		} catch (error) {
			throw writeError(path, error);
		}

		try {
			pauseAt(deps.env, 'checkpoint.before_append');
			lock.confirm();
			appendDurably(fd, path, Buffer.from(JSON.stringify(stored) + '\n'));
		} finally {
			closeSync(fd);
		}

		return stored;
	});
}
