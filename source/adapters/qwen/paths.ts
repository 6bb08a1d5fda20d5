import {join} from 'node:path';
import {rootOrChild} from '../shared/fs.js';
import type {AdapterContext} from '../types.js';

/**
 * Qwen Code keeps chats under `~/.qwen/projects`, the same on Linux and macOS. `QWEN_HOME`
 * replaces `~/.qwen` (`Storage.getGlobalQwenDir`), but releases before 0.22 ignore it and still
 * write to `~/.qwen`, so with `QWEN_HOME` set both stores are listed (missing roots are skipped).
 */
export function qwenRoots(context: AdapterContext): string[] {
	const roots: string[] = [];
	const configured = context.env['QWEN_HOME']?.trim();
	if (configured && !configured.startsWith('~')) {
		roots.push(join(configured, 'projects'));
	} else if (configured && context.home) {
		roots.push(join(context.home, configured.slice(1), 'projects'));
	}

	const standard = context.home ? join(context.home, '.qwen', 'projects') : undefined;
	if (standard && !roots.includes(standard)) {
		roots.push(standard);
	}

	return roots;
}

/** Accepts `~/.qwen` or `~/.qwen/projects` (or one `projects/<dir>`, which holds `chats/`). */
export function resolveQwenRoot(path: string): string[] {
	return [rootOrChild(path, 'projects')];
}
