import type {SessionEvent, SessionInfo} from '../events.js';
import {isRecord, shortError, stringOf} from '../shared/text.js';
import type {DiscoveredUnit, LineState} from '../types.js';
import {communicationRecordEvents, responseItemEvents} from './response-items.js';
import {
	codexBareHeaderSchema,
	codexCompactedSchema,
	codexSessionMetaSchema,
	type CodexEvent,
	type CodexSessionMeta,
} from './schema.js';
import {epochIso} from '../shared/epoch.js';
import {isFirstCopy} from './echoes.js';
import {copiedLineEvents, inheritedHistoryNotice, rolloutReferenceEvents, startClientCopy, startDerivedCopy, startForkCopy, startKeptTimesCopy} from './fork-copy.js';
import {readCodexEvent, readCodexResponseItem, readCodexTurnContext} from './records.js';
import {eventImageNotes, historySummary, userTextEvents, replyParts, withImageNotes} from './messages.js';
import {codexState, recordResult, type CodexState} from './state.js';
import {dynamicEndResult, execEndResult, mcpEndResult, patchEndResult} from './tool-output.js';
import {commandItemRole, legacyEventsOf} from './thread-items.js';
import {rememberId} from '../shared/recent-ids.js';
import {withoutStatedTitles} from '../shared/host-text.js';
import {beginsScan} from '../shared/scan-start.js';
import {indexedThreadName} from './session-index.js';
import {noteTurnEnd, noteTurnStart, rollbackEvents} from './turns.js';
import {realtimeItemEvents} from './realtime.js';
import {goalEvents} from './goals.js';

type Base = Omit<SessionEvent, 'kind'>;

/**
 * Top-level record kinds that are known and carry nothing for the event model (codex-rs
 * RolloutItem: usage per model response, retained context, risk scores).
 */
const bookkeepingKinds = new Set([
	'world_state',
	'inter_agent_communication_metadata',
	'token_usage_record',
	'retained_context',
	'security_risk_score',
	'agent_response_observation',
]);

/** Response-item types that may appear unwrapped, one per line, in bare-era rollouts. */
const bareItemTypes = new Set([
	'message',
	'reasoning',
	'function_call',
	'function_call_output',
	'custom_tool_call',
	'custom_tool_call_output',
	'local_shell_call',
	'local_shell_call_output',
	'web_search_call',
	'image_generation_call',
	'tool_search_call',
	'tool_search_output',
]);

/**
 * One rollout line to events. Two eras share a file name: the envelope `{timestamp, type,
 * payload}` (September 2025 on) and the bare era (a header line, `{"record_type":"state"}`
 * markers and unwrapped response items).
 */
export function normalizeCodexLine(value: unknown, line: number, lineState: LineState, unit: DiscoveredUnit): SessionEvent[] | null {
	const state = codexState(lineState);
	const read = isEnvelope(value) ? envelopeEvents(value, {line, ...timestampOf(value.timestamp)}, state, unit) : bareEvents(value, line, state);
	const events = read === null ? read : withIndexedName(read, line, state, unit, beginsScan(lineState));
	// A prompt (a person's, or in a spawned thread its parent agent's) may start a turn; speech in
	// a voice conversation starts none (the task the voice agent hands Codex does).
	if (!isSpeech(value) && events?.some(event => event.kind === 'user' && (event.human || event.origin === 'agent'))) {
		noteTurnStart(state, line, false);
	}

	rememberCalls(state, events);
	return events;
}

function isSpeech(value: unknown): boolean {
	return isEnvelope(value) && value.type === 'realtime_item';
}

/**
 * The name session_index.jsonl gives the thread, looked up once the thread's id is stated, is
 * the session's name. Every naming is appended to the index, the latest last, and the app's
 * renames only there, so a name the rollout itself records gives way to it. Looked up again at the
 * first record a scan reads and at a rename the rollout records (thread_name_updated): the catalog
 * reads a grown rollout on from the state it kept, so a name looked up once per file would stay
 * the one of its first scan, where a read of the whole file gives the index's name now.
 */
