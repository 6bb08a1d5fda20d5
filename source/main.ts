import {configuredFormat} from './engine/kb/default-format.js';
import {processDeps, type Deps} from './engine/deps.js';
import {EngiError} from './lib/errors.js';
import {nearest} from './lib/levenshtein.js';
import {parseCommandArgs, refuseRepeatedFlags, splitArgv} from './cli/argv.js';
import {schemaName, type CommandContext, type CommandDefinition, type OutputFormat} from './cli/define.js';
import {commandHelpText, generalHelpText, groupHelpText, renderHelp} from './cli/help.js';
import {refuseConflicts, validateFlags} from './cli/validate.js';
import {commandGroups, commandTable, groupDefaults} from './commands.js';
import {takeCacheWarnings} from './engine/cache-notices.js';
import {asEngiError, printError, printHuman, printJson, printWarning} from './output/print.js';
import {visible} from './output/text.js';

export type Io = {
	readonly stdin: NodeJS.ReadableStream & {isTTY?: boolean};
	readonly stdout: NodeJS.WritableStream & {isTTY?: boolean};
	readonly stderr: NodeJS.WritableStream;
};

declare const __ENGI_VERSION__: string;
export const version = typeof __ENGI_VERSION__ === 'string' ? __ENGI_VERSION__ : '0.0.0-dev';

/**
 * Chooses the face: an explicit --format, then ENGI_FORMAT, then the configured default (the
 * knowledge base's, else the user-wide one), then human on a terminal and JSON otherwise.
 * `explicit` is false only for the terminal guess.
 */
function chooseFormat(flag: string | undefined, rootFlag: string | undefined, deps: Deps, io: Io): {format: OutputFormat; explicit: boolean} {
	const check = (value: string, source: string): OutputFormat => {
		if (value !== 'json' && value !== 'human') {
			throw new EngiError('invalid_flag_value', `${source} must be json or human, got "${value}"`, {hint: 'e.g. --format json'});
		}

		return value;
	};

	if (flag !== undefined) {
		return {format: check(flag, '--format'), explicit: true};
	}

	const fromEnv = deps.env['ENGI_FORMAT']?.trim();
	if (fromEnv) {
		return {format: check(fromEnv, 'ENGI_FORMAT'), explicit: true};
	}

	try {
		const configured = configuredFormat(rootFlag, deps);
		if (configured) {
			return {format: configured, explicit: true};
		}
	} catch {
		// A broken config is reported by the commands that need it, not by every call.
	}

	return {format: io.stdout.isTTY ? 'human' : 'json', explicit: false};
}

function findCommand(words: readonly string[]): {name: string; consumed: number} {
	const [first, second] = words;
	if (first === undefined) {
		throw new EngiError('missing_command', 'no command given', {hint: 'engi --help lists the commands'});
	}

	if (commandGroups.has(first)) {
		if (second === undefined && groupDefaults[first]) {
			return {name: groupDefaults[first], consumed: 1};
		}

		const name = `${first} ${second ?? ''}`.trim();
		if (commandTable.some(entry => entry.name === name)) {
			return {name, consumed: 2};
		}

		const subcommands = commandTable.filter(entry => entry.name.startsWith(`${first} `)).map(entry => entry.name);
		const suggestion = second === undefined ? undefined : nearest(name, subcommands);
		throw new EngiError(second === undefined ? 'missing_subcommand' : 'unknown_command', second === undefined ? `engi ${first} needs a subcommand` : `unknown command: engi ${name}`, {
			hint: suggestion ? `did you mean engi ${suggestion}?` : `one of: ${subcommands.join(', ')}`,
		});
	}

	if (commandTable.some(entry => entry.name === first)) {
		return {name: first, consumed: 1};
	}

	const suggestion = nearest(first, [...commandTable.map(entry => entry.name), ...commandGroups]);
	throw new EngiError('unknown_command', `unknown command: ${first}`, {
		hint: suggestion ? `did you mean engi ${suggestion}? (engi --help lists the commands)` : 'engi --help lists the commands',
	});
}

/** Maps parsed argv onto the names the command's zod schema validates, checking arity and conflicts. */
function commandInput(command: CommandDefinition, values: Record<string, unknown>, positionals: string[]): Record<string, unknown> {
	const specs = command.positionals ?? [];
	if (positionals.length > specs.length && !specs.at(-1)?.variadic) {
		throw new EngiError('unexpected_argument', `unexpected argument "${positionals[specs.length]}" for engi ${command.name}`, {hint: `usage: ${command.usage}`});
	}

	const input: Record<string, unknown> = {};
	for (const [name, value] of Object.entries(values)) {
		if (value !== undefined && name !== 'format' && name !== 'root' && name !== 'help' && name !== 'version') {
			input[name] = value;
		}
	}

	for (const [index, spec] of specs.entries()) {
		if (spec.variadic && positionals.length > index) {
			input[spec.name] = positionals.slice(index);
		} else if (positionals[index] !== undefined) {
			input[spec.name] = positionals[index];
		} else if (spec.required) {
			throw new EngiError('missing_argument', `engi ${command.name} needs <${spec.name}>`, {hint: `usage: ${command.usage}`});
		}
	}

	refuseConflicts(command, input);
	return input;
}

