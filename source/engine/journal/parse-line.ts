import {JsonTooDeepError, parseBoundedJson} from '../../lib/json-depth.js';
import {isKnownOp, journalLineSchema, payloadSchemas, type JournalLine} from './schema.js';

export type ParsedLine =
	| {readonly kind: 'event'; readonly event: JournalLine; readonly known: boolean}
	| {readonly kind: 'blank'}
	| {readonly kind: 'corrupt'; readonly reason: CorruptReason};

/** `too_deep`: valid JSON nested past maxJsonDepth, which no reader could walk without overflowing. */
export type CorruptReason = 'not_json' | 'too_deep' | 'not_an_event' | 'invalid_payload';

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
		return {kind: 'corrupt', reason: error instanceof JsonTooDeepError ? 'too_deep' : 'not_json'};
	}

	const envelope = journalLineSchema.safeParse(value);
	if (!envelope.success) {
		return {kind: 'corrupt', reason: 'not_an_event'};
	}

	const event = envelope.data;
	if (!isKnownOp(event.op)) {
		return {kind: 'event', event, known: false};
	}

	if (!payloadSchemas[event.op].safeParse(event.payload).success) {
		return {kind: 'corrupt', reason: 'invalid_payload'};
	}

	return {kind: 'event', event, known: true};
}
