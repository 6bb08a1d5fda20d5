import type {SessionEvent, SessionInfo, SessionRow} from '../events.js';
import {maxWarnings, skipMessage} from '../shared/json-lines.js';
import {unreadable} from '../shared/schema.js';
import {rowsAtLines} from '../shared/rows-at.js';
import {type DiscoveredUnit, type LoadedSession, type RowPlace} from '../types.js';
import {contentCalls, recordedCallIds, type ContentCalls} from './content-calls.js';
import {normalizeGeminiMessage} from './normalize.js';
import {timestampOf} from '../shared/gemini-parts.js';
import {projectOfChat} from '../shared/chat-project.js';
import {replayGeminiJsonl} from './replay.js';
import {parseGeminiMessage} from './records.js';
import {geminiConversationSchema, type GeminiMetadata} from './schema.js';
import {readWholeJson} from '../shared/whole-file.js';

/**
 * Session facts the metadata states: id, start and last-update times and, failing a project
 * hint, the cwd (its first directory, else the path the chat names that has its project hash).
 * A chat discovery named by its file keeps that name: its sessionId is an earlier chat's.
 */
function sessionFacts(unit: DiscoveredUnit, metadata: GeminiMetadata, messages: readonly unknown[]): SessionInfo {
	const firstDirectory = metadata.directories?.find(directory => typeof directory === 'string' && directory.trim() !== '');
	const cwd = typeof firstDirectory === 'string' ? firstDirectory : unit.projectHint === undefined ? projectOfChat(messages, metadata.projectHash) : undefined;
	const started = timestampOf(metadata.startTime);
	const modified = timestampOf(metadata.lastUpdated);
	const id = unit.idHint ?? metadata.sessionId;
	// A subagent's chat recorded under its process's sessionId belongs to that process's main chat.
	const parent = metadata.kind === 'subagent' && id !== metadata.sessionId ? metadata.sessionId : undefined;
	return {
		...(id ? {id} : {}),
		...(parent ? {parent_id: parent} : {}),
		...(cwd === undefined ? {} : {cwd}),
		...(started ? {started} : {}),
		...(modified ? {modified} : {}),
	};
}

function metaRow(line: number, raw: unknown, session: SessionInfo): SessionRow[] {
	return Object.keys(session).length === 0 ? [] : [{line, raw, events: [{line, kind: 'meta', session}]}];
}

/** A subagent chat: its "user" turns are the parent agent's task prompts. */
function isSubagent(unit: DiscoveredUnit, metadata: GeminiMetadata): boolean {
	return metadata.kind === 'subagent' || unit.parentIdHint !== undefined;
}

type Builder = {rows: SessionRow[]; skipped: number; warnings: string[]; modelStated: boolean};

/**
 * Adds one message's row. The first model named by a `gemini` message is a session fact. A
 * message that does not match the record shape, or whose type the CLI never writes, is skipped.
 */
function addMessage(builder: Builder, raw: unknown, line: number, typedByPerson: (id: string) => boolean, calls: ContentCalls, offset?: number, byAgent = false): void {
	const parsed = parseGeminiMessage(raw);
	if (!parsed.success) {
		builder.skipped++;
		if (builder.warnings.length < maxWarnings) {
			builder.warnings.push(skipMessage(line, unreadable(parsed.error).unreadable));
		}

		return;
	}

	const events = normalizeGeminiMessage(parsed.data, line, {typedByPerson: typedByPerson(parsed.data.id), byAgent, calls});
	if (events === null) {
		builder.skipped++;
		return;
	}

	const message = parsed.data;
	if (!builder.modelStated && message.type === 'gemini' && message.model) {
		builder.modelStated = true;
		const timestamp = timestampOf(message.timestamp);
		events.unshift({line, kind: 'meta', ...(timestamp ? {timestamp} : {}), session: {model: message.model}});
	}

	builder.rows.push({line, raw, events, ...(offset === undefined ? {} : {offset})});
}

function rewindRow(line: number, raw: unknown, rewoundFrom: number | undefined): SessionRow {
	const event: SessionEvent = {line, kind: 'system', text: 'Conversation rewound to an earlier message; later messages are on an abandoned branch', ...(rewoundFrom === undefined ? {} : {rewound_from: rewoundFrom})};
	return {line, raw, events: [event]};
}

