import type {SessionEvent} from '../events.js';

/**
 * Event rewrites for what a store records that is the host's, not the conversation's. Each keeps
 * an event's line, time and text, so it stays shown and searched where it was written.
 */

/**
 * A request or reply that holds no conversation (a startup warmup's prompt and reply, a file
 * holding only the host's context) as the host's notice: a system event, which is no turn and
 * makes no session of a file.
 */
export function asHostNotice(event: SessionEvent): SessionEvent {
	if (event.kind !== 'user' && event.kind !== 'assistant') {
		return event;
	}

	const {human: _human, origin: _origin, message_id: _messageId, ...rest} = event;
	return {...rest, kind: 'system'};
}

/**
 * The events with the titles their records state taken out, every other fact kept (a meta event
 * left with nothing goes): a name the tool keeps beside the transcript, where its renames go
 * (Codex's session_index.jsonl, Copilot CLI's workspace.yaml), outranks them.
 */
export function withoutStatedTitles(events: SessionEvent[]): SessionEvent[] {
	if (!events.some(event => event.kind === 'meta' && event.session?.title !== undefined)) {
		return events;
	}

	return events.flatMap(event => {
		if (event.kind !== 'meta' || event.session?.title === undefined) {
			return [event];
		}

		const {title: _title, ...facts} = event.session;
		return Object.keys(facts).length === 0 ? [] : [{...event, session: facts}];
	});
}
