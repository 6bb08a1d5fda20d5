import {contentText, isStateSnapshot} from '../shared/gemini-parts.js';
import {readJsonLines} from '../shared/json-lines.js';
import {isRecord} from '../shared/text.js';
import {geminiMetadataSchema, geminiSetSchema, type GeminiMetadata} from './schema.js';

/**
 * Replays a Gemini CLI `.jsonl` chat the way gemini-cli's `loadConversationRecord` does:
 *
 * - the metadata line (`sessionId`, `projectHash`, …) and `{"$set": {...}}` merge metadata;
 * - a record with an `id` is a message; an `id` seen before replaces the earlier message in
 *   place (updates rewrite the whole message, last writer wins);
 * - `$set.messages` is a checkpoint that replaces the whole message list;
 * - `{"$rewindTo": id}` deletes that message and everything after it (everything, when the
 *   id is unknown);
 * - `{"$patch": {updates, removeIds, orderIds}}` (newer builds) is the delta form of a checkpoint:
 *   it patches contents and tool results, deletes messages and reorders the list.
 *
 * A compression is such a deletion too: the CLI records a state snapshot, the model's
 * acknowledgement and the turns it keeps (re-recorded under new ids), then removes the originals
 * from the history it resumes. The turns it summarised are still the conversation the person had
 * (their lines stay in the file, and the CLI's session list still names the chat by its first
 * request), so they are kept, marked compacted, before the snapshot; the re-recorded originals
 * are dropped, their copies standing for them.
 *
 * A checkpoint is built from the model's history, which holds user and model turns only, so it
 * never restates the UI's `info`, `error` and `warning` messages (an API error, "Request
 * cancelled."): one it leaves out stays, after the message it followed.
 *
 * Each surviving entry keeps the physical line where it was first written (so rows stay in
 * line order) and the record of its final version. The messages a rewind deleted are kept too,
 * marked discarded, and the rewind marker names the first line it discarded: they are still in
 * the file, an abandoned branch, as a tree store's rewind leaves one.
 */
export type ReplayEntry = {
	readonly line: number;
	readonly raw: unknown;
	/** A rewind marker (kept so a reader sees that the conversation was rewound here). */
	readonly rewind: boolean;
	/** On a rewind marker: the first line of the messages it deleted. */
	readonly rewoundFrom?: number;
	/** A message a later rewind deleted. */
	readonly discarded?: boolean;
	/** A message a compression took out of the model's history: an earlier part of the conversation. */
	readonly compacted?: boolean;
	/** Byte offset of the line holding the final version, when that line is the message's own record. */
	readonly offset?: number;
};

export type Replay = {
	/** Messages compressions took out, then the resulting conversation, in conversation order; then rewind markers and the messages they discarded. */
	readonly entries: ReplayEntry[];
	readonly metadata: GeminiMetadata;
	/** The first record stating the session id, and the last `$set` that set `summary`. */
	readonly header: {line: number; raw: unknown} | undefined;
	readonly summarySet: {line: number; raw: unknown} | undefined;
	/** Ids written as records of their own (anything else came only from a checkpoint). */
	readonly recordedIds: ReadonlySet<string>;
	skipped: number;
	readonly warnings: string[];
};

/** A tool call with the `result` a patch gives it (the first patch naming its id). */
function withPatchedResult(call: unknown, patches: readonly unknown[]): unknown {
	if (!isRecord(call)) {
		return call;
	}

	const patch = patches.find(candidate => isRecord(candidate) && candidate['id'] === call['id'] && 'result' in candidate);
	return isRecord(patch) ? {...call, result: patch['result']} : call;
}

/** Message types the UI records that the model's history (and so a checkpoint) never holds. */
const uiTypes = new Set(['info', 'error', 'warning']);

function isUiMessage(entry: ReplayEntry): boolean {
	return isRecord(entry.raw) && typeof entry.raw['type'] === 'string' && uiTypes.has(entry.raw['type']);
}

