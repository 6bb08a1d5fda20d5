import * as z from 'zod/mini';
import {lazySchema} from '../../lib/lazy-schema.js';
import {memoryTypes} from '../upkeep/memory-type-names.js';

/** `$XDG_CONFIG_HOME/engi/config.json` and `<root>/.engi/config.json`: one record each. */
export const formatSchema = z.enum(['json', 'human']);

// Built on first use: every command loads this module, few read a config file.
export const globalConfigSchema = lazySchema(() => z.looseObject({
	root: z.optional(z.string().check(z.minLength(1))),
	format: z.optional(formatSchema),
}));

export type GlobalConfig = z.infer<typeof globalConfigSchema>;

/** How one memory type ages in this knowledge base (upkeep/memory-types.ts has the defaults); null days: never. */
const memoryOverrideSchema = () => {
	const days = z.nullable(z.number().check(z.positive()));
	return z.strictObject({
		half_life_days: z.optional(days),
		ttl_days: z.optional(days),
		weight: z.optional(z.number().check(z.positive())),
	});
};

export const localConfigSchema = lazySchema(() => z.looseObject({
	format: z.optional(formatSchema),
	/**
	 * When the owner allowed `engi candidates harvest` to copy facts of private transcripts into
	 * this knowledge base (`--consent`, once): machine-local, like the rest of this file.
	 */
	candidates_consent: z.optional(z.string()),
	memory: z.optional(z.partialRecord(z.enum(memoryTypes), memoryOverrideSchema())),
	wiki: z.optional(
		z.looseObject({
			/** Path patterns (`*` any run of characters) that mark a file a sync tool left beside a conflict; replaces the defaults. */
			conflict_paths: z.optional(z.array(z.string().check(z.minLength(1)))),
		}),
	),
}));

export type LocalConfig = z.infer<typeof localConfigSchema>;

/** Keys `engi config set` accepts, and where each may live. */
export const configKeys = {
	root: {global: true, local: false, describe: 'absolute path of the default knowledge base'},
	format: {global: true, local: true, describe: 'default output format when --format and ENGI_FORMAT are absent: json or human'},
	'memory.<type>.half_life_days': {global: false, local: true, describe: `days for a memory type's rank to halve, or none (types: ${memoryTypes.join(', ')})`},
	'memory.<type>.ttl_days': {global: false, local: true, describe: 'days after which a memory type is stale, or none'},
	'memory.<type>.weight': {global: false, local: true, describe: 'how much a match of a memory type counts (a positive number)'},
	'wiki.conflict_paths': {global: false, local: true, describe: 'comma-separated file name patterns wiki sync treats as sync-conflict copies'},
} as const;

export type ConfigKey = keyof typeof configKeys;
