import {useEffect, useReducer, type Dispatch} from 'react';

/**
 * The one list model of the dashboard, split as ink-ui splits its components: this file holds
 * a list's state and its reducer (pure, so it is tested without a terminal), use-list.ts binds
 * the list keys of keys.ts to it, and components/virtual-list.tsx draws it. A screen with more
 * state than a list (Unfinished: sort, filter, confirmations) keeps a ListState inside its own
 * state and hands list actions to listReducer.
 */
export type ListState = {
	/** The selected row. */
	readonly cursor: number;
	/** The first row shown. */
	readonly top: number;
	/** How many rows fit. */
	readonly height: number;
};

/** What can happen to a list; `count` is how many rows it has right now. */
export type ListAction =
	| {readonly type: 'move'; readonly by: number; readonly count: number}
	| {readonly type: 'jump'; readonly to: 'start' | 'end'; readonly count: number}
	| {readonly type: 'select'; readonly index: number; readonly count: number}
	| {readonly type: 'reset'}
	| {readonly type: 'resize'; readonly height: number};

export const initialList = (height: number): ListState => ({cursor: 0, top: 0, height: Math.max(1, height)});

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

/** The cursor on `cursor`, kept within the rows and in view. */
function place(state: ListState, cursor: number, count: number): ListState {
	const clamped = Math.max(0, Math.min(cursor, count - 1));
	return {...state, cursor: clamped, top: scrollTo(clamped, state.top, state.height)};
}

/** Every transition of a list. */
export function listReducer(state: ListState, action: ListAction): ListState {
	switch (action.type) {
		case 'move':
			return place(state, state.cursor + action.by, action.count);
		case 'jump':
			return place(state, action.to === 'start' ? 0 : action.count - 1, action.count);
		case 'select':
			return place(state, action.index, action.count);
		case 'reset':
			return {...state, cursor: 0, top: 0};
		case 'resize': {
			const height = Math.max(1, action.height);
			return {...state, height, top: scrollTo(state.cursor, state.top, height)};
		}

		default:
			return state;
	}
}

/**
 * What a list command of keys.ts (`down`, `page-up`, `end`, …) does to a list of `count` rows; undefined for
 * any other command. Paging moves by the rows that fit.
 */
export function listActionFor(command: string | undefined, state: ListState, count: number): ListAction | undefined {
	switch (command) {
		case 'down':
			return {type: 'move', by: 1, count};
		case 'up':
			return {type: 'move', by: -1, count};
		case 'page-down':
			return {type: 'move', by: state.height, count};
		case 'page-up':
			return {type: 'move', by: -state.height, count};
		case 'home':
			return {type: 'jump', to: 'start', count};
		case 'end':
			return {type: 'jump', to: 'end', count};
		default:
			return undefined;
	}
}

/** A list's state for a screen, `height` rows tall (kept so when the terminal is resized). */
export function useListState(height: number): [ListState, Dispatch<ListAction>] {
	const [state, dispatch] = useReducer(listReducer, height, initialList);
	useEffect(() => dispatch({type: 'resize', height}), [height]);
	return [state, dispatch];
}