/** A `.jsonl` chat (v0.39+): replayed, then one row per surviving message. */
function loadJsonl(unit: DiscoveredUnit): LoadedSession {
	const replay = replayGeminiJsonl(unit.path);
	const subagent = isSubagent(unit, replay.metadata);
	const builder: Builder = {rows: [], skipped: replay.skipped, warnings: [...replay.warnings], modelStated: false};
	const messages = replay.entries.filter(entry => !entry.rewind && !entry.discarded).map(entry => entry.raw);
	builder.rows.push(...metaRow(replay.header?.line ?? 1, replay.header?.raw ?? replay.metadata, sessionFacts(unit, replay.metadata, messages)));
	const recorded = recordedCallIds(replay.entries.map(entry => entry.raw));
	// Calls and responses pair along the conversation; an abandoned branch's messages stand alone.
	const live = contentCalls(recorded);
	for (const entry of replay.entries) {
		if (entry.rewind) {
			builder.rows.push(rewindRow(entry.line, entry.raw, entry.rewoundFrom));
		} else {
			addMessage(builder, entry.raw, entry.line, id => !subagent && replay.recordedIds.has(id), entry.discarded ? contentCalls(recorded) : live, entry.offset, subagent);
		}
	}

	// The generated session summary is the tool's own title, used when no human request exists.
	if (replay.metadata.summary && replay.summarySet) {
		builder.rows.push(...metaRow(replay.summarySet.line, replay.summarySet.raw, {title: replay.metadata.summary}));
	}

	// Rows are served in line order (paging counts lines); messages keep their first line, so this
	// is also conversation order, with the summary's meta row moved to where it was written and
	// what rewinds discarded put back where it was written.
	builder.rows.sort((a, b) => a.line - b.line);
	return {rows: builder.rows, skipped: builder.skipped, warnings: builder.warnings};
}

/** A legacy `.json` chat (v0.1.21 to v0.39): one `ConversationRecord`; lines are message ordinals. */
function loadLegacyJson(unit: DiscoveredUnit): LoadedSession {
	const parsed = geminiConversationSchema.safeParse(readWholeJson(unit.path, 'legacy JSON chat'));
	if (!parsed.success) {
		// Valid JSON of another shape (e.g. a `history` export): nothing here is a Gemini CLI chat.
		return {rows: [], skipped: 1, warnings: ['document: skipped, not a Gemini CLI conversation record (no messages list)']};
	}

	const {messages, ...metadata} = parsed.data;
	const builder: Builder = {rows: [], skipped: 0, warnings: [], modelStated: false};
	const facts: SessionInfo = {...sessionFacts(unit, metadata, messages), ...(metadata.summary ? {title: metadata.summary} : {})};
	builder.rows.push(...metaRow(1, metadata, facts));
	// Every message in a legacy document was recorded in its own right.
	const subagent = isSubagent(unit, metadata);
	const calls = contentCalls(recordedCallIds(messages));
	messages.forEach((message, index) => addMessage(builder, message, index + 1, () => !subagent, calls, undefined, subagent));
	return {rows: builder.rows, skipped: builder.skipped, warnings: builder.warnings};
}

/**
 * Messages read back from the lines that hold their final versions (`.jsonl` chats only). The
 * text is exactly what a whole load gives; only the `human` flag, which needs the rest of the
 * file, is not worked out. Undefined when a place holds anything but message records.
 */
export function geminiRowsAt(unit: DiscoveredUnit, places: readonly RowPlace[]): SessionRow[] | undefined {
	if (isLegacy(unit)) {
		return undefined;
	}

	// A place's line is where the message was first written; its offset, where its final version is.
	return rowsAtLines(unit.path, places, (value, line) => {
		const parsed = parseGeminiMessage(value);
		return parsed.success ? normalizeGeminiMessage(parsed.data, line, {typedByPerson: false}) : null;
	});
}

function isLegacy(unit: DiscoveredUnit): boolean {
	return unit.variant === undefined ? unit.path.endsWith('.json') : unit.variant === 'json';
}

export function loadGeminiSession(unit: DiscoveredUnit): LoadedSession {
	return isLegacy(unit) ? loadLegacyJson(unit) : loadJsonl(unit);
}
