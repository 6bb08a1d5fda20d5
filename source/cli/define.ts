import type * as z from 'zod/mini';
import type {Deps} from '../engine/deps.js';
import type {ExitCode} from '../engine/errors.js';

export type OutputFormat = 'json' | 'human';

export type FlagSpec = {
	readonly type: 'string' | 'boolean';
	readonly multiple?: boolean;
	readonly short?: string;
	/** Shown in help, e.g. `<id>`. */
	readonly placeholder?: string;
	readonly description: string;
};

export type PositionalSpec = {
	readonly name: string;
	readonly required?: boolean;
	readonly description: string;
};

export type CommandContext = {
	readonly deps: Deps;
	readonly format: OutputFormat;
	/** Both stdin and stdout are terminals and no format was asked for: a screen may open. */
	readonly interactive: boolean;
	/** The global `--root` flag as typed, if given. */
	readonly rootFlag: string | undefined;
	readonly stdin: NodeJS.ReadableStream;
	/** Where a long-running command reports progress (diagnostics, never its result). */
	readonly stderr: NodeJS.WritableStream;
};

/** What a plain-text renderer may ask about the call it renders. */
export type HumanContext = {
	/** The exact command line that shows the page starting at `offset`. */
	readonly page: (offset: number) => string;
	/** The flags as given and validated, for renderers that suggest what to change. */
	readonly flags: Readonly<Record<string, unknown>>;
};

export type CommandOutcome<Result> = {
	readonly data: Result;
	/** 2 when the command ran but the result needs inspection. */
	readonly exitCode?: ExitCode;
};

/**
 * Everything one command is: its flags (parsed by node's parseArgs, then validated by a zod
 * schema), the JSON shape it prints (also a zod schema, published by `engi schema`), the engine
 * call, and a plain-text renderer. Faces only render what `run` returns.
 */
export type CommandDefinition<Flags = any, Result = any> = {
	readonly name: string;
	readonly summary: string;
	readonly usage: string;
	readonly examples: readonly string[];
	readonly options: Readonly<Record<string, FlagSpec>>;
	readonly positionals?: readonly PositionalSpec[];
	/** Validates `{...flags, ...positionals}` as parsed from argv and shapes them for `run`. */
	readonly flags: z.ZodMiniType<Flags>;
	/** Pairs of flags that cannot be combined. */
	readonly conflicts?: ReadonlyArray<readonly [string, string]>;
	/** Whether `run` needs a knowledge base root (for help and docs). */
	readonly needsRoot: boolean;
	readonly output: z.ZodMiniType<Result>;
	run(flags: Flags, context: CommandContext): Promise<CommandOutcome<Result>>;
	human(result: Result, context: HumanContext): string;
	/** A screen to open instead of printing, when the session is interactive. */
	readonly screen?: string;
};

export function defineCommand<Flags, Result>(definition: CommandDefinition<Flags, Result>): CommandDefinition<Flags, Result> {
	return definition;
}

export function schemaName(command: string): string {
	return `engi.${command.replaceAll(' ', '.')}.v1`;
}
