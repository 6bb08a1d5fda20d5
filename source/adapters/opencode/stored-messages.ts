import {join} from 'node:path';
import {stem} from '../shared/fs.js';
import {opencodeMessageSchema, opencodePartSchema, type OpencodeMessage, type OpencodePart} from './schema.js';
import {jsonFilesIn, readJsonFile} from './storage.js';
import {v1Message} from './v1-message.js';

/**
 * A session's messages and parts read from the JSON tree, each file checked against its schema.
 * Apart from storage.ts, which discovery loads on every call: only a read of a session needs these
 * (and the first format's converter, v1-message.ts).
 */

/** `inline`: the parts a message of the first format holds itself (v1-message.ts). */
export type StoredMessage = {file: string; raw: unknown; message: OpencodeMessage; inline?: OpencodePart[]};
export type StoredPart = {file: string; raw: unknown; part: OpencodePart};

export type Skip = (file: string, reason: string) => void;

/** One stored JSON file checked against its schema; a file that fails is skipped with a reason naming what it is not. */
function readStoredFile<T>(file: string, schema: {safeParse(value: unknown): {success: true; data: T} | {success: false}}, what: string, skip: Skip): {raw: unknown; data: T} | undefined {
	const raw = readJsonFile(file, reason => skip(file, reason));
	if (raw === undefined) {
		return undefined;
	}

	const parsed = schema.safeParse(raw);
	if (!parsed.success) {
		skip(file, `not an OpenCode ${what}`);
		return undefined;
	}

	return {raw, data: parsed.data};
}

export function readMessageFile(file: string, skip: Skip): StoredMessage | undefined {
	const read = readStoredFile(file, opencodeMessageSchema, 'message', skip);
	const first = read && v1Message(read.raw);
	return read && (first ? {file, raw: read.raw, message: first.message, inline: first.parts} : {file, raw: read.raw, message: read.data});
}

export function readPartFile(file: string, skip: Skip): StoredPart | undefined {
	const read = readStoredFile(file, opencodePartSchema, 'part', skip);
	return read && {file, raw: read.raw, part: read.data};
}

/**
 * Messages in conversation order. Ids are time-ascending in real trees, but some writers used
 * other ids, so order by creation time when every message states one, then by id or file name.
 */
export function sortMessages(messages: StoredMessage[]): StoredMessage[] {
	const key = (entry: StoredMessage) => entry.message.id ?? stem(entry.file, '.json');
	const byKey = (a: StoredMessage, b: StoredMessage) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);
	const timed = messages.every(entry => typeof entry.message.time?.created === 'number');
	return [...messages].sort((a, b) => (timed ? a.message.time!.created! - b.message.time!.created! || byKey(a, b) : byKey(a, b)));
}

/** Parts kept flat in `part/*.json` by early writers, grouped by their `messageID`. */
export function readFlatParts(storage: string, messageIds: ReadonlySet<string>, skip: Skip): Map<string, StoredPart[]> {
	const grouped = new Map<string, StoredPart[]>();
	for (const file of jsonFilesIn(join(storage, 'part'))) {
		const stored = readPartFile(file, skip);
		const owner = stored?.part.messageID;
		if (stored && owner && messageIds.has(owner)) {
			grouped.set(owner, [...(grouped.get(owner) ?? []), stored]);
		}
	}

	return grouped;
}