function withIndexedName(events: SessionEvent[], line: number, state: CodexState, unit: DiscoveredUnit, begins: boolean): SessionEvent[] {
	if (events.length === 0 && !begins) {
		return events;
	}

	if (state.indexedName === undefined) {
		const stated = events.find(event => event.kind === 'meta' && event.session?.id);
		if (!stated?.session?.id) {
			return events;
		}

		const name = indexedThreadName(unit.path, stated.session.id);
		state.indexedName = name ?? null;
		state.namedThread = stated.session.id;
		return name === undefined ? events : events.map(event => (event === stated ? {...event, session: {...event.session, title: name}} : event));
	}

	const lookUp = state.namedThread !== undefined && (begins || events.some(event => event.kind === 'meta' && event.session?.title !== undefined));
	const known = state.indexedName;
	const name = lookUp ? indexedThreadName(unit.path, state.namedThread!) : known ?? undefined;
	state.indexedName = name ?? null;
	if (name === undefined) {
		return events;
	}

	// Without its time: a read of the whole file states this name where the thread's id is stated, and drops this record's title.
	const rest = withoutStatedTitles(events);
	return name === known ? rest : [{line, kind: 'meta', session: {title: name}}, ...rest];
}

/** Call ids read so far: a thread item naming none of them records a call no other line holds. */
function rememberCalls(state: CodexState, events: SessionEvent[] | null): void {
	for (const event of events ?? []) {
		if (event.kind === 'tool_call' && event.tool?.call_id) {
			rememberId((state.calls ??= {}), event.tool.call_id, true);
		}
	}
}

type Envelope = {timestamp?: unknown; ordinal?: unknown; type: string; payload: Record<string, unknown>; metadata?: unknown; trim_metadata?: unknown; continue_metadata?: unknown};

/**
 * `{timestamp, ordinal?, type, payload}`: every line since September 2025 (`ordinal` numbers the
 * lines of paginated threads). Checked by hand rather than by a schema, because every line of a
 * rollout passes here and the payload's own schema reads it.
 */
function isEnvelope(value: unknown): value is Envelope {
	return isRecord(value) && typeof value['type'] === 'string' && isRecord(value['payload']);
}

function envelopeEvents(envelope: Envelope, base: Base, state: CodexState, unit: DiscoveredUnit): SessionEvent[] | null {
	const {type: kind, payload, ordinal, metadata} = envelope;
	if (kind === 'rollout_reference') {
		return rolloutReferenceEvents(state, base);
	}

	const copied = copiedLineEvents(state, kind, payload, ordinal, base);
	if (copied) {
		return copied;
	}

	switch (kind) {
		case 'session_meta': {
			const meta = codexSessionMetaSchema.safeParse(payload);
			return meta.success ? sessionMetaEvents(meta.data, base, state, unit.path, envelope) : null;
		}

		case 'turn_context': {
			const context = readCodexTurnContext(payload);
			return context ? factEvents(base, state, {cwd: context.cwd, model: context.model}) : null;
		}

		case 'response_item': {
			const item = readCodexResponseItem(deliveredText(typedItem(payload), metadata));
			return item ? responseItemEvents(item, base, state, isInherited(metadata)) : null;
		}

		// A writer of the flat shape puts the message's own type on the envelope:
		// `{type: "message", payload: {role, content}}` is a response_item message.
		case 'message': {
			const item = typeof payload['role'] === 'string' ? readCodexResponseItem({...payload, type: 'message'}) : undefined;
			return item ? responseItemEvents(item, base, state) : null;
		}

		case 'event_msg': {
			const event = readCodexEvent(payload);
			return event ? eventMessageEvents(event, base, state) : null;
		}

		case 'compacted': {
			const compacted = codexCompactedSchema.safeParse(payload);
			return compacted.success ? [compactionSummary(compacted.data.message, [compacted.data.replacement_history, compacted.data.replacement_history_entries], base)] : null;
		}

		case 'inter_agent_communication':
			return communicationRecordEvents(payload, base, state) ?? [];

		case 'realtime_item':
			return realtimeItemEvents(payload, base);

		default:
			return bookkeepingKinds.has(kind) ? [] : null;
	}
}

