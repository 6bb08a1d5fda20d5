import {readFileSync} from 'node:fs';
import {basename, dirname, join} from 'node:path';
import {statOrUndefined} from '../shared/fs.js';
import {isRecord} from '../shared/text.js';

/**
 * `$CODEX_HOME/session_index.jsonl`: the names threads were given (`/rename`, the app), appended
 * one `{id, thread_name, updated_at}` line per naming; the latest line for an id wins, and a blank
 * name names nothing (codex-rs rollout/src/session_index.rs). The app server's renames are written
 * here and not to the rollout (thread-store/src/local/apply_thread_metadata.rs).
 *
 * Read when a rollout is read, never in discovery: a warm call reads no rollout and pays nothing.
 * A rename made only here reaches a session the next time its rollout changes and is read again.
 */
type Names = {readonly stamp: string; readonly byThread: ReadonlyMap<string, string>};

/** Every rollout of a home asks; the index is parsed once per version of the file. */
const parsed = new Map<string, Names>();

/** An index far larger than any person's renames is not read. */
const maxIndexBytes = 16 * 1024 * 1024;

/** The Codex home a rollout lies in: the parent of its `sessions` or `archived_sessions` directory. */
function codexHomeOf(rolloutPath: string): string | undefined {
	let directory = dirname(rolloutPath);
	// Date directories put a rollout at most four levels below `sessions`.
	for (let level = 0; level < 5; level++, directory = dirname(directory)) {
		const name = basename(directory);
		if (name === 'sessions' || name === 'archived_sessions') {
			return dirname(directory);
		}
	}

	return undefined;
}

function namesIn(text: string): Map<string, string> {
	const byThread = new Map<string, string>();
	for (const line of text.split('\n')) {
		const record = parseLine(line);
		const id = record?.['id'];
		const name = record?.['thread_name'];
		if (typeof id === 'string' && typeof name === 'string' && name.trim() !== '') {
			byThread.set(id, name.trim());
		}
	}

	return byThread;
}

function parseLine(line: string): Record<string, unknown> | undefined {
	if (!line.includes('"thread_name"')) {
		return undefined;
	}

	try {
		const value: unknown = JSON.parse(line);
		return isRecord(value) ? value : undefined;
	} catch {
		return undefined;
	}
}

/** The latest name the index beside a rollout's store gives a thread, if it gives one. */
export function indexedThreadName(rolloutPath: string, threadId: string): string | undefined {
	const home = codexHomeOf(rolloutPath);
	const path = home === undefined ? undefined : join(home, 'session_index.jsonl');
	const stats = path === undefined ? undefined : statOrUndefined(path);
	if (!path || !stats?.isFile() || stats.size > maxIndexBytes) {
		return undefined;
	}

	const stamp = `${stats.size}:${stats.mtimeMs}`;
	let known = parsed.get(path);
	if (known?.stamp !== stamp) {
		let text: string;
		try {
			text = readFileSync(path, 'utf8');
		} catch {
			return undefined;
		}

		known = {stamp, byThread: namesIn(text)};
		parsed.set(path, known);
	}

	return known.byThread.get(threadId);
}
