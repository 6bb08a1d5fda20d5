import type {ReactNode} from 'react';
import {Box, Text} from 'ink';
import {screenOrder, screenTitles, type ScreenId} from '../navigation.js';
import {fit, fitParts, theme} from '../theme.js';

export type FrameProps = {
	readonly screen: ScreenId;
	readonly width: number;
	readonly height: number;
	/** A summary line under the tabs, e.g. "12 unfinished · 2 blocked"; whole parts that do not fit are left out. */
	readonly counts: string;
	/** The footer, already fitted to the width (keys.ts hintsFor). */
	readonly hints: string;
	readonly children: ReactNode;
};

/** The dashboard chrome: screen tabs and counts on top, key hints at the bottom, content between. */
export function Frame({screen, width, height, counts, hints, children}: FrameProps) {
	// Every tab with its title when they fit; else only the open one's, the others by their number.
	const titled = screenOrder.reduce((length, id, index) => length + `  ${index + 1} ${screenTitles[id]}`.length, 'engi '.length) <= width;
	const tabs = screenOrder.map((id, index) => ({id, label: titled || id === screen ? `${index + 1} ${screenTitles[id]}` : String(index + 1)}));
	return (
		<Box flexDirection="column" width={width} height={height}>
			<Box justifyContent="space-between">
				<Text wrap="truncate">
					<Text bold color={theme.accent}>
						engi{' '}
					</Text>
					{tabs.map(tab => (
						<Text key={tab.id} inverse={tab.id === screen} color={tab.id === screen ? theme.accent : undefined}>
							{` ${tab.label} `}
						</Text>
					))}
				</Text>
			</Box>
			<Text color={theme.muted} wrap="truncate">
				{fitParts(counts, width)}
			</Text>
			<Box flexDirection="column" flexGrow={1} overflow="hidden">
				{children}
			</Box>
			<Text color={theme.muted} wrap="truncate">
				{fit(hints, width)}
			</Text>
		</Box>
	);
}
