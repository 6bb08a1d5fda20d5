import {useEffect, useRef, useState} from 'react';
import {commandFor} from '../keys.js';
import {useKeys} from './use-keys.js';

export type Loaded<T> = {readonly status: 'loading'} | {readonly status: 'error'; readonly error: string; readonly hint?: string} | {readonly status: 'ready'; readonly data: T};

/**
 * Runs one engine call for a screen and reports loading, error or ready. The only place screens
 * reach the engine. It runs again when `key` changes (the app bumps a revision into the keys
 * of the screens a write affects) and on the refresh key (`r`) while `keys` says the screen is
 * the one being used and no field has the keys.
 *
 * An answer belongs to the key it was loaded for: in the render where the key changes (another
 * session chosen, another page), before the effect has even started the new call, the screen
 * sees `loading`, never the previous key's data (or its absence) as if it were the new one's.
 */
export function useEngine<T>(load: () => Promise<T>, key: string, keys: {readonly refreshable: boolean}): Loaded<T> {
	const [state, setState] = useState<{key: string; loaded: Loaded<T>}>({key, loaded: {status: 'loading'}});
	const [round, setRound] = useState(0);
	const latest = useRef(load);
	latest.current = load;
	useEffect(() => {
		let live = true;
		setState({key, loaded: {status: 'loading'}});
		latest.current().then(
			data => {
				if (live) {
					setState({key, loaded: {status: 'ready', data}});
				}
			},
			(error: unknown) => {
				if (live) {
					const hint = error && typeof error === 'object' && 'hint' in error && typeof error.hint === 'string' ? error.hint : undefined;
					setState({key, loaded: {status: 'error', error: error instanceof Error ? error.message : String(error), ...(hint ? {hint} : {})}});
				}
			},
		);
		return () => {
			live = false;
		};
	}, [key, round]);
	useKeys(
		(input, pressed) => {
			if (commandFor(['global'], input, pressed) === 'refresh') {
				setRound(value => value + 1);
			}
		},
		{isActive: keys.refreshable},
	);
	return state.key === key ? state.loaded : {status: 'loading'};
}
