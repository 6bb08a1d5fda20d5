import {useCallback, useLayoutEffect, useRef} from 'react';
import {useInput, type Key} from 'ink';

type KeyHandler = (input: string, key: Key) => void;

/**
 * `useInput` whose handler always sees the latest committed render.
 *
 * Ink re-subscribes a changed handler in a passive effect, which React runs some time after the
 * frame is on screen; a key typed in that window reached the previous render's closure (a list
 * still empty, a screen no longer shown). Here one stable listener stays subscribed, and a layout
 * effect, which runs in the same commit that draws the frame, swaps in the new handler and
 * activity, so a key always acts on what the user sees.
 */
export function useKeys(handler: KeyHandler, options: {readonly isActive: boolean}): void {
	const latest = useRef({handler, isActive: options.isActive});
	useLayoutEffect(() => {
		latest.current = {handler, isActive: options.isActive};
	});
	const listener = useCallback<KeyHandler>((input, key) => {
		if (latest.current.isActive) {
			latest.current.handler(input, key);
		}
	}, []);
	// Always subscribed, so raw mode stays on while the dashboard is open and a screen that
	// becomes active does not wait for an effect before hearing keys.
	useInput(listener);
}
