import {isAbsolute, resolve} from 'node:path';
import * as z from 'zod/mini';
import type {Deps} from '../deps.js';
import {EngiError} from '../../lib/errors.js';
import {readGlobalConfig, readLocalConfig, writeConfigValue} from './config.js';
import {configKeys, formatSchema, type ConfigKey} from './config-schema.js';
import {globalConfigPath, kbPaths, requireKnowledgeBase} from './paths.js';
import {resolveRoot} from './root.js';
import {memoryTypes} from '../upkeep/memory-type-names.js';

export const configOutputSchema = z.object({
	key: z.string(),
	value: z.nullable(z.string()),
	scope: z.enum(['global', 'local']),
	path: z.string(),
	written: z.boolean(),
});

export type ConfigOutput = z.infer<typeof configOutputSchema>;

/** Which config a call reads or writes: the user-wide one (`--global`), else the knowledge base's. */
export type ConfigScope = {readonly global: boolean; readonly rootFlag: string | undefined};

/** Which declared key a key given on the command line is: itself, or the pattern a memory key fills in. */
function declaredKey(key: string): ConfigKey | undefined {
	if (key in configKeys && !key.includes('<')) {
		return key as ConfigKey;
	}

	const memory = /^memory\.([a-z]+)\.(half_life_days|ttl_days|weight)$/.exec(key);
	if (memory && (memoryTypes as readonly string[]).includes(memory[1]!)) {
		return `memory.<type>.${memory[2]}` as ConfigKey;
	}

	return undefined;
}

/** A key engi knows, in a scope where it may live. */
function checkKey(key: string, global: boolean): ConfigKey {
	const declared = declaredKey(key);
	if (declared === undefined) {
		throw new EngiError('unknown_config_key', `unknown config key: ${key}`, {hint: `keys: ${Object.keys(configKeys).join(', ')}`});
	}

	const spec = configKeys[declared];
	if (global ? !spec.global : !spec.local) {
		throw new EngiError('config_key_scope', `${key} can only be set ${global ? 'per knowledge base (without --global)' : 'globally (with --global)'}`);
	}

	return declared;
}

/**
 * A value as the key takes it: `root` an absolute path (normalised), `format` json or human, a
 * memory type's days a positive number or `none`, its weight a positive number, the wiki's
 * conflict patterns a comma-separated list.
 */
function checkValue(key: ConfigKey, value: string): unknown {
	if (key === 'root') {
		if (!isAbsolute(value)) {
			throw new EngiError('path_not_absolute', `root must be an absolute path, got ${value}`);
		}

		return resolve(value);
	}

	if (key === 'format' && !formatSchema.safeParse(value).success) {
		throw new EngiError('invalid_config_value', `format must be json or human, got ${value}`);
	}

	if (key === 'wiki.conflict_paths') {
		const patterns = value.split(',').map(pattern => pattern.trim()).filter(Boolean);
		if (patterns.length === 0) {
			throw new EngiError('invalid_config_value', 'wiki.conflict_paths needs at least one pattern');
		}

		return patterns;
	}

	if (key.startsWith('memory.')) {
		const number = Number(value);
		if (value.trim() === 'none' && !key.endsWith('weight')) {
			return null;
		}

		if (value.trim() === '' || !Number.isFinite(number) || number <= 0) {
			throw new EngiError('invalid_config_value', `${key.replace('<type>', 'type')} must be a positive number${key.endsWith('weight') ? '' : ' of days, or none'}, got ${value}`);
		}

		return number;
	}

	return value;
}

/** A stored value as `config get` prints it. */
function shown(value: unknown): string | null {
	if (value === undefined || value === null) {
		return null;
	}

	return Array.isArray(value) ? value.join(',') : typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function configLocation(scope: ConfigScope, deps: Deps): {path: string; scope: 'global' | 'local'} {
	if (scope.global) {
		return {path: globalConfigPath(deps), scope: 'global'};
	}

	const paths = kbPaths(resolveRoot(scope.rootFlag, deps).root);
	requireKnowledgeBase(paths);
	return {path: paths.localConfig, scope: 'local'};
}

/** `engi config get`: a key's value in the scope, null when it is not set. */
export function getConfigValue(input: ConfigScope & {key: string}, deps: Deps): ConfigOutput {
	checkKey(input.key, input.global);
	const {path, scope} = configLocation(input, deps);
	const config = input.global ? readGlobalConfig(deps).config : readLocalConfig(path);
	const value = input.key.split('.').reduce<unknown>((inner, part) => (inner !== null && typeof inner === 'object' ? (inner as Record<string, unknown>)[part] : undefined), config);
	return {key: input.key, value: shown(value), scope, path, written: false};
}

/** `engi config set`: checks the key and the value, then rewrites the scope's config file. */
export function setConfigValue(input: ConfigScope & {key: string; value: string}, deps: Deps): ConfigOutput {
	const value = checkValue(checkKey(input.key, input.global), input.value);
	const {path, scope} = configLocation(input, deps);
	writeConfigValue(path, input.key, value);
	return {key: input.key, value: shown(value), scope, path, written: true};
}
