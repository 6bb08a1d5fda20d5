import {kbPaths, type KbPaths} from '../engine/kb/paths.js';
import {resolveRoot} from '../engine/kb/root.js';
import type {CommandContext} from '../cli/define.js';

/** The knowledge base a command works on, from --root, ENGI_ROOT or the registered root. */
export function knowledgeBase(context: CommandContext): KbPaths {
	return kbPaths(resolveRoot(context.rootFlag, context.deps).root);
}

export const pagingOptions = {
	limit: {type: 'string', placeholder: '<n>', description: 'rows per page'},
	offset: {type: 'string', placeholder: '<n>', description: 'rows to skip (see next_offset)'},
} as const;

/** Flags that choose which agent stores a command reads, shared by sessions, read and continuity. */
export const sourceOptions = {
	source: {type: 'string', placeholder: '<tool>', description: 'one store: claude, codex, opencode, gemini, qwen, grok, copilot, cursor, vscode, antigravity (default: all)'},
	'source-root': {type: 'string', placeholder: '<dir>', description: 'read this store directory instead of the default (needs --source)'},
} as const;

export const scopeOptions = {
	...sourceOptions,
	since: {type: 'string', placeholder: '<when>', description: 'only sessions active since: 3d, 48h, 2w, today, yesterday, YYYY-MM-DD or RFC3339'},
	project: {type: 'string', placeholder: '<dir>', description: 'sessions of this project (default: the working directory\'s git project)'},
	'all-projects': {type: 'boolean', description: 'sessions of every project'},
} as const;
