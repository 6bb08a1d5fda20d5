import {join} from 'node:path';
import {childPath, fileFingerprint, isDirectory, listDirectory, statOrUndefined} from '../shared/fs.js';
import {isRecord} from '../shared/text.js';
import type {DiscoveredUnit, DiscoveryMemo} from '../types.js';
import {factsBook, type FactsBook} from '../shared/memo.js';
import {archivedChatIds} from './archive.js';
import {readWorkspaceFolder} from '../shared/code-workspace.js';

/** Re-exported where the VS Code reader has always found it. */
export {localPathOfFileUri} from '../shared/file-uri.js';

const sessionFile = /^(.+)\.(json|jsonl)$/;

/**
 * One unit per session id in a chat directory. A session may exist as both the older `.json`
 * snapshot and the newer `.jsonl` mutation log (written since early 2026); the log is read and
 * the snapshot kept among the unit's files, so one session is never listed twice.
 */
function sessionUnits(directory: string, projectHint: string | undefined, logVariant = 'log'): DiscoveredUnit[] {
	const byId = new Map<string, {json?: string; jsonl?: string}>();
	for (const entry of listDirectory(directory)) {
		const match = sessionFile.exec(entry.name);
		if (!entry.isFile() || !match) {
			continue;
		}

		const [, id = '', extension] = match;
		const files = byId.get(id) ?? {};
		files[extension === 'jsonl' ? 'jsonl' : 'json'] = childPath(directory, entry.name);
		byId.set(id, files);
	}

	const units: DiscoveredUnit[] = [];
	for (const [id, files] of byId) {
		const path = files.jsonl ?? files.json;
		const stats = path === undefined ? undefined : statOrUndefined(path);
		if (path === undefined || !stats?.isFile()) {
			continue;
		}

		const paths = [files.jsonl, files.json].filter((file): file is string => file !== undefined);
		const fingerprints = paths.map(file => {
			const fileStats = file === path ? stats : statOrUndefined(file);
			return fileStats ? fileFingerprint(fileStats) : 'gone';
		});
		const unit: {-readonly [K in keyof DiscoveredUnit]: DiscoveredUnit[K]} = {
			key: path,
			path,
			paths,
			idHint: id,
			variant: path === files.jsonl ? logVariant : 'snapshot',
			size: stats.size,
			fingerprint: fingerprints.join('+'),
			mtimeMs: stats.mtimeMs,
		};
		// Set, not spread in: in a fresh process a conditional spread takes V8's slow path.
		if (projectHint !== undefined) {
			unit.projectHint = projectHint;
		}

		units.push(unit);
	}

	return units;
}

const transcriptsDirectory = (workspace: string) => join(workspace, 'GitHub.copilot-chat', 'transcripts');

/**
 * Copilot Chat 0.51+ also logs each session as Copilot CLI events in
 * `<workspace>/GitHub.copilot-chat/transcripts/<sessionId>.jsonl`, and some builds write only
 * that log. A session the chat store holds is read from there (its own record); the log is a
 * session of its own only where the chat store has no copy of it.
 */
function transcriptUnits(workspace: string, chats: readonly DiscoveredUnit[], projectHint: string | undefined): DiscoveredUnit[] {
	const inChatStore = new Set(chats.map(unit => unit.idHint));
	return sessionUnits(transcriptsDirectory(workspace), projectHint, 'transcript').filter(unit => unit.variant === 'transcript' && !inChatStore.has(unit.idHint));
}

/**
 * `User/workspaceStorage/<workspaceId>/chatSessions/<sessionId>.json|.jsonl` for chats in a
 * window with a folder open (and the transcripts beside them), and
 * `User/globalStorage/emptyWindowChatSessions/` for the rest.
 * `workspace.json` is shared by every session of its workspace: it gives the project but is not
 * one of a session's files (retiring a session must never remove it).
 */
export function discoverVscode(root: string, memo?: DiscoveryMemo): DiscoveredUnit[] {
	const units: DiscoveredUnit[] = [];
	const book = factsBook(memo, root, isWorkspaceFacts);
	const workspaces = join(root, 'workspaceStorage');
	for (const entry of listDirectory(workspaces)) {
		const workspace = join(workspaces, entry.name);
		const chatStore = join(workspace, 'chatSessions');
		if (!entry.isDirectory() || (!isDirectory(chatStore) && !isDirectory(transcriptsDirectory(workspace)))) {
			continue;
		}

		const project = readWorkspaceFolder(join(workspace, 'workspace.json'));
		const chats = sessionUnits(chatStore, project);
		units.push(...markArchived([...chats, ...transcriptUnits(workspace, chats, project)], workspace, book));
	}

	book.save();
	units.push(...sessionUnits(join(root, 'globalStorage', 'emptyWindowChatSessions'), undefined));
	return units;
}

/** What discovery keeps of a workspace's storage database: the chats its Agent Sessions view archived. */
type WorkspaceFacts = {readonly archived: string[]};
const isWorkspaceFacts = (value: unknown): value is WorkspaceFacts => isRecord(value) && Array.isArray(value['archived']) && value['archived'].every(id => typeof id === 'string');

/**
 * Marks the workspace's chats the person archived (archive.ts). The storage database changes
 * whenever VS Code saves any state of the window, so it is read only when its status changes
 * (the facts book keeps what it said), and only an archived chat's fingerprint says so: archiving
 * or unarchiving a chat has it read again, any other change of the database reads no chat.
 */
function markArchived(units: DiscoveredUnit[], workspace: string, book: FactsBook<WorkspaceFacts>): DiscoveredUnit[] {
	const database = join(workspace, 'state.vscdb');
	const stats = statOrUndefined(database);
	const stamp = stats?.isFile() ? fileFingerprint(stats) : 'none';
	const {archived} = book.facts(workspace, stamp, () => ({archived: stats?.isFile() ? archivedChatIds(database) : []}));
	if (archived.length === 0) {
		return units;
	}

	const ids = new Set(archived);
	return units.map(unit => (unit.idHint !== undefined && ids.has(unit.idHint) ? {...unit, fingerprint: `${unit.fingerprint}|archived`, archived: true} : unit));
}
