import {join} from 'node:path';
import {isDirectory, toolHome} from '../shared/fs.js';
import type {AdapterContext} from '../types.js';

/** The two store directories under a Codex home: live rollouts and archived ones. */
const storeDirectories = ['sessions', 'archived_sessions'] as const;

/**
 * `$CODEX_HOME/sessions` and `$CODEX_HOME/archived_sessions`; CODEX_HOME defaults to `~/.codex`
 * on Linux and macOS alike.
 */
export function codexRoots(context: AdapterContext): string[] {
	const home = toolHome(context, 'CODEX_HOME', '.codex');
	return home ? storeDirectories.map(directory => join(home, directory)) : [];
}

/**
 * Accepts the Codex home (giving whichever of its store directories exist) or a store directory
 * itself (`sessions`, `archived_sessions`, or a date directory below `sessions`).
 */
export function resolveCodexRoot(path: string): string[] {
	const stores = storeDirectories.map(directory => join(path, directory)).filter(directory => isDirectory(directory));
	return stores.length > 0 ? stores : [path];
}
