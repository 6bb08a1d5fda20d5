import {useEffect, useRef, useState} from 'react';
import {commandFor} from '../keys.js';
import {useKeys} from './use-keys.js';

export type Loaded<T> = {readonly status: 'loading'} | {readonly status: 'error'; readonly error: string; readonly hint?: string} | {readonly status: 'ready'; readonly data: T};

/**
 * Milliseconds between showing an early answer and starting the full call: the full call holds
 * the event loop while it runs, so Ink (which draws at most 30 frames a second, the latest one
 * on a timer) must have written the early frame first.
 */
const paintGapMs = 250;

/**
 * Runs one engine call for a screen and reports loading, error or ready. The only place screens
 * reach the engine. It runs again when `key` changes (the app bumps a revision into the keys
 * of the screens a write affects) and on the refresh key (`r`) while `keys` says the screen is
 * the one being used and no field has the keys.
 *
 * `early`, when given, is a cheaper call for the screen's first load only (the same answer from
 * the session catalog as it stands): its answer is shown at once, and the full call replaces it
 * when it is done. Either way a frame shows real data, never a guess.
 *
 * An answer belongs to the key it was loaded for: in the render where the key changes (another
 * session chosen, another page), before the effect has even started the new call, the screen
 * sees `loading`, never the previous key's data (or its absence) as if it were the new one's.
 */
export function useEngine<T>(load: () => Promise<T>, key: string, keys: {readonly refreshable: boolean; readonly early?: () => Promise<T>}): Loaded<T> {
	const [state, setState] = useState<{key: string; loaded: Loaded<T>; early?: boolean}>({key, loaded: {status: 'loading'}});
	const [round, setRound] = useState(0);
	const latest = useRef(load);
	latest.current = load;
	const early = useRef(keys.early);
	useEffect(() => {
		let live = true;
		setState({key, loaded: {status: 'loading'}});
		const first = early.current;
		early.current = undefined;
		(first ?? latest.current)().then(
			data => {
				if (live) {
					setState({key, loaded: {status: 'ready', data}, early: first !== undefined});
				}
			},
			(error: unknown) => {
				if (live) {
					setState(first ? {key, loaded: {status: 'loading'}, early: true} : {key, loaded: failed(error)});
				}
			},
		);
		return () => {
			live = false;
		};
	}, [key, round]);
	// After an early answer has been committed (and so handed to Ink), the full call, once Ink has drawn it.
	const needsFull = state.early === true && state.key === key;
	useEffect(() => {
		if (!needsFull) {
			return;
		}

		let live = true;
		const timer = setTimeout(() => {
			latest.current().then(
				data => {
					if (live) {
						setState({key, loaded: {status: 'ready', data}});
					}
				},
				(error: unknown) => {
					if (live) {
						setState({key, loaded: failed(error)});
					}
				},
			);
		}, paintGapMs);
		return () => {
			live = false;
			clearTimeout(timer);
		};
	}, [needsFull, key]);
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

function failed(error: unknown): Loaded<never> {
	const hint = error && typeof error === 'object' && 'hint' in error && typeof error.hint === 'string' ? error.hint : undefined;
	return {status: 'error', error: error instanceof Error ? error.message : String(error), ...(hint ? {hint} : {})};
}
