import {shellWord} from '../lib/words.js';
import type {CommandDefinition} from './define.js';

/**
 * The command line that shows another page of what was just printed: the same command,
 * arguments and flags (as validated, `--root` included), with `--offset` set. Commands that open
 * a screen on a terminal get `--format human`, since their text is only printed when asked for.
 */
export function pageCommand(command: Pick<CommandDefinition, 'name' | 'positionals' | 'screen'>, flags: Readonly<Record<string, unknown>>, rootFlag: string | undefined, offset: number): string {
	const positional = new Set((command.positionals ?? []).map(spec => spec.name));
	const words = ['engi', command.name];
	for (const spec of command.positionals ?? []) {
		if (typeof flags[spec.name] === 'string') {
			words.push(shellWord(flags[spec.name] as string));
		}
	}

	for (const [name, value] of Object.entries(flags)) {
		if (positional.has(name) || name === 'offset' || value === undefined || value === false) {
			continue;
		}

		words.push(`--${name}`);
		if (value !== true) {
			words.push(shellWord(Array.isArray(value) ? value.join(',') : String(value)));
		}
	}

	words.push('--offset', String(offset));
	if (rootFlag !== undefined) {
		words.push('--root', shellWord(rootFlag));
	}

	if (command.screen) {
		words.push('--format', 'human');
	}

	return words.join(' ');
}
