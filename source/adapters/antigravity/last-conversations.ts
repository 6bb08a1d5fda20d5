import {isAbsolute, join} from 'node:path';
import {readPerVersion, type VersionMemo} from '../shared/file-version.js';
import {readSmallJson} from '../shared/fs.js';
import {isRecord} from '../shared/text.js';
import {pathOfFileUri} from './conversation-db.js';

/**
 * The `agy` CLI's `<app>/cache/last_conversations.json`: an object from each workspace folder to
 * the id of the last conversation run there, so that `agy` can continue it. It names the folder
 * of a conversation that nothing else places: one started in print mode leaves no prompt-index
 * line, and its step database may be gone or not yet hold its metadata. Only each folder's latest
 * conversation is in it, so it is the last place looked. Read once per process while unchanged,
 * and only when a conversation is read.
 */
export function lastConversationWorkspace(appDirectory: string, conversationId: string): string | undefined {
	const path = join(appDirectory, 'cache', 'last_conversations.json');
	return readPerVersion(caches, path, () => workspacesOf(readSmallJson(path)))?.get(conversationId);
}

const caches: VersionMemo<ReadonlyMap<string, string>> = new Map();

/** Conversation id → folder. One id under two folders says neither, so it is left out. */
function workspacesOf(value: unknown): ReadonlyMap<string, string> {
	const rows = new Map<string, string>();
	const doubled = new Set<string>();
	for (const [key, id] of Object.entries(isRecord(value) ? value : {})) {
		const folder = folderOf(key);
		if (typeof id !== 'string' || folder === undefined) {
			continue;
		}

		if (rows.has(id) && rows.get(id) !== folder) {
			doubled.add(id);
		}

		rows.set(id, folder);
	}

	for (const id of doubled) {
		rows.delete(id);
	}

	return rows;
}

/** A key is the folder's absolute path; a `file://` URI is read as one, anything else names none. */
function folderOf(key: string): string | undefined {
	if (key.startsWith('file://')) {
		return pathOfFileUri(key);
	}

	return isAbsolute(key) || /^[A-Za-z]:[\\/]/.test(key) ? key : undefined;
}
