import * as z from 'zod/mini';
import {defineCommand} from '../cli/define.js';
import {EngiError} from '../lib/errors.js';
import {readGlobalConfig, readLocalConfig, writeConfigValue} from '../engine/kb/config.js';
import {configKeys, formatSchema, type ConfigKey} from '../engine/kb/config-schema.js';
import {globalConfigPath, kbPaths} from '../engine/kb/paths.js';
import {resolveRoot} from '../engine/kb/root.js';
import {requireKnowledgeBase} from '../engine/index/open.js';
import type {CommandContext} from '../cli/define.js';
import {isAbsolute, resolve} from 'node:path';

export const configOutputSchema = z.object({
	key: z.string(),
	value: z.nullable(z.string()),
	scope: z.enum(['global', 'local']),
	path: z.string(),
	written: z.boolean(),
});

type ConfigOutput = z.infer<typeof configOutputSchema>;

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

function configLocation(context: CommandContext, global: boolean): {path: string; scope: 'global' | 'local'} {
	if (global) {
		return {path: globalConfigPath(context.deps), scope: 'global'};
	}

	const paths = kbPaths(resolveRoot(context.rootFlag, context.deps).root);
	requireKnowledgeBase(paths);
	return {path: paths.localConfig, scope: 'local'};
}

const flags = z.object({key: z.string(), global: z.optional(z.boolean())});

export const configGet = defineCommand({
	name: 'config get',
	summary: 'print a configuration value',
	usage: 'engi config get <key> [--global]',
	examples: ['engi config get root --global', 'engi config get format'],
	options: {global: {type: 'boolean', description: 'read the user-wide config instead of the knowledge base\'s'}},
	positionals: [{name: 'key', required: true, description: `one of ${Object.keys(configKeys).join(', ')}`}],
	flags,
	needsRoot: false,
	output: configOutputSchema,
	async run(input, context) {
		const global = Boolean(input.global);
		const key = checkKey(input.key, global);
		const {path, scope} = configLocation(context, global);
		const config = global ? readGlobalConfig(context.deps).config : readLocalConfig(path);
		const value = (config as Record<string, unknown> | undefined)?.[key];
		return {data: {key, value: typeof value === 'string' ? value : null, scope, path, written: false} satisfies ConfigOutput};
	},
	human: result => result.value ?? '',
});

export const configSet = defineCommand({
	name: 'config set',
	summary: 'set a configuration value',
	usage: 'engi config set <key> <value> [--global]',
	examples: ['engi config set --global root "$HOME/kb"', 'engi config set format human'],
	options: {global: {type: 'boolean', description: 'write the user-wide config instead of the knowledge base\'s'}},
	positionals: [
		{name: 'key', required: true, description: `one of ${Object.keys(configKeys).join(', ')}`},
		{name: 'value', required: true, description: 'the new value'},
	],
	flags: z.object({key: z.string(), value: z.string(), global: z.optional(z.boolean())}),
	needsRoot: false,
	output: configOutputSchema,
	async run(input, context) {
		const global = Boolean(input.global);
		const key = checkKey(input.key, global);
		let value = input.value;
		if (key === 'root') {
			if (!isAbsolute(value)) {
				throw new EngiError('path_not_absolute', `root must be an absolute path, got ${value}`);
			}

			value = resolve(value);
		} else if (key === 'format' && !formatSchema.safeParse(value).success) {
			throw new EngiError('invalid_config_value', `format must be json or human, got ${value}`);
		}

		const {path, scope} = configLocation(context, global);
		writeConfigValue(path, key, value);
		return {data: {key, value, scope, path, written: true} satisfies ConfigOutput};
	},
	human: result => `${result.key}\t${result.value ?? ''}\t${result.path}`,
});
