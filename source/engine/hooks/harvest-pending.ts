import {harvestCandidates, type HarvestInput, type HarvestOutput} from '../candidates/harvest.js';
import type {Deps} from '../deps.js';
import type {KbPaths} from '../kb/paths.js';
import {plural} from '../../lib/words.js';
import {readPending} from './pending.js';

/**
 * `engi candidates harvest --pending`: a candidate harvest of exactly the sessions hooks queued
 * and no harvest has taken since (engi hook pending). What it harvests stops being queued by that
 * alone: the queue is read from the notes, so nothing else is rewritten or deleted. A session
 * still being written (the last two minutes) is left queued, as any harvest leaves it.
 */
export async function harvestPending(paths: KbPaths, input: Omit<HarvestInput, 'ids' | 'queued'>, deps: Deps): Promise<HarvestOutput> {
	const {pending} = await readPending(paths);
	const queued = new Map<string, {source: string; id: string}>();
	for (const row of pending) {
		if (row.status === 'queued' && row.agent !== null && row.session_id !== null) {
			queued.set(`${row.agent}\u0000${row.session_id}`, {source: row.agent, id: row.session_id});
		}
	}

	const output = await harvestCandidates(paths, {...input, ids: [], allProjects: true, queued: [...queued.values()]}, deps);
	const unnamed = pending.filter(row => row.status === 'queued' && row.session_id === null);
	if (unnamed.length > 0) {
		output.warnings.push(`${plural(unnamed.length, 'pending note')} name no session (Copilot's sessionEnd may not): harvest with the command engi hook pending gives for each`);
	}

	return output;
}
