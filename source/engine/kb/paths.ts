import {isAbsolute, join} from 'node:path';
import type {Deps} from '../deps.js';
import {EngiError} from '../../lib/errors.js';

/**
 * Where engi keeps its own files outside a knowledge base. HOME and the XDG variables must be
 * absolute when used: a relative one would make engi read or write somewhere that depends on
 * the working directory, which is exactly what it promises never to do.
 */
export function homeDirectory(deps: Deps): string {
	const home = deps.env['HOME']?.trim();
	if (!home) {
		throw new EngiError('home_unset', 'HOME is not set, so engi cannot find its configuration or the agents\' stores', {
			hint: 'set HOME, or pass explicit paths (--root, --source-root)',
		});
	}

	if (!isAbsolute(home)) {
		throw new EngiError('home_relative', `HOME must be an absolute path: ${home}`, {hint: 'set HOME to an absolute directory'});
	}

	return home;
}

function xdgDirectory(deps: Deps, variable: string, fallback: string[]): string {
	const value = deps.env[variable]?.trim();
	if (value) {
		if (!isAbsolute(value)) {
			throw new EngiError('xdg_relative', `${variable} must be an absolute path: ${value}`, {
				hint: `unset ${variable} or set it to an absolute directory`,
			});
		}

		return value;
	}

	return join(homeDirectory(deps), ...fallback);
}

export function configDirectory(deps: Deps): string {
	return join(xdgDirectory(deps, 'XDG_CONFIG_HOME', ['.config']), 'engi');
}

export function globalConfigPath(deps: Deps): string {
	return join(configDirectory(deps), 'config.json');
}

export function cacheDirectory(deps: Deps): string {
	return join(xdgDirectory(deps, 'XDG_CACHE_HOME', ['.cache']), 'engi');
}

/** The on-disk layout of a knowledge base (DESIGN §4). */
export function kbPaths(root: string) {
	const engi = join(root, '.engi');
	return {
		root,
		engi,
		journal: join(engi, 'journal.jsonl'),
		index: join(engi, 'index.sqlite'),
		quarantine: join(engi, 'quarantine'),
		localConfig: join(engi, 'config.json'),
		inbox: join(root, '00-inbox'),
		harvest: join(root, '00-inbox', 'harvest'),
		raw: join(root, '01-raw'),
		wiki: join(root, '02-wiki'),
		artifacts: join(root, '03-output', 'artifacts'),
		gitignore: join(root, '.gitignore'),
		gitattributes: join(root, '.gitattributes'),
	};
}

export type KbPaths = ReturnType<typeof kbPaths>;
