import {basename, dirname} from 'node:path';
import type {NativeResumeFacts} from '../types.js';
import {resumeCommand} from '../shared/resume.js';
import {pointedAt} from '../shared/resume-home.js';

/**
 * `gemini --resume <uuid>` looks only in the chats of the project it runs in,
 * `<home>/.gemini/tmp/<project>/chats` (sessionUtils SessionSelector.findSession over
 * Storage.getProjectTempDir), where `<home>` is $GEMINI_CLI_HOME, else the user's home
 * (core utils/paths.ts homedir). resumeCommands runs it from the session's project; a chat
 * the catalog found under another home resumes with GEMINI_CLI_HOME set to that home, decided
 * from the root with no file read. Here, not in the store every call loads: only a resume asks.
 */
export function geminiResumeCommand(id: string, session?: NativeResumeFacts): string | null {
	// A chat named by its file (discover.ts laterChats) has no id of its own to resume by, and a
	// subagent's chat is one Gemini CLI leaves out of the sessions it resumes (kind "subagent").
	if (id.startsWith('session-') || (session?.parentId ?? null) !== null) {
		return null;
	}

	return resumeCommand(`${geminiCommand(session)} --resume`, id);
}

function geminiCommand(session: NativeResumeFacts | undefined): string {
	const root = session?.root;
	const home = root === undefined ? undefined : geminiHomeOf(root);
	if (home === undefined || session?.context === undefined) {
		return 'gemini';
	}

	const plain = session.context.env['GEMINI_CLI_HOME']?.trim() || session.context.home;
	return pointedAt('gemini', 'GEMINI_CLI_HOME', home, plain);
}

/**
 * The home whose `.gemini/tmp` holds a store root: the root is that `tmp`, or one project's
 * directory in it (resolveGeminiRoot accepts both); undefined for a root anywhere else.
 */
function geminiHomeOf(root: string): string | undefined {
	for (const tmp of [root, dirname(root)]) {
		if (basename(tmp) === 'tmp' && basename(dirname(tmp)) === '.gemini') {
			return dirname(dirname(tmp));
		}
	}

	return undefined;
}

/** A store outside any `.gemini/tmp`: GEMINI_CLI_HOME moves only the home above `.gemini`, so no gemini command finds it. */
export function geminiResumeUnavailable(root: string): string | undefined {
	return geminiHomeOf(root) === undefined ? 'Gemini CLI reads chats only from a .gemini/tmp directory under its home (GEMINI_CLI_HOME moves the home), and this store is in none; copy it into one to resume it there' : undefined;
}
