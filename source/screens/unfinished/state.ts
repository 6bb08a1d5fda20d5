import type {Candidate} from '../../engine/continuity/unfinished.js';
import {initialList, listReducer, type ListAction, type ListState} from '../hooks/use-list-state.js';

export const sortOrders = ['age', 'project', 'confidence'] as const;
export type SortOrder = (typeof sortOrders)[number];

export type Confirmation = {readonly status: 'completed' | 'superseded'; readonly id: string; readonly source: string};

export type UnfinishedState = {
	readonly sort: SortOrder;
	/** Only candidates from this source; null for all. */
	readonly source: string | null;
	readonly filter: string;
	/** True while the user is typing a filter. */
	readonly filtering: boolean;
	/** The candidate list's cursor and scroll (the dashboard's one list model). */
	readonly list: ListState;
	readonly confirm: Confirmation | null;
	readonly message: string | null;
};

export type UnfinishedAction =
	| {type: 'list'; action: ListAction}
	| {type: 'cycle-sort'}
	| {type: 'cycle-source'; sources: readonly string[]}
	| {type: 'start-filter'}
	| {type: 'type'; text: string}
	| {type: 'erase'}
	| {type: 'end-filter'; keep: boolean}
	| {type: 'ask'; confirm: Confirmation}
	| {type: 'answered'; message: string | null}
	| {type: 'say'; message: string | null};

export const initialUnfinished = (height: number): UnfinishedState => ({sort: 'age', source: null, filter: '', filtering: false, list: initialList(height), confirm: null, message: null});

/** The same state with the cursor back on the first row: the rows themselves changed. */
const fromTop = (state: UnfinishedState): UnfinishedState => ({...state, list: listReducer(state.list, {type: 'reset'})});

/** All of the Unfinished screen's transitions: pure, so they are tested without rendering. */
export function unfinishedReducer(state: UnfinishedState, action: UnfinishedAction): UnfinishedState {
	switch (action.type) {
		case 'list':
			return {...state, list: listReducer(state.list, action.action)};
		case 'cycle-sort':
			return fromTop({...state, sort: sortOrders[(sortOrders.indexOf(state.sort) + 1) % sortOrders.length]!});
		case 'cycle-source': {
			const order = [null, ...action.sources];
			const next = order[(order.indexOf(state.source) + 1) % order.length] ?? null;
			return fromTop({...state, source: next});
		}

		case 'start-filter':
			return {...state, filtering: true, message: null};
		case 'type':
			return fromTop({...state, filter: state.filter + action.text});
		case 'erase':
			return fromTop({...state, filter: [...state.filter].slice(0, -1).join('')});
		case 'end-filter':
			return action.keep ? {...state, filtering: false} : fromTop({...state, filtering: false, filter: ''});
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
export function visibleCandidates(candidates: readonly Candidate[], state: UnfinishedState, matches: ReadonlySet<string> | null): Candidate[] {
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
