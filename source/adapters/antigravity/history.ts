import {join} from 'node:path';
import {keyedIndex} from '../shared/keyed-index.js';

/**
 * The `agy` CLI's prompt index, `<app>/history.jsonl`: one line per prompt,
 * `{display, timestamp, workspace, conversationId}`. Transcripts never say which folder they ran
 * in; this index does, per conversation, its first prompt naming where it started. Lines of
 * older builds name no conversation: their prompt and its time (milliseconds) still say which
 * conversation they started, kept under the prompt (after `promptKey`) to be matched by it.
 */
const promptKey = (prompt: string) => '\u0000' + prompt.replaceAll(/\s+/g, ' ').trim();

function indexLine(record: Record<string, unknown>, values: Map<string, string>): void {
	const workspace = typeof record['workspace'] === 'string' ? record['workspace'].trim() : '';
	const id = record['conversationId'];
	if (workspace === '') {
		return;
	}

	if (typeof id === 'string') {
		if (!values.has(id)) {
			values.set(id, workspace);
		}

		return;
	}

	const time = record['timestamp'];
	const display = record['display'];
	if (id === undefined && typeof display === 'string' && typeof time === 'number' && Number.isFinite(time)) {
		const key = promptKey(display);
		values.set(key, `${values.get(key) ?? ''}${time}\t${workspace}\n`);
	}
}

function historyIndex(appDirectory: string): ReadonlyMap<string, string> | undefined {
	return keyedIndex(join(appDirectory, 'history.jsonl'), '"workspace"', indexLine);
}

/** The workspace `<app>/history.jsonl` names for a conversation, if it names one. */
export function indexedWorkspace(appDirectory: string, conversationId: string): string | undefined {
	return historyIndex(appDirectory)?.get(conversationId);
}

/** How far a prompt's index time may lie from its step's `created_at`: the same submission, seconds apart. */
const promptWindowMs = 60_000;

/**
 * The workspace an older build's line gives a conversation whose first request is `prompt`, made
 * at `time`: the line with the same prompt nearest in time, within a minute. Two workspaces
 * equally near name none.
 */
export function promptedWorkspace(appDirectory: string, prompt: string, time: number): string | undefined {
	const lines = historyIndex(appDirectory)?.get(promptKey(prompt));
	let best: {distance: number; workspace: string | undefined} | undefined;
	for (const line of lines?.split('\n') ?? []) {
		const tab = line.indexOf('\t');
		const distance = Math.abs(Number(line.slice(0, tab)) - time);
		if (tab === -1 || !(distance <= promptWindowMs)) {
			continue;
		}

		const workspace = line.slice(tab + 1);
		if (!best || distance < best.distance) {
			best = {distance, workspace};
		} else if (distance === best.distance && workspace !== best.workspace) {
			best = {distance, workspace: undefined};
		}
	}

	return best?.workspace;
}
