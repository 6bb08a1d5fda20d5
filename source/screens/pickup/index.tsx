import {useState} from 'react';
import {useKeys} from '../hooks/use-keys.js';
import type {PickupOutput} from '../../engine/continuity/pickup.js';
import type {EngineClient} from '../engine-client.js';
import {commandFor} from '../keys.js';
import {EmptyState, NotReady} from '../components/states.js';
import {useEngine} from '../hooks/use-engine.js';
import {PickupView} from './view.js';

export type PickupTarget = {readonly id: string; readonly source: string};

export type PickupProps = {
	readonly client: EngineClient;
	/** Bumped after every write; the data is loaded again for it. */
	readonly revision: number;
	readonly target: PickupTarget | null;
	readonly active: boolean;
	readonly width: number;
	readonly height: number;
	readonly onResume: (pickup: Extract<PickupOutput, {status: 'ok'}>) => void;
	readonly onCounts: (counts: string) => void;
};

export function Pickup({client, revision, target, active, width, height, onResume, onCounts}: PickupProps) {
	const [offset, setOffset] = useState(0);
	const loaded = useEngine(async () => {
		if (!target) {
			return undefined;
		}

		const [brief, pickup] = await Promise.all([client.brief(target.id, target.source), client.pickup(target.id, target.source)]);
		onCounts(`pickup · ${brief.source} ${brief.session_id} · ${brief.tokens} tokens`);
		return {brief, pickup};
	}, target ? `${target.source}:${target.id}:${revision}` : 'none', {refreshable: active});
	useKeys(
		(input, key) => {
			const command = commandFor(['pickup', 'list'], input, key);
			if (command === 'down') {
				setOffset(value => value + 1);
			} else if (command === 'up') {
				setOffset(value => Math.max(0, value - 1));
			} else if (command === 'page-down') {
				setOffset(value => value + height);
			} else if (command === 'page-up') {
				setOffset(value => Math.max(0, value - height));
			} else if (command === 'resume' && loaded.status === 'ready' && loaded.data?.pickup.status === 'ok') {
				onResume(loaded.data.pickup);
			}
		},
		{isActive: active},
	);

	if (!target) {
		return <EmptyState title="No session chosen." hint="Pick one on the Stand-up or Unfinished screen and press enter." />;
	}

	if (loaded.status !== 'ready') {
		return <NotReady loaded={loaded} label="the brief" />;
	}

	return <PickupView brief={loaded.data!.brief} width={width} height={height} offset={offset} />;
}
