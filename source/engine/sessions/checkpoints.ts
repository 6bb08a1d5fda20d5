import {closeSync, existsSync, mkdirSync, openSync, writeFileSync} from 'node:fs';
import {join, resolve} from 'node:path';
import type {Deps} from '../deps.js';
import {EngiError, writeError} from '../errors.js';
import {repairLinesLocked} from '../journal/line-repair.js';
import {withExclusiveLock} from '../kb/lock.js';
import {appendDurably, endsWithNewline} from '../util/files.js';
import {JsonTooDeepError, parseBoundedJson} from '../util/json-depth.js';
import {decodeLine, forEachLine} from '../util/lines.js';
import {projectOf} from '../util/project.js';
import {pauseAt} from '../util/test-pause.js';
import {utcDate} from '../util/time.js';
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

		const parsed = parseCheckpointLine(text);
		if ('checkpoint' in parsed) {
			latest.delete(parsed.checkpoint.session);
			latest.set(parsed.checkpoint.session, parsed.checkpoint);
		} else {
			skipped.push(raw.number);
		}
	});
	return {latest, skipped};
}

/**
 * Records a session's next checkpoint under the project's lock. `build` gets the session's
 * latest checkpoint as the file holds it now, read under the lock, so two records made at once
 * each see the other's fields; it may throw to refuse, and then nothing is written. The new
 * line is appended with one write and an fsync. Lines that are not checkpoints (a torn write, a
 * bad hand edit) are first moved verbatim to `<project>/.engi/quarantine/checkpoints/<UTC
 * date>.jsonl`, as the journal's are: a directory of its own, so a project that is also a
 * knowledge base never mixes them with the journal's quarantine. `.engi/.gitignore` (`*`) keeps
 * it all out of the project's history.
 */
export async function appendCheckpoint(projectRoot: string, session: string, build: (previous: Checkpoint | undefined) => Checkpoint, deps: Deps): Promise<Checkpoint> {
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

		const parsed = checkpointSchema.safeParse(build(file.latest.get(session)));
		if (!parsed.success) {
			const issue = parsed.error.issues[0];
			throw new EngiError('invalid_checkpoint', `checkpoint ${issue?.path.map(String).join('.') || 'record'}: ${issue?.message ?? 'invalid'}`, {hint: 'nothing was written'});
		}

		let fd: number;
		try {
			fd = openSync(path, 'a', 0o600);
		} catch (error) {
			throw writeError(path, error);
		}

		try {
			pauseAt(deps.env, 'checkpoint.before_append');
			lock.confirm();
			appendDurably(fd, path, Buffer.from(JSON.stringify(parsed.data) + '\n'));
		} finally {
			closeSync(fd);
		}

		return parsed.data;
	});
}
