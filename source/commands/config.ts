import * as z from 'zod/mini';
import {defineCommand} from '../cli/define.js';
import {configOutputSchema, getConfigValue, setConfigValue} from '../engine/kb/config-ops.js';
import {configKeys} from '../engine/kb/config-schema.js';

const keyArgument = {name: 'key', required: true, description: `one of ${Object.keys(configKeys).join(', ')}`, value: z.string()} as const;

export const configGet = defineCommand({
	name: 'config get',
	summary: 'print a configuration value',
	usage: 'engi config get <key> [--global]',
	examples: ['engi config get root --global', 'engi config get format'],
	options: {global: {type: 'boolean', description: 'read the user-wide config instead of the knowledge base\'s', value: z.boolean()}},
	positionals: [keyArgument],
	needsRoot: false,
	mcp: {access: 'never'},
	output: configOutputSchema,
	async run(input, context) {
		return {data: getConfigValue({key: input.key, global: Boolean(input.global), rootFlag: context.rootFlag}, context.deps)};
	},
	human: result => result.value ?? '',
});

export const configSet = defineCommand({
	name: 'config set',
	summary: 'set a configuration value',
	usage: 'engi config set <key> <value> [--global]',
	examples: ['engi config set --global root "$HOME/kb"', 'engi config set format human'],
	options: {global: {type: 'boolean', description: 'write the user-wide config instead of the knowledge base\'s', value: z.boolean()}},
	positionals: [keyArgument, {name: 'value', required: true, description: 'the new value', value: z.string()}],
	needsRoot: false,
	mcp: {access: 'never'},
	output: configOutputSchema,
	async run(input, context) {
		return {data: setConfigValue({key: input.key, value: input.value, global: Boolean(input.global), rootFlag: context.rootFlag}, context.deps)};
	},
	human: result => `${result.key}\t${result.value ?? ''}\t${result.path}`,
});
