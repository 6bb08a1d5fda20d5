import {readLocalConfig} from '../kb/config.js';
import type {KbPaths} from '../kb/paths.js';
import {memoryRules, type MemoryRules} from './memory-types.js';

export type UpkeepSettings = {
	readonly rules: MemoryRules;
};

/** What the knowledge base's config (`.engi/config.json`) says about upkeep, laid over the defaults. */
export function upkeepSettings(paths: KbPaths): UpkeepSettings {
	const config = readLocalConfig(paths.localConfig);
	return {rules: memoryRules(config?.memory)};
}
