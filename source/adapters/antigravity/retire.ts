import {dirname, join, relative, sep} from 'node:path';
import type {DiscoveredUnit, Retirement} from '../types.js';

/**
 * A conversation is `brain/<id>/` (its transcript and Markdown artifacts) or a flat
 * `brain/<id>.jsonl`, plus the step database `<app>/conversations/<id>.db` among its paths.
 * The database lies beside `brain/`, so removals stay inside the app directory.
 */
export function antigravityRetirement(unit: DiscoveredUnit, brain: string, sessionId: string): Retirement {
	const directory = join(brain, sessionId);
	const inside = relative(directory, unit.path);
	const owned = inside !== '' && !inside.startsWith('..') && !inside.startsWith(sep);
	return {directories: owned ? [directory] : [], boundary: dirname(brain)};
}
