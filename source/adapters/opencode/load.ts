import type {SessionInfo, SessionRow} from '../events.js';
import {stem} from '../shared/fs.js';
import {SessionCorruptError, type DiscoveredUnit, type LoadedSession, type RowPlace} from '../types.js';
import {withDatabase, type Row} from './database.js';
import {findForkSource, parseDataColumn, readMessagesByRowid, readRecordsByRowid, readSessionRecords, type SessionRecords} from './database-session.js';
import {copiedCount, rowsFromMessages, type ForkCopy, type MessageInput, type SessionContext} from './normalize.js';
import {readOpencodeMessage, readOpencodePart} from './records.js';
import {recordInput} from './session-message.js';
import {v1Message} from './v1-message.js';
import {opencodeSessionSchema, otherSession, type OpencodeSession} from './schema.js';
import {isoTime} from './time.js';
import {jsonFilesIn, messageDirectoryOf, partDirectoryOf, readJsonFile, storageRootOf} from './storage.js';
import {readFlatParts, readMessageFile, readPartFile, sortMessages, type Skip, type StoredMessage, type StoredPart} from './stored-messages.js';

const maxWarnings = 20;

/** Loads one OpenCode session: one row per message (line = 1-based message ordinal), raw = {message, parts}. */
export function loadOpencodeSession(unit: DiscoveredUnit): LoadedSession {
	return isStorage(unit) ? loadStorageSession(unit) : loadDatabaseSession(unit);
}

function isStorage(unit: DiscoveredUnit): boolean {
	return unit.variant === 'storage' || (unit.variant === undefined && unit.path.endsWith('.json'));
}

function modelName(value: unknown): string | undefined {
	const model = typeof value === 'string' ? parseDataColumn(value) : value;
	if (model !== null && typeof model === 'object') {
		const record = model as Record<string, unknown>;
		const name = record['id'] ?? record['modelID'];
		return typeof name === 'string' && name !== '' ? name : undefined;
	}

	return undefined;
}

/**
 * The facts a session record states, for the meta event on the session's first row. A fork names
 * the session it was copied from as its parent, but is no Task child: its prompts are a person's.
 */
function sessionContext(session: OpencodeSession | undefined, fallbackId: string | undefined, forkedFrom?: string): SessionContext {
	const id = session?.id ?? fallbackId;
	const child = otherSession(id, session?.parent_id ?? session?.parentID ?? undefined);
	const from = otherSession(id, session?.fork_session_id ?? forkedFrom);
	const parent = child ?? from;
	const created = session?.time_created ?? session?.time?.created;
	const started = isoTime(created);
	const model = modelName(session?.model);
	const facts: SessionInfo = {
		...(id ? {id} : {}),
		...(session?.directory ? {cwd: session.directory} : {}),
		...(parent ? {parent_id: parent} : {}),
		...(session?.title && !isPlaceholderTitle(session.title) ? {title: session.title} : {}),
		...(model ? {model} : {}),
		...(started ? {started} : {}),
	};
	const revertedFrom = revertedMessageId(session?.revert);
	return {facts, child: child !== undefined, ...(revertedFrom ? {revertedFrom} : {}), ...(created === undefined ? {} : {fork: forkCopy(session, created, from)})};
}

