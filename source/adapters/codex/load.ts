import type {SessionEvent, SessionInfo, SessionRow} from '../events.js';
import {isRecord} from '../shared/text.js';
import type {DiscoveredUnit, LineState, LoadedSession} from '../types.js';
import {normalizeCodexLine, timestampOf} from './normalize.js';
import {codexRolloutDocumentSchema} from './schema.js';
import {codexState} from './state.js';
import {readWholeJson} from '../shared/whole-file.js';

type DocumentSession = {id?: string | undefined; timestamp?: unknown; cwd?: string | undefined; model?: string | undefined};

/**
 * A TypeScript-era rollout (spring 2025): `{session: {timestamp, id, instructions}, items}`,
 * pretty-printed and rewritten whole on every save. Its lines are item ordinals, since the
 * file's own lines say nothing: item i is on line i + 1, and the session's facts are a meta row
 * on line 1 beside the first item. The items are the bare era's unwrapped response items, read
 * by the same normaliser in order with one state, so results pair with their calls and, when
 * the document states no cwd, an `<environment_context>` in a user message gives it.
 */
export function loadCodexDocument(unit: DiscoveredUnit): LoadedSession {
	const parsed = codexRolloutDocumentSchema.safeParse(readWholeJson(unit.path, 'JSON rollout'));
	if (!parsed.success) {
		// Valid JSON of another shape: nothing here is a Codex session.
		return {rows: [], skipped: 1, warnings: ['document: skipped, not a Codex rollout (no items list)']};
	}

	const state: LineState = {};
	const rows = headerRows(parsed.data.session, state);
	let skipped = 0;
	parsed.data.items.forEach((item, index) => {
		const line = index + 1;
		let events: SessionEvent[] | null;
		try {
			events = normalizeCodexLine(asResponseItem(item), line, state, unit);
		} catch {
			events = null;
		}

		if (events === null) {
			skipped++; // An item type the normaliser does not know, counted as a JSONL line of one would be.
		} else {
			rows.push({line, raw: item, events});
		}
	});
	return {rows, skipped, warnings: []};
}


/**
 * The session's facts as a meta row on line 1, and the normaliser's state told of them (so a
 * later `<environment_context>` does not state another cwd). `timestamp` is when the CLI last
 * saved the document (every save stamped it anew); the items carry no times, so it is the
 * session's only time, its start and last activity both.
 */
function headerRows(session: DocumentSession | undefined, lineState: LineState): SessionRow[] {
	const state = codexState(lineState);
	state.defined = true;
	const facts: SessionInfo = {};
	if (session?.id) {
		facts.id = session.id;
	}

	if (session?.cwd) {
		facts.cwd = state.cwd = session.cwd;
	}

	if (session?.model) {
		facts.model = state.model = session.model;
	}

	const {timestamp} = timestampOf(session?.timestamp);
	if (Object.keys(facts).length === 0 && timestamp === undefined) {
		return [];
	}

	const event: SessionEvent = {line: 1, kind: 'meta', ...(timestamp ? {timestamp} : {}), session: facts};
	return [{line: 1, raw: session, events: [event]}];
}

/** An input message may leave out `type` (the Responses API's EasyInputMessage): it is a message. */
function asResponseItem(item: unknown): unknown {
	return isRecord(item) && item['type'] === undefined && typeof item['role'] === 'string' ? {...item, type: 'message'} : item;
}
