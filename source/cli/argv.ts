import {parseArgs} from 'node:util';
import {EngiError} from '../lib/errors.js';
import {nearest} from '../lib/levenshtein.js';
import type {CommandDefinition} from './define.js';

/** Flags every command accepts, before or after the command words. */
export const globalOptions = {
	format: {type: 'string', placeholder: '<json|human>', description: 'output format (default: human on a terminal, JSON otherwise; or ENGI_FORMAT)'},
	root: {type: 'string', placeholder: '<dir>', description: 'knowledge base root (default: ENGI_ROOT, then the registered root)'},
	help: {type: 'boolean', short: 'h', description: 'show help'},
	version: {type: 'boolean', description: 'print the version'},
} as const;

export type GlobalFlags = {format?: string; root?: string; help?: boolean; version?: boolean};

export type SplitArgv = {
	/** Command words found before any command flag, e.g. ["graph", "node"]. */
	readonly words: string[];
	/** Everything else, for the command's own parser. */
	readonly rest: string[];
	readonly globals: GlobalFlags;
};

const valueGlobals = new Set(['--format', '--root']);
/** Flags of the bare `engi` dashboard that take a value, so `engi --since 2w` is not read as a command "2w". */
const dashboardValueFlags = new Set(['--since', '--project', '--source']);

/**
 * Separates the command words from the flags. Only global flags may come before the command,
 * so `engi --root /kb status` and `engi status --root /kb` mean the same.
 */
export function splitArgv(argv: readonly string[], isGroup: (word: string) => boolean): SplitArgv {
	const words: string[] = [];
	const rest: string[] = [];
	const globals: GlobalFlags = {};
	let index = 0;
	const takeGlobal = (token: string): boolean => {
		const [flag, inline] = token.includes('=') ? [token.slice(0, token.indexOf('=')), token.slice(token.indexOf('=') + 1)] : [token, undefined];
		if (valueGlobals.has(flag)) {
			const value = inline ?? argv[index + 1];
			if (value === undefined) {
				throw new EngiError('invalid_flag_value', `${flag} needs a value`, {hint: 'see engi --help'});
			}

			globals[flag === '--format' ? 'format' : 'root'] = value;
			index += inline === undefined ? 2 : 1;
			return true;
		}

		if (token === '--help' || token === '-h') {
			globals.help = true;
			index++;
			return true;
		}

		if (token === '--version') {
			globals.version = true;
			index++;
			return true;
		}

		return false;
	};

	while (index < argv.length && argv[index]!.startsWith('-') && argv[index] !== '-') {
		if (!takeGlobal(argv[index]!)) {
			rest.push(argv[index]!);
			if (dashboardValueFlags.has(argv[index]!) && index + 1 < argv.length) {
				rest.push(argv[index + 1]!);
				index++;
			}

			index++;
		}
	}

	if (index < argv.length) {
		words.push(argv[index]!);
		index++;
		if (isGroup(words[0]!) && index < argv.length && !argv[index]!.startsWith('-')) {
			words.push(argv[index]!);
			index++;
		}
	}

	while (index < argv.length) {
		if (argv[index] === '--') {
			rest.push(...argv.slice(index));
			break;
		}

		if (!takeGlobal(argv[index]!)) {
			rest.push(argv[index]!);
			index++;
		}
	}

	return {words, rest, globals};
}

export type ParsedCommandArgs = {
	readonly values: Record<string, string | boolean | string[] | undefined>;
	readonly positionals: string[];
};

/** Parses a command's own flags strictly, turning parseArgs' errors into typed ones. */
export function parseCommandArgs(command: CommandDefinition, args: readonly string[]): ParsedCommandArgs {
	const options = Object.fromEntries(
		Object.entries(command.options).map(([name, spec]) => [name, {type: spec.type, multiple: spec.multiple ?? false, ...(spec.short ? {short: spec.short} : {})}]),
	);
	let parsed;
	try {
		parsed = parseArgs({args: [...args], options, allowPositionals: true, strict: true, tokens: true});
	} catch (error) {
		throw translateParseError(command, error);
	}

	refuseRepeatedFlags(parsed.tokens, options, `see engi ${command.name} --help`);
	return {values: parsed.values as ParsedCommandArgs['values'], positionals: parsed.positionals};
}

/**
 * parseArgs keeps only the last of a repeated flag that takes one value, so `--project a
 * --project b` would quietly mean b. A flag that may be repeated says so (`multiple`); any other
 * value flag given twice is refused.
 */
export function refuseRepeatedFlags(tokens: ReadonlyArray<{kind: string; name?: string}> | undefined, options: Readonly<Record<string, {type: string; multiple?: boolean}>>, hint: string): void {
	const seen = new Set<string>();
	for (const token of tokens ?? []) {
		const spec = token.kind === 'option' && token.name !== undefined ? options[token.name] : undefined;
		if (!spec || spec.type !== 'string' || spec.multiple) {
			continue;
		}

		if (seen.has(token.name!)) {
			throw new EngiError('repeated_flag', `--${token.name} was given more than once; it takes one value`, {hint});
		}

		seen.add(token.name!);
	}
}

function translateParseError(command: CommandDefinition, error: unknown): EngiError {
	const code = error && typeof error === 'object' && 'code' in error ? String(error.code) : '';
	const message = error instanceof Error ? error.message : String(error);
	const hint = `see engi ${command.name} --help`;
	if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
		const flag = /'([^']+)'/.exec(message)?.[1] ?? message;
		const names = [...Object.keys(command.options), ...Object.keys(globalOptions)].map(name => `--${name}`);
		const suggestion = nearest(flag.replace(/=.*/, ''), names);
		return new EngiError('unknown_flag', `unknown flag ${flag} for engi ${command.name}`, {
			hint: suggestion ? `did you mean ${suggestion}? (${hint})` : hint,
		});
	}

	if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
		return new EngiError('invalid_flag_value', message.replace(/^Option /, 'flag '), {hint});
	}

	return new EngiError('invalid_arguments', message, {hint});
}