/**
 * Older casr builds wrote the messages of a session they converted as `{role, content}` with no
 * `type` (cross_agent_session_resumer's sanitized real-world rollout,
 * tests/fixtures/real_world/codex_real_world_sanitized.jsonl): a message all the same.
 */
function typedItem(payload: Record<string, unknown>): Record<string, unknown> {
	return payload['type'] === undefined && typeof payload['role'] === 'string' ? {...payload, type: 'message'} : payload;
}

/**
 * A thread that takes over another's context writes the user messages it inherited into its own
 * rollout, each marked `inherited_user_message` in the harness metadata beside the payload
 * (codex-rs CodexHarnessMetadata): the other thread's prompts, no request made in this one.
 */
function isInherited(metadata: unknown): boolean {
	return isRecord(metadata) && metadata['inherited_user_message'] === true;
}

const partialDelivery = 'codex:code-mode-delivery:v1:incomplete:';

/**
 * An assistant message confirmed delivered by a messaging tool (code mode's retained context) is
 * written, for older clients, as an assistant message with harness metadata beside the payload.
 * When only part of it is known, the message holds Codex's placeholder ("The content of a
 * confirmed assistant message is unavailable…") and the metadata marker the part delivered
 * (codex-rs history rollout_payload.rs): that part is the reply, the placeholder no one's words.
 */
function deliveredText(payload: Record<string, unknown>, metadata: unknown): Record<string, unknown> {
	const marker = isRecord(metadata) ? metadata['delivered_assistant_message'] : undefined;
	if (typeof marker !== 'string' || !marker.startsWith(partialDelivery) || payload['role'] !== 'assistant') {
		return payload;
	}

	return {...payload, content: [{type: 'output_text', text: marker.slice(partialDelivery.length)}]};
}

function bareEvents(value: unknown, line: number, state: CodexState): SessionEvent[] | null {
	if (!isRecord(value)) {
		return null;
	}

	if (value['record_type'] !== undefined) {
		return [];
	}

	const base: Base = {line, ...timestampOf(value['timestamp'])};
	if (value['type'] === undefined) {
		const header = codexBareHeaderSchema.safeParse(value);
		return header.success ? bareHeaderEvents(header.data.id, header.data.cwd, header.data.model, base, state) : null;
	}

	if (value['type'] === 'compacted' && typeof value['message'] === 'string') {
		return [compactionSummary(value['message'], [value['replacement_history'], value['replacement_history_entries']], base)];
	}

	const item = readCodexResponseItem(value);
	return item && bareItemTypes.has(item.type) ? responseItemEvents(item, base, state) : null;
}

/**
 * Only the first `session_meta` describes this file's session. A forked rollout writes its
 * own, then copies the parent's rollout, whose `session_meta` comes along with it (fork-copy.ts).
 */
function sessionMetaEvents(meta: CodexSessionMeta, base: Base, state: CodexState, path: string, envelope: Envelope): SessionEvent[] {
	if (state.defined) {
		return laterMetaEvents(meta, base, state);
	}

	state.defined = true;
	state.subagent = isSubagentSource(meta.source) || (meta.thread_source !== undefined && agentThreadSources.has(meta.thread_source));
	const agentPath = meta.agent_path ?? spawnField(meta.source, 'agent_path');
	if (agentPath) {
		state.agentPath = agentPath;
	}

	const parentId = spawnParent(meta.source) ?? meta.parent_thread_id ?? meta.forked_from_id ?? undefined;
	state.orphan = state.subagent && parentId === undefined ? (meta.id ?? meta.session_id ?? '') : undefined;
	// A rollout aichat trimmed or ported starts then; a trim's session_meta is the parent's, copied
	// (a trimmed fork's included: the whole copy is the parent's, the fork's own turns with it).
	// A client's copy of another rollout names the source's thread in its session_meta: this file's id is its name's.
	const derived = startDerivedCopy(state, envelope) ?? startClientCopy(state, meta, path);
	if (!derived) {
		startForkCopy(state, meta, parentId, base.timestamp);
	}

	const spawnedAt = state.subagent && state.forkCopy === undefined ? Date.parse(timestampOf(meta.timestamp).timestamp ?? base.timestamp ?? '') : Number.NaN;
	if (!Number.isNaN(spawnedAt)) {
		// A later session_meta dated before this may open a copy of the parent's history (startKeptTimesCopy).
		const self = meta.id ?? meta.session_id;
		state.spawned = {at: spawnedAt, ...(parentId ? {parent: parentId} : {}), ...(self ? {self} : {})};
	}

	const started = derived ? new Date(derived.at).toISOString() : timestampOf(meta.timestamp).timestamp;
	const facts = factEvents(derived ? {line: base.line} : base, state, {
		id: derived?.self ?? meta.id ?? meta.session_id,
		cwd: meta.cwd,
		parent_id: derived ? derived.parent : parentId,
		model: meta.model,
		started,
	});
	return [...facts, ...inheritedHistoryNotice(state, meta, path, base)];
}

