import {basename, dirname, join} from 'node:path';
import {isDirectory, isFile, listDirectory, readSmallFile} from '../shared/fs.js';
import type {DiscoveredUnit, Retirement} from '../types.js';

/**
 * What Gemini CLI deletes with a session (packages/core/src/utils/sessionOperations.ts): beside
 * its chat, `chats/<id>/` of its subagents' chats; in the project directory, `<id>/`, the full
 * outputs of tool results the transcripts masked (`tool-outputs/session-<id>/`) and the activity
 * log (`logs/session-<id>.jsonl`), the subagents' too. Each is the session's alone; an id naming
 * one of the project's own directories owns none.
 */
export function geminiRetirement(unit: DiscoveredUnit, root: string, id: string): Retirement {
	const chats = basename(dirname(unit.path)) === 'chats' ? dirname(unit.path) : dirname(dirname(unit.path));
	const project = dirname(chats);
	const ids = ['chats', 'tool-outputs', 'logs'].includes(id) ? [] : [id, ...listDirectory(join(chats, id)).map(entry => entry.name.replace(/\.jsonl?$/, ''))];
	const directories = ids.length === 0 ? [] : [join(chats, id), join(project, id), ...ids.map(each => join(project, 'tool-outputs', `session-${each}`))];
	const files = ids.map(each => join(project, 'logs', `session-${each}.jsonl`)).filter((log, index) => isFile(log) && (index > 0 || !sharesItsId(unit, chats)));
	return {directories: directories.filter(isDirectory), files, boundary: root};
}

/**
 * True when another chat in `chats/` is recorded under this main chat's id (an older process's
 * chat after /clear): the log of that id holds both chats' activity, so it stays. The file
 * holding only a header that `gemini --resume` opens under the id is no other chat.
 */
function sharesItsId(unit: DiscoveredUnit, chats: string): boolean {
	const suffix = basename(unit.path).replace(/.*(-\w+\.json).*/, '$1');
	return dirname(unit.path) === chats && listDirectory(chats).some(({name}) => name.includes(suffix) && !unit.paths.includes(join(chats, name)) && !headerOnly(join(chats, name)));
}

/** A `.jsonl` chat holding nothing but its metadata line. */
const headerOnly = (path: string) => path.endsWith('.jsonl') && readSmallFile(path)?.trim().includes('\n') === false;
