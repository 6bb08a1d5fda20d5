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
