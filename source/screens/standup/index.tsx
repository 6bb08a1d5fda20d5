import {useEffect, useMemo, useState} from 'react';
import {useKeys} from '../hooks/use-keys.js';
import type {Candidate} from '../../engine/continuity/unfinished.js';
import type {EngineClient} from '../engine-client.js';
import {commandFor} from '../keys.js';
import {DegradedNote, NotReady} from '../components/states.js';
import {scrollTo} from '../components/virtual-list.js';
import {useEngine} from '../hooks/use-engine.js';
import {StandupView, standupCounts, standupRows} from './view.js';

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
	const loaded = useEngine(() => client.standup(), `standup:${revision}`, {refreshable: active});
	const rows = useMemo(() => (loaded.status === 'ready' ? standupRows(loaded.data) : []), [loaded.status === 'ready' ? loaded.data : undefined]);
	const [cursor, setCursor] = useState(0);
	const [top, setTop] = useState(0);
	const listHeight = Math.max(1, height - 1);
	useEffect(() => {
		if (loaded.status === 'ready') {
			onCounts(standupCounts(loaded.data));
			// Start on the first session rather than on a project heading.
			const first = rows.findIndex(row => row.kind === 'candidate');
			setCursor(Math.max(0, first));
		}
	}, [loaded.status, rows]);
	const move = (to: number) => {
		const next = Math.max(0, Math.min(rows.length - 1, to));
		setCursor(next);
		setTop(current => scrollTo(next, current, listHeight));
	};

	useKeys(
		(input, key) => {
			switch (commandFor(['standup', 'list'], input, key)) {
				case 'down':
					move(cursor + 1);
					break;
				case 'up':
					move(cursor - 1);
					break;
				case 'page-down':
					move(cursor + listHeight);
					break;
				case 'page-up':
					move(cursor - listHeight);
					break;
				case 'home':
					move(0);
					break;
				case 'end':
					move(rows.length - 1);
					break;
				case 'open': {
					const row = rows[cursor];
					if (row?.kind === 'candidate') {
						onOpen(row.candidate);
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
		return <NotReady loaded={loaded} label="the stand-up" />;
	}

	return (
		<>
			<DegradedNote reasons={loaded.data.warnings} width={width} />
			<StandupView rows={rows} cursor={cursor} top={top} height={listHeight - (loaded.data.warnings.length > 0 ? 1 : 0)} width={width} now={now} />
		</>
	);
}
