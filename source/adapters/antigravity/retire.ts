import {dirname, join, sep} from 'node:path';
import type {DiscoveredUnit, Retirement} from '../types.js';

/**
 * A conversation is `brain/<id>/` (its transcript and Markdown artifacts) or a flat
 * `brain/<id>.jsonl`, plus the step database `<app>/conversations/<id>.db` among its paths.
 * The database lies beside `brain/`, so removals stay inside the app directory; a conversation
 * read from the database alone (step-db.ts) takes its brain directory along when it has one.
 */
export function antigravityRetirement(unit: DiscoveredUnit, brain: string, sessionId: string): Retirement {
	const directory = join(brain, sessionId);
	// A conversation read from its step database may still have a brain directory (an empty transcript in it).
	const owned = unit.paths.some(path => path.startsWith(directory + sep));
	return {directories: owned ? [directory] : [], boundary: dirname(brain)};
}
