import {basename, dirname, join, resolve} from 'node:path';
import type {AdapterContext, NativeResumeFacts} from '../types.js';
import {toolHome} from '../shared/fs.js';
import {resumeCommand} from '../shared/resume.js';
import {pointedAt} from '../shared/resume-home.js';

/** The directory a Copilot home keeps its sessions in (paths.ts). */
const sessionStateDirectory = 'session-state';

/**
 * `copilot --resume <id>` reads sessions from its home's `session-state` ($COPILOT_HOME, else
 * ~/.copilot: GitHub's CLI configuration directory reference, docs.github.com). A session the
 * catalog found under another home (a store named by --source-root) resumes with COPILOT_HOME set
 * to it, decided from the root with no file read. Here, not in the store every call loads: only
 * a resume asks.
 */
export function copilotResumeCommand(id: string, session?: NativeResumeFacts): string | null {
	return resumeCommand(`${copilotCommand(session)} --resume`, id);
}

function copilotCommand(session: NativeResumeFacts | undefined): string {
	const root = session?.root;
	if (root === undefined || session?.context === undefined || basename(root) !== sessionStateDirectory) {
		return 'copilot';
	}

	return pointedAt('copilot', 'COPILOT_HOME', dirname(root), plainHomes(session.context));
}

/**
 * The homes plain `copilot` reads: its own, and, with COPILOT_HOME unset, the XDG state home's
 * `.copilot` of earlier releases, which Copilot moves into its home when it starts (the same
 * reference: "previous XDG-based configuration locations are migrated to ~/.copilot at startup").
 */
function plainHomes(context: AdapterContext): string[] {
	const homes: string[] = [];
	const home = toolHome(context, 'COPILOT_HOME', '.copilot');
	if (home !== undefined) {
		homes.push(resolve(home));
	}

	// Unset, the XDG state home is its default, ~/.local/state (paths.ts).
	const state = toolHome(context, 'XDG_STATE_HOME', join('.local', 'state'));
	if (state && !context.env['COPILOT_HOME']?.trim()) {
		homes.push(resolve(join(state, '.copilot')));
	}

	return homes;
}

/** A store not named `session-state`: COPILOT_HOME moves only the home above it, so no copilot command finds it. */
export function copilotResumeUnavailable(root: string): string | undefined {
	return basename(root) === sessionStateDirectory ? undefined : 'Copilot CLI reads sessions only from the session-state directory of its home (COPILOT_HOME moves the home), and this store is no such directory; copy it into one to resume it there';
}