/**
 * The checkpoint's messages with the UI messages it left out put back, each after the message it
 * followed before (the first ones before all), at the checkpoint's line as the rest are.
 */
function withUiMessagesKept(before: ReadonlyMap<string, ReplayEntry>, after: ReadonlyMap<string, ReplayEntry>, line: number): Map<string, ReplayEntry> {
	const followers = new Map<string | undefined, Array<[string, ReplayEntry]>>();
	let previous: string | undefined;
	for (const [id, entry] of before) {
		if (after.has(id)) {
			previous = id;
		} else if (isUiMessage(entry)) {
			followers.set(previous, [...(followers.get(previous) ?? []), [id, {line, raw: entry.raw, rewind: false}]]);
		}
	}

	if (followers.size === 0) {
		return new Map(after);
	}

	const kept = new Map(followers.get(undefined) ?? []);
	for (const [id, entry] of after) {
		kept.set(id, entry);
		for (const [followerId, follower] of followers.get(id) ?? []) {
			kept.set(followerId, follower);
		}
	}

	return kept;
}

function isSnapshot(entry: ReplayEntry): boolean {
	return isRecord(entry.raw) && entry.raw['type'] === 'user' && isStateSnapshot(contentText(entry.raw['content']));
}

function visibleContent(entry: ReplayEntry | undefined): string | undefined {
	return isRecord(entry?.raw) ? contentText(entry.raw['content']) : undefined;
}

/**
 * The messages a deletion took out that a compression summarised. It is a compression when the
 * remaining list holds a state snapshot first seen after them; the messages first seen after the
 * snapshot (less the model's acknowledgement) are copies of the removed tail, so only the removed
 * messages before that tail were summarised away. A deletion whose tail does not begin with the
 * first copy's request (or that is no compression: a failed request's rollback) keeps nothing.
 */
function compactedAway(removed: readonly ReplayEntry[], remaining: readonly ReplayEntry[], firstSeen: (entry: ReplayEntry) => number): ReplayEntry[] {
	const at = remaining.findLastIndex(isSnapshot);
	const snapshot = remaining[at];
	if (!snapshot || removed.length === 0 || removed.some(entry => firstSeen(entry) > firstSeen(snapshot))) {
		return [];
	}

	// A kept turn that keeps its id (a checkpoint's sync) was never removed, so it is no copy.
	const after = remaining.slice(at + 1).filter(entry => firstSeen(entry) > firstSeen(snapshot));
	const copies = isRecord(after[0]?.raw) && after[0].raw['type'] === 'gemini' ? after.slice(1) : after;
	const summarised = removed.slice(0, Math.max(0, removed.length - copies.length));
	const keptFrom = removed[summarised.length];
	if (copies.length > 0 && visibleContent(keptFrom) !== visibleContent(copies[0])) {
		return [];
	}

	return summarised.map(entry => ({...entry, compacted: true}));
}

