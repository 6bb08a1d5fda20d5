import type {Candidate} from '../../engine/continuity/unfinished.js';
import {scrollTo} from '../components/virtual-list.js';

export const sortOrders = ['age', 'project', 'confidence'] as const;
export type SortOrder = (typeof sortOrders)[number];

export type Confirmation = {readonly status: 'completed' | 'superseded'; readonly id: string; readonly source: string};

export type TriageState = {
	readonly sort: SortOrder;
	/** Only candidates from this source; null for all. */
	readonly source: string | null;
	readonly filter: string;
	/** True while the user is typing a filter. */
	readonly filtering: boolean;
	readonly cursor: number;
	readonly top: number;
	readonly height: number;
	readonly confirm: Confirmation | null;
	readonly message: string | null;
};

export type TriageAction =
	| {type: 'move'; by: number; count: number}
	| {type: 'jump'; to: 'start' | 'end'; count: number}
	| {type: 'resize'; height: number}
	| {type: 'cycle-sort'}
	| {type: 'cycle-source'; sources: readonly string[]}
	| {type: 'start-filter'}
	| {type: 'type'; text: string}
	| {type: 'erase'}
	| {type: 'end-filter'; keep: boolean}
	| {type: 'ask'; confirm: Confirmation}
	| {type: 'answered'; message: string | null}
	| {type: 'say'; message: string | null};

export const initialTriage = (height: number): TriageState => ({sort: 'age', source: null, filter: '', filtering: false, cursor: 0, top: 0, height, confirm: null, message: null});

function place(state: TriageState, cursor: number, count: number): TriageState {
	const clamped = Math.max(0, Math.min(cursor, count - 1));
	return {...state, cursor: Math.max(0, clamped), top: scrollTo(Math.max(0, clamped), state.top, state.height)};
}

/** All of the triage list's transitions: pure, so they are tested without rendering. */
export function triageReducer(state: TriageState, action: TriageAction): TriageState {
	switch (action.type) {
		case 'move':
			return place(state, state.cursor + action.by, action.count);
		case 'jump':
			return place(state, action.to === 'start' ? 0 : action.count - 1, action.count);
		case 'resize':
			return {...state, height: Math.max(1, action.height), top: scrollTo(state.cursor, state.top, Math.max(1, action.height))};
		case 'cycle-sort':
			return {...state, sort: sortOrders[(sortOrders.indexOf(state.sort) + 1) % sortOrders.length]!, cursor: 0, top: 0};
		case 'cycle-source': {
			const order = [null, ...action.sources];
			const next = order[(order.indexOf(state.source) + 1) % order.length] ?? null;
			return {...state, source: next, cursor: 0, top: 0};
		}

		case 'start-filter':
			return {...state, filtering: true, message: null};
		case 'type':
			return {...state, filter: state.filter + action.text, cursor: 0, top: 0};
		case 'erase':
			return {...state, filter: [...state.filter].slice(0, -1).join(''), cursor: 0, top: 0};
		case 'end-filter':
			return {...state, filtering: false, filter: action.keep ? state.filter : '', cursor: action.keep ? state.cursor : 0, top: action.keep ? state.top : 0};
		case 'ask':
			return {...state, confirm: action.confirm, message: null};
		case 'answered':
			return {...state, confirm: null, message: action.message};
		case 'say':
			return {...state, message: action.message};
		default:
			return state;
	}
}

const confidenceRank: Record<string, number> = {high: 0, medium: 1, low: 2};

/** The rows to show: source filter, text filter (ids that matched), then the chosen order. */
export function visibleCandidates(candidates: readonly Candidate[], state: TriageState, matches: ReadonlySet<string> | null): Candidate[] {
	const rows = candidates.filter(candidate => (state.source === null || candidate.source === state.source) && (matches === null || matches.has(`${candidate.source}:${candidate.id}`)));
	const byAge = (a: Candidate, b: Candidate) => ((b.modified ?? '') < (a.modified ?? '') ? -1 : (b.modified ?? '') > (a.modified ?? '') ? 1 : 0);
	switch (state.sort) {
		case 'project':
			return rows.sort((a, b) => a.project.localeCompare(b.project) || byAge(a, b));
		case 'confidence':
			return rows.sort((a, b) => (confidenceRank[a.confidence] ?? 3) - (confidenceRank[b.confidence] ?? 3) || byAge(a, b));
		default:
			return rows.sort(byAge);
	}
}
