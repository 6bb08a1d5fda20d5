import * as z from 'zod/mini';

/** `$XDG_CONFIG_HOME/engi/config.json` and `<root>/.engi/config.json`: one record each. */
export const formatSchema = z.enum(['json', 'human']);

export const globalConfigSchema = z.looseObject({
	root: z.optional(z.string().check(z.minLength(1))),
	format: z.optional(formatSchema),
});

export type GlobalConfig = z.infer<typeof globalConfigSchema>;

export const localConfigSchema = z.looseObject({
	format: z.optional(formatSchema),
	/**
	 * When the owner allowed `engi candidates harvest` to copy facts of private transcripts into
	 * this knowledge base (`--consent`, once): machine-local, like the rest of this file.
	 */
	candidates_consent: z.optional(z.string()),
});

export type LocalConfig = z.infer<typeof localConfigSchema>;

/** Keys `engi config set` accepts, and where each may live. */
export const configKeys = {
	root: {global: true, local: false, describe: 'absolute path of the default knowledge base'},
	format: {global: true, local: true, describe: 'default output format when --format and ENGI_FORMAT are absent: json or human'},
} as const;

export type ConfigKey = keyof typeof configKeys;
