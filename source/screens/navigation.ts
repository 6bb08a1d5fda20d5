import type {Scope} from './keys.js';

/** The dashboard's screens, in the order of their tabs (and of the digit keys that open them). */
export type ScreenId = 'standup' | 'unfinished' | 'checkpoints' | 'project' | 'query' | 'pickup' | 'review' | 'retention';

export const screenOrder: readonly ScreenId[] = ['standup', 'unfinished', 'checkpoints', 'project', 'query', 'pickup', 'review', 'retention'];

export const screenTitles: Record<ScreenId, string> = {
	standup: 'Stand-up',
	unfinished: 'Unfinished',
	checkpoints: 'Checkpoints',
	project: 'Project',
	query: 'Query',
	pickup: 'Pickup',
	review: 'Review',
	retention: 'Retention',
};

/** The key scope of each screen (keys.ts): its own keys, shown first in its footer and its help. */
export const screenScopes: Record<ScreenId, Scope> = {
	standup: 'standup',
	unfinished: 'unfinished',
	checkpoints: 'checkpoints',
	project: 'project',
	query: 'query',
	pickup: 'pickup',
	review: 'review',
	retention: 'retention',
};
