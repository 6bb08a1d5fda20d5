import {useEffect, useLayoutEffect, useMemo, useReducer, useRef} from 'react';
import {useKeys} from '../hooks/use-keys.js';
import type {EngineClient} from '../engine-client.js';
import {commandFor} from '../keys.js';
import {NotReady} from '../components/states.js';
import {useEngine} from '../hooks/use-engine.js';
import type {Candidate} from '../../engine/continuity/unfinished.js';
import {buildFilterIndex} from './filter-index.js';
import {initialTriage, triageReducer, visibleCandidates} from './state.js';
import {TriageView} from './view.js';

export type TriageProps = {
	readonly client: EngineClient;
	/** Bumped after every write; the data is loaded again for it. */
	readonly revision: number;
	readonly active: boolean;
	readonly width: number;
	readonly height: number;
	readonly now: Date;
	readonly onOpen: (candidate: Candidate) => void;
	readonly onCheckpoint: (candidate: Candidate) => void;
	/** Tells the app that keys are being typed into a field (so q is a letter, not quit). */
	readonly onCapture: (capturing: boolean) => void;
	readonly onCounts: (counts: string) => void;
};

export function Triage({client, revision, active, width, height, now, onOpen, onCheckpoint, onCapture, onCounts}: TriageProps) {
	const [state, dispatch] = useReducer(triageReducer, Math.max(1, height - 2), initialTriage);
	const loaded = useEngine(() => client.unfinished(), `unfinished:${revision}`, {refreshable: active && !state.filtering && state.confirm === null});
	const filterIndex = useRef<((text: string) => Set<string>) | undefined>(undefined);
	const candidates = loaded.status === 'ready' ? loaded.data.candidates : [];
	useEffect(() => {
		filterIndex.current = undefined;
	}, [candidates]);
	useEffect(() => dispatch({type: 'resize', height: Math.max(1, height - 2)}), [height]);
	// A layout effect, so the app knows before the next key that q and esc belong to the field.
	useLayoutEffect(() => onCapture(state.filtering || state.confirm !== null), [state.filtering, state.confirm]);
	const matches = useMemo(() => {
		if (state.filter.trim() === '') {
			return null;
		}

		filterIndex.current ??= buildFilterIndex(candidates);
		return filterIndex.current(state.filter);
	}, [candidates, state.filter]);
	const rows = useMemo(() => visibleCandidates(candidates, state, matches), [candidates, state.sort, state.source, matches]);
	useEffect(() => {
		if (loaded.status === 'ready') {
			const high = candidates.filter(candidate => candidate.confidence === 'high').length;
			onCounts(`${candidates.length} unfinished · ${high} high confidence · since ${loaded.data.scope.since.slice(0, 10)}`);
		}
	}, [loaded.status, candidates]);

	useKeys(
		(input, key) => {
			if (state.confirm) {
				const command = commandFor(['confirm'], input, key);
				if (command === 'yes') {
					const {id, source, status} = state.confirm;
					client
						.recordCheckpoint({session: id, source, status, objective: `marked ${status} from the dashboard`})
						.then(
							result => dispatch({type: 'answered', message: `${id} marked ${status} in ${result.path}`}),
							(error: unknown) => dispatch({type: 'answered', message: `could not record: ${error instanceof Error ? error.message : String(error)}`}),
						);
				} else if (command === 'no') {
					dispatch({type: 'answered', message: null});
				}

				return;
			}

			if (state.filtering) {
				if (key.escape) {
					dispatch({type: 'end-filter', keep: false});
				} else if (key.return) {
					dispatch({type: 'end-filter', keep: true});
				} else if (key.backspace || key.delete) {
					dispatch({type: 'erase'});
				} else if (input && !key.ctrl && !key.meta) {
					dispatch({type: 'type', text: input});
				}

				return;
			}

			const selected = rows[state.cursor];
			switch (commandFor(['triage', 'list'], input, key)) {
				case 'down':
					dispatch({type: 'move', by: 1, count: rows.length});
					break;
				case 'up':
					dispatch({type: 'move', by: -1, count: rows.length});
					break;
				case 'page-down':
					dispatch({type: 'move', by: state.height, count: rows.length});
					break;
				case 'page-up':
					dispatch({type: 'move', by: -state.height, count: rows.length});
					break;
				case 'home':
					dispatch({type: 'jump', to: 'start', count: rows.length});
					break;
				case 'end':
					dispatch({type: 'jump', to: 'end', count: rows.length});
					break;
				case 'filter':
					dispatch({type: 'start-filter'});
					break;
				case 'sort':
					dispatch({type: 'cycle-sort'});
					break;
				case 'source-filter':
					dispatch({type: 'cycle-source', sources: [...new Set(candidates.map(candidate => candidate.source))].sort()});
					break;
				case 'open':
					if (selected) {
						onOpen(selected);
					}

					break;
				case 'checkpoint':
					if (selected) {
						onCheckpoint(selected);
					}

					break;
				case 'complete':
				case 'supersede':
					if (selected) {
						dispatch({type: 'ask', confirm: {id: selected.id, source: selected.source, status: commandFor(['triage'], input, key) === 'complete' ? 'completed' : 'superseded'}});
					}

					break;
				default:
					break;
			}
		},
		{isActive: active},
	);

	if (loaded.status !== 'ready') {
		return <NotReady loaded={loaded} label="unfinished sessions" />;
	}

	return <TriageView rows={rows} total={candidates.length} state={state} width={width} now={now} />;
}