/**
 * A later `session_meta` is another thread's. A subagent whose own names no parent (its source
 * names none, as `{"subagent": {"other": "guardian"}}` does) repeats the session_meta of the
 * thread that started it: the first later one with another id is the parent. Only a subagent's:
 * a main session's rollout can hold its own subagents' session_meta lines, which are no parents.
 */
function laterMetaEvents(meta: CodexSessionMeta, base: Base, state: CodexState): SessionEvent[] {
	const id = meta.id ?? meta.session_id;
	if (state.orphan === undefined || !id || id === state.orphan) {
		return startKeptTimesCopy(state, id, base);
	}

	delete state.orphan;
	return [...factEvents(base, state, {parent_id: id}), ...startKeptTimesCopy(state, id, base)];
}

function bareHeaderEvents(id: string, cwd: string | undefined, model: string | undefined, base: Base, state: CodexState): SessionEvent[] {
	if (state.defined) {
		return [];
	}

	state.defined = true;
	return factEvents(base, state, {id, cwd, model, started: base.timestamp});
}

/**
 * A meta event with the facts not stated before: the working directory and model are repeated
 * by every `turn_context`, and only a change is news.
 */
function factEvents(base: Base, state: CodexState, facts: {[K in keyof SessionInfo]?: string | undefined}): SessionEvent[] {
	const session: SessionInfo = {};
	if (facts.id) {
		session.id = facts.id;
	}

	if (facts.parent_id) {
		session.parent_id = facts.parent_id;
	}

	if (facts.started) {
		session.started = facts.started;
	}

	if (facts.cwd && state.cwd === undefined) {
		state.cwd = facts.cwd;
		session.cwd = facts.cwd;
	}

	if (facts.model && facts.model !== state.model) {
		state.model = facts.model;
		session.model = facts.model;
	}

	return Object.keys(session).length === 0 ? [] : [{line: base.line, kind: 'meta', ...(base.timestamp ? {timestamp: base.timestamp} : {}), session}];
}

/**
 * Threads Codex runs for itself, whose prompts no person typed: a spawned agent, a guardian
 * reviewing another thread's action, the background memory consolidation (codex-rs protocol
 * ThreadSource; core's can_start_root_turn refuses exactly these).
 */
const agentThreadSources = new Set(['subagent', 'guardian_review', 'memory_consolidation']);

/** `{"subagent": …}`, or `{"internal": "guardian" | "memory_consolidation"}` (SessionSource::Internal). */
function isSubagentSource(source: unknown): boolean {
	return isRecord(source) && (source['subagent'] !== undefined || source['internal'] !== undefined);
}

/** `source.subagent.thread_spawn.parent_thread_id`: the thread that spawned this one. */
function spawnParent(source: unknown): string | undefined {
	return spawnField(source, 'parent_thread_id');
}

function spawnField(source: unknown, field: 'parent_thread_id' | 'agent_path'): string | undefined {
	if (!isRecord(source) || !isRecord(source['subagent'])) {
		return undefined;
	}

	const spawn = source['subagent']['thread_spawn'];
	return isRecord(spawn) ? stringOf(spawn[field]) : undefined;
}

/**
 * `event_msg` payloads. Prompts and replies are read unless they echo a response item already
 * read (echoes.ts); reasoning is never shown; the many bookkeeping events (token counts, turn
 * starts, review mode…) give `[]`, including types this adapter has never seen.
 */
