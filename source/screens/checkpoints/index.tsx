import {useEffect, useLayoutEffect, useReducer, useState} from 'react';
import {useKeys} from '../hooks/use-keys.js';
import type {EngineClient} from '../engine-client.js';
import {commandFor, typedText} from '../keys.js';
import {NotReady} from '../components/states.js';
import {useEngine} from '../hooks/use-engine.js';
import {useList} from '../hooks/use-list.js';
import {useListState} from '../hooks/use-list-state.js';
import {draftOf, formReducer, initialForm, type FormState} from './form-state.js';
import {CheckpointFormView, CheckpointsView} from './view.js';
import {plural} from '../../lib/words.js';

export type FormRequest = {readonly session: string; readonly source: string} | null;

export type CheckpointsProps = {
	readonly client: EngineClient;
	/** Bumped after every write; the data is loaded again for it. */
	readonly revision: number;
	readonly active: boolean;
	readonly width: number;
	readonly height: number;
	readonly now: Date;
	/** A form the app asked for (from the Unfinished screen's `c`). */
	readonly request: FormRequest;
	readonly onRequestHandled: () => void;
	readonly onCapture: (capturing: boolean) => void;
	readonly onCounts: (counts: string) => void;
};

export function Checkpoints({client, revision, active, width, height, now, request, onRequestHandled, onCapture, onCounts}: CheckpointsProps) {
	const [message, setMessage] = useState<string | null>(null);
	const [form, dispatch] = useReducer((state: FormState | null, action: Parameters<typeof formReducer>[1] | {type: 'open'; form: FormState} | {type: 'close'}) => {
		if (action.type === 'open') {
			return action.form;
		}

		if (action.type === 'close') {
			return null;
		}

		return state ? formReducer(state, action) : state;
	}, null);
	const loaded = useEngine(() => client.checkpoints(), `checkpoints:${revision}`, {refreshable: active && form === null});
	const checkpoints = loaded.status === 'ready' ? loaded.data.checkpoints : [];
	// The rows under the heading line and above the message line.
	const [list, dispatchList] = useListState(Math.max(1, height - 2));
	useList(list, dispatchList, {count: checkpoints.length, isActive: active && form === null});
	// A layout effect, so the app knows before the next key that q and esc belong to the field.
	useLayoutEffect(() => onCapture(form !== null), [form !== null]);
	useEffect(() => {
		if (loaded.status === 'ready') {
			const blocked = checkpoints.filter(checkpoint => checkpoint.status === 'blocked').length;
			onCounts(`${plural(checkpoints.length, 'checkpoint')} · ${blocked} blocked · ${loaded.data.project ?? plural(loaded.data.files.length, 'project')}`);
		}
	}, [loaded.status, checkpoints]);
	useEffect(() => {
		if (request) {
			const previous = checkpoints.find(checkpoint => checkpoint.session === request.session);
			dispatch({type: 'open', form: initialForm(request.session, request.source, previous)});
			onRequestHandled();
		}
	}, [request]);

	const save = (state: FormState) => {
		const checked = draftOf(state);
		if ('error' in checked) {
			dispatch({type: 'failed', error: checked.error});
			return;
		}

		dispatch({type: 'saving'});
		client.recordCheckpoint(checked.draft).then(
			result => {
				dispatch({type: 'close'});
				setMessage(`recorded ${result.checkpoint.status} for ${result.checkpoint.session} in ${result.path}`);
			},
			(error: unknown) => dispatch({type: 'failed', error: error instanceof Error ? error.message : String(error)}),
		);
	};

	useKeys(
		(input, key) => {
			if (form) {
				const command = commandFor(['form', 'field'], input, key);
				const text = typedText(input, key);
				if (command === 'cancel') {
					dispatch({type: 'close'});
				} else if (command === 'submit') {
					save(form);
				} else if (command === 'next-field') {
					dispatch({type: 'next'});
				} else if (command === 'previous-field') {
					dispatch({type: 'previous'});
				} else if (command === 'status-back' || command === 'status-forward') {
					dispatch({type: 'cycle-status', by: command === 'status-back' ? -1 : 1});
				} else if (command === 'erase') {
					dispatch({type: 'erase'});
				} else if (text !== undefined) {
					dispatch({type: 'type', text});
				}

				return;
			}

			if (commandFor(['checkpoints'], input, key) === 'new-checkpoint') {
				const selected = checkpoints[list.cursor];
				if (selected) {
					dispatch({type: 'open', form: initialForm(selected.session, selected.source, selected)});
				} else {
					setMessage('choose a session on the Unfinished screen and press c to record its first checkpoint');
				}
			}
		},
		{isActive: active},
	);

	if (loaded.status !== 'ready') {
		return <NotReady loaded={loaded} label="checkpoints" />;
	}

	return form ? <CheckpointFormView form={form} width={width} /> : <CheckpointsView checkpoints={checkpoints} project={loaded.data.project} projects={loaded.data.files.length} list={list} width={width} now={now} message={message} />;
}
