import {initialList, listReducer, type ListAction, type ListState} from '../hooks/use-list-state.js';

/** A decision waiting for its `y`: promote or reject one candidate. */
export type Decision = {readonly action: 'promote' | 'reject'; readonly ref: string};

/** The turns a candidate's claims cite, shown in place of the queue until esc. */
export type CitedTurns = {readonly ref: string; readonly turns: readonly number[]; readonly maxTurns: number | undefined};

export type ReviewState = {
	/** The queue's cursor and scroll (the dashboard's one list model). */
	readonly list: ListState;
	readonly confirm: Decision | null;
	/** True while a promotion or rejection is being written. */
	readonly busy: boolean;
	readonly evidence: CitedTurns | null;
	/** The first line of the cited turns shown. */
	readonly offset: number;
	readonly message: string | null;
};

export type ReviewAction =
	| {type: 'list'; action: ListAction}
	| {type: 'ask'; confirm: Decision}
	| {type: 'cancel'}
	| {type: 'writing'}
	| {type: 'done'; message: string}
	| {type: 'show-evidence'; evidence: CitedTurns}
	| {type: 'scroll'; by: number; lines: number; height: number}
	| {type: 'close-evidence'}
	| {type: 'say'; message: string | null};

export const initialReview = (height: number): ReviewState => ({list: initialList(height), confirm: null, busy: false, evidence: null, offset: 0, message: null});

/** All of the Review screen's transitions: pure, so they are tested without rendering. */
export function reviewReducer(state: ReviewState, action: ReviewAction): ReviewState {
	switch (action.type) {
		case 'list':
			return {...state, list: listReducer(state.list, action.action)};
		case 'ask':
			return {...state, confirm: action.confirm, message: null};
		case 'cancel':
			return {...state, confirm: null, message: 'nothing was changed'};
		case 'writing':
			return {...state, confirm: null, busy: true, message: null};
		case 'done':
			return {...state, busy: false, message: action.message};
		case 'show-evidence':
			return {...state, evidence: action.evidence, offset: 0, message: null};
		case 'scroll':
			return {...state, offset: Math.max(0, Math.min(state.offset + action.by, action.lines - action.height))};
		case 'close-evidence':
			return {...state, evidence: null, offset: 0};
		case 'say':
			return {...state, message: action.message};
		default:
			return state;
	}
}
