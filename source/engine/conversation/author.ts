import type {SessionEvent} from '../../adapters/events.js';

export type Author = 'human' | 'agent' | 'host';

/**
 * Who wrote a `user` event's text: a person, an agent (a subagent's task, another agent's
 * message), or the host tool (its context, a command's envelope, a notice). Where the store does
 * not say, a subagent's (sidechain) text is its parent agent's and any other is the host's.
 */
export function authorOf(event: SessionEvent): Author {
	if (event.human === true) {
		return 'human';
	}

	return event.origin ?? (event.sidechain ? 'agent' : 'host');
}