export async function main(argv: readonly string[], io: Io, deps: Deps = processDeps()): Promise<number> {
	let format: OutputFormat = io.stdout.isTTY ? 'human' : 'json';
	let loaded: CommandDefinition | undefined;
	try {
		const split = splitArgv(argv, word => commandGroups.has(word));
		const chosen = chooseFormat(split.globals.format, split.globals.root, deps, io);
		format = chosen.format;
		const interactive = !chosen.explicit && Boolean(io.stdin.isTTY) && Boolean(io.stdout.isTTY);
		if (split.words.length === 0) {
			if (split.globals.version) {
				io.stdout.write(`${version}\n`);
				return 0;
			}

			if (interactive && !split.globals.help) {
				return await openDashboard(split.rest, split.globals.root, deps, io);
			}

			if (split.globals.help || split.rest.length === 0) {
				io.stdout.write((await renderHelp(generalHelpText(), 'engi — find unfinished coding-agent work, pick it up with an evidence-linked brief, keep durable knowledge.')) + '\n');
				return 0;
			}
		}

		const [first, second] = split.words;
		if (split.globals.help && first !== undefined && commandGroups.has(first) && !commandTable.some(entry => entry.name === `${first} ${second ?? ''}`.trim())) {
			io.stdout.write((await renderHelp(groupHelpText(first), false)) + '\n');
			return 0;
		}

		const {name, consumed} = findCommand(split.words);
		const entry = commandTable.find(candidate => candidate.name === name)!;
		const command = await entry.load();
		loaded = command;
		if (split.globals.help) {
			io.stdout.write((await renderHelp(commandHelpText(command), false)) + '\n');
			return 0;
		}

		const extraWords = split.words.slice(consumed);
		const parsed = parseCommandArgs(command, [...extraWords, ...split.rest]);
		const flags = validateFlags(command, commandInput(command, parsed.values, parsed.positionals));
		const context: CommandContext = {
			deps,
			format,
			interactive,
			rootFlag: split.globals.root,
			stdin: io.stdin,
			stderr: io.stderr,
			stdout: io.stdout,
			commands: commandTable,
		};
		if (interactive && command.screen && (command.opensScreen?.(flags) ?? true)) {
			const {openScreen} = await import('./cli/open-screen.js');
			return await openScreen(command.screen, flags as Record<string, unknown>, split.globals.root, deps, io.stdout);
		}

		const outcome = await command.run(flags, context);
		if (outcome.silent) {
			return outcome.exitCode ?? 0;
		}

		printCacheWarnings(io.stderr, format, outcome.data);
		if (outcome.raw !== undefined) {
			io.stdout.write(outcome.raw);
		} else if (format === 'json') {
			printJson(io.stdout, schemaName(command.name), outcome.data);
		} else {
			// Only plain text prints the command for the next page; the JSON path never loads it.
			const {pageCommand} = await import('./cli/next-command.js');
			printHuman(io.stdout, command.human(outcome.data, {page: offset => pageCommand(command, flags as Record<string, unknown>, split.globals.root, offset), flags: flags as Record<string, unknown>}));
		}

		return outcome.exitCode ?? 0;
	} catch (error) {
		const engiError = asEngiError(error);
		if (engiError.code === 'internal_error' && deps.env['ENGI_DEBUG']) {
			io.stderr.write(visible(`${error instanceof Error ? error.stack : String(error)}\n`));
		}

		printError(io.stderr, format, engiError, takeCacheWarnings());
		return loaded?.exitsZero ? 0 : engiError.exitCode;
	}
}

/** What engi did to its own caches during the call (a damaged index rebuilt), unless the output already says so. */
function printCacheWarnings(stderr: NodeJS.WritableStream, format: OutputFormat, data: unknown): void {
	const carried = data !== null && typeof data === 'object' && 'warnings' in data && Array.isArray(data.warnings) ? new Set(data.warnings) : new Set();
	for (const warning of takeCacheWarnings()) {
		if (!carried.has(warning)) {
			printWarning(stderr, format, warning);
		}
	}
}

/** `engi` alone on a terminal: the dashboard, scoped like the stand-up (`engi --since 2w --all-projects`). */
async function openDashboard(args: readonly string[], rootFlag: string | undefined, deps: Deps, io: Io): Promise<number> {
	const {parseArgs} = await import('node:util');
	const hint = 'the dashboard takes --since, --all-projects, --project and --source';
	const options = {since: {type: 'string'}, 'all-projects': {type: 'boolean'}, project: {type: 'string'}, source: {type: 'string', multiple: true}} as const;
	let parsed;
	try {
		parsed = parseArgs({args: [...args], options, strict: true, tokens: true});
	} catch (error) {
		throw new EngiError('unknown_flag', error instanceof Error ? error.message : String(error), {hint});
	}

	refuseRepeatedFlags(parsed.tokens, options, hint);
	const {openScreen} = await import('./cli/open-screen.js');
	return openScreen('standup', parsed.values, rootFlag, deps, io.stdout);
}