function eventMessageEvents(event: CodexEvent, base: Base, state: CodexState): SessionEvent[] {
	switch (event.type) {
		case 'user_message':
			return promptEvents(event, base, state);
		case 'agent_message': {
			delete state.viewedImage;
			return replyParts(event.message ?? '').flatMap((text): SessionEvent[] =>
				text.trim() === '' || !isFirstCopy(state, 'assistant', 'event', text) ? [] : [{...base, kind: 'assistant', text}],
			);
		}

		case 'turn_started':
		case 'task_started':
			noteTurnStart(state, base.line, true);
			return [];
		case 'thread_rolled_back':
			return rollbackEvents(state, event.num_turns, base);
		case 'thread_goal_updated':
			return goalEvents(event, base, state);
		case 'turn_aborted':
			noteTurnEnd(state);
			// A review's end aborts its turn too; Codex reports no interruption for it.
			return [{...base, kind: 'system', text: `Turn aborted (${event.reason ?? 'unknown reason'})`, ...(event.reason === 'review_ended' ? {} : {interrupted: true})}];
		case 'error':
		case 'stream_error': {
			const message = errorMessage(event) ?? 'Error';
			// A stream error is a retried hiccup; only a final `error` marks a failed request, and not
			// one whose kind leaves the turn as it was.
			if (event.type !== 'error') {
				return [];
			}

			return leavesTurn(event.codex_error_info) ? [{...base, kind: 'system', text: message}] : [{...base, kind: 'system', text: message, error: shortError(message)}];
		}

		case 'task_complete':
		case 'turn_complete': {
			noteTurnEnd(state);
			const message = errorMessage(event);
			return message === undefined ? [] : [{...base, kind: 'system', text: message, error: shortError(message)}];
		}

		case 'warning':
			return event.message ? [{...base, kind: 'system', text: event.message}] : [];
		case 'context_compacted':
			// The summary itself is the `compacted` record written with it; this is the notice.
			return [{...base, kind: 'system', text: 'Context compacted'}];
		case 'thread_name_updated':
		case 'session_name_updated': {
			// A blank name names nothing (codex-rs trims one and records none that is empty).
			const title = (event.thread_name ?? event.name)?.trim();
			return title ? [{line: base.line, kind: 'meta', ...(base.timestamp ? {timestamp: base.timestamp} : {}), session: {title}}] : [];
		}

		case 'exec_command_end':
			return isUserShell(event.source) ? [] : recordResult(state, {...base, kind: 'tool_result', result: execEndResult(event)});
		case 'patch_apply_end':
			return recordResult(state, {...base, kind: 'tool_result', result: patchEndResult(event)});
		case 'dynamic_tool_call_response':
			return recordResult(state, {...base, kind: 'tool_result', result: dynamicEndResult(event)});
		case 'mcp_tool_call_end':
			return [...unseenMcpCall(event, base, state), ...recordResult(state, {...base, kind: 'tool_result', result: mcpEndResult(event)})];
		case 'item_completed':
			return isRecord(event.item) ? threadItemEvents(event.item, base, state) : [];
		default:
			return [];
	}
}

/**
 * A command the person ran with `!` (ExecCommandSource::UserShell; `userShell` in app-server
 * items): its end names a fresh id no call holds, and what the model saw of it is the
 * `<user_shell_command>` message (host text) beside it. No tool the agent called, so no result
 * and no failure left to the agent, as thread-items.ts reads its CommandExecution item.
 */
function isUserShell(source: string | undefined): boolean {
	return source === 'user_shell' || source === 'userShell';
}

/**
 * The call an `mcp_tool_call_end` ends, when no line before named it: an MCP tool a code-mode
 * `exec` cell called (the model called only the cell). The event carries the call's
 * `invocation` (`{server, tool, arguments}`), read as a namespaced MCP call is named.
 */
function unseenMcpCall(event: CodexEvent, base: Base, state: CodexState): SessionEvent[] {
	const callId = event.call_id;
	const invocation = isRecord(event.invocation) ? event.invocation : undefined;
	const server = stringOf(invocation?.['server']);
	const tool = stringOf(invocation?.['tool']);
	// Own keys only: an id such as `constructor` is no call read before.
	if (callId === undefined || !server || !tool || (state.calls !== undefined && Object.hasOwn(state.calls, callId))) {
		return [];
	}

	return [{...base, kind: 'tool_call', tool: {name: `mcp__${server}__${tool}`, call_id: callId, input: invocation?.['arguments'] ?? null}}];
}

