import {basename, dirname} from 'node:path';
import type {NativeResumeFacts} from '../types.js';
import {toolHome} from '../shared/fs.js';
import {resumeCommand} from '../shared/resume.js';
import {pointedAt} from '../shared/resume-home.js';
import {chatHistoryFile} from './discover.js';

/** The directory a Grok home keeps its sessions in (paths.ts). */
const sessionsDirectory = 'sessions';

/**
 * `grok --resume <session-id>` reopens a session of the Grok home's `sessions` directory
 * ($GROK_HOME, else ~/.grok), keyed by working directory (resumeCommands runs it from the
 * session's project). A session the catalog found under another home (a store named by
 * --source-root) resumes with GROK_HOME set to it, decided from the root with no file read.
 * Here, not in the store every call loads: only a resume asks.
 */
export function grokResumeCommand(id: string, session?: NativeResumeFacts): string | null {
	return resumeCommand(`${grokCommand(session)} --resume`, id);
}

function grokCommand(session: NativeResumeFacts | undefined): string {
	const root = session?.root;
	if (root === undefined || session?.context === undefined || basename(root) !== sessionsDirectory) {
		return 'grok';
	}

	const home = dirname(root);
	const plain = toolHome(session.context, 'GROK_HOME', '.grok');
	return pointedAt('grok', 'GROK_HOME', home, plain);
}

/**
 * Why `grok --resume` cannot reopen a session: Grok replays a session from its `updates.jsonl`,
 * so one kept only as `chat_history.jsonl` is not among those it resumes; and GROK_HOME moves
 * only the home above a store named `sessions`.
 */
export function grokResumeUnavailable(root: string, session?: NativeResumeFacts): string | undefined {
	if (session?.path !== undefined && basename(session.path) === chatHistoryFile) {
		return 'a Grok session with no updates.jsonl, the log grok --resume replays a session from; Grok cannot reopen it';
	}

	return basename(root) === sessionsDirectory ? undefined : 'Grok reads sessions only from the sessions directory of its home (GROK_HOME moves the home), and this store is no such directory; copy it into one to resume it there';
}
