import {dirname, join, sep} from 'node:path';
import type {DiscoveredUnit, Retirement} from '../types.js';

/**
 * A conversation is `brain/<id>/` (its transcript and Markdown artifacts) or a flat
 * `brain/<id>.jsonl`, plus the step database `<app>/conversations/<id>.db` among its paths.
 * The database lies beside `brain/`, so removals stay inside the app directory.
 */
export function antigravityRetirement(unit: DiscoveredUnit, brain: string, sessionId: string): Retirement {
	const directory = join(brain, sessionId);
	return {directories: unit.path.startsWith(directory + sep) ? [directory] : [], boundary: dirname(brain)};
}
