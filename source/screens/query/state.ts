import type {Evaluation} from '../../engine/evidence/evaluation-schema.js';
import type {QueryOutput} from '../../engine/knowledge/query-schema.js';
import {initialList, listReducer, type ListAction, type ListState} from '../hooks/use-list-state.js';

export type ContextResult = Extract<QueryOutput, {view: 'context'}>;
export type EvidenceCandidate = Extract<QueryOutput, {view: 'evidence'}>['candidates'][number];

export type QueryState = {
	readonly text: string;
	/** True while the search box has the keys. */
	readonly editing: boolean;
	readonly result: ContextResult | null;
	/** The cursor over the result rows. */
	readonly list: ListState;
	/** The selected result's evidence (`e`), shown over the results until esc. */
	readonly evidence: EvidenceCandidate | null;
	/** The answer to the contract given with --evidence-contract, shown first until esc. */
	readonly contract: Evaluation | null;
	/** The scroll of the evidence or contract lines. */
	readonly detail: ListState;
	readonly error: string | null;
};

export type QueryAction =
	| {type: 'edit'}
	| {type: 'type'; text: string}
	| {type: 'erase'}
	| {type: 'end-edit'}
	| {type: 'loaded'; result: ContextResult}
	| {type: 'evidence'; candidate: EvidenceCandidate}
	| {type: 'contract'; answer: Evaluation}
	| {type: 'back'}
	| {type: 'list'; action: ListAction}
	| {type: 'detail'; action: ListAction}
	| {type: 'failed'; message: string};

/** What the screen shows under its search box. */
export type QueryPane = 'results' | 'evidence' | 'contract';

export function initialQuery(text: string, heights: {readonly list: number; readonly detail: number}): QueryState {
	return {text, editing: text === '', result: null, list: initialList(heights.list), evidence: null, contract: null, detail: initialList(heights.detail), error: null};
}

export function paneOf(state: QueryState): QueryPane {
	return state.evidence ? 'evidence' : state.contract ? 'contract' : 'results';
}

/** All of the Query screen's transitions: pure, so they are tested without rendering. */
export function queryReducer(state: QueryState, action: QueryAction): QueryState {
	const fromTop = (list: ListState) => listReducer(list, {type: 'reset'});
	switch (action.type) {
		case 'edit':
			return {...state, editing: true};
		case 'type':
			return {...state, text: state.text + action.text};
		case 'erase':
			return {...state, text: [...state.text].slice(0, -1).join('')};
		case 'end-edit':
			return {...state, editing: false};
		case 'loaded':
			// An open evidence view belonged to the rows being replaced.
			return {...state, result: action.result, list: fromTop(state.list), evidence: null, error: null};
		case 'evidence':
			return {...state, evidence: action.candidate, detail: fromTop(state.detail)};
		case 'contract':
			return {...state, contract: action.answer, detail: fromTop(state.detail)};
		case 'back':
			if (state.evidence) {
				return {...state, evidence: null, detail: fromTop(state.detail)};
			}

			return state.contract ? {...state, contract: null, detail: fromTop(state.detail)} : state;
		case 'list':
			return {...state, list: listReducer(state.list, action.action)};
		case 'detail':
			return {...state, detail: listReducer(state.detail, action.action)};
		case 'failed':
			return {...state, error: action.message};
		default:
			return state;
	}
}
