import {closeSync, existsSync, fsyncSync, mkdirSync, openSync, writeFileSync} from 'node:fs';
import {endsWithNewline, writeAll} from '../util/files.js';
import {join, resolve} from 'node:path';
import {EngiError} from '../errors.js';
import {withExclusiveLock} from '../kb/lock.js';
import {decodeLine, forEachLine} from '../util/lines.js';
import {projectOf} from '../util/project.js';
import {maskValue} from '../search/secrets.js';
import {checkpointSchema, type Checkpoint} from './checkpoint-schema.js';

export function checkpointsPath(projectRoot: string): string {
	return join(projectRoot, '.engi', 'checkpoints.jsonl');
}

/**
 * The project whose checkpoint file holds a session's checkpoints: the --project given, else the
 * session's own recorded project when it exists on this machine, else the working directory's.
 * Writers and readers both ask here, so a checkpoint recorded for a session whose project is
 * absent (a copied transcript) is found again by `unfinished`, `resume` and the dashboard.
 */
export function checkpointRootOf(recorded: string | null, cwd: string, projectFlag?: string): string {
	if (projectFlag !== undefined) {
		return projectOf(resolve(cwd, projectFlag)).root;
	}

	if (recorded && existsSync(recorded)) {
		return projectOf(recorded).root;
	}

	return projectOf(cwd).root;
}

export type CheckpointFile = {
	/** Latest checkpoint per session, in file order of their latest line. */
	readonly latest: Map<string, Checkpoint>;
	/** Lines that did not parse as checkpoints (skipped, counted). */
	readonly skipped: number[];
};

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
	for (const [session, checkpoint] of latest) {
		latest.set(session, maskValue(checkpoint) as Checkpoint);
	}

	return {latest, skipped};
}

/**
 * Appends one checkpoint under the project's lock, as one write plus fsync, so concurrent
 * records never tear or interleave. Its text is stored with secrets masked; the stored
 * checkpoint is returned. Creates `.engi/.gitignore` with `*` so checkpoints stay out
 * of the project's history.
 */
export async function appendCheckpoint(projectRoot: string, checkpoint: Checkpoint): Promise<Checkpoint> {
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

	const stored = maskValue(parsed.data) as Checkpoint;
	const line = Buffer.from(JSON.stringify(stored) + '\n');
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
	return stored;
}
