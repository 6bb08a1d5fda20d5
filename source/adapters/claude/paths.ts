import {join} from 'node:path';
import type {AdapterContext} from '../types.js';
import {rootOrChild} from '../shared/fs.js';

/** `$CLAUDE_CONFIG_DIR/projects`, else `~/.claude/projects` (the same on macOS and Linux). */
export function claudeRoots(context: AdapterContext): string[] {
	const configured = context.env['CLAUDE_CONFIG_DIR']?.trim();
	if (configured) {
		return [join(configured, 'projects')];
	}

	return context.home ? [join(context.home, '.claude', 'projects')] : [];
}

/** Accepts `~/.claude` or `~/.claude/projects`. */
export function resolveClaudeRoot(path: string): string[] {
	return [rootOrChild(path, 'projects')];
}
