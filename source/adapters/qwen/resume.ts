import {basename, dirname, join} from 'node:path';
import type {AdapterContext, NativeResumeFacts} from '../types.js';
import {resumeCommand} from '../shared/resume.js';
import {pointedAt} from '../shared/resume-home.js';
import {configuredDirectory} from './paths.js';

/**
 * `qwen --resume <id>` opens a chat of the project it runs in, `<runtime>/projects/<project>/chats/<id>.jsonl`
 * (SessionService over Storage.getProjectDir), the runtime directory being $QWEN_RUNTIME_DIR,
 * else $QWEN_HOME, else ~/.qwen (paths.ts). resumeCommands runs it from the session's project; a
 * chat the catalog found under another runtime directory resumes with QWEN_RUNTIME_DIR set to it.
 * A subagent's transcript is no session of its own to resume. Decided from the session's path,
 * with no file read. Here, not in the store every call loads: only a resume asks.
 */
export function qwenResumeCommand(id: string, session?: NativeResumeFacts): string | null {
	if ((session?.parentId ?? null) !== null) {
		return null;
	}

	return resumeCommand(`${qwenCommand(session)} --resume`, id);
}

function qwenCommand(session: NativeResumeFacts | undefined): string {
	const path = session?.path;
	const runtime = path === undefined ? undefined : activeChatRuntime(path);
	if (runtime === undefined || session?.context === undefined) {
		return 'qwen';
	}

	const plain = plainRuntime(session.context);
	return pointedAt('qwen', 'QWEN_RUNTIME_DIR', runtime, plain);
}

/** The runtime directory Qwen Code reads chats from with no variable of ours (Storage.getRuntimeBaseDir). */
function plainRuntime(context: AdapterContext): string | undefined {
	return configuredDirectory(context.env['QWEN_RUNTIME_DIR'], context.home) ?? configuredDirectory(context.env['QWEN_HOME'], context.home) ?? (context.home ? join(context.home, '.qwen') : undefined);
}

/** The runtime directory of a chat at `<runtime>/projects/<project>/chats/<id>.jsonl`, else undefined. */
function activeChatRuntime(path: string): string | undefined {
	const chats = dirname(path);
	const projects = dirname(dirname(chats));
	return path.endsWith('.jsonl') && basename(chats) === 'chats' && basename(projects) === 'projects' ? dirname(projects) : undefined;
}

/**
 * Why `qwen --resume` cannot open a main chat: one in the project's archive (Qwen Code resumes
 * from `chats/`; archiving moves a chat to `chats/archive/` until unarchived), one of the releases
 * before the JSONL store (`tmp/<hash>/chats/session-*.json`, which the session service no longer
 * reads), or one kept where no runtime directory can reach (its store not named `projects`).
 */
export function qwenResumeUnavailable(_root: string, session?: NativeResumeFacts): string | undefined {
	const path = session?.path;
	if (path === undefined || (session?.parentId ?? null) !== null || activeChatRuntime(path) !== undefined) {
		return undefined;
	}

	if (basename(dirname(path)) === 'archive') {
		return 'an archived Qwen Code chat: qwen --resume opens the chats of a project, not its archive; unarchive it in Qwen Code first';
	}

	if (!path.endsWith('.jsonl')) {
		return 'a chat of a Qwen Code release before the JSONL store (~/.qwen/tmp), which current Qwen Code does not resume';
	}

	return 'Qwen Code reads chats only from the projects directory of its runtime directory (QWEN_RUNTIME_DIR moves it), and this store is in none; copy it into one to resume it there';
}
