import {join} from 'node:path';
import type {AdapterContext} from '../types.js';
import {rootOrChild} from '../shared/fs.js';

/**
 * `$CLAUDE_CONFIG_DIR/projects` when the variable is set (it replaces every default, as in Claude
 * Code itself); otherwise `~/.claude/projects` and `$XDG_CONFIG_HOME/claude/projects`
 * (`~/.config/claude/projects`), where releases from 1.0.30 on wrote, unannounced (readers of
 * the store such as ccusage look in both): one history can span the two. The same on macOS and
 * Linux. A dotfiles setup that links one to the other is read once (resolveTargets keeps one
 * root per real directory).
 */
export function claudeRoots(context: AdapterContext): string[] {
	const configured = context.env['CLAUDE_CONFIG_DIR']?.trim();
	if (configured) {
		return [join(configured, 'projects')];
	}

	if (!context.home) {
		return [];
	}

	const config = context.env['XDG_CONFIG_HOME']?.trim() || join(context.home, '.config');
	return [join(context.home, '.claude', 'projects'), join(config, 'claude', 'projects')];
}

/** Accepts `~/.claude` or `~/.claude/projects`. */
export function resolveClaudeRoot(path: string): string[] {
	return [rootOrChild(path, 'projects')];
}
