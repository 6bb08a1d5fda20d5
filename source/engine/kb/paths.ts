import {existsSync, lstatSync} from 'node:fs';
import {isAbsolute, join} from 'node:path';
import {homeOf, type Deps} from '../deps.js';
import {EngiError} from '../../lib/errors.js';

/**
 * Where engi keeps its own files outside a knowledge base. HOME and the XDG variables must be
 * absolute when used: a relative one would make engi read or write somewhere that depends on
 * the working directory, which is exactly what it promises never to do.
 */
export function homeDirectory(deps: Pick<Deps, 'env' | 'platform'>): string {
	const home = homeOf(deps);
	if (!home) {
		const variable = deps.platform === 'win32' ? 'HOME or USERPROFILE' : 'HOME';
		throw new EngiError('home_unset', `${variable} is not set, so engi cannot find its configuration or the agents' stores`, {
			hint: `set ${variable}, or pass explicit paths (--root, --source-root)`,
		});
	}

	if (!isAbsolute(home)) {
		throw new EngiError('home_relative', `HOME must be an absolute path: ${home}`, {hint: 'set HOME to an absolute directory'});
	}

	return home;
}

function xdgDirectory(deps: Pick<Deps, 'env' | 'platform'>, variable: string, fallback: string[]): string {
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

export function cacheDirectory(deps: Pick<Deps, 'env' | 'platform'>): string {
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
		/** Candidate notes harvested from agent sessions, waiting for review (engi candidates). */
		candidates: join(root, '00-inbox', 'candidates'),
		raw: join(root, '01-raw'),
		wiki: join(root, '02-wiki'),
		artifacts: join(root, '03-output', 'artifacts'),
		gitignore: join(root, '.gitignore'),
		gitattributes: join(root, '.gitattributes'),
	};
}

export type KbPaths = ReturnType<typeof kbPaths>;

/** Fails clearly, and creates nothing, when the root has no knowledge base. */
export function requireKnowledgeBase(paths: KbPaths): void {
	if (!existsSync(paths.engi)) {
		throw new EngiError('kb_not_initialized', `no knowledge base at ${paths.root} (missing ${paths.engi})`, {
			hint: `create one with engi init ${paths.root}, or point --root at an existing knowledge base`,
		});
	}

	// A repair renames a rewrite over the journal's path: through a symlink that would replace the
	// link with a copy and leave its target behind, so the journal must be the file itself.
	const journal = lstatSync(paths.journal, {throwIfNoEntry: false});
	if (journal?.isSymbolicLink()) {
		throw new EngiError('journal_symlink', `${paths.journal} is a symbolic link; engi reads and writes only a journal that is a plain file`, {
			hint: 'put the journal file itself at that path (move the link\'s target there), then run the command again',
		});
	}
}
