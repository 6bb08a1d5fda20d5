import {basename, dirname, join, resolve} from 'node:path';
import type {AdapterContext, NativeResumeFacts} from '../types.js';
import {resumeCommand} from '../shared/resume.js';
import {pointedAt} from '../shared/resume-home.js';
import {coworkDirectory} from './discover.js';

/**
 * The command that resumes a Claude Code session kept under the root the catalog found it in,
 * decided from that root with no file read. `claude --resume` looks only in its config
 * directory's `projects` ($CLAUDE_CONFIG_DIR, else ~/.claude; ~/.config/claude is taken as its
 * own too, as releases wrote there). A cc-mirror variant's sessions, where its config directory
 * is where cc-mirror makes it (`~/.cc-mirror/<name>/config`), resume through the variant's own
 * command, the wrapper cc-mirror puts on the PATH under the variant's name: it sets the
 * directory, the provider's environment and the variant's Claude Code. A session in any other
 * directory (a variant's configDir elsewhere, a store named by --source-root) resumes with
 * CLAUDE_CONFIG_DIR set to it. Here, not in the store every call loads: only a resume asks.
 */
export function claudeResumeCommand(id: string, session?: NativeResumeFacts): string | null {
	return id.startsWith('agent-') ? null : resumeCommand(`${claudeCommand(session)} --resume`, id);
}

function claudeCommand(session: NativeResumeFacts | undefined): string {
	const root = session?.root;
	if (root === undefined || session?.context === undefined || basename(root) !== 'projects') {
		return 'claude';
	}

	const variant = ccMirrorVariant.exec(root)?.[1];
	if (variant !== undefined) {
		return variant;
	}

	const directory = dirname(root);
	return pointedAt('claude', 'CLAUDE_CONFIG_DIR', directory, plainConfigDirectories(session.context));
}

/** `~/.cc-mirror/<name>/config/projects`, the name as cc-mirror allows it (its src/core/paths.ts). */
const ccMirrorVariant = /[\\/]\.cc-mirror[\\/]([A-Za-z0-9_][A-Za-z0-9._-]*)[\\/]config[\\/]projects$/;

/** The config directories plain `claude` reads sessions from (paths.ts claudeRoots, less the variants and Cowork). */
function plainConfigDirectories(context: AdapterContext): string[] {
	const configured = context.env['CLAUDE_CONFIG_DIR']?.trim();
	if (configured) {
		return [resolve(configured)];
	}

	if (!context.home) {
		return [];
	}

	const config = context.env['XDG_CONFIG_HOME']?.trim() || join(context.home, '.config');
	return [resolve(context.home, '.claude'), resolve(config, 'claude')];
}

/**
 * A Cowork task's Claude Code ran in Claude Desktop's sandbox (a VM), from a home under
 * /sessions that is no directory of this machine, with the config directory the app gives it:
 * no command run in a terminal resumes it.
 */
export function coworkResumeUnavailable(root: string): string | undefined {
	return basename(root) === coworkDirectory ? 'a Claude Desktop Cowork task: it ran in the app\'s sandbox, so no terminal command resumes it; continue it in Claude Desktop' : undefined;
}
