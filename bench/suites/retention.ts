import {spawnSync} from 'node:child_process';
import {cpSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {cli, measure, median, runOnce, type Row} from '../lib/measure.js';
import {generateLargeTranscript} from '../generate-stores.js';
import {homeEnv, storeTiers, tierHome} from './sessions.js';

type SweepDocument = {plan_sha256: string; items: Array<{bytes: number; compact_bytes: number | null; status: string}> | null};

/** Long before any window: what retention may retire. */
const longAgo = new Date('2025-06-01T00:00:00Z');

/** Every file under a directory last written long ago (a fresh copy would look like a session being written). */
function settleTree(directory: string): void {
	for (const name of readdirSync(directory, {recursive: true, encoding: 'utf8'})) {
		const path = join(directory, name);
		if (statSync(path).isFile()) {
			utimesSync(path, longAgo, longAgo);
		}
	}
}

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
 * Issue 14's figures: `retention plan` over the M tier warm, with no window; a dry-run sweep of
 * M (which examines every retirable session's files) with the catalog warm and empty; a sweep
 * that compacts and retires a 1 GB transcript (a hard link to it, so the corpus keeps its
 * bytes), in MB/s and peak RSS; and how many bytes a compact copy keeps of its transcript, over
 * a copy of the S tier.
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
	const dry = ['node', cli, '--root', kb, 'retention', 'sweep', '--no-retention', '--format', 'json'];
	rows.push(measure('retention', `retention sweep dry run, catalog warm (${label})`, dry, tierEnv, {runs: 5, target: '≤ 10 s'}));
	rows.push(measure('retention', `retention sweep dry run, empty catalog (${label})`, dry, tierEnv, {before: clearCache, runs: 3, warmup: 0, target: '≤ 10 s'}));

	// A 1 GB transcript whose records are a year old (the shared one's run into the future, which
	// no retention would retire), hard-linked into a store of its own that each run retires again.
	const source = join(corpus, 'large-1g-old', 'transcript.jsonl');
	if (!existsSync(join(corpus, 'large-1g-old', '.generated'))) {
		process.stderr.write('bench: generating the 1024 MB transcript of a year ago…\n');
		const {id} = generateLargeTranscript(source, 1024 * 1024 * 1024, 5, '2025-01-01T00:00:00Z');
		writeFileSync(join(corpus, 'large-1g-old', '.generated'), id);
	}

	utimesSync(source, longAgo, longAgo);
	const id = readFileSync(join(corpus, 'large-1g-old', '.generated'), 'utf8');
	const scratch = join(corpus, 'retention-1g');
	const scratchEnv = homeEnv(env, scratch);
	const linked = join(scratch, '.claude', 'projects', '-src-huge', `${id}.jsonl`);
	const scratchKb = join(corpus, 'retention-kb-1g');
	const store = ['--source', 'claude', '--source-root', join(scratch, '.claude')];
	let digest = '';
	const prepare = () => {
		rmSync(join(scratch, '.claude'), {recursive: true, force: true});
		mkdirSync(dirname(linked), {recursive: true});
		linkSync(source, linked);
		freshKb(scratchKb, scratchEnv);
		// The dry run also brings the catalog up to date, so the measured run only compacts and retires.
		const planned = sweep(['--root', scratchKb, 'retention', 'sweep', ...store, '--details'], scratchEnv);
		if (planned.items?.length !== 1) {
			throw new Error(`the 1 GB session is not retirable: ${JSON.stringify(planned).slice(0, 600)}`);
		}

		if (digest !== '' && planned.plan_sha256 !== digest) {
			throw new Error('the same store planned twice gave two digests');
		}

		digest = planned.plan_sha256;
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
	settleTree(small);
	const smallEnv = homeEnv(env, small);
	const smallKb = freshKb(join(corpus, 'retention-kb-S'), smallEnv);
	const planned = sweep(['--root', smallKb, 'retention', 'sweep', '--no-retention'], smallEnv);
	const executed = sweep(['--root', smallKb, 'retention', 'sweep', '--no-retention', '--execute', '--plan', planned.plan_sha256, '--details'], smallEnv);
	const ratios = (executed.items ?? []).filter(item => item.compact_bytes !== null && item.bytes > 0).map(item => item.compact_bytes! / item.bytes);
	rows.push({suite: 'retention', name: `compact copy bytes / transcript bytes (S: ${ratios.length} sessions compacted)`, runs: 1, medianMs: Number.NaN, baselineMs: Number.NaN, rssMb: 0, note: `median ratio ${median(ratios).toFixed(3)}`});
	rmSync(small, {recursive: true, force: true});
	return rows;
}
