import {basename} from 'node:path';
import type {SessionEvent, SessionInfo, SessionRow} from '../events.js';
import {timestampOf} from '../shared/gemini-parts.js';
import {readJsonLines} from '../shared/json-lines.js';
import {rowsAtLines} from '../shared/rows-at.js';
import {unreadable} from '../shared/schema.js';
import {bridgeSkipped, resolveParent, withTreePlace, type TreeBridges} from '../shared/tree.js';
import {isRecord} from '../shared/text.js';
import type {DiscoveredUnit, LoadedSession, RowPlace} from '../types.js';
import {isLegacyChat, loadLegacyQwenChat} from './legacy.js';
import {joinFragments} from './fragments.js';
import {isSubagentRecord, normalizeQwenRecord} from './normalize.js';
import {isSideRecord} from './system.js';
import {parseQwenRecord} from './records.js';
import type {QwenRecord} from './schema.js';

type Kept = {line: number; offset: number | undefined; raw: unknown; record: QwenRecord};

/**
 * Reads every record. Records re-emitted under one `uuid` are fragments of one message, joined
 * as Qwen Code joins them (fragments.ts) and kept where the last fragment was written; such a
 * row's `raw` is its fragments, and it has no offset: no one line holds it. Glued records on one
 * physical line are split and share that line. A value that is no record is skipped with the
 * field that failed.
 */
function readRecords(path: string): {kept: Kept[]; skipped: number; warnings: string[]} {
	const byKey = new Map<string, Kept>();
	let lastLine = 0;
	let index = 0;
	const read = readJsonLines(path, (value, line, offset) => {
		index = line === lastLine ? index + 1 : 0; // Glued records share a line; tell them apart.
		lastLine = line;
		const parsed = parseQwenRecord(value);
		if (!parsed.success) {
			return unreadable(parsed.error);
		}

		const key = parsed.data.uuid ? `uuid:${parsed.data.uuid}` : `line:${line}:${index}`;
		const earlier = byKey.get(key);
		byKey.delete(key); // Re-inserting moves a re-emitted record to its final position.
		byKey.set(key, earlier ? {line, offset: undefined, raw: [...fragmentsOf(earlier), value], record: joinFragments(earlier.record, parsed.data)} : {line, offset, raw: value, record: parsed.data});
		return true;
	});
	return {kept: [...byKey.values()], skipped: read.skipped, warnings: read.warnings};
}

function fragmentsOf(kept: Kept): unknown[] {
	return Array.isArray(kept.raw) ? kept.raw : [kept.raw]; // A lone record is an object.
}

/**
 * Session facts as they are first stated: the id (the file stem, which the layout makes the
 * session id even when a record says otherwise), the working directory whenever it changes, the
 * first model, and the session a `/branch` fork was copied from.
 */
function factsOf(record: QwenRecord, state: {cwd?: string; model?: boolean; parent?: boolean}): SessionInfo {
	const facts: SessionInfo = {};
	if (record.cwd && record.cwd !== state.cwd) {
		state.cwd = record.cwd;
		facts.cwd = record.cwd;
	}

	if (record.model && !state.model && record.type === 'assistant') {
		state.model = true;
		facts.model = record.model;
	}

	const forkedFrom = forkSourceOf(record);
	if (!state.parent && forkedFrom !== undefined) {
		state.parent = true;
		facts.parent_id = forkedFrom;
	}

	return facts;
}

/**
 * `/branch` writes the parent's active chain into the new session's file, every copied record
 * stamped `forkedFrom {sessionId, messageUuid}` (qwen-code SessionService.forkSession); the
 * branch's own records follow without it. The copy is the parent's conversation, read in the
 * parent's session: not the branch's requests, title, calls or text.
 */
function forkSourceOf(record: QwenRecord): string | undefined {
	const forkedFrom = record.forkedFrom;
	return isRecord(forkedFrom) && typeof forkedFrom['sessionId'] === 'string' ? forkedFrom['sessionId'] : undefined;
}

/** A copied record shows nothing but, on the first, a notice of where the copy came from. */
function copiedRecordEvents(parent: string, line: number, noticed: boolean): SessionEvent[] {
	return noticed ? [] : [{line, kind: 'system', text: `History copied by /branch from session ${parent}; it is read in that session`}];
}

export function loadQwenSession(unit: DiscoveredUnit): LoadedSession {
	if (isLegacyChat(unit)) {
		return loadLegacyQwenChat(unit);
	}

	const {kept, skipped, warnings} = readRecords(unit.path);
	const rows: SessionRow[] = [];
	let dropped = skipped;
	const state: {cwd?: string; model?: boolean; parent?: boolean} = {};
	let idStated = false;
	let copyNoticed = false;
	const bridges: TreeBridges = {};
	const continued = new Set(kept.flatMap(({record}) => (typeof record.parentUuid === 'string' ? [record.parentUuid] : [])));
	for (const {line, offset, raw, record: stated} of kept) {
		const record = {...stated, parentUuid: resolveParent(bridges, stated.parentUuid)};
		const place = {uuid: record.uuid, parent: record.parentUuid, sidechain: isSubagentRecord(record)};
		const normalized = normalizeQwenRecord(record, line);
		if (normalized === null) {
			dropped++; // A record type this adapter does not know; its children hang off its parent.
			bridgeSkipped(bridges, place);
			continue;
		}

		const copiedFrom = forkSourceOf(record);
		const shown = copiedFrom === undefined ? normalized : copiedRecordEvents(copiedFrom, line, copyNoticed);
		copyNoticed ||= copiedFrom !== undefined;
		// A side record nothing continues from takes no place in the tree: it is no branch (system.ts).
		const offTail = isSideRecord(record) && (record.uuid === undefined || !continued.has(record.uuid));
		const events = offTail ? shown : withTreePlace(shown, place, line);
		const facts: SessionInfo = factsOf(record, state);
		if (!idStated) {
			idStated = true;
			facts.id = unit.idHint ?? basename(unit.path, '.jsonl');
		}

		// A copied record keeps the parent's time: the branch started when its own records did.
		const timestamp = copiedFrom === undefined ? timestampOf(record.timestamp) : undefined;
		const meta: SessionEvent[] = Object.keys(facts).length === 0 ? [] : [{line, kind: 'meta', ...(timestamp ? {timestamp} : {}), session: facts}];
		rows.push({line, raw, events: [...meta, ...events], ...(offset === undefined ? {} : {offset})});
	}

	return {rows, skipped: dropped, warnings};
}

/**
 * The records on a few physical lines (only a record written once has a place to read back),
 * normalised without the session facts that need earlier lines: enough for their text.
 */
export function qwenRowsAt(unit: DiscoveredUnit, places: readonly RowPlace[]): SessionRow[] | undefined {
	if (isLegacyChat(unit)) {
		return undefined; // A document's lines are message ordinals: it is read whole.
	}

	return rowsAtLines(unit.path, places, (value, line) => {
		const parsed = parseQwenRecord(value);
		if (!parsed.success) {
			return null;
		}

		const events = normalizeQwenRecord(parsed.data, line);
		return events && forkSourceOf(parsed.data) !== undefined ? [] : events;
	});
}