/** session/session.ts getForkedTitle: a 1.x fork is titled "<source title> (fork #N)" until renamed. */
const forkTitle = / \(fork #\d+\)$/;

function forkCopy(session: OpencodeSession | undefined, before: number, from: string | undefined): ForkCopy {
	const stated = session?.fork_session_id !== undefined || forkTitle.test(session?.title ?? '');
	return {before, stated, ...(from ? {from} : {})};
}

/**
 * OpenCode names a new session "New session - <ISO time>" ("Child session - …" for a child) and
 * replaces that once a title is generated (session/session.ts, createDefaultTitle); 0.1.x wrote
 * "New Session - <ISO time>" (session/index.ts, create). A session that never got that far keeps
 * the placeholder, which names nothing.
 */
const placeholderTitle = /^(?:New|Child) [Ss]ession - \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function isPlaceholderTitle(title: string): boolean {
	return placeholderTitle.test(title);
}

/** The message an `/undo` reverted the session to (it and all after it are discarded), if any. */
function revertedMessageId(value: unknown): string | undefined {
	const revert = typeof value === 'string' ? parseDataColumn(value) : value;
	if (revert !== null && typeof revert === 'object' && !Array.isArray(revert)) {
		const id = (revert as Record<string, unknown>)['messageID'];
		return typeof id === 'string' && id !== '' ? id : undefined;
	}

	return undefined;
}

function warner(warnings: string[]) {
	return (message: string) => {
		if (warnings.length < maxWarnings) {
			warnings.push(message);
		}
	};
}

function databaseSessionId(unit: DiscoveredUnit): string | undefined {
	const prefix = `${unit.path}#`;
	return unit.key.startsWith(prefix) ? unit.key.slice(prefix.length) : unit.idHint;
}

function loadDatabaseSession(unit: DiscoveredUnit): LoadedSession {
	const sessionId = databaseSessionId(unit);
	if (!sessionId) {
		throw new SessionCorruptError(unit.path, null, 'the database could not be opened or has no readable session table');
	}

	let records;
	try {
		records = withDatabase(unit.path, (db, schema) => readSessionRecords(db, schema, sessionId));
	} catch {
		throw new SessionCorruptError(unit.path, null, `session ${sessionId} could not be read from the database`);
	}

	const parsed = records.session ? opencodeSessionSchema.safeParse(records.session) : undefined;
	if (!records.session && records.messages.length === 0 && !records.records?.length) {
		throw new SessionCorruptError(unit.path, null, `session ${sessionId} is not in the database`);
	}

	const warnings: string[] = [];
	const warn = warner(warnings);
	const messages = messageInputs(unit, records, index => index + 1, warn);
	const later = laterRecords(unit, records, records.messages.length, warn);
	const waiting = waitingPrompts(unit, records, records.messages.length + later.count, warn);
	const inputs = [...messages.inputs, ...later.inputs, ...waiting.inputs];
	const session = parsed?.success ? parsed.data : undefined;
	const loaded = rowsFromMessages(sessionContext(session, sessionId, forkSource(unit, session, sessionId, inputs)), inputs, messages.skipped + later.skipped + waiting.skipped, warnings);
	// A row's offset is where its message is found again (see databaseRowsAt): a message row's
	// rowid, or a 2.x record's rowid negated, so the two tables' rowids never meet.
	const offsets = [...(records.messageRowids ?? []), ...later.offsets];
	// A waiting prompt is found again only by reading the session whole.
	const complete = (records.messageRowids !== undefined || records.messages.length === 0) && later.offsets.length === later.count && waiting.inputs.length === 0;
	return complete ? {...loaded, rows: loaded.rows.map(row => ({...row, offset: offsets[row.line - 1]!}))} : loaded;
}

/**
 * The session a 1.x fork was copied from: a 1.x fork records none (session/session.ts `fork`
 * creates the session without a parent), but its last copied message keeps the creation time of
 * the source's message, which the source created as its own (after the source itself was). One
 * query, only for a session that opens with a copy.
 */
function forkSource(unit: DiscoveredUnit, session: OpencodeSession | undefined, sessionId: string, inputs: readonly MessageInput[]): string | undefined {
	const created = session?.time_created ?? session?.time?.created;
	if (session?.fork_session_id !== undefined || created === undefined) {
		return undefined;
	}

	const copies = copiedCount(inputs, forkCopy(session, created, undefined));
	const lastCopied = copies > 0 ? inputs[copies - 1]!.message.time?.created : undefined;
	if (lastCopied === undefined) {
		return undefined;
	}

	try {
		return withDatabase(unit.path, (db, schema) => findForkSource(db, schema, sessionId, lastCopied, created));
	} catch {
		return undefined; // The copy is still read as one; only its source stays unnamed.
	}
}

const backfillPrefix = 'evt_legacy_backfill_';

/**
 * The 2.x records after the 1.x messages. A record that copies a message row is read once, from
 * the message row (the old tables stop changing at the upgrade, so every message row comes before
 * every new record): a copy keeps the message's id, or, written by OpenCode's backfill
 * (session/message-backfill-service.ts), has an id of its own under `evt_legacy_backfill_`.
 * Lines continue the messages' ordinals.
 */
function laterRecords(unit: DiscoveredUnit, records: SessionRecords, first: number, warn: (message: string) => void) {
	const migrated = new Set(records.messages.map(row => row['id']));
	const isCopy = (id: unknown) => migrated.has(id) || (migrated.size > 0 && typeof id === 'string' && id.startsWith(backfillPrefix));
	const inputs: MessageInput[] = [];
	const offsets: number[] = [];
	let skipped = 0;
	let count = 0;
	(records.records ?? []).forEach((row, index) => {
		if (isCopy(row['id'])) {
			return;
		}

		count++;
		const line = first + count;
		const rowid = records.recordRowids?.[index];
		if (rowid !== undefined) {
			offsets.push(-rowid);
		}

		const where = `${unit.key}:${line}`;
		const input = recordInput(row, line, where);
		if (input) {
			inputs.push(input);
		} else {
			skipped++;
			warn(`${where}: record skipped, its type or data is not a readable OpenCode 2.x message`);
		}
	});
	return {inputs, skipped, offsets, count};
}

/**
 * Prompts the person sent while the session was busy, waiting in its inbox to be delivered (a
 * session stopped with a prompt queued keeps it there): user messages after everything delivered.
 */
function waitingPrompts(unit: DiscoveredUnit, records: SessionRecords, first: number, warn: (message: string) => void): {inputs: MessageInput[]; skipped: number} {
	const inputs: MessageInput[] = [];
	let skipped = 0;
	(records.waiting ?? []).forEach((row, index) => {
		const line = first + index + 1;
		const where = `${unit.key}:${line}`;
		const input = recordInput({...row, session_id: records.session?.['id'], type: 'user'}, line, where);
		if (input) {
			inputs.push(input);
		} else {
			skipped++;
			warn(`${where}: waiting prompt skipped, its payload is not a readable OpenCode prompt`);
		}
	});
	return {inputs, skipped};
}

/** Message rows and their parts as the normaliser takes them; rows that do not read are skipped and counted. */
function messageInputs(unit: DiscoveredUnit, records: SessionRecords, lineOf: (index: number) => number, warn: (message: string) => void): {inputs: MessageInput[]; skipped: number} {
	let skipped = 0;
	const inputs: MessageInput[] = [];
	records.messages.forEach((row, index) => {
		const line = lineOf(index);
		const where = `${unit.key}:${line}`;
		const message = databaseMessage(row);
		if (!message) {
			skipped++;
			warn(`${where}: message skipped, its data is not a readable OpenCode message`);
			return;
		}

		const parts: Array<MessageInput['parts'][number]> = [];
		const rawParts: unknown[] = [];
		(records.parts.get(String(row['id'])) ?? []).forEach((partRow, partIndex) => {
			const part = databasePart(partRow, row);
			if (!part) {
				skipped++;
				warn(`${where}: part ${partIndex + 1} skipped, its data is not a readable OpenCode part`);
				return;
			}

			rawParts.push(part.raw);
			parts.push({part: part.parsed, where: `${where}: part ${partIndex + 1}`});
		});
		if (parts.length === 0) {
			// A message of the first format holds its parts itself (v1-message.ts).
			parts.push(...message.inline.map((part, at) => ({part, where: `${where}: part ${at + 1}`})));
		}

		inputs.push({line, raw: {message: message.raw, parts: rawParts}, message: message.parsed, parts});
	});
	return {inputs, skipped};
}

/**
 * Some messages of a database session read back by rowid (a row's offset), for their text:
 * without the session record, so session facts are not restated. Undefined when a message is
 * no longer there or does not read.
 */
export function databaseRowsAt(unit: DiscoveredUnit, places: readonly RowPlace[]): SessionRow[] | undefined {
	const sessionId = databaseSessionId(unit);
	if (!sessionId || isStorage(unit)) {
		return undefined;
	}

	const messagePlaces = places.filter(place => place.offset > 0);
	const recordPlaces = places.filter(place => place.offset < 0);
	let read: {messages: SessionRecords; records: Row[]};
	try {
		read = withDatabase(unit.path, (db, schema) => ({
			messages: readMessagesByRowid(db, schema, sessionId, messagePlaces.map(place => place.offset)),
			records: readRecordsByRowid(db, schema, sessionId, recordPlaces.map(place => -place.offset)),
		}));
	} catch {
		return undefined;
	}

	if (read.messages.messages.length !== messagePlaces.length || read.records.length !== recordPlaces.length) {
		return undefined;
	}

	const {inputs, skipped} = messageInputs(unit, read.messages, index => messagePlaces[index]!.line, () => {});
	const recordInputs = read.records.map((row, index) => recordInput(row, recordPlaces[index]!.line, unit.key));
	if (skipped > 0 || recordInputs.some(input => input === undefined)) {
		return undefined;
	}

	const rowidOf = new Map(places.map(place => [place.line, place.offset]));
	const ordered = [...inputs, ...(recordInputs as MessageInput[])].sort((a, b) => a.line - b.line);
	return rowsFromMessages(sessionContext(undefined, sessionId), ordered, 0, []).rows.map(row => ({...row, offset: rowidOf.get(row.line)!}));
}

/** Message `data` with the id and session id put back from their columns (the JSON lacks them). */
function databaseMessage(row: Row) {
	const data = parseDataColumn(row['data']);
	if (data === null || typeof data !== 'object' || Array.isArray(data)) {
		return undefined;
	}

	const raw = {...data, id: row['id'], sessionID: row['session_id']};
	// OpenCode's move of the JSON tree into the database copied messages of the first format as they were.
	const first = v1Message(raw);
	const parsed = first ? first.message : readOpencodeMessage(raw);
	return parsed && isKnownRole(parsed.role) ? {raw, parsed, inline: first?.parts ?? []} : undefined;
}

function databasePart(row: Row, message: Row) {
	const data = parseDataColumn(row['data']);
	if (data === null || typeof data !== 'object' || Array.isArray(data)) {
		return undefined;
	}

	const raw = {...data, id: row['id'], messageID: row['message_id'], sessionID: row['session_id'] ?? message['session_id']};
	const parsed = readOpencodePart(raw);
	return parsed ? {raw, parsed} : undefined;
}

function isKnownRole(role: string): boolean {
	return role === 'user' || role === 'assistant';
}

function loadStorageSession(unit: DiscoveredUnit): LoadedSession {
	const raw = readJsonFile(unit.path);
	const parsed = opencodeSessionSchema.safeParse(raw);
	if (raw === undefined || !parsed.success) {
		throw new SessionCorruptError(unit.path, null, 'the session file is not valid OpenCode session JSON');
	}

	const session = parsed.data;
	const storage = storageRootOf(unit.path);
	const sessionId = session.id ?? unit.idHint ?? stem(unit.path, '.json');
	const warnings: string[] = [];
	const warn = warner(warnings);
	let skipped = 0;
	const skip = (file: string, reason: string) => {
		skipped++;
		warn(`${file}: skipped, ${reason}`);
	};

	const messages = readStoredMessages(storage, unit.path, sessionId, skip);
	const partsOf = readStoredParts(storage, messages, skip);
	const inputs = messages.map((message, index): MessageInput => {
		const parts = partsOf.get(message.file) ?? [];
		// A message of the first format holds its parts itself (v1-message.ts), and has no part files.
		const inline = parts.length === 0 ? (message.inline ?? []) : [];
		return {
			line: index + 1,
			raw: {message: message.raw, parts: parts.map(part => part.raw)},
			message: message.message,
			parts: [...parts.map(part => ({part: part.part, where: part.file})), ...inline.map((part, at) => ({part, where: `${message.file}: part ${at + 1}`}))],
		};
	});
	return rowsFromMessages(sessionContext(session, sessionId), inputs, skipped, warnings);
}

/** The session's message files that parse as user or assistant messages, in conversation order. */
function readStoredMessages(storage: string, sessionFile: string, sessionId: string, skip: Skip): StoredMessage[] {
	const directory = messageDirectoryOf(storage, sessionFile, sessionId);
	const messages = (directory ? jsonFilesIn(directory) : []).flatMap(file => {
		const stored = readMessageFile(file, skip);
		if (stored && !isKnownRole(stored.message.role)) {
			skip(file, 'not a user or assistant message');
			return [];
		}

		return stored ? [stored] : [];
	});
	return sortMessages(messages);
}

/** Each message's parts, by message file, in part id order. */
function readStoredParts(storage: string, messages: readonly StoredMessage[], skip: Skip): Map<string, StoredPart[]> {
	const partsOf = new Map<string, StoredPart[]>();
	for (const message of messages) {
		const directory = partDirectoryOf(storage, message.file, message.message.id);
		if (directory) {
			partsOf.set(message.file, jsonFilesIn(directory).flatMap(file => readPartFile(file, skip) ?? []));
		}
	}

	// Early trees kept parts flat in part/. Look there only when no message has a part directory
	// (listing part/ is costly in a large tree). A torn flat file cannot be attributed to a
	// session, so it is not counted against this one.
	if (partsOf.size === 0 && messages.length > 0) {
		const ids = new Set(messages.flatMap(message => message.message.id ?? []));
		const flat = readFlatParts(storage, ids, () => undefined);
		for (const message of messages) {
			partsOf.set(message.file, flat.get(message.message.id ?? '') ?? []);
		}
	}

	return partsOf;
}
