import * as z from 'zod/mini';
import {openReadOnlyInPlace} from '../../lib/sqlite.js';
import {lenient} from '../shared/schema.js';
import {parseBoundedJson} from '../../lib/json-depth.js';

/**
 * A chat's `store.db` (SQLite, formats.md §8): table `meta(key, value)` whose row `'0'` is
 * hex-encoded JSON `{agentId, name, mode, createdAt (ms), …}` (a few older stores wrote the JSON
 * itself). Only those facts are read; the
 * `blobs` table holds the conversation in a form engi does not decode.
 */
const storeMetaSchema = z.looseObject({name: lenient(z.string()), createdAt: lenient(z.number())});

export type StoreFacts = {title?: string; started?: string};

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

		const created = meta.data.createdAt;
		const name = meta.data.name?.trim();
		return {
			...(name && name !== placeholderName ? {title: name} : {}),
			...(created !== undefined && created > 0 ? {started: new Date(created).toISOString()} : {}),
		};
	} catch {
		return {};
	}
}
