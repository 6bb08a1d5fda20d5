import {existsSync, realpathSync} from 'node:fs';
import {isAbsolute, resolve} from 'node:path';
import {availableStores, storeFor} from '../../adapters/stores.js';
import {isSourceId, sourceIds, type AdapterContext, type SourceId, type SourceStore} from '../../adapters/types.js';
import {homeOf, type Deps} from '../deps.js';
import {EngiError} from '../../lib/errors.js';
import {shellWord} from '../../lib/words.js';

export type SourceTarget = {
	/** The source's store (its reader loads apart: loadAdapter). */
	readonly adapter: SourceStore;
	readonly roots: string[];
	/** The `--source-root` as typed, for the commands engi prints back; none for default roots. */
	readonly typedRoot?: string;
};

/** One store or several: `--source` and `--source-root` may each be repeated. */
export type StoreSelection = {readonly source?: string | readonly string[]; readonly sourceRoot?: string | readonly string[]};

const listOf = (value: string | readonly string[] | undefined): readonly string[] => (value === undefined ? [] : typeof value === 'string' ? [value] : value);

export function adapterContext(deps: Deps): AdapterContext {
	const home = homeOf(deps);
	return {env: deps.env, home: home && isAbsolute(home) ? home : undefined, platform: deps.platform};
}

/**
 * Which stores a command reads: every supported source's default roots, or the sources named
 * (`auto` meaning all). Explicit `--source-root`s pair with the `--source`s in order, one each,
 * so `--source claude --source-root a --source codex --source-root b` reads exactly those two
 * stores; any other mix is ambiguous and refused.
 */
export function resolveTargets(input: StoreSelection, deps: Deps): SourceTarget[] {
	const named = listOf(input.source);
	for (const source of named) {
		if (source !== 'auto' && !isSourceId(source)) {
			throw new EngiError('invalid_flag_value', `--source: unknown source "${source}"`, {hint: `one of: auto, ${sourceIds.join(', ')}`});
		}
	}

	const typedRoots = listOf(input.sourceRoot);
	if (typedRoots.length > 0) {
		return explicitTargets(named, typedRoots, deps);
	}

	const sources = named.includes('auto') ? [] : [...new Set(named)];
	const context = adapterContext(deps);
	const adapters = sources.length === 0 ? availableStores() : sources.map(source => supportedStore(source));
	return adapters.map(adapter => ({adapter, roots: distinctDirectories(adapter.defaultRoots(context).filter(root => existsSync(root)))}));
}

/**
 * The first of each set of roots that are one directory under several names: a tool that moved
 * its store often leaves a link from the old place to the new, and dotfiles link one to the other.
 * Read twice, every session would be listed twice.
 */
function distinctDirectories(roots: readonly string[]): string[] {
	if (roots.length < 2) {
		return [...roots];
	}

	const seen = new Set<string>();
	return roots.filter(root => {
		let real: string;
		try {
			real = realpathSync.native(root);
		} catch {
			real = root;
		}

		if (seen.has(real)) {
			return false;
		}

		seen.add(real);
		return true;
	});
}

function supportedStore(source: string): SourceStore {
	const adapter = storeFor(source as SourceId);
	if (!adapter) {
		throw new EngiError('source_unsupported', `reading ${source} stores is not supported yet`);
	}

	return adapter;
}

function explicitTargets(sources: readonly string[], typedRoots: readonly string[], deps: Deps): SourceTarget[] {
	if (sources.length === 0) {
		throw new EngiError('source_root_needs_source', '--source-root requires --source <tool>', {hint: 'e.g. --source claude --source-root ~/.claude'});
	}

	if (sources.length !== typedRoots.length || sources.includes('auto')) {
		throw new EngiError('source_root_unpaired', `${typedRoots.length} --source-root for ${sources.length} --source: each --source-root needs its own --source, in the same order`, {
			hint: 'e.g. --source claude --source-root ~/a/.claude --source codex --source-root ~/b/.codex',
		});
	}

	return sources.map((source, index) => {
		const adapter = supportedStore(source);
		const typed = typedRoots[index]!;
		const path = resolve(deps.cwd, typed);
		if (!existsSync(path)) {
			throw new EngiError('source_root_missing', `--source-root ${path} does not exist`);
		}

		return {adapter, roots: adapter.resolveRoot(path), typedRoot: typed};
	});
}

/** The `--source-root` a session's store was named by, so a printed command reads the same store. */
export function typedRootOf(targets: readonly SourceTarget[], source: string, root: string): string | undefined {
	return targets.find(target => target.adapter.id === source && target.roots.includes(root))?.typedRoot;
}

/** ` --source-root <dir>` for a printed command, when the session's store was named by one. */
export function sourceRootArgument(typedRoot: string | undefined): string {
	return typedRoot === undefined ? '' : ` --source-root ${shellWord(typedRoot)}`;
}
