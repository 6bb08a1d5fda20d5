import * as z from 'zod/mini';
import type {Deps} from '../engine/deps.js';
import type {CommandEntry} from '../commands.js';
import type {ExitCode} from '../lib/errors.js';

export type OutputFormat = 'json' | 'human';

/** How a flag is parsed (node:util parseArgs) and shown in help. */
export type FlagSyntax = {
	readonly type: 'string' | 'boolean';
	readonly multiple?: boolean;
	readonly short?: string;
	/** Shown in help, e.g. `<id>`. */
	readonly placeholder?: string;
	readonly description: string;
};

/** What a command's flag and argument declarations share: the schema of the value, and whether it is needed. */
type ValueSpec = {
	/** Checks what parseArgs hands over (a string, a list of strings, or true) and shapes it for `run`. */
	readonly value: z.ZodMiniType;
	/** The command cannot run without it; otherwise it is optional (undefined when not given). */
	readonly required?: boolean;
};

/** One flag of a command, declared once: how it is parsed and shown, and what its value must be. */
export type FlagSpec = FlagSyntax & ValueSpec;

export type PositionalSpec = ValueSpec & {
	readonly name: string;
	/** The last positional only: takes every remaining argument, as a list. */
	readonly variadic?: boolean;
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
	/** Where the result is printed; only a command that speaks its own protocol there (`engi mcp`) writes to it. */
	readonly stdout: NodeJS.WritableStream;
	/**
	 * The command table (commands.ts), for commands about commands (`engi schema`). Handed over
	 * rather than imported: the table loads every command, so a command importing it would import
	 * itself back.
	 */
	readonly commands: readonly CommandEntry[];
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
	/**
	 * Printed exactly as it is, in every format, instead of the document: output whose bytes
	 * are the contract (`middleware prepare --packet-only`). `data` is still the typed result.
	 */
	readonly raw?: string;
	/** The command has already written everything it had to say on stdout (`engi mcp` speaks MCP there): nothing is printed. */
	readonly silent?: true;
};

/**
 * Whether and how `engi mcp` offers a command as a tool, declared beside the command (it is
 * required) so a new command cannot appear there unclassified.
 *
 * - `read`: reads only (the agents' stores, the knowledge base, a project's checkpoints); served by default.
 * - `write`: appends to the journal or a checkpoint file, or rebuilds a derived index; served only
 *   with `engi mcp --allow-writes` (or when named in `--allow-write`).
 * - `destructive`: deletes or moves what cannot be had back (purge, sweep --execute,
 *   finalize --apply); never served.
 * - `never`: not an agent's tool (setup, the dashboard, machine config, the server itself).
 */
export type McpExposure = {
	readonly access: 'read' | 'write' | 'destructive' | 'never';
	/**
	 * Flags the tool never offers: the switch that makes an otherwise safe command destructive
	 * (`--execute`), or one that cannot work over MCP (`--file -` reads stdin, which carries the
	 * protocol).
	 */
	readonly withheld?: readonly string[];
	/** Small tool sets for hosts that load every tool on every turn (`engi mcp --tools continuity`). */
	readonly sets?: readonly McpToolSet[];
	/** Its results quote transcripts: served fenced, as untrusted evidence. */
	readonly quotesTranscripts?: true;
};

export const mcpToolSets = ['continuity'] as const;
export type McpToolSet = (typeof mcpToolSets)[number];

/**
 * Everything one command is: its flags and arguments (parsed by node's parseArgs, then validated
 * by a zod schema made from their declarations), the JSON shape it prints (also a zod schema,
 * published by `engi schema`), the engine call, and a plain-text renderer. Faces only render
 * what `run` returns.
 */
export type CommandDefinition<Flags = any, Result = any> = {
	readonly name: string;
	readonly summary: string;
	readonly usage: string;
	readonly examples: readonly string[];
	readonly options: Readonly<Record<string, FlagSpec>>;
	readonly positionals?: readonly PositionalSpec[];
	/** Validates `{...positionals, ...flags}` as parsed from argv and shapes them for `run` (made by defineCommand). */
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
	/** Whether these flags open the screen (always, when not given); with others the command prints, as off a terminal. */
	readonly opensScreen?: (flags: Flags) => boolean;
	/** How `engi mcp` offers it (see McpExposure). */
	readonly mcp: McpExposure;
	/**
	 * A hook an agent runs (`engi hook run`): every error, bad flags included, is still reported
	 * on stderr, but the exit is 0, so the agent that ran it never sees a failure.
	 */
	readonly exitsZero?: true;
};

type Simplify<T> = {[K in keyof T]: T[K]} & {};
type Needed<T> = {[K in keyof T as T[K] extends {required: true} ? K : never]: T[K] extends ValueSpec ? z.output<T[K]['value']> : never};
type Optional<T> = {[K in keyof T as T[K] extends {required: true} ? never : K]?: T[K] extends ValueSpec ? z.output<T[K]['value']> : never};
type ByName<P extends readonly PositionalSpec[]> = {[S in P[number] as S['name']]: S};

/** The validated input `run` gets: each argument and flag by name, optional unless required. */
export type FlagsOf<Options, Positionals extends readonly PositionalSpec[]> = Simplify<Needed<ByName<Positionals>> & Optional<ByName<Positionals>> & Needed<Options> & Optional<Options>>;

export type CommandSpec<Options extends Readonly<Record<string, FlagSpec>>, Positionals extends readonly PositionalSpec[], Result> = Omit<CommandDefinition<FlagsOf<Options, Positionals>, Result>, 'flags' | 'options' | 'positionals'> & {
	readonly options: Options;
	readonly positionals?: Positionals;
};

/**
 * A command from its declarations. The schema that validates its input is made here, from each
 * argument's and flag's `value`: arguments first, in order, then flags, as declared, so the
 * first problem reported is the first one a person reads on the command line.
 */
export function defineCommand<const Options extends Readonly<Record<string, FlagSpec>>, const Positionals extends readonly PositionalSpec[] = [], Result = unknown>(
	spec: CommandSpec<Options, Positionals, Result>,
): CommandDefinition<FlagsOf<Options, Positionals>, Result> {
	const shape: Record<string, z.ZodMiniType> = {};
	for (const [name, declared] of [...(spec.positionals ?? []).map(positional => [positional.name, positional] as const), ...Object.entries(spec.options)]) {
		shape[name] = declared.required ? declared.value : z.optional(declared.value);
	}

	return {...spec, flags: z.object(shape) as unknown as z.ZodMiniType<FlagsOf<Options, Positionals>>};
}

export function schemaName(command: string): string {
	return `engi.${command.replaceAll(' ', '.')}.v1`;
}
