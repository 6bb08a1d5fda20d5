import type {BlockerCode} from '../../engine/retention/blockers.js';
import type {AssessmentEntry} from '../../engine/retention/plan.js';
import type {SweepItem, SweepOutput} from '../../engine/retention/sweep.js';
import {initialList, listReducer, type ListAction, type ListState} from '../hooks/use-list-state.js';

/** The screen's views, in the order `v` cycles them; receipts only once a sweep has run. */
export const retentionViews = ['summary', 'blockers', 'sessions', 'receipts'] as const;
export type RetentionView = (typeof retentionViews)[number];

/**
 * Executing the plan: nothing yet; asked for the count of sessions it deletes (typed, so a
 * stray key never deletes anything); running with its progress; done with its receipts.
 */
export type Execution =
	| {readonly phase: 'idle'}
	| {readonly phase: 'confirm'; readonly typed: string; readonly error: string | null}
	| {readonly phase: 'running'; readonly done: number; readonly total: number; readonly last: SweepItem | null}
	| {readonly phase: 'done'; readonly output: SweepOutput}
	| {readonly phase: 'failed'; readonly error: string};

export type RetentionState = {
	readonly view: RetentionView;
	/** Only sessions with this blocker; null for all. */
	readonly blocker: BlockerCode | null;
	readonly filter: string;
	/** True while the user is typing a filter. */
	readonly filtering: boolean;
	/** The shown view's cursor and scroll (blockers, sessions or receipts). */
	readonly list: ListState;
	readonly execution: Execution;
	/** Bumped when a sweep ends: the plan is loaded again, since the stores changed. */
	readonly generation: number;
};

export type RetentionAction =
	| {type: 'list'; action: ListAction}
	| {type: 'cycle-view'}
	| {type: 'show-code'; code: BlockerCode}
	| {type: 'cycle-blocker'; codes: readonly BlockerCode[]}
	| {type: 'start-filter'}
	| {type: 'type'; text: string}
	| {type: 'erase'}
	| {type: 'end-filter'; keep: boolean}
	| {type: 'ask-count'}
	| {type: 'type-count'; text: string}
	| {type: 'erase-count'}
	| {type: 'cancel-count'}
	| {type: 'count-mismatch'; planned: number}
	| {type: 'start'; total: number}
	| {type: 'progress'; done: number; total: number; item: SweepItem}
	| {type: 'finished'; output: SweepOutput}
	| {type: 'failed'; error: string};

export const initialRetention = (height: number): RetentionState => ({view: 'summary', blocker: null, filter: '', filtering: false, list: initialList(height), execution: {phase: 'idle'}, generation: 0});

const fromTop = (state: RetentionState): RetentionState => ({...state, list: listReducer(state.list, {type: 'reset'})});

/** The typed count matches the sessions the plan deletes: the only way an execution starts. */
export function countConfirmed(execution: Execution, planned: number): boolean {
	return execution.phase === 'confirm' && planned > 0 && execution.typed === String(planned);
}

/** All of the Retention screen's transitions: pure, so they are tested without rendering. */
export function retentionReducer(state: RetentionState, action: RetentionAction): RetentionState {
	const {execution} = state;
	switch (action.type) {
		case 'list':
			return {...state, list: listReducer(state.list, action.action)};
		case 'cycle-view': {
			const views: readonly RetentionView[] = execution.phase === 'done' ? retentionViews : retentionViews.filter(view => view !== 'receipts');
			return fromTop({...state, view: views[(views.indexOf(state.view) + 1) % views.length]!});
		}

		case 'show-code':
			return fromTop({...state, view: 'sessions', blocker: action.code});
		case 'cycle-blocker': {
			const order = [null, ...action.codes];
			return fromTop({...state, blocker: order[(order.indexOf(state.blocker) + 1) % order.length] ?? null});
		}

		case 'start-filter':
			// The filter is the sessions': typed from another view, it takes you there.
			return state.view === 'sessions' ? {...state, filtering: true} : fromTop({...state, view: 'sessions', filtering: true});
		case 'type':
			return fromTop({...state, filter: state.filter + action.text});
		case 'erase':
			return fromTop({...state, filter: [...state.filter].slice(0, -1).join('')});
		case 'end-filter':
			return action.keep ? {...state, filtering: false} : fromTop({...state, filtering: false, filter: ''});
		case 'ask-count':
			return execution.phase === 'running' ? state : {...state, execution: {phase: 'confirm', typed: '', error: null}};
		case 'type-count':
			// Digits only, and few: the count of sessions, nothing else.
			return execution.phase === 'confirm' && /^\d+$/.test(action.text) && execution.typed.length + action.text.length <= 9 ? {...state, execution: {...execution, typed: execution.typed + action.text, error: null}} : state;
		case 'erase-count':
			return execution.phase === 'confirm' ? {...state, execution: {...execution, typed: execution.typed.slice(0, -1), error: null}} : state;
		case 'cancel-count':
			return execution.phase === 'confirm' ? {...state, execution: {phase: 'idle'}} : state;
		case 'count-mismatch':
			return execution.phase === 'confirm'
				? {...state, execution: {...execution, typed: '', error: `${execution.typed === '' ? 'nothing typed' : `typed ${execution.typed}`}; the plan deletes ${action.planned}: type that number to go ahead`}}
				: state;
		case 'start':
			return {...state, execution: {phase: 'running', done: 0, total: action.total, last: null}};
		case 'progress':
			return execution.phase === 'running' ? {...state, execution: {...execution, done: action.done, total: action.total, last: action.item}} : state;
		case 'finished':
			return fromTop({...state, view: 'receipts', execution: {phase: 'done', output: action.output}, generation: state.generation + 1});
		case 'failed':
			return {...state, execution: {phase: 'failed', error: action.error}, generation: state.generation + 1};
		default:
			return state;
	}
}

/** Whether a session matches every word of the filter (its status, source, id, title, project or a blocker code). */
function matchesText(session: AssessmentEntry, filter: string): boolean {
	const haystack = [session.status, session.source, session.session_id, session.title ?? '', session.project ?? '', ...session.blockers.map(blocker => blocker.code)].join(' ').toLowerCase();
	return filter
		.toLowerCase()
		.split(/\s+/)
		.filter(Boolean)
		.every(word => haystack.includes(word));
}

/** The sessions to list: the blocker filter, then the typed one, in the plan's order (children first). */
export function visibleSessions(sessions: readonly AssessmentEntry[], state: Pick<RetentionState, 'blocker' | 'filter'>): AssessmentEntry[] {
	return sessions.filter(session => (state.blocker === null || session.blockers.some(blocker => blocker.code === state.blocker)) && matchesText(session, state.filter));
}
