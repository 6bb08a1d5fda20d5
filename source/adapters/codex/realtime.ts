import type {SessionEvent} from '../events.js';
import {isRecord} from '../shared/text.js';

type Base = Omit<SessionEvent, 'kind'>;

/**
 * A `realtime_item` record: what a voice conversation left in the thread (codex-rs protocol
 * realtime.rs, `RealtimeItem {id, realtime_session_id, type, data}`). A `transcript_segment` is
 * one stretch of speech, `data: {role: "user" | "assistant", text}`: the person's words as
 * transcribed, or the voice model's spoken reply. Codex shows them in the thread's transcript
 * among its turns ("Voice: …"), and they are recorded nowhere else, so they are the
 * conversation. Session start and close markers and `bem_item_promoted` (an item of a turn shown
 * in the voice view) carry nothing to read.
 */
export function realtimeItemEvents(payload: Record<string, unknown>, base: Base): SessionEvent[] {
	if (payload['type'] !== 'transcript_segment' || !isRecord(payload['data'])) {
		return [];
	}

	const {role, text} = payload['data'];
	if (typeof text !== 'string' || text.trim() === '') {
		return [];
	}

	if (role === 'user') {
		return [{...base, kind: 'user', text, human: true}];
	}

	return role === 'assistant' ? [{...base, kind: 'assistant', text}] : [];
}

const delegationOpening = '<realtime_delegation>';

/**
 * `<realtime_delegation>` user text: the task a voice conversation handed Codex (codex-rs
 * core/src/context/realtime_delegation.rs, a contextual user fragment, not typed input). The voice
 * model phrased it from what was said, which the thread keeps as transcript segments: the task is
 * the voice agent's, its `<input>` (XML-escaped) the request. A `transcript_tail_flush` source
 * hands over the speech left when the voice session ended, no task at all. Undefined for other text.
 */
export function realtimeDelegationEvent(text: string, base: Base): SessionEvent | undefined {
	const trimmed = text.trimStart();
	if (!trimmed.toLowerCase().startsWith(delegationOpening)) {
		return undefined;
	}

	const input = /<input>([\s\S]*?)(?:<\/input>|$)/.exec(trimmed)?.[1]?.trim();
	if (/<source>\s*transcript_tail_flush\s*<\/source>/.test(trimmed) || !input) {
		return {...base, kind: 'user', text, human: false, origin: 'host'};
	}

	return {...base, kind: 'user', text: unescapeXml(input), human: false, origin: 'agent'};
}

function unescapeXml(text: string): string {
	return text.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
}
