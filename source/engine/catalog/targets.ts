import {existsSync} from 'node:fs';
import {isAbsolute, resolve} from 'node:path';
import {adapterFor, availableAdapters} from '../../adapters/index.js';
import {isSourceId, sourceIds, type AdapterContext, type SourceAdapter} from '../../adapters/types.js';
import type {Deps} from '../deps.js';
import {EngiError} from '../errors.js';

export type SourceTarget = {readonly adapter: SourceAdapter; readonly roots: string[]; readonly explicit: boolean};

export function adapterContext(deps: Deps): AdapterContext {
	const home = deps.env['HOME']?.trim();
	return {env: deps.env, home: home && isAbsolute(home) ? home : undefined, platform: deps.platform};
}

/**
 * Which stores a command reads: every supported source's default roots, or one `--source`,
 * optionally at an explicit `--source-root` (which needs a concrete source to make sense of).
 */
export function resolveTargets(input: {source?: string; sourceRoot?: string}, deps: Deps): SourceTarget[] {
	if (input.source !== undefined && input.source !== 'auto' && !isSourceId(input.source)) {
		throw new EngiError('invalid_flag_value', `--source: unknown source "${input.source}"`, {hint: `one of: auto, ${sourceIds.join(', ')}`});
	}

	const source = input.source === undefined || input.source === 'auto' ? undefined : input.source;
	if (input.sourceRoot !== undefined) {
		if (source === undefined) {
			throw new EngiError('source_root_needs_source', '--source-root requires --source <tool>', {hint: 'e.g. --source claude --source-root ~/.claude'});
		}

		const adapter = adapterFor(source);
		if (!adapter) {
			throw new EngiError('source_unsupported', `reading ${source} stores is not supported yet`);
		}

		const path = resolve(deps.cwd, input.sourceRoot);
		if (!existsSync(path)) {
			throw new EngiError('source_root_missing', `--source-root ${path} does not exist`);
		}

		return [{adapter, roots: adapter.resolveRoot(path), explicit: true}];
	}

	const context = adapterContext(deps);
	const adapters = source === undefined ? availableAdapters() : [adapterFor(source)].filter((adapter): adapter is SourceAdapter => adapter !== undefined);
	if (source !== undefined && adapters.length === 0) {
		throw new EngiError('source_unsupported', `reading ${source} stores is not supported yet`);
	}

	return adapters.map(adapter => ({adapter, roots: adapter.defaultRoots(context).filter(root => existsSync(root)), explicit: false}));
}
