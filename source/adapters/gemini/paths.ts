import {join} from 'node:path';
import {rootOrChild} from '../shared/fs.js';
import type {AdapterContext} from '../types.js';

/**
 * Gemini CLI keeps chats under `<home>/.gemini/tmp`, the same on Linux and macOS.
 * `GEMINI_CLI_HOME` replaces the home directory itself (gemini-cli's `homedir()`), so its
 * store is `$GEMINI_CLI_HOME/.gemini/tmp`, not `$GEMINI_CLI_HOME/tmp`.
 */
export function geminiRoots(context: AdapterContext): string[] {
	const configured = context.env['GEMINI_CLI_HOME']?.trim();
	if (configured) {
		return [join(configured, '.gemini', 'tmp')];
	}

	return context.home ? [join(context.home, '.gemini', 'tmp')] : [];
}

/**
 * Accepts `~/.gemini` or `~/.gemini/tmp`; a single project directory (`~/.gemini/tmp/<project>`)
 * also works, because discovery recognises a root that itself holds `chats/`.
 */
export function resolveGeminiRoot(path: string): string[] {
	return [rootOrChild(path, 'tmp')];
}
