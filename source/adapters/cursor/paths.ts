import {join} from 'node:path';
import {rootOrChild, toolHome} from '../shared/fs.js';
import type {AdapterContext} from '../types.js';

/**
 * `~/.cursor/projects` (the same on macOS and Linux). `CURSOR_CONFIG_DIR`, the CLI's documented
 * override of its config directory, moves the whole `~/.cursor`, transcripts and chats included.
 */
export function cursorRoots(context: AdapterContext): string[] {
	const home = toolHome(context, 'CURSOR_CONFIG_DIR', '.cursor');
	return home ? [join(home, 'projects')] : [];
}

/** Accepts `~/.cursor` or `~/.cursor/projects`. */
export function resolveCursorRoot(path: string): string[] {
	return [rootOrChild(path, 'projects')];
}
