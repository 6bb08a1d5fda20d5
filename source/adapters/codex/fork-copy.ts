import {readdirSync} from 'node:fs';
import {basename, dirname} from 'node:path';
import type {SessionEvent} from '../events.js';
import {idFromRolloutName, threadIdPattern} from './discover.js';
import {isRecord, stringOf} from '../shared/text.js';
import type {CodexState} from './state.js';

/**
 * A forked rollout (`codex fork`, a subagent spawned with its parent's history) opens with its
 * own `session_meta` naming `forked_from_id`, then a copy of the parent's rollout written at the
 * fork (codex-rs `InitialHistory::Forked`: the parent's items persisted as they are, its
 * `session_meta` first, every envelope stamped anew), then the fork's own turns. The copy is
 * the parent's conversation, read in the parent's session: here it is one notice.
 *
 * Where the copy ends: turn ids are UUIDv7, minted when a turn ran, so every copied
 * `turn_context` holds an id older than the fork, or none (a parent from before turn ids), and
 * the fork's first own turn one minted at or after it. A turn id that is no UUIDv7 (a root from
 * before UUIDv7 turn ids, copied along by each fork below it) is dated by its task_started's
 * `started_at` (Unix seconds): begun before the fork's second, it is still the copy; undated, it
 * ends the copy rather than hide the fork's own lines.
 *
 * A subagent spawned with its parent's context in a paginated thread says exactly where the copy
 * ends: its lines are numbered (`ordinal`), and `subagent_history_start_ordinal` is the first of
 * its own (codex-rs thread store, create_with_inherited_model_context). Such a copy names no
 * `forked_from_id`, and holds the parent's model context only, with no `session_meta`.
 */
export function startForkCopy(state: CodexState, meta: ForkMeta, parent: string | undefined, envelopeTime: string | undefined): void {
	const ownFrom = meta.subagent_history_start_ordinal;
	if (parent && ownFrom !== undefined) {
		state.forkCopy = {parent, ownFrom};
		return;
	}

	// A rollout naming itself as the thread it was forked from copies nothing of another.
	if (!meta.forked_from_id || meta.forked_from_id === meta.id || isRecord(meta.history_base)) {
		return;
	}

	const forkedAt = uuidV7Millis(meta.id) ?? millisOf(meta.timestamp) ?? millisOf(envelopeTime);
	if (forkedAt !== undefined) {
		state.forkCopy = {parent: meta.forked_from_id, before: forkedAt};
	}
}

/**
 * claude-code-tools writes rollouts that copy another session: `aichat trim` copies one line by
 * line into a new `rollout-<now>-<uuid4>.jsonl`, long outputs cut and the `session_meta` id
 * rewritten, with `trim_metadata: {parent_file, trimmed_at, …}` beside line 1's payload; its port
 * of a Claude Code session writes that conversation as message items (their times kept) after a
 * session_meta of its own, with `continue_metadata: {parent_session_id, continued_at,
 * ported_from: "claude"}` there. The copy's turns were run before the trim or port, the turns of
 * the resumed rollout after it, as a fork's are. A trim's parent is the thread id `parent_file`'s
 * name ends with; a port's source is another agent's session, named in the notice only.
 */
export function startDerivedCopy(state: CodexState, envelope: {trim_metadata?: unknown; continue_metadata?: unknown}): {parent?: string; at: number; self?: string} | undefined {
	const trim = envelope.trim_metadata;
	const port = envelope.continue_metadata;
	if (isRecord(trim) && typeof trim['parent_file'] === 'string') {
		const parent = /([\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12})\.jsonl(?:\.zst)?$/i.exec(trim['parent_file'])?.[1];
		const at = millisOf(trim['trimmed_at']);
		if (parent !== undefined && at !== undefined) {
			state.forkCopy = {parent, before: at, derived: 'trimmed'};
			return {parent, at};
		}
	}

	if (isRecord(port) && typeof port['ported_from'] === 'string' && typeof port['parent_session_id'] === 'string' && port['parent_session_id'] !== '') {
		const at = millisOf(port['continued_at']);
		if (at !== undefined) {
			state.forkCopy = {parent: port['parent_session_id'], before: at, derived: 'ported'};
			return {at};
		}
	}

	return undefined;
}

/**
 * Older builds that spawned a subagent with its parent's history copied the parent's rollout
 * into the child's after the child's own `session_meta` with every envelope keeping its first
 * time, and named no `forked_from_id` or history ordinal. The copy opens with the parent's
 * `session_meta`, stamped before the child began; it lasts while the lines are dated before that
 * start. (Builds that stamp copied lines anew date them after it: nothing opens then.)
 */
