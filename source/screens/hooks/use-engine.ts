import {useCallback, useEffect, useRef, useState} from 'react';
import {commandFor} from '../keys.js';
import {useKeys} from './use-keys.js';

export type Loaded<T> = {readonly status: 'loading'} | {readonly status: 'error'; readonly error: string; readonly hint?: string} | {readonly status: 'ready'; readonly data: T};

/**
 * Runs one engine call for a screen and reports loading, error or ready. The only place screens
 * reach the engine; `reload` runs it again (after a write), as does the refresh key (`r`) while
 * `keys` says the screen is the one being used and no field has the keys.
 */
export function useEngine<T>(load: () => Promise<T>, key: string, keys: {readonly refreshable: boolean}): Loaded<T> & {reload(): void} {
	const [state, setState] = useState<Loaded<T>>({status: 'loading'});
	const [round, setRound] = useState(0);
	const latest = useRef(load);
	latest.current = load;
	useEffect(() => {
		let live = true;
		setState({status: 'loading'});
		latest.current().then(
			data => {
				if (live) {
					setState({status: 'ready', data});
				}
			},
			(error: unknown) => {
				if (live) {
					const hint = error && typeof error === 'object' && 'hint' in error && typeof error.hint === 'string' ? error.hint : undefined;
					setState({status: 'error', error: error instanceof Error ? error.message : String(error), ...(hint ? {hint} : {})});
				}
			},
		);
		return () => {
			live = false;
		};
	}, [key, round]);
	const reload = useCallback(() => setRound(value => value + 1), []);
	useKeys(
		(input, pressed) => {
			if (commandFor(['global'], input, pressed) === 'refresh') {
				reload();
			}
		},
		{isActive: keys.refreshable},
	);
	return {...state, reload};
}
