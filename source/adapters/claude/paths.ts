import {join} from 'node:path';
import type {AdapterContext} from '../types.js';
import {rootOrChild, toolHome} from '../shared/fs.js';

/** `$CLAUDE_CONFIG_DIR/projects`, else `~/.claude/projects` (the same on macOS and Linux). */
export function claudeRoots(context: AdapterContext): string[] {
	const home = toolHome(context, 'CLAUDE_CONFIG_DIR', '.claude');
	return home ? [join(home, 'projects')] : [];
}

/** Accepts `~/.claude` or `~/.claude/projects`. */
export function resolveClaudeRoot(path: string): string[] {
	return [rootOrChild(path, 'projects')];
}
