import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {readPerVersion, type VersionMemo} from '../shared/file-version.js';
import {pathOfFileUri} from './conversation-db.js';
import {protoBytes, protoFields, protoText} from './protobuf.js';

/**
 * The IDE apps (`antigravity`, `antigravity-ide`) list their conversations from
 * `<app>/agyhub_summaries_proto.pb`, not from the CLI's summary table: a protobuf message whose
 * repeated field 1 holds one entry per conversation, the entry's field 1 its id and field 2 its
 * details, whose field 9 describes the workspace it ran in with that folder's `file://` URI as one
 * of its strings (field 1 of the details is the generated title). The transcript never names the
 * workspace, so for a conversation the prompt index does not place this is where its project is
 * (evidence: chingleel17/SessionHub src-tauri/src/sessions/antigravity.rs, parse_summaries_proto).
 * Read once per process while the file is unchanged, and only when a conversation is read.
 */
export function protoSummaryWorkspace(appDirectory: string, conversationId: string): string | undefined {
	return workspaces(join(appDirectory, 'agyhub_summaries_proto.pb'))?.get(conversationId);
}

/** A summary list holds a few hundred bytes per conversation; far larger is not this file. */
const maxSummaryBytes = 64 * 1024 * 1024;

const lists: VersionMemo<ReadonlyMap<string, string>> = new Map();

function workspaces(path: string): ReadonlyMap<string, string> | undefined {
	return readPerVersion(lists, path, () => workspacesOf(readOrUndefined(path)), {maxBytes: maxSummaryBytes});
}

function readOrUndefined(path: string): Buffer | undefined {
	try {
		return readFileSync(path);
	} catch {
		return undefined;
	}
}

/** Conversation id → workspace folder; empty when the file is torn or of another shape. */
function workspacesOf(file: Buffer | undefined): ReadonlyMap<string, string> {
	const rows = new Map<string, string>();
	for (const entry of (file ? protoFields(file) : undefined) ?? []) {
		if (entry.field !== 1 || entry.bytes === undefined) {
			continue;
		}

		const fields = protoFields(entry.bytes);
		const id = protoText(fields, 1);
		const details = protoBytes(fields, 2);
		const workspace = details ? workspaceOf(details) : undefined;
		if (id !== undefined && workspace !== undefined && !rows.has(id)) {
			rows.set(id, workspace);
		}
	}

	return rows;
}

/** The first local folder URI among the strings of the details' workspace field (9). */
function workspaceOf(details: Buffer): string | undefined {
	const workspace = protoBytes(protoFields(details), 9);
	for (const field of (workspace ? protoFields(workspace) : undefined) ?? []) {
		const text = field.bytes?.toString('utf8');
		const path = text?.startsWith('file://') ? pathOfFileUri(text) : undefined;
		if (path !== undefined) {
			return path;
		}
	}

	return undefined;
}
