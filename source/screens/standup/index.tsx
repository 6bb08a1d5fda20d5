import {useEffect, useMemo, useState} from 'react';
import {useKeys} from '../hooks/use-keys.js';
import type {Candidate} from '../../engine/continuity/unfinished.js';
import type {EngineClient} from '../engine-client.js';
import {commandFor} from '../keys.js';
import {DegradedNote, NotReady} from '../components/states.js';
import {useEngine} from '../hooks/use-engine.js';
import {useList} from '../hooks/use-list.js';
import {useListState} from '../hooks/use-list-state.js';
import {StandupView, standupCounts, standupRows, type StandupRow} from './view.js';

export type StandupProps = {
	readonly client: EngineClient;
	/** Bumped after every write; the data is loaded again for it. */
	readonly revision: number;
	readonly active: boolean;
	readonly width: number;
	readonly height: number;
	readonly now: Date;
	readonly onOpen: (candidate: Candidate) => void;
	readonly onCounts: (counts: string) => void;
};

export function Standup({client, revision, active, width, height, now, onOpen, onCounts}: StandupProps) {
	// The first frame comes from the catalog as it stands; the stand-up over refreshed stores follows.
	const loaded = useEngine(() => client.standup(), `standup:${revision}`, {refreshable: active, early: () => client.standup({cached: true})});
	const rows = useMemo(() => (loaded.status === 'ready' ? standupRows(loaded.data) : []), [loaded.status === 'ready' ? loaded.data : undefined]);
	const warned = loaded.status === 'ready' && loaded.data.warnings.length > 0;
	// The rows that fit: a line less than the screen, and one more less under a warning.
	const [list, dispatch] = useListState(Math.max(1, height - 1 - (warned ? 1 : 0)));
	useEffect(() => {
		if (loaded.status === 'ready') {
			onCounts(standupCounts(loaded.data));
		}
	}, [loaded.status, rows]);
	// Each new stand-up starts on its first session rather than on a project heading, chosen while
	// rendering (React's way to adjust state to new data), so no frame shows the cursor elsewhere.
	// The same rows again (the refreshed stores replacing the first frame's, with nothing listed
	// changed) leave the cursor where the keys typed meanwhile put it.
	const [placed, setPlaced] = useState<readonly StandupRow[] | null>(null);
	if (loaded.status === 'ready' && placed !== rows) {
		setPlaced(rows);
		if (!sameRows(placed, rows)) {
			dispatch({type: 'select', index: rows.findIndex(row => row.kind === 'candidate'), count: rows.length});
		}
	}

	useList(list, dispatch, {count: rows.length, isActive: active});
	useKeys(
		(input, key) => {
			const row = rows[list.cursor];
			if (commandFor(['standup'], input, key) === 'open' && row?.kind === 'candidate') {
				onOpen(row.candidate);
			}
		},
		{isActive: active},
	);

	if (loaded.status !== 'ready') {
		return <NotReady loaded={loaded} label="the stand-up" />;
	}

	return (
		<>
			<DegradedNote reasons={loaded.data.warnings} width={width} />
			<StandupView rows={rows} list={list} width={width} now={now} />
		</>
	);
}

function sameRows(before: readonly StandupRow[] | null, after: readonly StandupRow[]): boolean {
	return before !== null && before.length === after.length && before.every((row, index) => row.key === after[index]!.key);
}
