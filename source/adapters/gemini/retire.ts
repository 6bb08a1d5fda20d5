import {basename, dirname, join} from 'node:path';
import {isDirectory, listDirectory} from '../shared/fs.js';
import type {DiscoveredUnit, Retirement} from '../types.js';

/**
 * What Gemini CLI deletes with a session (packages/core/src/utils/sessionOperations.ts): beside
 * its chat, `chats/<id>/` of its subagents' chats; in the project directory, `<id>/` and the full
 * outputs of tool results the transcripts masked (`tool-outputs/session-<id>/`, the subagents'
 * too). Each is the session's alone; an id naming one of the project's own directories owns none.
 */
export function geminiRetirement(unit: DiscoveredUnit, root: string, id: string): Retirement {
	const chats = basename(dirname(unit.path)) === 'chats' ? dirname(unit.path) : dirname(dirname(unit.path));
	const owned = ['chats', 'tool-outputs', 'logs'].includes(id) ? [] : [join(chats, id), join(dirname(chats), id)];
	const ids = [id, ...listDirectory(join(chats, id)).map(entry => entry.name.replace(/\.jsonl?$/, ''))];
	owned.push(...(owned.length === 0 ? [] : ids.map(each => join(dirname(chats), 'tool-outputs', `session-${each}`))));
	return {directories: owned.filter(directory => isDirectory(directory)), boundary: root};
}
