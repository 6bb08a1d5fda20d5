import {useCallback, useMemo, useRef, useState} from 'react';
import {Box, useApp} from 'ink';
import {KeyRouter, useKeys} from './hooks/use-keys.js';
import type {Candidate} from '../engine/continuity/unfinished.js';
import type {PickupOutput} from '../engine/continuity/pickup.js';
import {Checkpoints, type FormRequest} from './checkpoints/index.js';
import {Frame} from './components/frame.js';
import {HelpOverlay} from './components/help-overlay.js';
import type {EngineClient} from './engine-client.js';
import {useTerminalSize} from './hooks/use-terminal-size.js';
import {commandFor, hintsFor} from './keys.js';
import {Pickup, type PickupTarget} from './pickup/index.js';
import {Project} from './project/index.js';
import {Query, type Capture} from './query/index.js';
import {Retention} from './retention/index.js';
import {Review} from './review/index.js';
import {Standup} from './standup/index.js';
import {screenOrder, screenScopes, type ScreenId} from './navigation.js';
import {Unfinished} from './unfinished/index.js';

export type TuiResult = {readonly kind: 'quit'} | {readonly kind: 'pickup'; readonly pickup: Extract<PickupOutput, {status: 'ok'}>};

export type AppProps = {
	readonly client: EngineClient;
	readonly initialScreen: ScreenId;
	readonly initialQuery?: string;
	/** A contract file for the Query screen to answer first (`engi query --evidence-contract`). */
	readonly initialContract?: string;
	readonly initialTarget?: PickupTarget;
	/** Fixed clock for snapshots; the live dashboard uses the real time. */
	readonly now?: Date;
	/** Terminal size for tests, where there is no real terminal to ask. */
	readonly size?: {columns: number; rows: number};
	/** Told what the person decided, just before the app exits with it. */
	readonly onDecision?: (result: TuiResult) => void;
};

/**
 * The dashboard: a screen router (a visited screen stays mounted, so its place is kept), the
 * global keys, and the help overlay. Screens decide; the app only routes and, when a pickup is
 * chosen, exits with it so the CLI can print the commands after Ink has let go of the terminal.
 */
export function App(props: AppProps) {
	return (
		<KeyRouter>
			<Dashboard {...props} />
		</KeyRouter>
	);
}