export function replayGeminiJsonl(path: string): Replay {
	const messages = new Map<string, ReplayEntry>();
	const recordedIds = new Set<string>();
	let metadata: GeminiMetadata = {};
	let header: {line: number; raw: unknown} | undefined;
	let summarySet: {line: number; raw: unknown} | undefined;

	/** Messages compressions took out of the model's history, in conversation order. */
	const compacted: ReplayEntry[] = [];
	/** When each message id was first seen (a record, or a checkpoint restating the list). */
	const seen = new Map<string, number>();
	const see = (id: string) => {
		if (!seen.has(id)) {
			seen.set(id, seen.size);
		}
	};

	const firstSeen = (entry: ReplayEntry) => (isRecord(entry.raw) && typeof entry.raw['id'] === 'string' ? seen.get(entry.raw['id']) ?? -1 : -1);

	/**
	 * A metadata header after messages: a recorder started for a new session wrote into this chat
	 * (an ACP session/load initialises one before it resolves the chat to load, and names its file
	 * by the minute, so a load in the chat's first minute lands here: gemini-cli issues #28775,
	 * #28693). Its first checkpoint restates only its own fresh history; what that checkpoint drops
	 * is still the conversation the person had, kept in place rather than erased.
	 */
	let reopened = false;

	const mergeMetadata = (patch: GeminiMetadata, line: number, raw: unknown) => {
		const {messages: checkpoint, ...facts} = patch;
		metadata = {...metadata, ...facts};
		if (facts.sessionId !== undefined) {
			header ??= {line, raw};
		}

		if (facts.summary !== undefined) {
			summarySet = {line, raw};
		}

		if (checkpoint) {
			const before = new Map(messages);
			const restated = new Map<string, ReplayEntry>();
			for (const message of checkpoint) {
				if (isRecord(message) && typeof message['id'] === 'string') {
					see(message['id']);
					restated.set(message['id'], {line, raw: message, rewind: false});
				}
			}

			messages.clear();
			for (const [id, entry] of withUiMessagesKept(before, restated, line)) {
				messages.set(id, entry);
			}

			const removed = [...before].filter(([id]) => !messages.has(id)).map(([, entry]) => entry);
			compacted.push(...(reopened ? removed : compactedAway(removed, [...messages.values()], firstSeen)));
			reopened = false;
		}
	};

	/** Rewind markers and the messages they deleted: checkpoints restate messages, never these. */
	const rewinds: ReplayEntry[] = [];
	const rewindTo = (id: string, line: number, raw: unknown) => {
		const ids = [...messages.keys()];
		const index = ids.indexOf(id);
		let from: number | undefined;
		for (const doomed of index === -1 ? ids : ids.slice(index)) {
			const entry = messages.get(doomed)!;
			from = Math.min(from ?? entry.line, entry.line);
			rewinds.push({...entry, discarded: true});
			messages.delete(doomed);
		}

		rewinds.push({line, raw, rewind: true, ...(from === undefined ? {} : {rewoundFrom: from})});
	};

	/**
	 * A history sync's delta, as gemini-cli's `createJsonlRecordAccumulator` applies it: `updates`
	 * (or the patch itself, when it names an `id`) replace a message's content and its tool calls'
	 * results, `removeIds` delete messages, and `orderIds` move the messages it lists, in its
	 * order, after all the others.
	 */
	const applyPatch = (patch: object) => {
		const fields = patch as Record<string, unknown>;
		const updates: unknown[] = Array.isArray(fields['updates']) ? fields['updates'] : [];
		for (const update of typeof fields['id'] === 'string' ? [fields, ...updates] : updates) {
			if (isRecord(update) && typeof update['id'] === 'string') {
				updateMessage(update['id'], update);
			}
		}

		const doomed = new Set((Array.isArray(fields['removeIds']) ? fields['removeIds'] : []).filter((id): id is string => typeof id === 'string'));
		const removed = [...messages].filter(([id]) => doomed.has(id)).map(([, entry]) => entry);
		for (const id of doomed) {
			messages.delete(id);
		}

		compacted.push(...compactedAway(removed, [...messages.values()], firstSeen));

		if (Array.isArray(fields['orderIds'])) {
			reorder(fields['orderIds']);
		}
	};

	/** The message with the patched content and results; it no longer is any one line's record, so it has no offset. */
	const updateMessage = (id: string, update: Record<string, unknown>) => {
		const entry = messages.get(id);
		if (!entry || !isRecord(entry.raw)) {
			return;
		}

		const message: Record<string, unknown> = {...entry.raw};
		if (update['content'] !== undefined) {
			message['content'] = update['content'];
		}

		const calls = message['toolCalls'];
		if (Array.isArray(update['toolCalls']) && message['type'] === 'gemini' && Array.isArray(calls)) {
			message['toolCalls'] = calls.map(call => withPatchedResult(call, update['toolCalls'] as unknown[]));
		}

		messages.set(id, {line: entry.line, raw: message, rewind: false});
	};

	/**
	 * A build that types its JSONL records (`session_metadata`, `message_update`; gemini-cli's
	 * `writeMessageUpdate`) appends a message's tokens and tool calls as a partial update naming
	 * its id. Its reader merges every field but `type` into that message, holding an update that
	 * comes before its message until the message is written; so does this.
	 */
	const pendingUpdates = new Map<string, Array<Record<string, unknown>>>();
	const mergeUpdate = (id: string, fields: Record<string, unknown>) => {
		const entry = messages.get(id);
		if (!entry || !isRecord(entry.raw)) {
			pendingUpdates.set(id, [...(pendingUpdates.get(id) ?? []), fields]);
			return;
		}

		// The merged message is no one line's record any more, so it has no offset.
		messages.set(id, {line: entry.line, raw: {...entry.raw, ...fields}, rewind: false});
	};

	const applyPendingUpdates = (id: string) => {
		const queued = pendingUpdates.get(id);
		pendingUpdates.delete(id);
		for (const fields of queued ?? []) {
			mergeUpdate(id, fields);
		}
	};

	const reorder = (orderIds: readonly unknown[]) => {
		const ordered = orderIds.filter((id): id is string => typeof id === 'string' && messages.has(id));
		const listed = new Set(ordered);
		const entries = [...messages].filter(([id]) => !listed.has(id));
		entries.push(...ordered.map(id => [id, messages.get(id)!] as [string, ReplayEntry]));
		messages.clear();
		for (const [id, entry] of entries) {
			messages.set(id, entry);
		}
	};

	/** Applies one record; false for a shape this reader does not know (skipped and counted). */
	const apply = (value: unknown, line: number, offset: number): boolean => {
		if (!isRecord(value)) {
			return false;
		}

		// `{"$rewindTo": "<messageId>"}` deletes that message and everything after it.
		const target = value['$rewindTo'];
		if (typeof target === 'string') {
			rewindTo(target, line, value);
			return true;
		}

		// `{"$patch": {...}}` (gemini-cli from Oct 2026, in place of `$set.messages` checkpoints).
		const patch = value['$patch'];
		if (patch !== null && typeof patch === 'object') {
			applyPatch(patch);
			return true;
		}

		if (value['type'] === 'message_update' && typeof value['id'] === 'string') {
			const {type: _type, ...fields} = value;
			mergeUpdate(value['id'], fields);
			return true;
		}

		if (typeof value['id'] === 'string') {
			recordedIds.add(value['id']);
			see(value['id']);
			// Map.set on an existing key keeps its position: an update does not move the message,
			// and it keeps the line it was first written at, so rows stay in line order.
			messages.set(value['id'], {line: messages.get(value['id'])?.line ?? line, raw: value, rewind: false, offset});
			applyPendingUpdates(value['id']);
			return true;
		}

		const set = geminiSetSchema.safeParse(value);
		if (set.success) {
			mergeMetadata(set.data.$set, line, value);
			return true;
		}

		// A typed `session_metadata` record may state only what changed (the summary the CLI
		// appends once it has one); only a record naming the session is a header.
		const parsedHeader = geminiMetadataSchema.safeParse(value);
		if (parsedHeader.success && parsedHeader.data.sessionId === undefined && value['type'] === 'session_metadata') {
			// It is no checkpoint: a message list here is not the CLI's.
			const {messages: _checkpoint, ...facts} = parsedHeader.data;
			mergeMetadata(facts, line, value);
			return true;
		}

		if (parsedHeader.success && parsedHeader.data.sessionId !== undefined) {
			reopened ||= messages.size > 0;
			// The chat started when its first header was written; a later one is the restart's.
			const {startTime, ...facts} = parsedHeader.data;
			mergeMetadata(metadata.startTime === undefined ? parsedHeader.data : facts, line, value);
			return true;
		}

		return false;
	};

	const read = readJsonLines(path, apply);

	return {entries: [...compacted, ...messages.values(), ...rewinds], metadata, header, summarySet, recordedIds, skipped: read.skipped, warnings: read.warnings};
}
