import {appendFileSync, copyFileSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync} from 'node:fs';
import {basename, dirname, join} from 'node:path';
import {moreClaudeLines, selectiveWord} from '../generate-stores.js';
import {cli, measure, median, runOnce, type Row, type Sample} from '../lib/measure.js';
import {firstFrames} from './tui.js';
import {homeEnv, storeTiers, tierHome, transcriptFiles, type TierName} from './sessions.js';
import {readIntoPageCache} from '../lib/page-cache.js';

/** Every tier by default; `ENGI_BENCH_SCALE_TIERS=S,M` runs fewer (a trial run without the L corpus). */
const tiers = (process.env['ENGI_BENCH_SCALE_TIERS']?.split(',') ?? ['S', 'M', 'L']).filter((tier): tier is TierName => tier in storeTiers);
const since = ['--since', '2026-10-01'];
const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** One figure of a tier, kept to show how it grows from S to M to L. */
type Figure = {readonly value: number; readonly unit: 'ms' | 'MB'; readonly cpuMs?: number};

/**
 * Issue 19's figures at the L tier (15,000 sessions, ~6.6 GB), measured the same way at S and M
 * so the growth is the result: the cold catalog, warm listings and searches, the catalog's size,
 * the bytes a warm call reads, the work after one session grows, and the dashboard's first frame.
 */
export async function scaleSuite(corpus: string, env: NodeJS.ProcessEnv): Promise<Row[]> {
	const rows: Row[] = [];
	const growth = new Map<string, Map<TierName, Figure>>();
	const keep = (key: string, tier: TierName, figure: Figure) => growth.set(key, (growth.get(key) ?? new Map()).set(tier, figure));
	for (const tier of tiers) {
		const home = tierHome(corpus, tier);
		// VS Code's store is found through XDG_CONFIG_HOME, which homeEnv points at engi's own config.
		const tierEnv = {...homeEnv(env, home), VSCODE_APPDATA: join(home, '.config')};
		const transcriptBytes = transcriptFiles(home).reduce((sum, file) => sum + statSync(file).size, 0);
		const at = `${tier}: ${storeTiers[tier].sessions} sessions, ${megabytes(transcriptBytes)}`;
		const atL = (target: string) => (tier === 'L' ? target : undefined);
		const timed = (key: string, row: Row) => {
			rows.push(row);
			keep(key, tier, {value: row.medianMs, unit: 'ms', cpuMs: row.cpuMs});
		};

		const listing = ['node', cli, 'sessions', '--all-projects', '--format', 'json'];
		// An empty catalog over transcripts in the page cache (readIntoPageCache says why).
		const clearCache = () => {
			rmSync(join(home, '.cache-engi'), {recursive: true, force: true});
			readIntoPageCache(transcriptFiles(home));
		};
		process.stderr.write(`bench: scale ${tier}: cold catalog…\n`);
		timed('cold catalog (sessions --all-projects)', measure('scale', `cold catalog, sessions --all-projects (${at})`, listing, tierEnv, {before: clearCache, runs: 1, warmup: 0, target: atL('≤ 90 s, RSS ≤ 256 MB')}));

		const catalogBytes = sizeOfDatabase(join(home, '.cache-engi', 'engi', 'catalog.sqlite'));
		const share = (catalogBytes / transcriptBytes) * 100;
		rows.push({suite: 'scale', name: `catalog size (${at})`, runs: 1, medianMs: Number.NaN, baselineMs: Number.NaN, rssMb: 0, sharePercent: share, target: atL('≤ 5% of transcript bytes'), note: `${megabytes(catalogBytes)} = ${share.toFixed(2)}%`});
		keep('catalog size', tier, {value: catalogBytes / 1024 / 1024, unit: 'MB'});

		const warm: Array<[string, string[], string]> = [
			['sessions --all-projects', listing, '≤ 4× node -e 0'],
			['unfinished --all-projects', ['node', cli, 'unfinished', '--all-projects', ...since, '--format', 'json'], '≤ 4× node -e 0'],
			['standup --all-projects', ['node', cli, 'standup', '--all-projects', ...since, '--format', 'json'], '≤ 4× node -e 0'],
			['sessions --q broad word "quarantine"', ['node', cli, 'sessions', '--all-projects', '--q', 'quarantine', '--format', 'json'], '≤ 4× node -e 0, RSS ≤ 256 MB'],
			[`sessions --q selective word "${selectiveWord}"`, ['node', cli, 'sessions', '--all-projects', '--q', selectiveWord, '--format', 'json'], '≤ 4× node -e 0, RSS ≤ 256 MB'],
		];
		for (const [label, argv, target] of warm) {
			process.stderr.write(`bench: scale ${tier}: ${label}…\n`);
			timed(`${label} warm`, measure('scale', `${label} warm (${at})`, argv, tierEnv, {runs: 7, target: atL(target)}));
		}

		const reads = readsOfWarmCalls(home, tierEnv, listing);
		const extra = (sample: Sample) => sample.readBytes - reads.unchanged.readBytes;
		const readRow = (name: string, sample: Sample, note: string, target?: string): Row => ({suite: 'scale', name: `${name} (${at})`, runs: 1, medianMs: sample.ms, baselineMs: Number.NaN, rssMb: sample.rssMb, cpuMs: sample.cpuMs, readMb: sample.readBytes / 1024 / 1024, target, note});
		// Start-up alone reads ~0.7 MB (node, CA certificates, the catalog's pages read rather than
		// mapped); any session read on top would show. engi's own code is left out: the call reads
		// build/cli.js, the script build/chunks/main.cjs and its code cache whole (source/start/
		// cached-main.ts), ~3.5 MB whatever the stores hold.
		const code = ownCodeBytes(join(home, '.cache-engi'));
		const unchangedReads = {...reads.unchanged, readBytes: reads.unchanged.readBytes - code};
		rows.push(readRow('bytes read by a warm sessions --all-projects', unchangedReads, `${megabytes(unchangedReads.readBytes)} = ${megabytes(reads.unchanged.readBytes)} (rchar) less ${megabytes(code)} of engi's own code (cli.js, the script, its code cache); catalog ${megabytes(catalogBytes)} (mapped, not counted); transcripts ${megabytes(transcriptBytes)}`, atL('reads ≤ 1 MB')));
		rows.push(readRow('warm call after one transcript was replaced by a copy', reads.replaced, `${megabytes(extra(reads.replaced))} more than unchanged; the file is ${megabytes(reads.fileBytes - reads.appended)}; scanned ${reads.scanned[0]}`));
		rows.push(readRow(`warm call after that copy grew by ${megabytes(reads.appended)}`, reads.grown, `${megabytes(extra(reads.grown))} more than unchanged (new bytes, plus up to 1 MiB of tail again); the file is ${megabytes(reads.fileBytes)}; scanned ${reads.scanned[1]}`));
		keep('bytes read, warm call, nothing changed (less engi\'s own code)', tier, {value: unchangedReads.readBytes / 1024 / 1024, unit: 'MB'});
		keep('bytes read after one session grew', tier, {value: extra(reads.grown) / 1024 / 1024, unit: 'MB'});

		process.stderr.write(`bench: scale ${tier}: the dashboard's first frame…\n`);
		const frames = await firstFrames(tierEnv, 5);
		const firstData: Row = {suite: 'scale', name: `dashboard: first frame with the stand-up's counts (${at})`, runs: frames.data.length, medianMs: median(frames.data), baselineMs: median(frames.baseline), rssMb: 0, target: atL('≤ 1500 ms')};
		timed('dashboard first frame with data', firstData);
	}

	for (const [key, byTier] of growth) {
		rows.push({suite: 'scale', name: `growth S → M → L: ${key}`, runs: 0, medianMs: Number.NaN, baselineMs: Number.NaN, rssMb: 0, note: growthNote(byTier)});
	}

	return rows;
}

