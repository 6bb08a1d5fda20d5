import {existsSync, mkdirSync, statSync} from 'node:fs';
import {spawnSync} from 'node:child_process';
import {join} from 'node:path';
import {generateJournal} from '../generate-journal.js';
import {cli, measure, runOnce, type Row} from '../lib/measure.js';
import {homeEnv, tierHome, transcriptFiles} from './sessions.js';

function megabytes(bytes: number): string {
	return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Issue 5's figures: query latency at 10k/100k events (Latin and Chinese), sessions --q at M against grep -ri, and index sizes. */
export function searchSuite(corpus: string, env: NodeJS.ProcessEnv): Row[] {
	const rows: Row[] = [];
	for (const events of [10_000, 100_000]) {
		const root = join(corpus, `kb-${events}`);
		if (!existsSync(join(root, '.engi', 'journal.jsonl'))) {
			mkdirSync(root, {recursive: true});
			generateJournal(root, events);
		}

		const label = `${events / 1000}k`;
		const query = (q: string) => ['node', cli, 'query', '--q', q, '--view', 'hits', '--root', root, '--format', 'json'];
		const started = process.hrtime.bigint();
		runOnce(['node', cli, 'index', 'rebuild', '--root', root, '--format', 'json'], env);
		const rebuildMs = Number(process.hrtime.bigint() - started) / 1e6;
		const indexBytes = statSync(join(root, '.engi', 'index.sqlite')).size;
		const journalBytes = statSync(join(root, '.engi', 'journal.jsonl')).size;
		rows.push({suite: 'search', name: `index rebuild with full text (${label})`, runs: 1, medianMs: rebuildMs, baselineMs: Number.NaN, rssMb: 0, note: `index ${megabytes(indexBytes)} for a ${megabytes(journalBytes)} journal`});
		for (const [name, q] of [
			['rare word', 'quarantine budget'],
			['common word', 'index'],
			['two terms', 'schema render'],
			['Chinese', '指数退避'],
			['Chinese + Latin', '检查点 rebuild'],
		] as const) {
			rows.push(measure('search', `query ${name} (${label})`, query(q), env, {target: events === 100_000 ? '≤ 2.5× node -e 0' : undefined}));
		}
	}

	const home = tierHome(corpus, 'M');
	const tierEnv = homeEnv(env, home);
	runOnce(['node', cli, 'sessions', '--all-projects', '--format', 'json'], tierEnv);
	const files = transcriptFiles(home);
	const corpusBytes = files.reduce((sum, file) => sum + statSync(file).size, 0);
	const catalogBytes = statSync(join(home, '.cache-engi', 'engi', 'catalog.sqlite')).size;
	rows.push({suite: 'search', name: 'session index size (M)', runs: 1, medianMs: 0, baselineMs: Number.NaN, rssMb: 0, target: '≤ 10% of transcript bytes', note: `catalog ${megabytes(catalogBytes)} = ${((catalogBytes / corpusBytes) * 100).toFixed(1)}% of ${megabytes(corpusBytes)}`});
	for (const q of ['quarantine', 'flaky retry']) {
		rows.push(measure('search', `sessions --q "${q}" --all-projects (M)`, ['node', cli, 'sessions', '--all-projects', '--q', q, '--format', 'json'], tierEnv, {target: '≤ 3× node -e 0, ≥ 10× faster than grep -ri'}));
		const times: number[] = [];
		for (let run = 0; run < 3; run++) {
			const start = process.hrtime.bigint();
			// As the issue asks: every matching line, case-insensitive, as a person would grep. Into a
			// pipe, not /dev/null, where GNU grep stops at the first match as if given -q.
			spawnSync('sh', ['-c', 'grep -ri -- "$0" "$@" | wc -c', q, ...files], {stdio: 'ignore'});
			times.push(Number(process.hrtime.bigint() - start) / 1e6);
		}

		times.sort((a, b) => a - b);
		rows.push({suite: 'search', name: `grep -ri "${q}" over the M transcripts`, runs: 3, medianMs: times[1]!, baselineMs: Number.NaN, rssMb: 0, note: 'naive baseline'});
	}

	return rows;
}
