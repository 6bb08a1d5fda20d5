import type {SessionEvent} from '../../adapters/events.js';
import {basename} from 'node:path';
import type {DiscoveredUnit} from '../../adapters/types.js';
import {listableSessionId} from '../conversation/ids.js';
import {maskSecrets, mayContainSecret} from '../search/secrets.js';

export type SessionSummary = {
	id: string | null;
	parent_id: string | null;
	project: string | null;
	started: string | null;
	modified: string | null;
	/** The first request a person typed (host-injected text never counts), or a title the tool recorded. */
	title: string | null;
	/** Line of the first human request (the title's source). */
	first_human_line: number | null;
	human_turns: number;
	assistant_messages: number;
	tool_calls: number;
	/** False for files with nothing conversational (e.g. a Claude summary-only file): not sessions. */
	conversational: boolean;
};

const titleLength = 200;

/** Timestamps come in many spellings; the catalog compares them as UTC ISO strings. */
export function utcIso(value: string | undefined | null): string | null {
	if (!value) {
		return null;
	}

	const time = Date.parse(value);
	return Number.isNaN(time) ? null : new Date(time).toISOString();
}

/** A title as the catalog keeps it: one line, bounded, and with secret-shaped strings masked. */
export function clipTitle(text: string): string {
	const single = (mayContainSecret(text) ? maskSecrets(text) : text).replaceAll(/\s+/g, ' ').trim();
	return single.length <= titleLength ? single : single.slice(0, titleLength - 1) + '…';
}

/**
 * Folds a session's events into its catalog summary. Streaming: call `add` for events in file
 * order (all of them, or a head window and a tail window), then `finish`.
 */
export function createSummarizer(unit: DiscoveredUnit, previous?: SessionSummary) {
	const summary: SessionSummary = previous ? {...previous} : {
		id: unit.idHint ?? null,
		parent_id: unit.parentIdHint ?? null,
		project: unit.projectHint ?? null,
		started: null,
		modified: null,
		title: null,
		first_human_line: null,
		human_turns: 0,
		assistant_messages: 0,
		tool_calls: 0,
		conversational: false,
	};
	let toolTitle: string | null = null;
	let lastMessageId: string | undefined;

	function add(event: SessionEvent): void {
		const timestamp = utcIso(event.timestamp);
		if (timestamp) {
			if (summary.started === null || timestamp < summary.started) {
				summary.started = timestamp;
			}

			if (summary.modified === null || timestamp > summary.modified) {
				summary.modified = timestamp;
			}
		}

		const facts = event.session;
		if (facts) {
			summary.id ??= facts.id ?? null;
			summary.parent_id ??= facts.parent_id ?? null;
			summary.project ??= facts.cwd ?? null;
			const started = utcIso(facts.started);
			if (started && (summary.started === null || started < summary.started)) {
				summary.started = started;
			}

			if (facts.title) {
				toolTitle = clipTitle(facts.title);
			}
		}

		switch (event.kind) {
			case 'user':
				summary.conversational = true;
				if (event.human && !event.sidechain) {
					summary.human_turns++;
					if (summary.first_human_line === null && event.text?.trim()) {
						summary.title = clipTitle(event.text);
						summary.first_human_line = event.line;
					}
				}

				break;
			case 'assistant':
			case 'tool_call':
				summary.conversational = true;
				if (event.kind === 'tool_call') {
					summary.tool_calls++;
				}

				// A response split over several records (one per content block) is one message.
				if (!event.sidechain && (event.message_id === undefined ? event.kind === 'assistant' : event.message_id !== lastMessageId)) {
					summary.assistant_messages++;
				}

				lastMessageId = event.message_id;
				break;
			case 'tool_result':
				summary.conversational = true;
				break;
			default:
				break;
		}
	}

	function finish(): SessionSummary {
		// A session whose store states no id is named by its file, so that every listed id opens.
		summary.id = listableSessionId(summary.id ?? basename(unit.path).replace(/\.[^.]*$/, ''));
		summary.parent_id = summary.parent_id === null ? null : listableSessionId(summary.parent_id);
		summary.title ??= toolTitle;
		if (summary.modified === null && unit.mtimeMs > 0) {
			summary.modified = new Date(unit.mtimeMs).toISOString();
		}

		summary.started ??= summary.modified;
		return summary;
	}

	return {add, finish};
}

export function summarizeEvents(unit: DiscoveredUnit, events: Iterable<SessionEvent>): SessionSummary {
	const summarizer = createSummarizer(unit);
	for (const event of events) {
		summarizer.add(event);
	}

	return summarizer.finish();
}