function Dashboard({client, initialScreen, initialQuery, initialContract, initialTarget, now, size, onDecision}: AppProps) {
	const {exit: exitApp} = useApp();
	const exit = (result: TuiResult) => {
		onDecision?.(result);
		exitApp(result);
	};
	const terminal = useTerminalSize();
	const {columns, rows} = size ?? terminal;
	const width = Math.max(40, columns);
	const height = Math.max(10, rows);
	const [screen, setScreen] = useState<ScreenId>(initialScreen);
	const [history, setHistory] = useState<ScreenId[]>([]);
	const [visited, setVisited] = useState<Set<ScreenId>>(new Set([initialScreen]));
	const [help, setHelp] = useState<{open: boolean; offset: number}>({open: false, offset: 0});
	// A ref, not state: a screen says so from a layout effect of the frame where its field opened,
	// and the next key of the same chunk (`x29`, `/q`) is delivered in that commit, before a state
	// update here would be rendered.
	const capturing = useRef<Capture>(false);
	const [counts, setCounts] = useState<Partial<Record<ScreenId, string>>>({});
	const [target, setTarget] = useState<PickupTarget | null>(initialTarget ?? null);
	const [formRequest, setFormRequest] = useState<FormRequest>(null);
	const clock = now ?? new Date();
	// A recorded checkpoint changes the stand-up, the unfinished list, the checkpoints and the
	// brief (a promoted candidate records one, and leaves the review queue): each screen keys its data on this revision, so every one of them reloads after a
	// write, whichever screen made it.
	const [revision, setRevision] = useState(0);
	const engine = useMemo<EngineClient>(
		() => ({
			...client,
			async recordCheckpoint(draft) {
				const result = await client.recordCheckpoint(draft);
				setRevision(value => value + 1);
				return result;
			},
			// A promotion writes a checkpoint and both change the queue: the same reload.
			async promoteCandidate(ref) {
				const result = await client.promoteCandidate(ref);
				setRevision(value => value + 1);
				return result;
			},
			async rejectCandidate(ref) {
				const result = await client.rejectCandidate(ref);
				setRevision(value => value + 1);
				return result;
			},
		}),
		[client],
	);

	const go = useCallback((next: ScreenId, remember = true) => {
		setScreen(current => {
			if (remember && current !== next) {
				setHistory(stack => [...stack, current]);
			}

			return next;
		});
		setVisited(seen => (seen.has(next) ? seen : new Set([...seen, next])));
	}, []);
	const openPickup = useCallback((candidate: Candidate) => {
		setTarget({id: candidate.id, source: candidate.source});
		go('pickup');
	}, []);
	const countsFor = (id: ScreenId) => (text: string) => setCounts(current => (current[id] === text ? current : {...current, [id]: text}));

	useKeys((input, key) => {
		if (help.open) {
			// The overlay closes with the keys that open it, go back or quit, and scrolls as a list does.
			const command = commandFor(['global', 'list'], input, key);
			if (command === 'help' || command === 'back' || command === 'quit') {
				setHelp({open: false, offset: 0});
			} else if (command === 'down') {
				setHelp(current => ({...current, offset: current.offset + 1}));
			} else if (command === 'up') {
				setHelp(current => ({...current, offset: Math.max(0, current.offset - 1)}));
			}

			return;
		}

		if (capturing.current === true) {
			return; // A field has the keys: q is a letter there, and esc belongs to the field.
		}

		switch (commandFor(['global'], input, key)) {
			case 'help':
				setHelp({open: true, offset: 0});
				break;
			case 'next-screen':
			case 'previous-screen': {
				const step = key.shift ? -1 : 1;
				go(screenOrder[(screenOrder.indexOf(screen) + step + screenOrder.length) % screenOrder.length]!, false);
				break;
			}

			case 'go-screen': {
				const next = screenOrder[Number(input) - 1];
				if (next) {
					go(next);
				}

				break;
			}

			case 'quit':
				exit({kind: 'quit'} satisfies TuiResult);
				break;
			case 'back': {
				if (capturing.current === 'back') {
					break; // Esc closes the view the screen has open.
				}

				const previous = history.at(-1);
				if (previous === undefined) {
					exit({kind: 'quit'} satisfies TuiResult);
				} else {
					setHistory(stack => stack.slice(0, -1));
					setScreen(previous);
				}

				break;
			}

			default:
				break;
		}
	}, {isActive: true});

	const bodyHeight = height - 3;
	const show = (id: ScreenId) => (visited.has(id) ? {display: screen === id ? ('flex' as const) : ('none' as const)} : undefined);
	const active = (id: ScreenId) => screen === id && !help.open;
	const captureFor = (id: ScreenId) => (value: Capture) => {
		if (screen === id || !value) {
			capturing.current = value;
		}
	};

	return (
		<Frame screen={screen} width={width} height={height} counts={counts[screen] ?? ''} hints={hintsFor(screenScopes[screen], width)}>
			{help.open ? <HelpOverlay width={width} height={bodyHeight} offset={help.offset} scope={screenScopes[screen]} /> : null}
			<Box flexDirection="column" display={help.open ? 'none' : 'flex'}>
				{show('standup') ? (
					<Box {...show('standup')} flexDirection="column">
						<Standup client={engine} revision={revision} active={active('standup')} width={width} height={bodyHeight} now={clock} onOpen={openPickup} onCounts={countsFor('standup')} />
					</Box>
				) : null}
				{show('unfinished') ? (
					<Box {...show('unfinished')} flexDirection="column">
						<Unfinished
							client={engine}
							revision={revision}
							active={active('unfinished')}
							width={width}
							height={bodyHeight}
							now={clock}
							onOpen={openPickup}
							onCheckpoint={candidate => {
								setFormRequest({session: candidate.id, source: candidate.source});
								go('checkpoints');
							}}
							onCapture={captureFor('unfinished')}
							onCounts={countsFor('unfinished')}
						/>
					</Box>
				) : null}
				{show('checkpoints') ? (
					<Box {...show('checkpoints')} flexDirection="column">
						<Checkpoints client={engine} revision={revision} active={active('checkpoints')} width={width} height={bodyHeight} now={clock} request={formRequest} onRequestHandled={() => setFormRequest(null)} onCapture={captureFor('checkpoints')} onCounts={countsFor('checkpoints')} />
					</Box>
				) : null}
				{show('project') ? (
					<Box {...show('project')} flexDirection="column">
						<Project client={engine} active={active('project')} width={width} height={bodyHeight} onCounts={countsFor('project')} />
					</Box>
				) : null}
				{show('query') ? (
					<Box {...show('query')} flexDirection="column">
						<Query client={engine} active={active('query')} width={width} height={bodyHeight} initial={initialQuery} contract={initialContract} onCapture={captureFor('query')} onCounts={countsFor('query')} />
					</Box>
				) : null}
				{show('pickup') ? (
					<Box {...show('pickup')} flexDirection="column">
						<Pickup client={engine} revision={revision} target={target} active={active('pickup')} width={width} height={bodyHeight} onResume={pickup => exit({kind: 'pickup', pickup} satisfies TuiResult)} onCounts={countsFor('pickup')} />
					</Box>
				) : null}
				{show('review') ? (
					<Box {...show('review')} flexDirection="column">
						<Review client={engine} revision={revision} active={active('review')} width={width} height={bodyHeight} onCapture={captureFor('review')} onCounts={countsFor('review')} />
					</Box>
				) : null}
				{show('retention') ? (
					<Box {...show('retention')} flexDirection="column">
						<Retention client={engine} revision={revision} active={active('retention')} width={width} height={bodyHeight} now={clock} onCapture={captureFor('retention')} onCounts={countsFor('retention')} />
					</Box>
				) : null}
			</Box>
		</Frame>
	);
}
