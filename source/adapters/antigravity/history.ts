import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {statOrUndefined} from '../shared/fs.js';
import {isRecord} from '../shared/text.js';

/**
 * The `agy` CLI's prompt index, `<app>/history.jsonl`: one line per prompt,
 * `{display, timestamp, workspace, conversationId}`. Transcripts never say which folder they ran
 * in; this index does, per conversation. Lines without a conversation id (older builds) place
 * nothing.
 */
type Workspaces = {readonly stamp: string; readonly byConversation: ReadonlyMap<string, string>};

/** Every unit of a brain asks; the index is parsed once per version of the file. */
const parsed = new Map<string, Workspaces>();

/** An index far larger than any person's prompt history is not read. */
const maxIndexBytes = 16 * 1024 * 1024;

/**
 * Read whole and split, not through readJsonLines: this module is part of discovery, which every
 * warm call loads, and the line reader would add 16 KB to it for a small file read only at scan.
 */
function workspacesIn(text: string): Map<string, string> {
	const byConversation = new Map<string, string>();
	for (const line of text.split('\n')) {
		const record = parseLine(line);
		const id = record?.['conversationId'];
		const workspace = record?.['workspace'];
		// A conversation's first prompt names where it started.
		if (typeof id === 'string' && typeof workspace === 'string' && workspace.trim() !== '' && !byConversation.has(id)) {
			byConversation.set(id, workspace.trim());
		}
	}

	return byConversation;
}

function parseLine(line: string): Record<string, unknown> | undefined {
	if (!line.includes('"conversationId"')) {
		return undefined;
	}

	try {
		const value: unknown = JSON.parse(line);
		return isRecord(value) ? value : undefined;
	} catch {
		return undefined;
	}
}

/** The workspace `<app>/history.jsonl` names for a conversation, if it names one. */
export function indexedWorkspace(appDirectory: string, conversationId: string): string | undefined {
	const path = join(appDirectory, 'history.jsonl');
	const stats = statOrUndefined(path);
	if (!stats?.isFile() || stats.size > maxIndexBytes) {
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

		known = {stamp, byConversation: workspacesIn(text)};
		parsed.set(path, known);
	}

	return known.byConversation.get(conversationId);
}
