import {basename, dirname, join} from 'node:path';
import type {SessionEvent, SessionRow} from '../events.js';
import {SessionCorruptError, type DiscoveredUnit, type LoadedSession, type RowPlace} from '../types.js';
import {normalizeChatLine} from './chat.js';
import {chatHistoryFile, summaryFile, updatesFile} from './discover.js';
import {isFile} from '../shared/fs.js';
import {readJsonLines} from '../shared/json-lines.js';
import {rowsAtLines} from '../shared/rows-at.js';
import {isSubagentSummary, readGrokSummary, summaryFacts} from './summary.js';
import {createUpdatesReducer} from './updates.js';

/** Which transcript a unit reads: the discovered variant, else the file's own name. */
function variantOf(unit: DiscoveredUnit): 'chat' | 'updates' {
	if (unit.variant === 'chat' || unit.variant === 'updates') {
		return unit.variant;
	}

	return basename(unit.path) === updatesFile ? 'updates' : 'chat';
}

function readChatHistory(path: string): LoadedSession {
	const rows: SessionRow[] = [];
	const backendCalls = new Set<string>();
	const callNames = new Map<string, string>(); // Names of calls awaiting their result.
	const read = readJsonLines(path, (value, line, offset) => {
		const events = normalizeChatLine(value, line, backendCalls, callNames);
		if (events === null) {
			return false;
		}

		rows.push({line, raw: value, events, offset});
		return true;
	});
	return {rows, ...read};
}

function readUpdates(path: string): LoadedSession {
	const reducer = createUpdatesReducer();
	const read = readJsonLines(path, (value, line) => reducer.add(value, line));
	return {rows: reducer.finish(), ...read};
}

/**
 * The session's facts from its `summary.json` (id, cwd, parent, generated title, model,
 * creation and last-active times), as a meta event on the first row: the transcripts state few
 * of them. In a subagent's session the prompts are the parent agent's.
 */
function withSummaryFacts(unit: DiscoveredUnit, loaded: LoadedSession): LoadedSession {
	const summary = readGrokSummary(join(dirname(unit.path), summaryFile));
	const facts = summary ? summaryFacts(summary) : {};
	if (summary && isSubagentSummary(summary)) {
		loaded = {...loaded, rows: loaded.rows.map(row => ({...row, events: row.events.map(event => (event.kind === 'user' && event.human ? {...event, human: false, origin: 'agent' as const} : event))}))};
	}

	if (Object.keys(facts).length === 0) {
		return loaded;
	}

	const first = loaded.rows[0];
	const meta: SessionEvent = {line: first?.line ?? 1, kind: 'meta', session: facts};
	const rows = first ? [{...first, events: [meta, ...first.events]}, ...loaded.rows.slice(1)] : [{line: 1, raw: summary, events: [meta]}];
	return {...loaded, rows};
}

/** Lines of a chat history read back on their own (each line is a whole message); updates need the whole file. */
export function grokRowsAt(unit: DiscoveredUnit, places: readonly RowPlace[]): SessionRow[] | undefined {
	return variantOf(unit) === 'chat' ? rowsAtLines(unit.path, places, normalizeChatLine) : undefined;
}

/** Loads one Grok session whole: chat chunks in `updates.jsonl` can only be merged with file-wide state. */
export function loadGrokSession(unit: DiscoveredUnit): LoadedSession {
	const loaded = variantOf(unit) === 'updates' ? readUpdatesOrCache(unit.path) : readChatHistory(unit.path);
	return withSummaryFacts(unit, loaded);
}

/** Whether a read holds a message with text: a chunk of no text (or only blanks) says nothing. */
function holdsConversation(loaded: LoadedSession): boolean {
	return loaded.rows.some(row => row.events.some(event => (event.kind === 'user' || event.kind === 'assistant') && event.text?.trim()));
}

/**
 * The update stream, unless it holds no message at all: when every model call of a session
 * failed, Grok has written only hook and retry telemetry there, while the prompt is in the chat
 * history cache. That cache is then read instead, and the warning names the file its lines are of.
 */
function readUpdatesOrCache(path: string): LoadedSession {
	const updates = readUpdates(path);
	const cache = join(dirname(path), chatHistoryFile);
	if (holdsConversation(updates) || !isFile(cache)) {
		return updates;
	}

	const chat = readFallback(cache);
	if (chat === undefined) {
		return {...updates, warnings: [...updates.warnings, `${chatHistoryFile} cannot be read`]};
	}

	return holdsConversation(chat) ? {...chat, warnings: [...chat.warnings, `lines are of ${chatHistoryFile}`]} : updates;
}

/**
 * The chat history read as a fallback, or undefined when it cannot be read (no permission, gone
 * meanwhile): the session's own transcript, the stream, was read, so the session stands on that
 * rather than failing for a file it only might have needed.
 */
function readFallback(path: string): LoadedSession | undefined {
	try {
		return readChatHistory(path);
	} catch (error) {
		if (error instanceof SessionCorruptError) {
			return undefined;
		}

		throw error;
	}
}
