import {isAbsolute, resolve} from 'node:path';
import type {Deps} from '../deps.js';
import {EngiError} from '../../lib/errors.js';
import {readGlobalConfig} from './config.js';

export type RootSource = 'flag' | 'env' | 'config';

export type ResolvedRoot = {
	readonly root: string;
	readonly via: RootSource;
};

/**
 * Finds the knowledge base: `--root`, then an absolute `ENGI_ROOT`, then `root` in the global
 * config. It never falls back to the working directory; nothing is created here.
 */
export function resolveRoot(flagRoot: string | undefined, deps: Deps): ResolvedRoot {
	if (flagRoot !== undefined && flagRoot.trim() !== '') {
		// An explicit --root is the user's own choice of path, so a relative one is taken as typed.
		return {root: resolve(deps.cwd, flagRoot.trim()), via: 'flag'};
	}

	const fromEnv = deps.env['ENGI_ROOT']?.trim();
	if (fromEnv) {
		if (!isAbsolute(fromEnv)) {
			throw new EngiError('engi_root_relative', `ENGI_ROOT must be an absolute path: ${fromEnv}`, {
				hint: 'set ENGI_ROOT to an absolute path, or pass --root',
			});
		}

		return {root: resolve(fromEnv), via: 'env'};
	}

	const {path, config} = readGlobalConfig(deps);
	const configured = config?.root?.trim();
	if (configured) {
		if (!isAbsolute(configured)) {
			throw new EngiError('config_root_relative', `root in ${path} must be an absolute path: ${configured}`, {
				hint: 'register it again: engi config set --global root <absolute path>',
			});
		}

		return {root: resolve(configured), via: 'config'};
	}

	throw new EngiError('root_not_configured', 'knowledge base root is not configured', {
		hint: 'pass --root <dir>, set ENGI_ROOT, or create and register one with engi init <absolute path>',
	});
}
