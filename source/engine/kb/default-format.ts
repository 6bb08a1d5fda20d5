import type {Deps} from '../deps.js';
import {readGlobalConfig, readLocalConfig} from './config.js';
import {kbPaths} from './paths.js';
import {resolveRoot} from './root.js';

/**
 * The output format the user configured: the knowledge base's own `format` (the one --root,
 * ENGI_ROOT or the registered root names), else the user-wide one. The more specific setting
 * wins, as a repository's git config wins over the global one.
 */
export function configuredFormat(rootFlag: string | undefined, deps: Deps): 'json' | 'human' | undefined {
	let root: string | undefined;
	try {
		root = resolveRoot(rootFlag, deps).root;
	} catch {
		// No knowledge base in reach: only the user-wide setting can apply.
	}

	return (root === undefined ? undefined : readLocalConfig(kbPaths(root).localConfig)?.format) ?? readGlobalConfig(deps).config?.format;
}
