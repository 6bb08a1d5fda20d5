import {join} from 'node:path';
import {electronAppData} from '../shared/app-data.js';
import {rootOrChild, toolHome} from '../shared/fs.js';
import type {AdapterContext} from '../types.js';

/**
 * The editor's `User` directory where this machine keeps it, by the Cursor home of the default
 * root it was worked out for. The editor is an Electron app: its data sits under Electron's
 * appData (`%APPDATA%` on Windows, `$XDG_CONFIG_HOME` or `~/.config` on Linux), which need not be
 * beside `~/.cursor` (a redirected roaming profile, a moved config home, a CURSOR_CONFIG_DIR
 * elsewhere). Discovery is given a root only, and the machine's environment is known only where
 * the default roots are made: it is noted here then. A --source-root (another home) has none.
 */
const editorUserDirectories = new Map<string, string>();

/** The editor `User` directory the machine's environment places beside this Cursor home's default root, if any. */
export function editorUserDirectoryOf(cursorHome: string): string | undefined {
	return editorUserDirectories.get(cursorHome);
}

/**
 * `~/.cursor/projects` (the same on macOS and Linux). `CURSOR_CONFIG_DIR`, the CLI's documented
 * override of its config directory, moves the whole `~/.cursor`, transcripts and chats included.
 */
export function cursorRoots(context: AdapterContext): string[] {
	const home = toolHome(context, 'CURSOR_CONFIG_DIR', '.cursor');
	if (!home) {
		return [];
	}

	const appData = electronAppData(context);
	if (appData) {
		editorUserDirectories.set(home, join(appData, 'Cursor', 'User'));
	}

	return [join(home, 'projects')];
}

/** Accepts `~/.cursor` or `~/.cursor/projects`. */
export function resolveCursorRoot(path: string): string[] {
	return [rootOrChild(path, 'projects')];
}
