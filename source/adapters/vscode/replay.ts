import {readFileSync} from 'node:fs';
import {exceedsJsonDepth, JsonTooDeepError, maxJsonDepth, parseBoundedJson} from '../../lib/json-depth.js';
import {decodeLine, forEachLine} from '../../lib/lines.js';
import {maxLineBytes} from '../rows.js';
import {statOrUndefined} from '../shared/fs.js';
import {parseJsonLine} from '../shared/json-line.js';
import {SessionCorruptError} from '../types.js';
import {jsonErrorOffset, lineAtOffset} from './json-error.js';
import {mutationSchema, type Mutation} from './schema.js';

export type SessionDocument = {
	/** The whole `ISerializableChatData`-like state, as stored or as the log rebuilds it. */
	readonly state: unknown;
	readonly skipped: number;
	readonly warnings: string[];
	/**
	 * Requests a log entry truncated away (a push to `requests` with `i` shorter than the array:
	 * an edited or undone request and everything after it), in the order they were dropped.
	 * VS Code no longer shows them; readers keep them as an abandoned branch.
	 */
	readonly discarded?: unknown[];
};

const maxWarnings = 20;
type Container = Record<string, unknown> | unknown[];
type PathKey = string | number;

/** Keys that would reach an object's prototype rather than its own data. */
const unsafeKeys = new Set(['__proto__', 'prototype', 'constructor']);

/** A snapshot this large cannot be held as one string (V8 stops near 512 MiB). */
const maxSnapshotBytes = 256 * 1024 * 1024;

/** A `.json` snapshot, read whole (VS Code itself does). Unparseable: corrupt, naming the line. */
export function readSnapshot(path: string): SessionDocument {
	if ((statOrUndefined(path)?.size ?? 0) > maxSnapshotBytes) {
		throw new SessionCorruptError(path, null, `larger than ${maxSnapshotBytes / 1024 / 1024} MiB`);
	}

	let text = readFileSync(path, 'utf8');
	if (text.charCodeAt(0) === 0xfeff) {
		text = text.slice(1);
	}

	try {
		return {state: parseBoundedJson(text), skipped: 0, warnings: []};
	} catch (error) {
		if (error instanceof JsonTooDeepError) {
			throw new SessionCorruptError(path, null, `JSON nested deeper than ${maxJsonDepth} levels`);
		}

		const offset = jsonErrorOffset(text);
		throw new SessionCorruptError(path, lineAtOffset(text, offset === -1 ? text.length : offset), 'not valid JSON');
	}
}

function isContainer(value: unknown): value is Container {
	return value !== null && typeof value === 'object';
}

/** The container that holds the last key of `path`, or undefined when the path leads nowhere. */
function parentOf(state: unknown, path: readonly PathKey[]): Container | undefined {
	let current: unknown = state;
	for (const key of path.slice(0, -1)) {
		if (!isContainer(current) || unsafeKeys.has(String(key))) {
			return undefined;
		}

		current = Array.isArray(current) ? current[Number(key)] : current[String(key)];
	}

	return isContainer(current) ? current : undefined;
}

function setAt(container: Container, key: PathKey, value: unknown): void {
	if (Array.isArray(container)) {
		container[Number(key)] = value;
	} else if (value === undefined) {
		delete container[String(key)];
	} else {
		container[String(key)] = value;
	}
}

function getAt(container: Container, key: PathKey): unknown {
	return Array.isArray(container) ? container[Number(key)] : container[String(key)];
}

/** How far past an array's end an entry may reach: the writer never goes past it, so a gap is a few lost entries at most. */
const maxIndexGap = 256;

/** An array index an entry names, or a push's `i`: a whole number from 0 to a little past the end (anything else would throw or allocate without bound). */
function isArrayIndex(index: number, length: number): boolean {
	return Number.isSafeInteger(index) && index >= 0 && index <= length + maxIndexGap;
}

/**
 * Applies one set, push or delete to the state, as objectMutationLog.ts does: a push first
 * sets the array's length to `i` when `i` is given (truncating it, or padding it with a gap),
 * then appends `v`. False when it cannot apply.
 */
