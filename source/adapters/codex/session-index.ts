import {basename, dirname, join} from 'node:path';
import {keyedIndex} from '../shared/keyed-index.js';

/**
 * `$CODEX_HOME/session_index.jsonl`: the names threads were given (`/rename`, the app), appended
 * one `{id, thread_name, updated_at}` line per naming; the latest line for an id wins, and a blank
 * name names nothing (codex-rs rollout/src/session_index.rs). The app server's renames are written
 * here and not to the rollout (thread-store/src/local/apply_thread_metadata.rs).
 *
 * Read when a rollout is read, never in discovery: a warm call reads no rollout and pays nothing.
 * A rename made only here reaches a session the next time its rollout changes and is read again.
 */

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

function latestName(record: Record<string, unknown>, byThread: Map<string, string>): void {
	const id = record['id'];
	const name = record['thread_name'];
	if (typeof id === 'string' && typeof name === 'string' && name.trim() !== '') {
		byThread.set(id, name.trim());
	}
}

/** The latest name the index beside a rollout's store gives a thread, if it gives one. */
export function indexedThreadName(rolloutPath: string, threadId: string): string | undefined {
	const home = codexHomeOf(rolloutPath);
	return home === undefined ? undefined : keyedIndex(join(home, 'session_index.jsonl'), '"thread_name"', latestName)?.get(threadId);
}
