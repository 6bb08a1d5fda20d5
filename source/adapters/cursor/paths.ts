import {join} from 'node:path';
import {rootOrChild, toolHome} from '../shared/fs.js';
import type {AdapterContext} from '../types.js';

/** `~/.cursor/projects` (the same on macOS and Linux; Cursor has no override for it). */
export function cursorRoots(context: AdapterContext): string[] {
	const home = toolHome(context, undefined, '.cursor');
	return home ? [join(home, 'projects')] : [];
}

/** Accepts `~/.cursor` or `~/.cursor/projects`. */
export function resolveCursorRoot(path: string): string[] {
	return [rootOrChild(path, 'projects')];
}
