import {basename, join} from 'node:path';
import {isDirectory, toolHome} from '../shared/fs.js';
import type {AdapterContext} from '../types.js';

/** The `agy` CLI, the first release and the IDE each keep a `brain` under their own directory. */
export const appDirectories = ['antigravity-cli', 'antigravity', 'antigravity-ide'];

/**
 * `~/.gemini/<app>/brain` for each Antigravity app (the same on Linux and macOS). The `agy` CLI
 * keeps its whole home under `$ANTIGRAVITY_CLI_HOME` when that is set; the other apps have no
 * such setting.
 */
export function antigravityRoots(context: AdapterContext): string[] {
	const cli = toolHome({env: context.env, home: context.home}, 'ANTIGRAVITY_CLI_HOME', join('.gemini', 'antigravity-cli'));
	const others = context.home ? appDirectories.slice(1).map(app => join(context.home!, '.gemini', app, 'brain')) : [];
	return [...(cli ? [join(cli, 'brain')] : []), ...others];
}

/** Accepts `~/.gemini`, one of its Antigravity app directories, or a `brain` directory. */
export function resolveAntigravityRoot(path: string): string[] {
	if (basename(path) === 'brain') {
		return [path];
	}

	if (isDirectory(join(path, 'brain'))) {
		return [join(path, 'brain')];
	}

	const brains = appDirectories.map(app => join(path, app, 'brain')).filter(isDirectory);
	return brains.length > 0 ? brains : [path];
}
