import {join} from 'node:path';
import {rootOrChild, toolHome} from '../shared/fs.js';
import type {AdapterContext} from '../types.js';

/** `$COPILOT_HOME/session-state`, else `~/.copilot/session-state` (Linux and macOS alike). */
export function copilotRoots(context: AdapterContext): string[] {
	const home = toolHome(context, 'COPILOT_HOME', '.copilot');
	return home ? [join(home, 'session-state')] : [];
}

/** Accepts `~/.copilot` or `~/.copilot/session-state`. */
export function resolveCopilotRoot(path: string): string[] {
	return [rootOrChild(path, 'session-state')];
}
