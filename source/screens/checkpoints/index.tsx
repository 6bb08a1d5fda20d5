import {useEffect, useLayoutEffect, useReducer, useState} from 'react';
import {useKeys} from '../hooks/use-keys.js';
import type {EngineClient} from '../engine-client.js';
import {commandFor} from '../keys.js';
import {NotReady} from '../components/states.js';
import {scrollTo} from '../components/virtual-list.js';
import {useEngine} from '../hooks/use-engine.js';
import {draftOf, formReducer, initialForm, type FormState} from './form-state.js';
import {CheckpointFormView, CheckpointsView} from './view.js';
import {plural} from '../../lib/plural.js';

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
	const [cursor, setCursor] = useState(0);
	const [top, setTop] = useState(0);
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
				if (key.escape) {
					dispatch({type: 'close'});
				} else if (key.return) {
					save(form);
				} else if (key.tab || key.downArrow) {
					dispatch({type: key.shift ? 'previous' : 'next'});
				} else if (key.upArrow) {
					dispatch({type: 'previous'});
				} else if (key.leftArrow || key.rightArrow) {
					dispatch({type: 'cycle-status', by: key.leftArrow ? -1 : 1});
				} else if (key.backspace || key.delete) {
					dispatch({type: 'erase'});
				} else if (input && !key.ctrl && !key.meta) {
					dispatch({type: 'type', text: input});
				}

				return;
			}

			const move = (to: number) => {
				const next = Math.max(0, Math.min(checkpoints.length - 1, to));
				setCursor(next);
				setTop(current => scrollTo(next, current, Math.max(1, height - 2)));
			};

			switch (commandFor(['checkpoints', 'list'], input, key)) {
				case 'down':
					move(cursor + 1);
					break;
				case 'up':
					move(cursor - 1);
					break;
				case 'new-checkpoint': {
					const selected = checkpoints[cursor];
					if (selected) {
						dispatch({type: 'open', form: initialForm(selected.session, selected.source, selected)});
					} else {
						setMessage('choose a session on the Unfinished screen and press c to record its first checkpoint');
					}

					break;
				}

				default:
					break;
			}
		},
		{isActive: active},
	);

	if (loaded.status !== 'ready') {
		return <NotReady loaded={loaded} label="checkpoints" />;
	}

	return form ? <CheckpointFormView form={form} width={width} /> : <CheckpointsView checkpoints={checkpoints} project={loaded.data.project} projects={loaded.data.files.length} cursor={cursor} top={top} height={height} width={width} now={now} message={message} />;
}
