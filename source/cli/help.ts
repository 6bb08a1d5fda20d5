import {commandTable} from '../commands.js';
import {globalOptions} from './argv.js';
import type {CommandDefinition, FlagSyntax} from './define.js';

function flagRows(options: Readonly<Record<string, FlagSyntax>>): Array<[string, string]> {
	return Object.entries(options).map(([name, spec]) => [
		`${spec.short ? `-${spec.short}, ` : ''}--${name}${spec.placeholder ? ` ${spec.placeholder}` : ''}`,
		spec.description + (spec.multiple ? ' (repeatable)' : ''),
	]);
}

function table(rows: ReadonlyArray<readonly [string, string]>): string {
	const width = Math.min(34, Math.max(...rows.map(([left]) => left.length)));
	return rows.map(([left, right]) => (left.length > width ? `  ${left}\n  ${' '.repeat(width)}  ${right}` : `  ${left.padEnd(width)}  ${right}`)).join('\n');
}

export function generalHelpText(): string {
	return [
		'Usage',
		'  $ engi <command> [flags]',
		'',
		'Commands',
		table(commandTable.map(entry => [entry.name, entry.summary])),
		'',
		'Global flags',
		table(flagRows(globalOptions)),
		'',
		'Output is JSON when stdout is not a terminal (one document with a "schema" field); errors are',
		'{"error":{"code","message","hint"}} on stderr. Exit 0 ok, 1 input or execution error, 2 needs inspection.',
		'',
		'Run engi <command> --help for its flags and examples.',
	].join('\n');
}

/** `engi graph --help`: the subcommands a command word introduces. */
export function groupHelpText(group: string): string {
	const entries = commandTable.filter(entry => entry.name.startsWith(`${group} `));
	return [
		'Usage',
		`  $ engi ${group} <command> [flags]`,
		'',
		'Commands',
		table(entries.map(entry => [entry.name, entry.summary])),
		'',
		`Run engi ${group} <command> --help for its flags and examples.`,
	].join('\n');
}

export function commandHelpText(command: CommandDefinition): string {
	const parts = [command.summary, '', 'Usage', `  $ ${command.usage}`];
	if (command.positionals?.length) {
		parts.push('', 'Arguments', table(command.positionals.map(positional => [`<${positional.name}>`, positional.description + (positional.required ? '' : ' (optional)')])));
	}

	const own = flagRows(command.options);
	if (own.length > 0) {
		parts.push('', 'Flags', table(own));
	}

	parts.push('', 'Global flags', table(flagRows(globalOptions)));
	parts.push('', 'Examples', ...command.examples.map(example => `  $ ${example}`));
	return parts.join('\n');
}

/**
 * Renders help through meow, so engi's help looks like every other meow CLI. meow is imported
 * only here: it costs more to load than the rest of a typical call, and only --help needs it.
 */
export async function renderHelp(text: string, description: string | false): Promise<string> {
	const {default: meow} = await import('meow');
	const cli = meow(text, {importMeta: import.meta, argv: [], description, autoHelp: false, autoVersion: false, helpIndent: 2});
	return cli.help;
}
