import {spawnSync} from 'node:child_process';
import {cpSync, linkSync, mkdirSync, rmSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {cli, measure, median, runOnce, type Row} from '../lib/measure.js';
import {homeEnv, largeHome, storeTiers, tierHome} from './sessions.js';

type SweepDocument = {plan_sha256: string; items: Array<{bytes: number; compact_bytes: number | null; status: string}> | null};

function sweep(args: readonly string[], env: NodeJS.ProcessEnv): SweepDocument {
	const result = spawnSync(process.execPath, [cli, ...args, '--format', 'json'], {env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024});
	if (result.status !== 0 && result.status !== 2) {
		throw new Error(`engi ${args.join(' ')} exited ${result.status}: ${result.stderr.slice(0, 400)}`);
	}

	return JSON.parse(result.stdout) as SweepDocument;
}

/** A fresh, unregistered knowledge base (retention journals into one). */
function freshKb(path: string, env: NodeJS.ProcessEnv): string {
	rmSync(path, {recursive: true, force: true});
	runOnce(['node', cli, 'init', path, '--no-register', '--format', 'json'], env);
	return path;
}

/**
 * Issue 14's figures: `retention plan` over the M tier warm, with no window so every session's
 * files are examined; a dry-run sweep of M with an empty catalog; a sweep that compacts and
 * retires the 1 GB transcript (a hard link to it, so the corpus keeps its bytes), in MB/s and
 * peak RSS; and how many bytes a compact copy keeps of its transcript, over the S tier.
 */
export function retentionSuite(corpus: string, env: NodeJS.ProcessEnv): Row[] {
	const rows: Row[] = [];
	const home = tierHome(corpus, 'M');
	const tierEnv = homeEnv(env, home);
	const kb = freshKb(join(corpus, 'retention-kb-M'), tierEnv);
	const label = `M: ${storeTiers.M.sessions} sessions`;
	const plan = ['node', cli, '--root', kb, 'retention', 'plan', '--no-retention', '--format', 'json'];
	runOnce(plan, tierEnv);
	rows.push(measure('retention', `retention plan --no-retention warm (${label})`, plan, tierEnv, {target: '≤ 3× node -e 0'}));
	const clearCache = () => rmSync(join(home, '.cache-engi'), {recursive: true, force: true});
	rows.push(measure('retention', `retention sweep dry run, empty catalog (${label})`, ['node', cli, '--root', kb, 'retention', 'sweep', '--no-retention', '--format', 'json'], tierEnv, {before: clearCache, runs: 3, warmup: 0, target: '≤ 10 s'}));

	// The 1 GB transcript, hard-linked into a store of its own that each run retires again.
	const large = largeHome(corpus);
	const source = join(large.home, '.claude', 'projects', '-src-huge', `${large.id}.jsonl`);
	const scratch = join(corpus, 'retention-1g');
	const scratchEnv = homeEnv(env, scratch);
	const linked = join(scratch, '.claude', 'projects', '-src-huge', `${large.id}.jsonl`);
	const scratchKb = join(corpus, 'retention-kb-1g');
	const store = ['--source', 'claude', '--source-root', join(scratch, '.claude')];
	let digest = '';
	const prepare = () => {
		rmSync(join(scratch, '.claude'), {recursive: true, force: true});
		mkdirSync(dirname(linked), {recursive: true});
		linkSync(source, linked);
		freshKb(scratchKb, scratchEnv);
		// The dry run also brings the catalog up to date, so the measured run only compacts and retires.
		const planned = sweep(['--root', scratchKb, 'retention', 'sweep', ...store], scratchEnv).plan_sha256;
		if (digest !== '' && planned !== digest) {
			throw new Error('the same store planned twice gave two digests');
		}

		digest = planned;
	};

	prepare();
	const execute = ['node', cli, '--root', scratchKb, 'retention', 'sweep', ...store, '--execute', '--plan', digest];
	const row = measure('retention', 'retention sweep --execute of the 1 GB transcript (compact, then purge)', execute, scratchEnv, {before: prepare, runs: 3, warmup: 0, target: 'RSS ≤ 256 MB'});
	const megabytes = 1024;
	rows.push({...row, note: `${(megabytes / (row.medianMs / 1000)).toFixed(0)} MB/s over the whole run (3 reads for hashes, 1 to compact)`});

	// Compact copy against transcript, per session, over every store of a copy of the S tier.
	const small = join(corpus, 'retention-S');
	rmSync(small, {recursive: true, force: true});
	cpSync(tierHome(corpus, 'S'), small, {recursive: true, force: true, filter: path => !path.includes('.cache-engi')});
	const smallEnv = homeEnv(env, small);
	const smallKb = freshKb(join(corpus, 'retention-kb-S'), smallEnv);
	const planned = sweep(['--root', smallKb, 'retention', 'sweep', '--no-retention'], smallEnv);
	const executed = sweep(['--root', smallKb, 'retention', 'sweep', '--no-retention', '--execute', '--plan', planned.plan_sha256, '--details'], smallEnv);
	const ratios = (executed.items ?? []).filter(item => item.compact_bytes !== null && item.bytes > 0).map(item => item.compact_bytes! / item.bytes);
	rows.push({suite: 'retention', name: `compact copy bytes / transcript bytes (S: ${ratios.length} sessions compacted)`, runs: 1, medianMs: Number.NaN, baselineMs: Number.NaN, rssMb: 0, note: `median ratio ${median(ratios).toFixed(3)}`});
	rmSync(small, {recursive: true, force: true});
	return rows;
}
