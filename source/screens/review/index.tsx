import {useEffect, useLayoutEffect, useReducer} from 'react';
import type {EngineClient} from '../engine-client.js';
import {EmptyState, NotReady} from '../components/states.js';
import {useEngine} from '../hooks/use-engine.js';
import {useKeys} from '../hooks/use-keys.js';
import {useList} from '../hooks/use-list.js';
import {commandFor} from '../keys.js';
import {noKnowledgeBase} from '../project/index.js';
import {initialReview, reviewReducer} from './state.js';
import {CitedTurnsView, ReviewView, citedTurnLines} from './view.js';

export type ReviewProps = {
	readonly client: EngineClient;
	/** Bumped after every write; the queue is read again for it. */
	readonly revision: number;
	readonly active: boolean;
	readonly width: number;
	readonly height: number;
	/** Tells the app that a question or the cited turns have the keys (esc and digits are theirs). */
	readonly onCapture: (capturing: boolean) => void;
	readonly onCounts: (counts: string) => void;
};

/** The queue's rows: a third of the body under the status line; the selected note gets the rest. */
export const queueHeight = (height: number) => Math.max(1, Math.floor((height - 2) / 3));

export function Review({client, revision, active, width, height, onCapture, onCounts}: ReviewProps) {
	const hasKb = client.hasKnowledgeBase();
	const [state, dispatch] = useReducer(reviewReducer, queueHeight(height), initialReview);
	const capturing = state.confirm !== null || state.evidence !== null;
	const loaded = useEngine(async () => (hasKb ? client.candidates() : undefined), `review:${revision}`, {refreshable: active && !capturing});
	const queue = loaded.status === 'ready' ? loaded.data : undefined;
	const rows = queue?.candidates ?? [];
	const selected = rows[state.list.cursor];
	const detail = useEngine(async () => (selected ? client.candidate(selected.ref) : null), `review-note:${selected?.ref ?? ''}:${revision}`, {refreshable: active && !capturing});
	const cited = state.evidence;
	const evidence = useEngine(async () => (cited ? client.citedTurns(cited.ref, cited.turns, cited.maxTurns) : null), `review-turns:${cited?.ref ?? ''}:${cited?.turns.join(',') ?? ''}`, {refreshable: false});
	useEffect(() => dispatch({type: 'list', action: {type: 'resize', height: queueHeight(height)}}), [height]);
	// A promoted or rejected row leaves the queue: the cursor stays on a row that is there.
	useEffect(() => {
		if (rows.length > 0 && state.list.cursor >= rows.length) {
			dispatch({type: 'list', action: {type: 'select', index: rows.length - 1, count: rows.length}});
		}
	}, [rows.length]);
	// A layout effect, so the app knows before the next key that esc and the digits are the screen's.
	useLayoutEffect(() => onCapture(capturing), [capturing]);
	useEffect(() => {
		if (queue) {
			onCounts(`${queue.counts.pending} pending · ${queue.counts.promoted} promoted · ${queue.counts.rejected} rejected`);
		}
	}, [queue]);

	const decide = (action: 'promote' | 'reject', ref: string) => {
		dispatch({type: 'writing'});
		const written = action === 'promote' ? client.promoteCandidate(ref).then(result => `promoted ${ref}: ${result.nodes.length} nodes, an imported checkpoint in ${result.checkpoint.path}`) : client.rejectCandidate(ref).then(result => `rejected ${ref}; the note is kept at ${result.path}`);
		written.then(
			message => dispatch({type: 'done', message}),
			(error: unknown) => dispatch({type: 'done', message: `could not ${action} ${ref}: ${error instanceof Error ? error.message : String(error)}`}),
		);
	};

	useList(state.list, action => dispatch({type: 'list', action}), {count: rows.length, isActive: active && !capturing && !state.busy});
	useKeys(
		(input, key) => {
			if (state.confirm) {
				// Only y goes ahead; any other key, esc included, asks again another time.
				if (commandFor(['confirm'], input, key) === 'yes') {
					decide(state.confirm.action, state.confirm.ref);
				} else {
					dispatch({type: 'cancel'});
				}

				return;
			}

			if (state.evidence) {
				const command = commandFor(['global', 'list'], input, key);
				const room = Math.max(1, height - 1);
				const lines = evidence.status === 'ready' && evidence.data ? citedTurnLines(evidence.data).length : 0;
				const by = {down: 1, up: -1, 'page-down': room, 'page-up': -room, home: -lines, end: lines}[command ?? ''];
				if (command === 'back') {
					dispatch({type: 'close-evidence'});
				} else if (by !== undefined) {
					dispatch({type: 'scroll', by, lines, height: room});
				}

				return;
			}

			if (state.busy || !selected) {
				return;
			}

			const command = commandFor(['review'], input, key);
			if ((command === 'promote' || command === 'reject') && selected.unreadable) {
				dispatch({type: 'say', message: `${selected.ref} is unreadable: fix its frontmatter first (${selected.path})`});
			} else if (command === 'promote' || command === 'reject') {
				dispatch({type: 'ask', confirm: {action: command, ref: selected.ref}});
			} else if (command === 'evidence') {
				const note = detail.status === 'ready' ? detail.data?.note : undefined;
				if (!note || detail.status !== 'ready' || detail.data?.cited_turns.length === 0) {
					dispatch({type: 'say', message: `no claim of ${selected.ref} cites a turn yet: engi candidates evidence ${selected.ref} shows them all`});
				} else {
					dispatch({type: 'show-evidence', evidence: {ref: selected.ref, turns: detail.data!.cited_turns, maxTurns: note.max_turns ?? undefined}});
				}
			}
		},
		{isActive: active},
	);

	if (!hasKb) {
		return <EmptyState title={noKnowledgeBase.title} hint={noKnowledgeBase.hint} />;
	}

	if (loaded.status !== 'ready') {
		return <NotReady loaded={loaded} label="the review queue" />;
	}

	if (state.evidence) {
		return evidence.status === 'ready' && evidence.data ? <CitedTurnsView evidence={evidence.data} offset={state.offset} width={width} height={Math.max(1, height - 1)} /> : <NotReady loaded={evidence.status === 'ready' ? {status: 'loading'} : evidence} label="the cited turns" />;
	}

	return <ReviewView rows={rows} counts={queue!.counts} state={state} detail={detail.status === 'ready' ? detail.data : null} width={width} height={height} />;
}
