import {rmSync} from 'node:fs';
import {join} from 'node:path';
import {cli, measure, runOnce, type Row} from '../lib/measure.js';
import {homeEnv, largeHome, storeTiers, tierHome} from './sessions.js';

/** Issue 4's figures: unfinished cold/warm, standup warm, and briefs of 100 MB and 1 GB transcripts. */
export function continuitySuite(corpus: string, env: NodeJS.ProcessEnv): Row[] {
	const rows: Row[] = [];
	const since = ['--since', '2026-10-01'];
	for (const tier of ['S', 'M'] as const) {
		const home = tierHome(corpus, tier);
		const tierEnv = homeEnv(env, home);
		const label = `${tier}: ${storeTiers[tier].sessions} sessions`;
		const clearCache = () => rmSync(join(home, '.cache-engi'), {recursive: true, force: true});
		const unfinished = ['node', cli, 'unfinished', '--all-projects', ...since, '--format', 'json'];
		rows.push(measure('continuity', `unfinished --all-projects cold (${label})`, unfinished, tierEnv, {before: clearCache, runs: 3, warmup: 0}));
		runOnce(unfinished, tierEnv);
		rows.push(measure('continuity', `unfinished --all-projects warm (${label})`, unfinished, tierEnv, {target: tier === 'M' ? '≤ 3× node -e 0' : undefined}));
		rows.push(measure('continuity', `standup warm (${label})`, ['node', cli, 'standup', ...since, '--format', 'json'], tierEnv, {target: tier === 'M' ? '≤ 3× node -e 0' : undefined}));
	}

	for (const megabytes of [100, 1024]) {
		const {home, id} = largeHome(corpus, megabytes);
		const largeEnv = homeEnv(env, home);
		runOnce(['node', cli, 'read', id, '--limit', '1', '--format', 'json'], largeEnv); // Warm the catalog.
		const label = megabytes === 1024 ? '1 GB' : `${megabytes} MB`;
		rows.push(measure('continuity', `resume brief of a ${label} transcript (warm)`, ['node', cli, 'resume', id, '--format', 'json'], largeEnv, {runs: 5, target: megabytes === 1024 ? '≤ 5 s, RSS ≤ 256 MB' : undefined}));
		rows.push(measure('continuity', `resume brief of a ${label} transcript, --exact-tokens`, ['node', cli, 'resume', id, '--exact-tokens', '--format', 'json'], largeEnv, {runs: 3}));
	}

	return rows;
}
