import {basename, dirname, join} from 'node:path';
import {rootOrChild, toolHome} from '../shared/fs.js';
import type {AdapterContext} from '../types.js';
import {sessionStoreName} from './session-store.js';

/**
 * `$COPILOT_HOME/session-state`, else `~/.copilot/session-state` (Linux and macOS alike). Earlier
 * releases kept sessions in the XDG state home's `.copilot/session-state` (VS Code's Copilot
 * extension still looks there); current ones move that directory into the Copilot home on start
 * and leave a link behind, which resolveTargets reads once.
 */
export function copilotRoots(context: AdapterContext): string[] {
	const home = toolHome(context, 'COPILOT_HOME', '.copilot');
	const roots = home ? [join(home, 'session-state')] : [];
	// Unset or blank, the XDG state home is its default, ~/.local/state: most machines' old store.
	const state = toolHome(context, 'XDG_STATE_HOME', join('.local', 'state'));
	if (state) {
		roots.push(join(state, '.copilot', 'session-state'));
	}

	return roots;
}

/**
 * Accepts `~/.copilot` or `~/.copilot/session-state`, or `~/.copilot/session-store.db`: the
 * sessions the store alone keeps are read with their folders beside it (session-store.ts).
 */
export function resolveCopilotRoot(path: string): string[] {
	return [basename(path) === sessionStoreName ? join(dirname(path), 'session-state') : rootOrChild(path, 'session-state')];
}
