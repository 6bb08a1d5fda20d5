import {useEffect, useLayoutEffect, useMemo, useReducer, useRef} from 'react';
import {useKeys} from '../hooks/use-keys.js';
import type {EngineClient} from '../engine-client.js';
import {commandFor, filterKeyAction, typedText} from '../keys.js';
import {EmptyState, NotReady} from '../components/states.js';
import {useEngine} from '../hooks/use-engine.js';
import {useList} from '../hooks/use-list.js';
import {noKnowledgeBase} from '../project/index.js';
import type {PlanOutput} from '../../engine/retention/plan.js';
import type {SweepOutput} from '../../engine/retention/sweep.js';
import {byteSize} from '../../lib/words.js';
import {countConfirmed, initialRetention, retentionReducer, visibleSessions} from './state.js';
import {blockerCounts, listHeight, RetentionView} from './view.js';

export type RetentionProps = {
	readonly client: EngineClient;
	/** Bumped after every write; the data is loaded again for it. */
	readonly revision: number;
	readonly active: boolean;
	readonly width: number;
	readonly height: number;
	readonly now: Date;
	/** Tells the app that keys are being typed into a field (so q is a letter, not quit). */
	readonly onCapture: (capturing: boolean) => void;
	readonly onCounts: (counts: string) => void;
};

/** A frame drawn between two items of a sweep: the engine awaits it, so the bar moves. */
const nextFrame = async () =>
	new Promise<void>(resolve => {
		setImmediate(resolve);
	});

export function Retention({client, revision, active, width, height, now, onCapture, onCounts}: RetentionProps) {
	const hasKb = client.hasKnowledgeBase();
	const [state, dispatch] = useReducer(retentionReducer, listHeight(height), initialRetention);
	const running = state.execution.phase === 'running';
	// A filter or the count being typed has the keys; so does a running sweep (q must not leave it half done).
	const capturing = state.filtering || state.execution.phase === 'confirm' || running;
	const loaded = useEngine(
		async (): Promise<[PlanOutput, SweepOutput] | undefined> => (hasKb ? Promise.all([client.retentionPlan(), client.retentionSweep()]) : undefined),
		`retention:${revision}:${state.generation}`,
		{refreshable: active && !capturing},
	);
	// After a sweep the plan is loaded again; meanwhile its receipts stay on the screen, over the plan they executed.
	const last = useRef<[PlanOutput, SweepOutput] | undefined>(undefined);
	if (loaded.status === 'ready') {
		last.current = loaded.data;
	}

	const ended = state.execution.phase === 'done' || state.execution.phase === 'failed';
	const data = loaded.status === 'ready' ? loaded.data : ended && loaded.status === 'loading' ? last.current : undefined;
	useEffect(() => dispatch({type: 'list', action: {type: 'resize', height: listHeight(height)}}), [height]);
	// A layout effect, so the app knows before the next key that q and esc belong to the field.
	useLayoutEffect(() => onCapture(capturing), [capturing]);
	const sessions = data?.[0].sessions ?? [];
	const rows = useMemo(() => visibleSessions(sessions, state), [sessions, state.blocker, state.filter]);
	const counts = useMemo(() => (data ? blockerCounts(data[0]) : []), [data]);
	useEffect(() => {
		if (data) {
			const [plan] = data;
			onCounts(`${plan.total} sessions · ${plan.eligible} eligible · ${plan.compactable} compactable · ${plan.blocked} blocked · ${byteSize(plan.eligible_bytes + plan.compactable_bytes)} retirable`);
		}
	}, [data]);
	const receipts = state.execution.phase === 'done' ? (state.execution.output.items ?? []) : [];
	const listCount = state.view === 'blockers' ? counts.length : state.view === 'sessions' ? rows.length : state.view === 'receipts' ? receipts.length : 0;
	useList(state.list, action => dispatch({type: 'list', action}), {count: listCount, isActive: active && !capturing});

	const execute = (plan: string, total: number) => {
		dispatch({type: 'start', total});
		client
			.retentionSweep({
				plan,
				async onProgress(progress) {
					dispatch({type: 'progress', done: progress.done, total: progress.total, item: progress.item});
					await nextFrame();
				},
			})
			.then(
				output => dispatch({type: 'finished', output}),
				(error: unknown) => dispatch({type: 'failed', error: error instanceof Error ? error.message : String(error)}),
			);
	};

	useKeys(
		(input, key) => {
			if (!data || running) {
				return;
			}

			const sweep = data[1];
			if (state.execution.phase === 'confirm') {
				const command = commandFor(['field'], input, key);
				const text = typedText(input, key);
				if (command === 'dismiss') {
					dispatch({type: 'cancel-count'});
				} else if (command === 'accept') {
					if (countConfirmed(state.execution, sweep.planned)) {
						execute(sweep.plan_sha256, sweep.planned);
					} else {
						dispatch({type: 'count-mismatch', planned: sweep.planned});
					}
				} else if (command === 'erase') {
					dispatch({type: 'erase-count'});
				} else if (text !== undefined) {
					dispatch({type: 'type-count', text});
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

			switch (commandFor(['retention'], input, key)) {
				case 'cycle-view':
					dispatch({type: 'cycle-view'});
					break;
				case 'blocker-filter':
					dispatch({type: 'cycle-blocker', codes: counts.map(count => count.code)});
					break;
				case 'filter':
					dispatch({type: 'start-filter'});
					break;
				case 'list-blocked': {
					const chosen = state.view === 'blockers' ? counts[state.list.cursor] : undefined;
					if (chosen) {
						dispatch({type: 'show-code', code: chosen.code});
					}

					break;
				}

				case 'execute':
					// Never over a plan shown from before the last sweep, while the new one loads.
					if (loaded.status === 'ready' && sweep.planned > 0) {
						dispatch({type: 'ask-count'});
					}

					break;
				default:
					break;
			}
		},
		{isActive: active},
	);

	if (!hasKb) {
		return <EmptyState title={noKnowledgeBase.title} hint={noKnowledgeBase.hint} />;
	}

	if (!data) {
		return <NotReady loaded={loaded as Exclude<typeof loaded, {status: 'ready'}>} label={running ? 'the plan again' : 'the retention plan'} />;
	}

	return <RetentionView plan={data[0]} sweep={data[1]} state={state} rows={rows} width={width} now={now} />;
}