export function startKeptTimesCopy(state: CodexState, copiedId: string | undefined, base: Omit<SessionEvent, 'kind'>): SessionEvent[] {
	const spawned = state.spawned;
	delete state.spawned;
	const copiedAt = millisOf(base.timestamp);
	const from = spawned?.parent ?? copiedId;
	// The thread's own session_meta written again (a resume) is no copy.
	if (spawned === undefined || state.forkCopy !== undefined || copiedAt === undefined || copiedAt >= spawned.at || !from || copiedId === spawned.self) {
		return [];
	}

	state.forkCopy = {parent: from, keptBefore: spawned.at, noticed: true};
	// The copied line's time is the parent's: the notice states none as this session's.
	const {timestamp: _copiedTime, ...when} = base;
	return [{...when, kind: 'system', text: `Context inherited from the thread that spawned this one (${from}); it is read in that session`}];
}

/**
 * A client may copy a rollout, whole or up to a chosen prompt, to `rollout-<now, UTC>-<new
 * uuid>.jsonl` beside it and resume the copy by its path (slopus/happy's duplicate,
 * codexSessionFork.ts): its `session_meta` is the source's, id and all, and nothing else marks
 * the copy. A rollout whose session_meta names another thread than its file name, with no fork,
 * revert or history base to say why, and whose source's rollout lies in the same folder, is such
 * a copy: its lines dated before the time its name gives are the source's (their times kept),
 * the lines the resume added its own. One directory read, only for such a rollout (rare).
 */
export function startClientCopy(state: CodexState, meta: ForkMeta, path: string): {parent: string; at: number; self: string} | undefined {
	const self = idFromRolloutName(path);
	const source = meta.id ?? meta.session_id;
	if (!self || !source || source === self || !threadIdPattern.test(source) || meta.forked_from_id || meta.history_base !== undefined || isReplacementRollout(path)) {
		return undefined;
	}

	const named = /rollout-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-/.exec(basename(path));
	const at = named ? Date.parse(`${named[1]}T${named[2]}:${named[3]}:${named[4]}Z`) : Number.NaN;
	if (Number.isNaN(at) || !hasSourceBeside(path, source)) {
		return undefined;
	}

	state.forkCopy = {parent: source, keptBefore: at, derived: 'copied'};
	return {parent: source, at, self};
}

function hasSourceBeside(path: string, source: string): boolean {
	try {
		const own = basename(path);
		return readdirSync(dirname(path)).some(name => name !== own && name.startsWith('rollout-') && (name.endsWith(`-${source}.jsonl`) || name.endsWith(`-${source}.jsonl.zst`)));
	} catch {
		return false;
	}
}

type ForkMeta = {id?: string | undefined; session_id?: string | undefined; forked_from_id?: string | undefined; subagent_history_start_ordinal?: number | undefined; timestamp?: unknown; history_base?: unknown};

/**
 * Newer builds copy nothing: the rollout names where the history it continues lies, and Codex
 * reads that prefix from there. `session_meta.history_base {thread_id, end_ordinal_exclusive,
 * end_byte_offset}` names the rollout and the ordinal the inherited prefix ends before (a fork's
 * parent, or an earlier rollout of the same thread when the thread moved to a new file); builds
 * between wrote a `rollout_reference {rollout_path, thread_id?, nth_user_message?, …}` record
 * after the session_meta instead (codex-rs thread store, legacy lineage: `HistoryBase` replaced
 * `RolloutReference`). Either way no line here is the parent's: a notice says where the rest is.
 */
export function inheritedHistoryNotice(state: CodexState, meta: ForkMeta, path: string, base: Omit<SessionEvent, 'kind'>): SessionEvent[] {
	const historyBase = meta.history_base;
	if (!isRecord(historyBase) || (state.forkCopy !== undefined && 'ownFrom' in state.forkCopy)) {
		return []; // A paginated subagent's inherited context has its own notice (copiedLineEvents).
	}

	// `thread/revert` moves a thread to a new rollout, `rollout-<time>-<thread id>_<rollout id>.jsonl`,
	// whose base is the thread's own earlier rollout; a fork's base is its parent's (codex-rs
	// rollout/src/metadata.rs, forked_from_ordinal_exclusive: "without mistaking a revert's history
	// base for its parent").
	const forkBase = meta.forked_from_id !== undefined && (historyBase['thread_id'] === meta.forked_from_id || !isReplacementRollout(path));
	return [referenceNotice(forkBase ? meta.forked_from_id : undefined, base)];
}

/** A rollout a revert wrote: its file name ends `<thread id>_<rollout id>.jsonl`. */
function isReplacementRollout(path: string): boolean {
	return /_[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}\.jsonl(?:\.zst)?$/i.test(path);
}

