import {join} from 'node:path';
import {openReadOnlyInPlace} from '../../lib/sqlite.js';
import {readPerVersion, type VersionMemo} from '../shared/file-version.js';
import {pathOfFileUri} from './conversation-db.js';

/** What the app's summary table says of one conversation. */
export type ConversationSummary = {readonly parent?: string; readonly workspace?: string};

/**
 * `<app>/conversation_summaries.db`, the table the `agy` CLI lists conversations from:
 * `conversation_summaries(conversation_id, title, preview, workspace_uris, last_modified_time,
 * app_data_dir, parent_conversation_id)`. A subagent's row names the conversation that started it
 * (`parent_conversation_id`, in builds that have the column), which its own transcript never does,
 * and `workspace_uris` (a JSON list of `file://` URIs) where it ran (evidence:
 * yangzichao/JustSessions Services/Adapters/Antigravity/AntigravitySQLiteReader.swift, summaries,
 * and AntigravityConversationSummary.swift). Read once per process while the file is unchanged,
 * and only when a conversation is read, never by discovery.
 */
export function conversationSummary(appDirectory: string, conversationId: string): ConversationSummary | undefined {
	return summaryTable(join(appDirectory, 'conversation_summaries.db'))?.get(conversationId);
}

const tables: VersionMemo<ReadonlyMap<string, ConversationSummary>> = new Map();

/** The table's rows, read again only when the database or its write-ahead log changes. */
function summaryTable(path: string): ReadonlyMap<string, ConversationSummary> | undefined {
	return readPerVersion(tables, path, () => readSummaries(path), {withWal: true});
}

type SummaryRow = {readonly id: unknown; readonly workspaces: unknown; readonly parent?: unknown};

const withParents = 'SELECT conversation_id AS id, workspace_uris AS workspaces, parent_conversation_id AS parent FROM conversation_summaries';
const withoutParents = 'SELECT conversation_id AS id, workspace_uris AS workspaces FROM conversation_summaries';
/** A conversation id names a brain directory: a plain word, as ids are elsewhere (subagents.ts). */
const conversationId = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/** The table's rows by conversation; an empty map when it cannot be read (damaged, being rewritten, of another shape). */
function readSummaries(path: string): ReadonlyMap<string, ConversationSummary> {
	const rows = new Map<string, ConversationSummary>();
	try {
		const db = openReadOnlyInPlace(path);
		try {
			db.pragma('busy_timeout = 250');
			let statement;
			try {
				statement = db.prepare(withParents);
			} catch {
				statement = db.prepare(withoutParents); // Builds before subagents had no parent column.
			}

			for (const row of statement.iterate() as Iterable<SummaryRow>) {
				const summary = summaryOf(row);
				if (typeof row.id === 'string' && summary !== undefined) {
					rows.set(row.id, summary);
				}
			}
		} finally {
			db.close();
		}
	} catch {
		return rows;
	}

	return rows;
}

function summaryOf(row: SummaryRow): ConversationSummary | undefined {
	const parent = typeof row.parent === 'string' && conversationId.test(row.parent) && row.parent !== row.id ? row.parent : undefined;
	const workspace = firstWorkspace(row.workspaces);
	if (parent === undefined && workspace === undefined) {
		return undefined;
	}

	return {...(parent === undefined ? {} : {parent}), ...(workspace === undefined ? {} : {workspace})};
}

/** The first local folder of a JSON list of workspace URIs. */
function firstWorkspace(value: unknown): string | undefined {
	if (typeof value !== 'string' || !value.startsWith('[')) {
		return undefined;
	}

	let uris: unknown;
	try {
		uris = JSON.parse(value);
	} catch {
		return undefined;
	}

	if (!Array.isArray(uris)) {
		return undefined;
	}

	for (const uri of uris) {
		const path = typeof uri === 'string' ? pathOfFileUri(uri) : undefined;
		if (path !== undefined) {
			return path;
		}
	}

	return undefined;
}
