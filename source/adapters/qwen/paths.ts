import {join} from 'node:path';
import {isDirectory, rootOrChild} from '../shared/fs.js';
import type {AdapterContext} from '../types.js';

/**
 * Qwen Code keeps chats under `<runtime dir>/projects`, the same on Linux and macOS. The runtime
 * dir is `QWEN_RUNTIME_DIR` when set (`Storage.getRuntimeBaseDir`), else `QWEN_HOME`, else
 * `~/.qwen` (`Storage.getGlobalQwenDir`). Releases before 0.22 ignore `QWEN_HOME`, and a run
 * without the variables writes to the default, so every store a variable names is listed before
 * `~/.qwen/projects` (missing roots are skipped). Releases before the JSONL store kept chats in
 * `~/.qwen/tmp` (read by Qwen Code's VS Code companion to this day), listed last.
 */
export function qwenRoots(context: AdapterContext): string[] {
	const roots: string[] = [];
	for (const name of ['QWEN_RUNTIME_DIR', 'QWEN_HOME']) {
		const directory = configuredDirectory(context.env[name], context.home);
		if (directory && !roots.includes(join(directory, 'projects'))) {
			roots.push(join(directory, 'projects'));
		}
	}

	const standard = context.home ? join(context.home, '.qwen', 'projects') : undefined;
	if (standard && !roots.includes(standard)) {
		roots.push(standard);
	}

	if (context.home) {
		roots.push(join(context.home, '.qwen', 'tmp'));
	}

	return roots;
}

/** The directory a variable names, `~` standing for the home directory (`Storage.resolvePath`). */
export function configuredDirectory(value: string | undefined, home: string | undefined): string | undefined {
	const configured = value?.trim();
	if (!configured) {
		return undefined;
	}

	if (configured.startsWith('~')) {
		return home ? join(home, configured.slice(1)) : undefined;
	}

	return configured;
}

/**
 * Accepts `~/.qwen` (its `projects` and legacy `tmp` stores), `~/.qwen/projects` or
 * `~/.qwen/tmp` (or one project directory under either, which holds `chats/`).
 */
export function resolveQwenRoot(path: string): string[] {
	const legacy = join(path, 'tmp');
	return isDirectory(legacy) ? [rootOrChild(path, 'projects'), legacy] : [rootOrChild(path, 'projects')];
}
