import type {ReactNode} from 'react';
import {Box, Text} from 'ink';
import type {ListState} from '../hooks/use-list-state.js';
import {theme} from '../theme.js';

export type VirtualListProps<T> = {
	readonly items: readonly T[];
	/** Where the cursor is and which rows show (hooks/use-list-state.ts). */
	readonly list: ListState;
	readonly render: (item: T, selected: boolean) => ReactNode;
	readonly rowKey: (item: T) => string;
};

/**
 * Renders only the rows that fit, so a list of thousands scrolls as fast as a list of ten. The
 * cursor and the scroll position belong to the list's state; this only draws them.
 */
export function VirtualList<T>({items, list, render, rowKey}: VirtualListProps<T>) {
	const visible = items.slice(list.top, list.top + list.height);
	return (
		<Box flexDirection="column">
			{visible.map((item, index) => {
				const selected = list.top + index === list.cursor;
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
