import {useEffect, useLayoutEffect, useReducer} from 'react';
import {useKeys} from '../hooks/use-keys.js';
import {listActionFor} from '../hooks/use-list-state.js';
import type {EngineClient} from '../engine-client.js';
import {commandFor, typedText} from '../keys.js';
import {EmptyState, ErrorState} from '../components/states.js';
import {noKnowledgeBase} from '../project/index.js';
import {detailRows, openDetail, QueryView, resultRows} from './view.js';
import {initialQuery, paneOf, queryReducer} from './state.js';
import {plural} from '../../lib/words.js';

/** What the app gives the keys to: every key (a field is typed in), only esc (an open view closes with it), or none. */
export type Capture = boolean | 'back';

export type QueryProps = {
	readonly client: EngineClient;
	readonly active: boolean;
	readonly width: number;
	readonly height: number;
	readonly initial?: string;
	/** A contract file (`engi query --q <q> --evidence-contract <file>`): its answer is shown first. */
	readonly contract?: string;
	readonly onCapture: (capture: Capture) => void;
	readonly onCounts: (counts: string) => void;
};

export function Query({client, active, width, height, initial, contract, onCapture, onCounts}: QueryProps) {
	const hasKb = client.hasKnowledgeBase();
	const [state, dispatch] = useReducer(queryReducer, {text: initial ?? '', heights: {list: resultRows(height), detail: detailRows(height)}}, ({text, heights}) => initialQuery(text, heights));
	const pane = paneOf(state);
	const fail = (failure: unknown) => dispatch({type: 'failed', message: failure instanceof Error ? failure.message : String(failure)});
	const run = (q: string) => {
		if (!q.trim()) {
			return;
		}

		client.query(q).then(output => {
			if (output.view === 'context') {
				dispatch({type: 'loaded', result: output});
				onCounts(`${plural(output.total, 'match', 'matches')} for “${q}”`);
			}
		}, fail);
	};

	const openEvidence = () => {
		const row = state.result?.rows[state.list.cursor];
		if (!state.result || !row) {
			return;
		}

		client.queryEvidence(state.result.q, state.result.as_of).then(output => {
			const candidate = output.view === 'evidence' ? output.candidates.find(entry => entry.id === row.node_id) : undefined;
			if (candidate) {
				dispatch({type: 'evidence', candidate});
			} else {
				fail(new Error(`${row.node_id} is no longer among the evidence of “${state.result!.q}”`));
			}
		}, fail);
	};

	useEffect(() => {
		if (hasKb && contract !== undefined && initial !== undefined) {
			client.evaluateContract(contract, initial).then(answer => dispatch({type: 'contract', answer}), fail);
		}

		if (initial && hasKb) {
			run(initial);
		}
	}, []);
	useEffect(() => {
		dispatch({type: 'list', action: {type: 'resize', height: resultRows(height)}});
		dispatch({type: 'detail', action: {type: 'resize', height: detailRows(height)}});
	}, [height]);
	const opened = openDetail(state);
	const detail = opened && {...opened, list: state.detail};
	// A layout effect, so the app knows before the next key that q and esc belong to the field, or esc to the open view.
	useLayoutEffect(() => onCapture(active && hasKb && (state.editing || (pane !== 'results' && 'back'))), [active, state.editing, pane, hasKb]);
	useKeys(
		(input, key) => {
			if (state.editing) {
				const command = commandFor(['field'], input, key);
				const typed = typedText(input, key);
				if (command === 'dismiss') {
					dispatch({type: 'end-edit'});
				} else if (command === 'accept') {
					dispatch({type: 'end-edit'});
					run(state.text);
				} else if (command === 'erase') {
					dispatch({type: 'erase'});
				} else if (typed !== undefined) {
					dispatch({type: 'type', text: typed});
				}

				return;
			}

			if (detail) {
				if (commandFor(['global'], input, key) === 'back') {
					dispatch({type: 'back'});
				}

				const action = listActionFor(commandFor(['list'], input, key), state.detail, detail.lines.length);
				if (action) {
					dispatch({type: 'detail', action});
				}

				return;
			}

			const command = commandFor(['query'], input, key);
			if (command === 'edit-query') {
				dispatch({type: 'edit'});
			} else if (command === 'evidence') {
				openEvidence();
			}

			const action = listActionFor(commandFor(['list'], input, key), state.list, state.result?.rows.length ?? 0);
			if (action) {
				dispatch({type: 'list', action});
			}
		},
		{isActive: active && hasKb},
	);

	if (!hasKb) {
		return <EmptyState title={noKnowledgeBase.title} hint={noKnowledgeBase.hint} />;
	}

	if (state.error) {
		return <ErrorState message={state.error} />;
	}

	return <QueryView text={state.text} editing={state.editing} pane={pane} result={state.result} list={state.list} detail={detail} width={width} />;
}
