import {readLocalConfig} from '../kb/config.js';
import type {KbPaths} from '../kb/paths.js';
import {memoryRules, type MemoryRules} from './memory-types.js';

/** File names a sync tool gives the copies it leaves beside a conflict (Syncthing, Dropbox, merge tools). */
export const defaultConflictPaths = ['*.sync-conflict-*', '* (conflicted copy)*', '*.orig'] as const;

export type UpkeepSettings = {
	readonly rules: MemoryRules;
	readonly conflictPaths: readonly string[];
};

/** What the knowledge base's config (`.engi/config.json`) says about upkeep, laid over the defaults. */
export function upkeepSettings(paths: KbPaths): UpkeepSettings {
	const config = readLocalConfig(paths.localConfig);
	return {rules: memoryRules(config?.memory), conflictPaths: config?.wiki?.conflict_paths ?? defaultConflictPaths};
}
