import {claudeAdapter} from './claude/index.js';
import type {SourceAdapter, SourceId} from './types.js';

/**
 * Every supported store, in the order sources are listed. Each adapter lives in its own folder
 * (paths, schema, discovery, normaliser) and is reached only through this table.
 */
export const adapters: Partial<Record<SourceId, SourceAdapter>> = {
	claude: claudeAdapter,
};

export function adapterFor(source: SourceId): SourceAdapter | undefined {
	return adapters[source];
}

export function availableAdapters(): SourceAdapter[] {
	return Object.values(adapters).filter((adapter): adapter is SourceAdapter => adapter !== undefined);
}
