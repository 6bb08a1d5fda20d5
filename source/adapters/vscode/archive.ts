import {peekValue} from '../../lib/sqlite.js';
import {parseBoundedJson} from '../../lib/json-depth.js';
import {isRecord} from '../shared/text.js';

/** The resource scheme and authority of a chat the local chat store holds (chatUri.ts LocalChatSessionUri). */
const localChatScheme = 'vscode-chat-session';
const localChatAuthority = 'local';

/**
 * The ids of the chats a workspace's Agent Sessions view has archived. VS Code keeps each
 * session's view state (archived, read) in the workspace's storage database, `state.vscdb`,
 * under `agentSessions.state.cache` in its ItemTable: a JSON array of `{resource, archived, read}`
 * (agentSessionsModel.ts AgentSessionsCache, StorageScope.WORKSPACE). A local chat's resource is
 * `vscode-chat-session://local/<its session id, unpadded base64url>`, written as URI components or,
 * in later builds, as the URI string. A database that cannot be read (damaged, being rewritten,
 * not VS Code's) archives nothing.
 */
export function archivedChatIds(database: string): string[] {
	const value = peekValue(database, "SELECT value FROM ItemTable WHERE key = 'agentSessions.state.cache'");
	let entries: unknown;
	try {
		entries = parseBoundedJson(Buffer.isBuffer(value) ? value.toString('utf8') : typeof value === 'string' ? value : '[]');
	} catch {
		return [];
	}

	return Array.isArray(entries) ? entries.flatMap(entry => (isRecord(entry) && entry['archived'] === true ? (localChatId(entry['resource']) ?? []) : [])) : [];
}

/** The session id a local chat's resource names; undefined for any other resource. */
function localChatId(resource: unknown): string | undefined {
	const parts = typeof resource === 'string' ? uriParts(resource) : isRecord(resource) ? resource : undefined;
	if (parts?.['scheme'] !== localChatScheme || parts['authority'] !== localChatAuthority || typeof parts['path'] !== 'string') {
		return undefined;
	}

	const segments = parts['path'].split('/');
	const encoded = segments.length === 2 && segments[0] === '' ? segments[1]! : '';
	if (!/^[\w-]+$/.test(encoded)) {
		return undefined;
	}

	const id = Buffer.from(encoded, 'base64url').toString('utf8');
	return id === '' || id.includes('\uFFFD') ? undefined : id;
}

/** A URI string's scheme, authority and path, as URI components name them. */
function uriParts(uri: string): Record<string, unknown> | undefined {
	const match = /^([a-z][\w+.-]*):\/\/([^/?#]*)([^?#]*)/i.exec(uri);
	return match ? {scheme: match[1], authority: match[2], path: match[3]} : undefined;
}
