import {Box, Text} from 'ink';
import {bindings, type Scope} from '../keys.js';
import {theme} from '../theme.js';

const scopeTitles: Record<Scope, string> = {
	global: 'Everywhere',
	list: 'Lists',
	standup: 'Stand-up',
	unfinished: 'Unfinished',
	pickup: 'Pickup',
	checkpoints: 'Checkpoints',
	project: 'Project',
	query: 'Query',
	review: 'Review',
	retention: 'Retention',
	form: 'Forms',
	confirm: 'Confirmations',
	field: 'Typing',
};

export type HelpLine = {readonly header: boolean; readonly text: string};

/** Every binding as lines, grouped by where it works, the active screen's group first. */
export function helpLines(first: Scope): HelpLine[] {
	const scopes = [...new Set([first, 'global' as Scope, ...bindings.map(binding => binding.scope)])];
	return scopes.flatMap(scope => {
		const rows = bindings.filter(binding => binding.scope === scope);
		return rows.length === 0 ? [] : [{header: true, text: scopeTitles[scope]}, ...rows.map(binding => ({header: false, text: `  ${binding.keys.padEnd(14)}${binding.description}`}))];
	});
}

export type HelpOverlayProps = {readonly width: number; readonly height: number; readonly offset: number; readonly scope: Scope};

/** The help overlay, generated from the binding table; j/k scroll it when it is taller than the screen. */
export function HelpOverlay({width, height, offset, scope}: HelpOverlayProps) {
	const lines = helpLines(scope);
	const room = Math.max(1, height - 3);
	const start = Math.max(0, Math.min(offset, lines.length - room));
	return (
		<Box flexDirection="column" borderStyle="round" borderColor={theme.accent} paddingX={1} width={Math.min(width, 80)}>
			<Text bold wrap="truncate">
				{`Keys — ? or esc closes${lines.length > room ? ` · j/k scroll (${start + 1}–${Math.min(lines.length, start + room)} of ${lines.length})` : ''}`}
			</Text>
			{lines.slice(start, start + room).map((line, index) => (
				<Text key={`${start + index}`} color={line.header ? theme.accent : undefined} wrap="truncate">
					{line.text}
				</Text>
			))}
		</Box>
	);
}
