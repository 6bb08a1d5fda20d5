import {basename, dirname, join} from 'node:path';
import type {SessionInfo} from '../events.js';
import {readSmallFile} from '../shared/fs.js';
import {isRecord} from '../shared/text.js';
import type {DiscoveredUnit} from '../types.js';
import {parseBoundedJson} from '../../lib/json-depth.js';

/** `…/local_<id>/.claude/projects/<project>/…`: a transcript of a Claude Desktop Cowork task (discover.ts). */
const coworkTask = /^(.*[\\/]local_[^\\/]+)[\\/]\.claude[\\/]projects[\\/]/;

/** Whether a transcript is a Cowork task's: only those have a state file to read (and line state to keep of it). */
export function isCoworkTranscript(path: string): boolean {
	return coworkTask.test(path);
}

/**
 * What Claude Desktop's record of a Cowork task says about the session its transcripts hold. The
 * task runs in a sandbox whose home is `/sessions/<name>`, the cwd its records state; the folder
 * the person chose to work in is only in the task's state file beside its directory,
 * `local_<id>.json`: `userSelectedFolders` (the first is the one the task opened on), with the
 * task's `title` as the app shows it and `cliSessionId`, the Claude Code session it ran. Nothing
 * for a transcript outside a Cowork tree, or one of another session than the state file's; its
 * subagents' files (named by the session as their parent) share its folder.
 */
export function coworkFacts(unit: DiscoveredUnit): SessionInfo | undefined {
	const task = coworkTask.exec(unit.path)?.[1];
	const text = task === undefined ? undefined : readSmallFile(join(dirname(task), `${basename(task)}.json`));
	const state = text === undefined ? undefined : parsed(text);
	const session = state?.['cliSessionId'];
	if (!state || typeof session !== 'string' || (session !== unit.idHint && session !== unit.parentIdHint)) {
		return undefined;
	}

	const folders = state['userSelectedFolders'];
	const folder = Array.isArray(folders) ? folders[0] : undefined;
	const title = state['title'];
	const facts: SessionInfo = {};
	// A folder on this machine or the one the app ran on: an absolute path, POSIX or Windows.
	if (typeof folder === 'string' && /^(?:\/|[A-Za-z]:[\\/])/.test(folder)) {
		facts.cwd = folder;
	}

	// The task's title names its session; a subagent's is the task its parent gave it.
	if (typeof title === 'string' && title.trim() !== '' && session === unit.idHint) {
		facts.title = title.trim();
	}

	return Object.keys(facts).length === 0 ? undefined : facts;
}

function parsed(text: string): Record<string, unknown> | undefined {
	try {
		const value = parseBoundedJson(text);
		return isRecord(value) ? value : undefined;
	} catch {
		return undefined; // A state file the app was writing: the transcript's own facts stand.
	}
}
