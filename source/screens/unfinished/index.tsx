import {useEffect, useLayoutEffect, useMemo, useReducer, useRef} from 'react';
import {useKeys} from '../hooks/use-keys.js';
import type {EngineClient} from '../engine-client.js';
import {commandFor, filterKeyAction} from '../keys.js';
import {NotReady} from '../components/states.js';
import {useEngine} from '../hooks/use-engine.js';
import {useList} from '../hooks/use-list.js';
import type {Candidate} from '../../engine/continuity/unfinished.js';
import {buildFilterIndex} from './filter-index.js';
import {initialUnfinished, unfinishedReducer, visibleCandidates} from './state.js';
import {UnfinishedView} from './view.js';

export type UnfinishedProps = {
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

export function Unfinished({client, revision, active, width, height, now, onOpen, onCheckpoint, onCapture, onCounts}: UnfinishedProps) {
	const [state, dispatch] = useReducer(unfinishedReducer, Math.max(1, height - 2), initialUnfinished);
	// A filter being typed or a question being asked has the keys.
	const typing = state.filtering || state.confirm !== null;
	const loaded = useEngine(() => client.unfinished(), `unfinished:${revision}`, {refreshable: active && !typing});
	const filterIndex = useRef<((text: string) => Set<string>) | undefined>(undefined);
	const candidates = loaded.status === 'ready' ? loaded.data.candidates : [];
	useEffect(() => {
		filterIndex.current = undefined;
	}, [candidates]);
	useEffect(() => dispatch({type: 'list', action: {type: 'resize', height: Math.max(1, height - 2)}}), [height]);
	// A layout effect, so the app knows before the next key that q and esc belong to the field.
	useLayoutEffect(() => onCapture(typing), [typing]);
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

	useList(state.list, action => dispatch({type: 'list', action}), {count: rows.length, isActive: active && !typing});
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
				const action = filterKeyAction(input, key);
				if (action) {
					dispatch(action);
				}

				return;
			}

			const selected = rows[state.list.cursor];
			const command = commandFor(['unfinished'], input, key);
			switch (command) {
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
						dispatch({type: 'ask', confirm: {id: selected.id, source: selected.source, status: command === 'complete' ? 'completed' : 'superseded'}});
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

	return <UnfinishedView rows={rows} total={candidates.length} state={state} width={width} now={now} />;
}