/**
 * A finished thread item (thread-items.ts), read as the legacy events it stands for. A command a
 * code-mode cell ran has no call on any other line: its item gives the call as well.
 */
function threadItemEvents(item: Record<string, unknown>, base: Base, state: CodexState): SessionEvent[] {
	const legacy = () => legacyEventsOf(item).flatMap(event => eventMessageEvents(event, base, state));
	if (item['type'] !== 'CommandExecution') {
		return legacy();
	}

	const role = commandItemRole(item, state.calls);
	if (role === undefined) {
		return [];
	}

	const call: SessionEvent[] = role === 'unseen' ? [{...base, kind: 'tool_call', tool: {name: 'exec_command', call_id: String(item['id']), input: {command: item['command']}}}] : [];
	return [...call, ...legacy()];
}

/**
 * `user_message {message, images?, local_images?, kind?}`: written for prompts (older builds also
 * wrote the instructions and environment they injected, marked by `kind`). The images a prompt
 * sent are noted after its text; a prompt of images alone is still one. In a spawned thread the
 * prompt came from the parent agent.
 */
function promptEvents(event: CodexEvent, base: Base, state: CodexState): SessionEvent[] {
	const text = event.message ?? '';
	const injected = event.kind !== undefined && event.kind !== 'plain';
	const notes = injected ? [] : eventImageNotes(event.images, event.local_images);
	if (text.trim() === '' && notes.length === 0) {
		return [];
	}

	const subagent = state.subagent === true;
	const said: SessionEvent[] = injected ? [{...base, kind: 'user', text, human: false}] : text.trim() === '' ? [] : userTextEvents([text], base, {role: 'user', subagent});
	return withImageNotes(said, notes, base, {subagent, viewedImage: state.viewedImage === true, firstCopy: typed => isFirstCopy(state, 'user', 'event', typed)});
}

/**
 * Kinds of `error` that leave the turn as it was: a steer refused while a compaction runs, a
 * rollback that failed (codex-rs protocol CodexErrorInfo::affects_turn_status; Codex's history
 * builder marks no turn failed for them). Serde writes a unit kind as its name, a kind with
 * fields as an object keyed by it; app-server copies spell them in camelCase.
 */
const turnNeutralErrors = new Set(['thread_rollback_failed', 'active_turn_not_steerable', 'threadRollbackFailed', 'activeTurnNotSteerable']);

function leavesTurn(info: unknown): boolean {
	if (typeof info === 'string') {
		return turnNeutralErrors.has(info);
	}

	return isRecord(info) && Object.keys(info).some(key => turnNeutralErrors.has(key));
}

/** `{message}`, `{error: "…"}` or `{error: {message}}`, depending on the version. */
function errorMessage(event: CodexEvent): string | undefined {
	if (event.type === 'error' && event.message) {
		return event.message;
	}

	if (typeof event.error === 'string') {
		return event.error;
	}

	return isRecord(event.error) ? (stringOf(event.error['message']) ?? 'Error') : undefined;
}

/** The record's own summary, else the one its replacement history (items or entries) holds. */
function compactionSummary(message: string | undefined, histories: readonly unknown[], base: Base): SessionEvent {
	const text = message?.trim() ? message : histories.map(historySummary).find(summary => summary !== undefined);
	return {...base, kind: 'summary', text: text ?? 'Conversation compacted'};
}

/**
 * An ISO-8601 time, or nothing: collages and hand-made files hold placeholders here. Rollouts
 * cross_agent_session_resumer (casr) writes when it converts a session time their lines in Unix
 * seconds, fractional (src/providers/codex.rs, codex_events_for_message); a number read as
 * milliseconds when it is too large for seconds.
 */
export function timestampOf(value: unknown): {timestamp?: string} {
	if (typeof value === 'number') {
		const timestamp = epochIso(value);
		return timestamp ? {timestamp} : {};
	}

	return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value)) ? {timestamp: value} : {};
}

