import {basename, dirname, join} from 'node:path';
import type {DiscoveredUnit, Retirement} from '../types.js';
import {isDirectory} from './fs.js';

/**
 * A session whose tool keeps a directory named by its id beside its transcript (Claude's
 * `<id>/` of subagents and workflows): that directory is the session's alone, and goes with it.
 */
export function besideTranscript(unit: DiscoveredUnit, root: string, sessionId: string): Retirement {
	const directory = join(dirname(unit.path), sessionId);
	return {directories: isDirectory(directory) ? [directory] : [], boundary: root};
}

/** A session that is a directory of its own (`<id>/events.jsonl`, `<id>/chat_history.jsonl`): the directory goes with it. */
export function sessionDirectory(unit: DiscoveredUnit, root: string, sessionId: string): Retirement {
	const directory = dirname(unit.path);
	return {directories: basename(directory) === sessionId && directory !== root ? [directory] : [], boundary: root};
}
