import {isAbsolute, resolve} from 'node:path';
import * as z from 'zod/mini';
import type {Deps} from '../deps.js';
import {EngiError} from '../../lib/errors.js';
import {requireKnowledgeBase} from '../index/open.js';
import {readGlobalConfig, readLocalConfig, writeConfigValue} from './config.js';
import {configKeys, formatSchema, type ConfigKey} from './config-schema.js';
import {globalConfigPath, kbPaths} from './paths.js';
import {resolveRoot} from './root.js';

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

/** A key engi knows, in a scope where it may live. */
function checkKey(key: string, global: boolean): ConfigKey {
	if (!(key in configKeys)) {
		throw new EngiError('unknown_config_key', `unknown config key: ${key}`, {hint: `keys: ${Object.keys(configKeys).join(', ')}`});
	}

	const spec = configKeys[key as ConfigKey];
	if (global ? !spec.global : !spec.local) {
		throw new EngiError('config_key_scope', `${key} can only be set ${global ? 'per knowledge base (without --global)' : 'globally (with --global)'}`);
	}

	return key as ConfigKey;
}

/** A value as the key takes it: `root` an absolute path (normalised), `format` json or human. */
function checkValue(key: ConfigKey, value: string): string {
	if (key === 'root') {
		if (!isAbsolute(value)) {
			throw new EngiError('path_not_absolute', `root must be an absolute path, got ${value}`);
		}

		return resolve(value);
	}

	if (key === 'format' && !formatSchema.safeParse(value).success) {
		throw new EngiError('invalid_config_value', `format must be json or human, got ${value}`);
	}

	return value;
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
	const key = checkKey(input.key, input.global);
	const {path, scope} = configLocation(input, deps);
	const config = input.global ? readGlobalConfig(deps).config : readLocalConfig(path);
	const value = (config as Record<string, unknown> | undefined)?.[key];
	return {key, value: typeof value === 'string' ? value : null, scope, path, written: false};
}

/** `engi config set`: checks the key and the value, then rewrites the scope's config file. */
export function setConfigValue(input: ConfigScope & {key: string; value: string}, deps: Deps): ConfigOutput {
	const key = checkKey(input.key, input.global);
	const value = checkValue(key, input.value);
	const {path, scope} = configLocation(input, deps);
	writeConfigValue(path, key, value);
	return {key, value, scope, path, written: true};
}
