import type {ReactNode} from 'react';
import {Box, Text} from 'ink';
import {theme} from '../theme.js';

export type VirtualListProps<T> = {
	readonly items: readonly T[];
	readonly cursor: number;
	/** Index of the first visible row. */
	readonly top: number;
	readonly height: number;
	readonly render: (item: T, selected: boolean) => ReactNode;
	readonly rowKey: (item: T) => string;
};

/**
 * Renders only the rows that fit, so a list of thousands scrolls as fast as a list of ten. The
 * cursor and the scroll position belong to the screen's reducer; this only draws them.
 */
export function VirtualList<T>({items, cursor, top, height, render, rowKey}: VirtualListProps<T>) {
	const visible = items.slice(top, top + height);
	return (
		<Box flexDirection="column">
			{visible.map((item, index) => {
				const selected = top + index === cursor;
				return (
					<Box key={rowKey(item)}>
						<Text color={selected ? theme.selected : undefined}>{selected ? theme.pointer : ' '} </Text>
						{render(item, selected)}
					</Box>
				);
			})}
		</Box>
	);
}

/** Keeps the cursor inside the visible window after it moves. */
export function scrollTo(cursor: number, top: number, height: number): number {
	if (cursor < top) {
		return cursor;
	}

	if (cursor >= top + height) {
		return Math.max(0, cursor - height + 1);
	}

	return top;
}