/** A `rollout_reference` record: the history before it is read from another rollout, and nothing here is a copy. */
export function rolloutReferenceEvents(state: CodexState, base: Omit<SessionEvent, 'kind'>): SessionEvent[] {
	const copy = state.forkCopy;
	if (copy !== undefined && 'ownFrom' in copy) {
		return []; // A paginated subagent's lines are told by their ordinals.
	}

	delete state.forkCopy;
	return [referenceNotice(copy?.parent, base)];
}

function referenceNotice(parent: string | undefined, base: Omit<SessionEvent, 'kind'>): SessionEvent {
	const text = parent
		? `History inherited from the session this one was forked from (${parent}); it is read in that session`
		: 'Earlier history of this thread is in another rollout of it';
	return {...base, kind: 'system', text};
}

/**
 * Events for an envelope line read while the copy lasts, or undefined once the line is the
 * fork's own (numbered at or after the subagent's first own ordinal, or a `turn_context` of a
 * turn minted at or after the fork, which ends the copy).
 */
export function copiedLineEvents(state: CodexState, kind: string, payload: Record<string, unknown>, ordinal: unknown, base: Omit<SessionEvent, 'kind'>): SessionEvent[] | undefined {
	const copy = state.forkCopy;
	if (copy === undefined) {
		return undefined;
	}

	if (!isCopiedLine(copy, kind, payload, ordinal, base.timestamp)) {
		delete state.forkCopy;
		return undefined;
	}

	if (copy.noticed) {
		return [];
	}

	copy.noticed = true;
	const text = copy.derived === 'copied'
		? `History copied from session ${copy.parent} when this one was made from a copy of it; it is read in that session`
		: 'ownFrom' in copy || 'keptBefore' in copy
		? `Context inherited from the thread that spawned this one (${copy.parent}); it is read in that session`
		: copy.derived === 'ported'
			? `Conversation ported from another agent's session ${copy.parent}; it is read in that session`
			: `History copied from the session this one was ${copy.derived === 'trimmed' ? 'trimmed' : 'forked'} from (${copy.parent}); it is read in that session`;
	// A trim's or port's copied lines keep their first times: the notice states none as this session's.
	const {timestamp: _copiedTime, ...when} = base;
	return [{...(copy.derived ? when : base), kind: 'system', text}];
}

/** A line without an ordinal (or, in a copy keeping its times, without a time) tells nothing of the boundary, and ends the copy rather than hide it. */
function isCopiedLine(copy: NonNullable<CodexState['forkCopy']>, kind: string, payload: Record<string, unknown>, ordinal: unknown, timestamp: string | undefined): boolean {
	if ('ownFrom' in copy) {
		return typeof ordinal === 'number' && ordinal < copy.ownFrom;
	}

	if ('keptBefore' in copy) {
		const at = millisOf(timestamp);
		return at !== undefined && at < copy.keptBefore;
	}

	if (kind === 'event_msg' && payload['type'] === 'task_started') {
		noteTurnStart(copy, payload);
	}

	return kind !== 'turn_context' || isCopiedTurn(stringOf(payload['turn_id']), copy);
}

type DatedCopy = {before: number; startedEarly?: string};

/** Remembers a turn with no UUIDv7 id whose task_started says it began before the fork's second. */
function noteTurnStart(copy: DatedCopy, payload: Record<string, unknown>): void {
	const turnId = stringOf(payload['turn_id']);
	const startedAt = payload['started_at'];
	if (turnId && uuidV7Millis(turnId) === undefined && typeof startedAt === 'number' && startedAt < Math.floor(copy.before / 1000)) {
		copy.startedEarly = turnId;
	} else {
		delete copy.startedEarly;
	}
}

function isCopiedTurn(turnId: string | undefined, copy: DatedCopy): boolean {
	if (turnId === undefined || turnId === '') {
		return true; // Turns of a parent from before turn ids; a CLI that forks stamps its own.
	}

	const minted = uuidV7Millis(turnId);
	return minted === undefined ? turnId === copy.startedEarly : minted < copy.before;
}

/** The Unix milliseconds a UUIDv7 holds in its first 48 bits; undefined for any other id. */
export function uuidV7Millis(id: string | undefined): number | undefined {
	const hex = id?.replaceAll('-', '') ?? '';
	return /^[0-9a-f]{12}7[0-9a-f]{19}$/i.test(hex) ? Number.parseInt(hex.slice(0, 12), 16) : undefined;
}

function millisOf(value: unknown): number | undefined {
	const time = typeof value === 'string' ? Date.parse(value) : Number.NaN;
	return Number.isNaN(time) ? undefined : time;
}
