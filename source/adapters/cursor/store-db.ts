import {dirname, join} from 'node:path';
import * as z from 'zod/mini';
import {openReadOnlyInPlace} from '../../lib/sqlite.js';
import {epochIso} from '../shared/epoch.js';
import {readSmallJson} from '../shared/fs.js';
import {isRecord} from '../shared/text.js';
import {lenient} from '../shared/schema.js';
import {parseBoundedJson} from '../../lib/json-depth.js';

/**
 * A chat's `store.db` (SQLite, formats.md §8): table `meta(key, value)` whose row `'0'` is
 * hex-encoded JSON `{agentId, name, mode, createdAt (ms), workspacePath, lastUsedModel, …}` (a few older stores
 * wrote the JSON itself). Only those facts are read; the
 * `blobs` table holds the conversation in a form engi does not decode.
 */
const storeMetaSchema = z.looseObject({
	name: lenient(z.string()),
	createdAt: lenient(z.number()),
	// The workspace the agent ran in: a chat directory may hold no meta.json to state its cwd.
	workspacePath: lenient(z.string()),
	// The model the chat last ran on: the session's model ("default" is Auto, which names none).
	lastUsedModel: lenient(z.string()),
	// A subagent's own store names the chat that started it (`{parentAgentId, rootParentAgentId, toolCallId, typeName}`).
	subagentInfo: lenient(z.looseObject({parentAgentId: lenient(z.string())})),
});

/** An absolute path, POSIX or Windows. */
const absolutePath = /^(?:\/|[A-Za-z]:[\\/])/;

export type StoreFacts = {title?: string; started?: string; cwd?: string; parent?: string; model?: string};

/** What lastUsedModel says when the person left the choice to Cursor (Auto): no model's name. */
const autoModel = 'default';

/**
 * The name Cursor gives a chat store before the chat is named (an agent's child store keeps it):
 * a placeholder, never the session's title.
 */
const placeholderName = 'New Agent';

/** The meta row's JSON text: hex-decoded, or as it is where an older store wrote plain JSON. */
function metaJson(value: string): string | undefined {
	if (/^(?:[0-9a-f]{2})+$/i.test(value)) {
		return Buffer.from(value, 'hex').toString('utf8');
	}

	return value.startsWith('{') ? value : undefined;
}

export function readStoreFacts(path: string): StoreFacts {
	let value: unknown;
	try {
		const db = openReadOnlyInPlace(path); // Cursor's own file: nothing is created beside it.
		try {
			value = db.prepare("SELECT value FROM meta WHERE key = '0'").pluck().get();
		} finally {
			db.close();
		}
	} catch {
		return {};
	}

	const text = typeof value === 'string' ? value : Buffer.isBuffer(value) ? value.toString('utf8') : undefined;
	const json = text === undefined ? undefined : metaJson(text.trim());
	if (json === undefined) {
		return {};
	}

	try {
		const meta = storeMetaSchema.safeParse(parseBoundedJson(json));
		if (!meta.success) {
			return {};
		}

		// epochIso, not new Date: a createdAt out of Date's range made toISOString throw, and the
		// chat's name was lost with it; a counter or placeholder passes for no time at all.
		const started = epochIso(meta.data.createdAt);
		const name = meta.data.name?.trim();
		const parent = meta.data.subagentInfo?.parentAgentId?.trim();
		const workspace = meta.data.workspacePath?.trim();
		const model = meta.data.lastUsedModel?.trim();
		return {
			...(name && name !== placeholderName ? {title: name} : {}),
			...(started === undefined ? {} : {started}),
			...(workspace && absolutePath.test(workspace) ? {cwd: workspace} : {}),
			...(parent ? {parent} : {}),
			...(model && model !== autoModel ? {model} : {}),
		};
	} catch {
		return {};
	}
}

/**
 * `meta.json` beside a chat's `store.db` (the Cursor CLI writes it, sometimes without the store):
 * `{schemaVersion, title, cwd, createdAtMs, updatedAtMs, …}`. The title is the one /rename
 * rewrites (the store's meta name mirrors it); `cwd` is the chat's workspace; `createdAtMs` its
 * start, the only one a chat without a store states.
 */
function readChatMeta(path: string): StoreFacts {
	const value = readSmallJson(path); // Torn or not JSON: it states nothing.
	if (!isRecord(value)) {
		return {};
	}

	const title = typeof value['title'] === 'string' ? value['title'].trim() : '';
	const cwd = value['cwd'];
	const started = epochIso(value['createdAtMs']);
	return {
		...(title !== '' && title !== placeholderName ? {title} : {}),
		...(typeof cwd === 'string' && absolutePath.test(cwd) ? {cwd} : {}),
		...(started === undefined ? {} : {started}),
	};
}

/** The files that state a chat's facts, in its `chats/<md5>/<id>/` directory. */
export function chatFactFiles(storeDb: string): [store: string, meta: string] {
	return [storeDb, join(dirname(storeDb), 'meta.json')];
}

/** What a chat's directory states: the store's facts, with meta.json's workspace (over the store's) and (where the store names none) its title and start. */
export function readChatFacts(storeDb: string): StoreFacts {
	const [store, metaFile] = chatFactFiles(storeDb);
	const fromStore = readStoreFacts(store);
	const meta = readChatMeta(metaFile);
	const title = fromStore.title ?? meta.title;
	const started = fromStore.started ?? meta.started;
	const cwd = meta.cwd ?? fromStore.cwd;
	return {
		...(title === undefined ? {} : {title}),
		...(started === undefined ? {} : {started}),
		...(cwd === undefined ? {} : {cwd}),
		...(fromStore.parent === undefined ? {} : {parent: fromStore.parent}),
		...(fromStore.model === undefined ? {} : {model: fromStore.model}),
	};
}
