import {sha256Hex} from '../../lib/hash.js';
import type {CodexState} from './state.js';

/**
 * Codex writes each prompt and each reply on two channels: a `response_item` message (what the
 * model saw) and an `event_msg` (`user_message`, `agent_message`: what the UI showed), in either
 * order. Some rollouts hold only the event channel (VS Code's Codex, archived sessions, builds
 * that persist no messages as response items), others only the item channel. Whichever copy
 * comes first gives the event; the other copy, when it follows, is an echo and gives nothing.
 *
 * A copy waits for its echo only within its own exchange: a prompt's copies both come before
 * the model answers, a reply's both before the next prompt. That keeps a prompt typed twice in
 * two turns ("continue", "continue") from being taken for an echo.
 */
export type Channel = 'item' | 'event';
export type Role = 'user' | 'assistant';

/** How many unmatched copies of one role a channel remembers (parallel replies, split prompts). */
const remembered = 8;

/**
 * Texts are compared without the white space the two channels spell differently, by a digest:
 * the state is kept in the catalog between scans, where transcript text is never stored unmasked.
 */
function comparable(text: string): string {
	const spaced = text.replaceAll(/\s+/g, ' ').trim();
	return spaced === '' ? '' : sha256Hex(spaced).slice(0, 32);
}

/** True when this copy is the first of its text; false when it echoes a copy on the other channel. */
export function isFirstCopy(state: CodexState, role: Role, channel: Channel, text: string): boolean {
	const key = comparable(text);
	if (key === '') {
		return true;
	}

	const echoes = (state.echoes ??= {});
	const waiting = (echoes[role] ??= {item: [], event: []});
	const other = channel === 'item' ? 'event' : 'item';
	const index = waiting[other].indexOf(key);
	if (index !== -1) {
		waiting[other].splice(index, 1);
		return false;
	}

	waiting[channel] = [...waiting[channel], key].slice(-remembered);
	// A new prompt ends the replies' exchange; a reply (or tool call) ends the prompt's.
	delete echoes[role === 'user' ? 'assistant' : 'user'];
	return true;
}

/** The model acted (a tool call): copies of the prompt before it will not be echoed any more. */
export function endPromptExchange(state: CodexState): void {
	if (state.echoes) {
		delete state.echoes.user;
	}
}