/** The bytes of engi's own code a call off the terminal reads whole: build/cli.js, the script and the script's code cache. */
function ownCodeBytes(cacheHome: string): number {
	const codeCache = join(cacheHome, 'engi', 'code');
	const caches = existsSync(codeCache) ? readdirSync(codeCache).filter(name => name.endsWith('.v8')) : [];
	return statSync(cli).size + statSync(join(dirname(cli), 'chunks', 'main.cjs')).size + caches.reduce((sum, name) => sum + statSync(join(codeCache, name)).size, 0);
}

/** A SQLite file's bytes with its write-ahead log (a warm call may leave pages there). */
function sizeOfDatabase(path: string): number {
	return statSync(path).size + (existsSync(`${path}-wal`) ? statSync(`${path}-wal`).size : 0);
}

type Reads = {unchanged: Sample; replaced: Sample; grown: Sample; fileBytes: number; appended: number; scanned: [number, number]};

/**
 * The bytes warm calls read: with nothing changed; after one Claude transcript is replaced by a
 * copy of itself (a new inode: that file is read again, whole); and after that copy (never the
 * hard-linked original) grows by ~1 MB in place (the new bytes are read, plus the last MiB again
 * for the tail). The original is put back afterwards and a last call brings the catalog back.
 */
function readsOfWarmCalls(home: string, env: NodeJS.ProcessEnv, listing: string[]): Reads {
	runOnce(listing, env);
	const unchanged = runOnce(listing, env);
	const file = transcriptFiles(join(home, '.claude')).find(path => path.endsWith('.jsonl'))!;
	const original = join(home, '..', `scale-original-${basename(file)}`);
	const scannedOf = (sample: Sample) => (JSON.parse(sample.stdout!) as {catalog: {scanned: number}}).catalog.scanned;
	copyFileSync(file, original);
	try {
		copyFileSync(original, `${file}.copy`);
		renameSync(`${file}.copy`, file);
		const replaced = runOnce(listing, env, {captureStdout: true});
		const id = basename(file, '.jsonl');
		const cwd = (JSON.parse(readFileSync(original, 'utf8').split('\n', 1)[0]!) as {cwd: string}).cwd;
		const more = moreClaudeLines(id, cwd, 100, Date.parse('2026-11-30T00:00:00Z'));
		appendFileSync(file, more);
		const grown = runOnce(listing, env, {captureStdout: true});
		return {unchanged, replaced, grown, fileBytes: statSync(file).size, appended: Buffer.byteLength(more), scanned: [scannedOf(replaced), scannedOf(grown)]};
	} finally {
		copyFileSync(original, `${file}.copy`);
		renameSync(`${file}.copy`, file);
		rmSync(original);
		runOnce(listing, env);
	}
}

function growthNote(byTier: ReadonlyMap<TierName, Figure>): string {
	let previous: Figure | undefined;
	return tiers
		.filter(tier => byTier.has(tier))
		.map(tier => {
			const figure = byTier.get(tier)!;
			const value = `${figure.value.toFixed(figure.unit === 'MB' ? 1 : 0)} ${figure.unit}`;
			const cpu = figure.cpuMs === undefined || Number.isNaN(figure.cpuMs) ? '' : ` (CPU ${figure.cpuMs.toFixed(0)} ms)`;
			const factor = previous && previous.value > 0 ? ` ×${(figure.value / previous.value).toFixed(2)}` : '';
			previous = figure;
			return `${tier} ${value}${cpu}${factor}`;
		})
		.join(' → ');
}
