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
	/** Byte offset of the line holding the final version, when that line is the message's own record. */
	readonly offset?: number;
};

export type Replay = {
	/** Messages of the resulting conversation in conversation order, then rewind markers and the messages they discarded. */
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

export function replayGeminiJsonl(path: string): Replay {
	const messages = new Map<string, ReplayEntry>();
	const recordedIds = new Set<string>();
	let metadata: GeminiMetadata = {};
	let header: {line: number; raw: unknown} | undefined;
	let summarySet: {line: number; raw: unknown} | undefined;

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
			messages.clear();
			for (const message of checkpoint) {
				if (isRecord(message) && typeof message['id'] === 'string') {
					messages.set(message['id'], {line, raw: message, rewind: false});
				}
			}
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

		for (const id of Array.isArray(fields['removeIds']) ? fields['removeIds'] : []) {
			if (typeof id === 'string') {
				messages.delete(id);
			}
		}

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

		if (typeof value['id'] === 'string') {
			recordedIds.add(value['id']);
			// Map.set on an existing key keeps its position: an update does not move the message,
			// and it keeps the line it was first written at, so rows stay in line order.
			messages.set(value['id'], {line: messages.get(value['id'])?.line ?? line, raw: value, rewind: false, offset});
			return true;
		}

		const set = geminiSetSchema.safeParse(value);
		if (set.success) {
			mergeMetadata(set.data.$set, line, value);
			return true;
		}

		const parsedHeader = geminiMetadataSchema.safeParse(value);
		if (parsedHeader.success && parsedHeader.data.sessionId !== undefined) {
			mergeMetadata(parsedHeader.data, line, value);
			return true;
		}

		return false;
	};

	const read = readJsonLines(path, apply);

	return {entries: [...messages.values(), ...rewinds], metadata, header, summarySet, recordedIds, skipped: read.skipped, warnings: read.warnings};
}
