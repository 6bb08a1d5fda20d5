import {useCallback, useEffect, useRef, useState} from 'react';

export type Loaded<T> = {readonly status: 'loading'} | {readonly status: 'error'; readonly error: string; readonly hint?: string} | {readonly status: 'ready'; readonly data: T};

/**
 * Runs one engine call for a screen and reports loading, error or ready. The only place screens
 * reach the engine; `reload` runs it again (after a write, or on `r`).
 */
export function useEngine<T>(load: () => Promise<T>, key: string): Loaded<T> & {reload(): void} {
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
	return {...state, reload};
}