function applyMutation(state: unknown, mutation: Mutation, dropped?: (items: unknown[]) => void): boolean {
	const path = mutation.k ?? [];
	const last = path.at(-1);
	const container = parentOf(state, path);
	if (last === undefined || container === undefined || unsafeKeys.has(String(last))) {
		return false;
	}

	// An element set or deleted far past the end would make a vast sparse array that later copies walk in full.
	if (Array.isArray(container) && !isArrayIndex(Number(last), container.length)) {
		return false;
	}

	switch (mutation.kind) {
		case 1:
			setAt(container, last, mutation.v);
			return true;
		case 2: {
			const current = getAt(container, last);
			const items = Array.isArray(current) ? current : [];
			if (mutation.i !== undefined) {
				if (!isArrayIndex(mutation.i, items.length)) {
					return false;
				}

				if (mutation.i < items.length) {
					dropped?.(items.slice(mutation.i));
				}

				// Past the end, VS Code's replay pads the array with a gap: the pushed items keep the index later entries name.
				items.length = mutation.i;
			}

			if (Array.isArray(mutation.v)) {
				items.push(...(mutation.v as unknown[]));
			}

			setAt(container, last, items);
			return true;
		}

		case 3:
			setAt(container, last, undefined);
			return true;
		default:
			return false;
	}
}

/**
 * Rebuilds the state a `.jsonl` mutation log describes. Lines that do not parse, entries of an
 * unknown kind and entries whose path leads nowhere are skipped and counted (warnings name the
 * line, never its content). A log with entries but no initial state cannot be read at all.
 */
export function replayMutationLog(path: string): SessionDocument {
	let state: unknown;
	let hasInitial = false;
	let entries = 0;
	let skipped = 0;
	const warnings: string[] = [];
	const discarded: unknown[] = [];
	const dropRequests = (items: unknown[]) => discarded.push(...items);
	const skip = (line: number, reason: string) => {
		skipped++;
		if (warnings.length < maxWarnings) {
			warnings.push(`line ${line}: skipped, ${reason}`);
		}
	};

	forEachLine(
		path,
		raw => {
			if (raw.oversized) {
				skip(raw.number, `longer than ${maxLineBytes / 1024 / 1024} MiB`);
				return;
			}

			const text = raw.length === 0 ? '' : decodeLine(raw);
			if (text.trim() === '') {
				return;
			}

			entries++;
			const values = parseJsonLine(text);
			if (values === 'too_deep') {
				skip(raw.number, `JSON nested deeper than ${maxJsonDepth} levels`);
				return;
			}

			if (values === 'not_json') {
				skip(raw.number, raw.terminated ? 'not valid JSON' : 'incomplete last line (still being written?)');
				return;
			}

			for (const value of values) {
				const parsed = mutationSchema.safeParse(value);
				if (!parsed.success) {
					skip(raw.number, 'not a mutation entry');
				} else if (parsed.data.kind === 0) {
					state = parsed.data.v;
					hasInitial = true;
				} else if (![1, 2, 3].includes(parsed.data.kind)) {
					skip(raw.number, `unknown mutation kind ${parsed.data.kind}`);
				} else if (!applyMutation(state, parsed.data, isRequestList(parsed.data.k) ? dropRequests : undefined)) {
					skip(raw.number, 'mutation does not apply (no such path, or a bad index)');
				}
			}
		},
		{maxLineBytes},
	);

	if (entries > 0 && !hasInitial) {
		throw new SessionCorruptError(path, null, 'mutation log has no initial state');
	}

	// Each line is bounded, but mutations can set values inside earlier ones, deeper and deeper.
	if (exceedsJsonDepth(state)) {
		throw new SessionCorruptError(path, null, `the state the log builds is nested deeper than ${maxJsonDepth} levels`);
	}

	return {state: hasInitial ? state : {}, skipped, warnings, ...(discarded.length > 0 ? {discarded} : {})};
}

/** The session's own list of requests (not an array inside one, like a response's parts). */
function isRequestList(path: readonly PathKey[] | undefined): boolean {
	return path?.length === 1 && path[0] === 'requests';
}
