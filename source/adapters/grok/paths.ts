import {join} from 'node:path';
import {rootOrChild, toolHome} from '../shared/fs.js';
import type {AdapterContext} from '../types.js';

/** `$GROK_HOME/sessions`, else `~/.grok/sessions` (the same on macOS and Linux). */
export function grokRoots(context: AdapterContext): string[] {
	const home = toolHome(context, 'GROK_HOME', '.grok');
	return home ? [join(home, 'sessions')] : [];
}

/** Accepts `~/.grok` or `~/.grok/sessions`. */
export function resolveGrokRoot(path: string): string[] {
	return [rootOrChild(path, 'sessions')];
}
