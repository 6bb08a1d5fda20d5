import {readQwenMessage} from './records.js';
import type {QwenRecord} from './schema.js';

/**
 * Records written under one uuid are fragments of one message, and Qwen Code's reader joins them
 * (transcript-records.ts `aggregateTranscriptRecordFragments`, behind sessionService's
 * `reconstructHistory`): the message's parts are every fragment's parts in the order they were
 * written, the first fragment's fields stand (its parent, type, model and tool result), and the
 * latest time is the message's. A later fragment adds to the message; it never replaces it.
 */
export function joinFragments(first: QwenRecord, next: QwenRecord): QwenRecord {
	const joined: QwenRecord = {...first, message: joinedMessage(first.message, next.message)};
	if (first.toolCallResult === undefined && next.toolCallResult !== undefined) {
		joined.toolCallResult = next.toolCallResult;
	}

	if (!first.model && next.model) {
		joined.model = next.model;
	}

	if (next.timestamp && (!first.timestamp || next.timestamp > first.timestamp)) {
		joined.timestamp = next.timestamp;
	}

	return joined;
}

/** Both messages' parts under the first's role; either message alone when the other is absent. */
function joinedMessage(first: unknown, next: unknown): unknown {
	if (next === undefined) {
		return first;
	}

	if (first === undefined) {
		return next;
	}

	const [earlier, later] = [readQwenMessage(first), readQwenMessage(next)];
	const role = earlier?.role ?? later?.role;
	return {...(role === undefined ? {} : {role}), parts: [...(earlier?.parts ?? []), ...(later?.parts ?? [])]};
}
