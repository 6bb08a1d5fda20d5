import {join} from 'node:path';
import {keyedIndex} from '../shared/keyed-index.js';

/**
 * The `agy` CLI's prompt index, `<app>/history.jsonl`: one line per prompt,
 * `{display, timestamp, workspace, conversationId}`. Transcripts never say which folder they ran
 * in; this index does, per conversation, its first prompt naming where it started. Lines without
 * a conversation id (older builds) place nothing.
 */
function firstWorkspace(record: Record<string, unknown>, byConversation: Map<string, string>): void {
	const id = record['conversationId'];
	const workspace = record['workspace'];
	if (typeof id === 'string' && typeof workspace === 'string' && workspace.trim() !== '' && !byConversation.has(id)) {
		byConversation.set(id, workspace.trim());
	}
}

/** The workspace `<app>/history.jsonl` names for a conversation, if it names one. */
export function indexedWorkspace(appDirectory: string, conversationId: string): string | undefined {
	return keyedIndex(join(appDirectory, 'history.jsonl'), '"conversationId"', firstWorkspace)?.get(conversationId);
}
