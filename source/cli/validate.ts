import {EngiError} from '../lib/errors.js';
import type {CommandDefinition} from './define.js';

/** How a problem names an input: `<id>` for an argument, `--view` for a flag. */
function labelOf(command: CommandDefinition, name: string): string {
	return (command.positionals ?? []).some(spec => spec.name === name) ? `<${name}>` : `--${name}`;
}

/** Refuses two inputs the command declares cannot go together; the same rule for argv and for an MCP tool call. */
export function refuseConflicts(command: CommandDefinition, input: Readonly<Record<string, unknown>>): void {
	for (const [a, b] of command.conflicts ?? []) {
		if (input[a] !== undefined && input[b] !== undefined) {
			throw new EngiError('conflicting_flags', `${labelOf(command, a)} and ${labelOf(command, b)} cannot be used together`, {hint: `see engi ${command.name} --help`});
		}
	}
}

/** Validates `{...arguments, ...flags}` with the schema made from the command's declarations, naming the first problem. */
export function validateFlags(command: CommandDefinition, input: Readonly<Record<string, unknown>>): unknown {
	const result = command.flags.safeParse(input);
	if (result.success) {
		return result.data;
	}

	const issue = result.error.issues[0];
	const key = String(issue?.path[0] ?? '');
	const label = key === '' ? 'arguments' : labelOf(command, key);
	const missing = issue?.code === 'invalid_type' && input[key] === undefined;
	const missingCode = label.startsWith('<') ? 'missing_argument' : 'missing_flag';
	throw new EngiError(missing ? missingCode : 'invalid_flag_value', missing ? `engi ${command.name} needs ${label}` : `${label}: ${issue?.message ?? 'invalid value'}`, {
		hint: `see engi ${command.name} --help`,
	});
}
