import {existsSync, realpathSync, statSync} from 'node:fs';
import {dirname, isAbsolute, join, resolve} from 'node:path';

/** The nearest ancestor directory (or the directory itself) that holds `.git`, else undefined. */
export function gitRoot(directory: string): string | undefined {
	let current = resolve(directory);
	for (;;) {
		if (existsSync(join(current, '.git'))) {
			return current;
		}

		const parent = dirname(current);
		if (parent === current) {
			return undefined;
		}

		current = parent;
	}
}

/**
 * The project a directory belongs to: its git root, else the directory itself. Returned with
 * the spellings a tool may have recorded (as given, canonical, and without macOS's /private).
 */
export function projectOf(directory: string): {root: string; spellings: string[]} {
	const root = gitRoot(directory) ?? resolve(directory);
	const spellings = new Set([root]);
	try {
		spellings.add(realpathSync(root));
	} catch {}

	for (const spelling of [...spellings]) {
		if (spelling.startsWith('/private/')) {
			spellings.add(spelling.slice('/private'.length));
		}
	}

	return {root, spellings: [...spellings]};
}

/** True when a recorded working directory is an absolute path of a directory on this machine. */
export function isLocalDirectory(recorded: string): boolean {
	if (!isAbsolute(recorded)) {
		return false;
	}

	try {
		return statSync(recorded).isDirectory();
	} catch {
		return false;
	}
}

/**
 * The project a session's recorded working directory stands for: its git root when the
 * directory is here, else the recorded path exactly as written. A path of another machine
 * (`C:\…`) or one that no longer exists is never resolved against the directory engi runs in.
 */
export function recordedProjectRoot(recorded: string): string {
	return isLocalDirectory(recorded) ? projectOf(recorded).root : recorded;
}

/**
 * The last segment of a recorded project path, the name a person knows it by. Both separators
 * count: a session recorded on Windows (`C:\Users\pat\loom`) is read on Linux too, where
 * `basename` would give the whole path back.
 */
export function projectName(recorded: string): string {
	return recorded.split(/[\\/]+/).filter(Boolean).at(-1) ?? recorded;
}
