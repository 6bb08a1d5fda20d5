import {commandFor} from '../keys.js';
import type {ListAction, ListState} from './use-list-state.js';
import {listActionFor} from './use-list-state.js';
import {useKeys} from './use-keys.js';

/**
 * Moves a list with the list keys of keys.ts (`↓`/`j`, `↑`/`k`, pgdn/space, pgup/b, `g`, `G`)
 * while `isActive`: the keys the help overlay lists under Lists, for every list alike. A screen
 * turns it off while a field or a question has the keys.
 */
export function useList(state: ListState, dispatch: (action: ListAction) => void, options: {readonly count: number; readonly isActive: boolean}): void {
	useKeys(
		(input, key) => {
			const action = listActionFor(commandFor(['list'], input, key), state, options.count);
			if (action) {
				dispatch(action);
			}
		},
		{isActive: options.isActive},
	);
}
