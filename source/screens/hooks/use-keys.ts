import {createContext, createElement, useCallback, useContext, useLayoutEffect, useRef, useState, type ReactNode} from 'react';
import {useInput, type Key} from 'ink';
import {keypressesOf} from '../keys.js';

type KeyHandler = (input: string, key: Key) => void;
type Listener = {current: {handler: KeyHandler; isActive: boolean}};

/**
 * Delivers keys to every screen's handler, one key at a time, each after the frame of the one
 * before has been committed.
 *
 * Terminals and tmux send what was typed quickly (or pasted) as one chunk, `jj` or two
 * backspaces, and Ink hands such a chunk over as a single input; here it is split into its keys.
 * A key is delivered at once when the previous one's frame is on screen; otherwise it waits, and
 * is delivered from a layout effect of the render the previous key caused (the router asks for
 * that render itself, so there always is one). Children's layout effects run before their
 * parent's, so by then every handler below has been swapped for the one of the new frame: `jj`
 * moves two rows, and `2j` reaches the screen that `2` opened. React renders asynchronously;
 * waiting a turn of the event loop instead would sometimes hand a key to the previous frame.
 */
function createRouter(requestRender: () => void) {
	const listeners = new Set<Listener>();
	const queue: Array<readonly [string, Key]> = [];
	/** A key was delivered and its frame is not committed yet. */
	let waiting = false;
	const deliverNext = () => {
		const next = queue.shift();
		waiting = next !== undefined;
		if (next === undefined) {
			return;
		}

		for (const listener of [...listeners]) {
			if (listener.current.isActive) {
				listener.current.handler(...next);
			}
		}

		requestRender();
	};

	return {
		deliverNext,
		listen(listener: Listener) {
			listeners.add(listener);
			return () => {
				listeners.delete(listener);
			};
		},
		receive(input: string, key: Key) {
			queue.push(...keypressesOf(input, key));
			if (!waiting) {
				deliverNext();
			}
		},
	};
}

type Router = ReturnType<typeof createRouter>;
const RouterContext = createContext<Router | null>(null);

/** The one subscription to Ink's input, for everything below it that calls useKeys. */
export function KeyRouter({children}: {readonly children: ReactNode}) {
	const [round, setRound] = useState(0);
	const [router] = useState(() => createRouter(() => setRound(value => value + 1)));
	useInput(useCallback((input: string, key: Key) => router.receive(input, key), [router]));
	useLayoutEffect(() => router.deliverNext(), [round]);
	return createElement(RouterContext.Provider, {value: router}, children);
}

/**
 * A key handler that always sees the latest committed render.
 *
 * The handler and its activity are swapped in by a layout effect, which runs in the same commit
 * that draws the frame, so a key always acts on what the user sees (Ink re-subscribes a changed
 * handler in a passive effect, some time after the frame is on screen). Registration is a layout
 * effect too: a screen that has just been mounted hears the next key.
 */
export function useKeys(handler: KeyHandler, options: {readonly isActive: boolean}): void {
	const router = useContext(RouterContext);
	if (router === null) {
		throw new Error('useKeys needs a KeyRouter above it');
	}

	const latest = useRef({handler, isActive: options.isActive});
	useLayoutEffect(() => {
		latest.current = {handler, isActive: options.isActive};
	});
	useLayoutEffect(() => router.listen(latest), [router]);
}
