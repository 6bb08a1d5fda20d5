import {JsonTooDeepError, parseBoundedJson} from '../../lib/json-depth.js';
import {isKnownOp, journalEnvelope, payloadChecks, type JournalLine} from './schema.js';

export type ParsedLine =
	| {readonly kind: 'event'; readonly event: JournalLine; readonly known: boolean}
	| {readonly kind: 'blank'}
	| {readonly kind: 'corrupt'; readonly reason: CorruptReason};

/**
 * `too_deep`: valid JSON nested past maxJsonDepth, which no reader could walk without overflowing.
 * `merge_conflict_marker`: a `<<<<<<<`, `=======` or `>>>>>>>` line git left when it merged two
 * copies of the journal without `merge=union`; `interleaved_events`: an event cut short with the
 * next one run into it (a torn line on one side of such a merge).
 */
export type CorruptReason = 'not_json' | 'too_deep' | 'not_an_event' | 'invalid_payload' | 'merge_conflict_marker' | 'interleaved_events';

const conflictMarker = /^(?:<{7}|={7}|>{7}|\|{7})(?:\s|$)/;

/**
 * Classifies one journal line. Unknown ops are valid events that replay ignores, so a journal
 * written by a newer engi still opens; anything that is not an event is corrupt.
 */
export function parseJournalLine(text: string): ParsedLine {
	if (text.trim() === '') {
		return {kind: 'blank'};
	}

	let value: unknown;
	try {
		value = parseBoundedJson(text);
	} catch (error) {
		if (error instanceof JsonTooDeepError) {
			return {kind: 'corrupt', reason: 'too_deep'};
		}

		return {kind: 'corrupt', reason: conflictMarker.test(text) ? 'merge_conflict_marker' : text.indexOf('{"id":', 1) > 0 ? 'interleaved_events' : 'not_json'};
	}

	const event = journalEnvelope(value);
	if (!event) {
		return {kind: 'corrupt', reason: 'not_an_event'};
	}

	if (!isKnownOp(event.op)) {
		return {kind: 'event', event, known: false};
	}

	if (!payloadChecks[event.op](event.payload)) {
		return {kind: 'corrupt', reason: 'invalid_payload'};
	}

	return {kind: 'event', event, known: true};
}
