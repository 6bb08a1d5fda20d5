import {useEffect, useState} from 'react';
import {useKeys} from '../hooks/use-keys.js';
import type {ProjectBrief} from '../../engine/knowledge/project.js';
import type {EngineClient} from '../engine-client.js';
import {commandFor} from '../keys.js';
import {EmptyState, NotReady} from '../components/states.js';
import {useEngine} from '../hooks/use-engine.js';
import {ProjectView} from './view.js';
import {plural} from '../../lib/words.js';

export type ProjectProps = {readonly client: EngineClient; readonly active: boolean; readonly width: number; readonly height: number; readonly onCounts: (counts: string) => void};

export const noKnowledgeBase = {title: 'No knowledge base is configured.', hint: 'Create one with: engi init "$HOME/kb"  (or pass --root <dir>, or set ENGI_ROOT)'};

export function Project({client, active, width, height, onCounts}: ProjectProps) {
	const hasKb = client.hasKnowledgeBase();
	const pageSize = Math.max(5, Math.floor((height - 2) / 2));
	const [offset, setOffset] = useState(0);
	const loaded = useEngine(async () => (hasKb ? ((await client.project({offset, limit: pageSize})) as ProjectBrief) : undefined), `project:${offset}:${pageSize}`, {refreshable: active});
	useEffect(() => {
		if (loaded.status === 'ready' && loaded.data) {
			onCounts(`${plural(loaded.data.total, 'open task')} · ${plural(Object.keys(loaded.data.projects).length, 'project')}`);
		}
	}, [loaded.status]);
	useKeys(
		(input, key) => {
			const command = commandFor(['project'], input, key);
			if (command === 'next-page' && loaded.status === 'ready' && loaded.data?.next_offset !== null && loaded.data) {
				setOffset(loaded.data.next_offset!);
			} else if (command === 'previous-page') {
				setOffset(value => Math.max(0, value - pageSize));
			}
		},
		{isActive: active},
	);

	if (!hasKb) {
		return <EmptyState title={noKnowledgeBase.title} hint={noKnowledgeBase.hint} />;
	}

	if (loaded.status !== 'ready') {
		return <NotReady loaded={loaded} label="the project brief" />;
	}

	return <ProjectView brief={loaded.data!} width={width} height={height} />;
}
