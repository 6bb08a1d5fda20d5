import {existsSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {spawnSync} from 'node:child_process';
import {walkFiles} from '../../source/adapters/shared/fs.js';
import {generateLargeTranscript, generateStores, storesVersion, type StoreTier} from '../generate-stores.js';
import {cli, measure, runOnce, type Row} from '../lib/measure.js';
import {readIntoPageCache} from '../lib/page-cache.js';

export type TierName = 'S' | 'M' | 'L';

export const storeTiers: Record<TierName, StoreTier> = {
	S: {sessions: 200, messages: 20_000, outputBytes: 20_000},
	M: {sessions: 1500, messages: 150_000, outputBytes: 20_000},
	L: {sessions: 15_000, messages: 1_500_000, outputBytes: 20_000},
};

/**
 * A HOME holding every source's store at a tier, generated once per corpus directory and made
 * again only when the generator's version changes (a marker without one is version 1's: the generator
 * wrote the same stores before it recorded its version).
 */
export function tierHome(corpus: string, tier: TierName): string {
	const home = join(corpus, `stores-${tier}`);
	const marker = join(home, '.generated');
	const version = existsSync(marker) ? Number(/version (\d+)/.exec(readFileSync(marker, 'utf8'))?.[1] ?? 1) : undefined;
	if (version !== storesVersion) {
		rmSync(home, {recursive: true, force: true});
		process.stderr.write(`bench: generating the ${tier} stores…\n`);
		const started = process.hrtime.bigint();
		const cpu = process.cpuUsage();
		generateStores(home, storeTiers[tier], undefined, done => process.stderr.write(`bench: ${done} of ${storeTiers[tier].sessions} sessions\n`));
		const {user, system} = process.cpuUsage(cpu);
		const seconds = Number(process.hrtime.bigint() - started) / 1e9;
		process.stderr.write(`bench: the ${tier} stores took ${seconds.toFixed(1)} s (CPU ${((user + system) / 1e6).toFixed(1)} s)\n`);
		writeFileSync(marker, `${new Date().toISOString()} version ${storesVersion} in ${seconds.toFixed(1)} s\n`);
	}

	return home;
}

/** A HOME holding one Claude Code transcript of about `megabytes` MB. */
export function largeHome(corpus: string, megabytes = 1024): {home: string; id: string} {
	const home = join(corpus, megabytes === 1024 ? 'large-1g' : `large-${megabytes}m`);
	const path = join(home, '.claude', 'projects', '-src-huge', 'ffffffff-1111-4222-8333-444444444444.jsonl');
	if (!existsSync(join(home, '.generated'))) {
		process.stderr.write(`bench: generating the ${megabytes} MB transcript…\n`);
		generateLargeTranscript(path, megabytes * 1024 * 1024);
		writeFileSync(join(home, '.generated'), new Date().toISOString());
	}

	return {home, id: 'ffffffff-1111-4222-8333-444444444444'};
}

export function homeEnv(env: NodeJS.ProcessEnv, home: string): NodeJS.ProcessEnv {
	return {...env, HOME: home, XDG_CACHE_HOME: join(home, '.cache-engi'), XDG_CONFIG_HOME: join(home, '.config-engi'), XDG_DATA_HOME: join(home, '.local', 'share')};
}

export function transcriptFiles(home: string): string[] {
	return walkFiles(home, name => name.endsWith('.jsonl') || name.endsWith('.json') || name.endsWith('.db'), 10).filter(path => !path.includes('.cache-engi'));
}

function bytesOf(files: readonly string[]): number {
	return files.reduce((sum, file) => sum + statSync(file).size, 0);
}

/** Issue 3's figures: cold and warm `sessions` at S and M, and paging a 1 GB transcript. */
export function sessionsSuite(corpus: string, env: NodeJS.ProcessEnv): Row[] {
	const rows: Row[] = [];
	for (const tier of ['S', 'M'] as const) {
		const home = tierHome(corpus, tier);
		const tierEnv = homeEnv(env, home);
		const files = transcriptFiles(home);
		const label = `${tier}: ${storeTiers[tier].sessions} sessions, ${(bytesOf(files) / 1024 / 1024).toFixed(0)} MB`;
		// An empty catalog over transcripts in the page cache (readIntoPageCache says why).
		const clearCache = () => {
			rmSync(join(home, '.cache-engi'), {recursive: true, force: true});
			readIntoPageCache(files);
		};
		rows.push(measure('sessions', `sessions --all-projects cold (${label})`, ['node', cli, 'sessions', '--all-projects', '--format', 'json'], tierEnv, {before: clearCache, runs: 3, warmup: 0, target: tier === 'M' ? '≤ 4 s, RSS ≤ 256 MB' : undefined}));
		runOnce(['node', cli, 'sessions', '--all-projects', '--format', 'json'], tierEnv);
		rows.push(measure('sessions', `sessions --all-projects warm (${label})`, ['node', cli, 'sessions', '--all-projects', '--format', 'json'], tierEnv, {target: tier === 'M' ? '≤ 3× node -e 0' : undefined}));
		rows.push(grepRow(`grep -c over the same files (${label})`, files));
	}

	const {home, id} = largeHome(corpus);
	const largeEnv = homeEnv(env, home);
	const first = spawnSync(process.execPath, [cli, 'read', id, '--limit', '1', '--format', 'json'], {env: largeEnv, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024});
	const lastLine = (JSON.parse(first.stdout) as {last_line: number}).last_line;
	const offset = String(Math.max(0, lastLine - 20));
	rows.push(measure('sessions', 'read last page of a 1 GB transcript (warm)', ['node', cli, 'read', id, '--offset', offset, '--format', 'json'], largeEnv, {target: '≤ 1 s, RSS ≤ 256 MB'}));
	rows.push(measure('sessions', 'read --view context, last page of 1 GB (warm)', ['node', cli, 'read', id, '--view', 'context', '--offset', offset, '--format', 'json'], largeEnv, {target: 'RSS ≤ 256 MB'}));
	const cold = () => {
		rmSync(join(home, '.cache-engi'), {recursive: true, force: true});
		readIntoPageCache(transcriptFiles(home));
	};
	rows.push(measure('sessions', 'read of the 1 GB transcript, empty catalog (cold scan)', ['node', cli, 'read', id, '--offset', offset, '--format', 'json'], largeEnv, {before: cold, runs: 1, warmup: 0, target: 'RSS ≤ 256 MB'}));
	runOnce(['node', cli, 'read', id, '--limit', '1', '--format', 'json'], largeEnv);
	rows.push(grepRow('grep -c over the 1 GB transcript', transcriptFiles(home)));
	return rows;
}

function grepRow(name: string, files: readonly string[]): Row {
	const times: number[] = [];
	for (let run = 0; run < 3; run++) {
		const started = process.hrtime.bigint();
		spawnSync('grep', ['-c', '"type"', ...files], {stdio: 'ignore', maxBuffer: 1024 * 1024 * 64});
		times.push(Number(process.hrtime.bigint() - started) / 1e6);
	}

	times.sort((a, b) => a - b);
	return {suite: 'sessions', name, runs: 3, medianMs: times[1]!, baselineMs: Number.NaN, rssMb: 0, note: 'naive baseline'};
}

