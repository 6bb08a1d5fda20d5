// `npm run bench [suite…]`: generates the synthetic corpora (once, under bench/.corpus) and prints
// a table of medians, each beside `node -e 0` measured in the same run, with each target met or
// not; the same rows go to bench/results/latest.json, which the next run is compared with.
import {cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {formatTable, repoRoot, rowKey, type Row} from './lib/measure.js';
import {probeMachine} from './lib/machine-probe.js';
import {checkTarget, markOf} from './lib/targets.js';
import {journalSuite} from './suites/journal.js';
import {sessionsSuite} from './suites/sessions.js';
import {continuitySuite} from './suites/continuity.js';
import {searchSuite} from './suites/search.js';
import {tuiSuite} from './suites/tui.js';
import {candidatesSuite} from './suites/candidates.js';
import {evidenceSuite} from './suites/evidence.js';
import {tokensSuite} from './suites/tokens.js';
import {retentionSuite} from './suites/retention.js';
import {upkeepSuite} from './suites/upkeep.js';
import {agentsSuite} from './suites/agents.js';
import {scaleSuite} from './suites/scale.js';

const suites: Record<string, (corpus: string, env: NodeJS.ProcessEnv) => Row[] | Promise<Row[]>> = {
	journal: journalSuite,
	sessions: sessionsSuite,
	continuity: continuitySuite,
	search: searchSuite,
	tui: tuiSuite,
	candidates: candidatesSuite,
	evidence: evidenceSuite,
	tokens: tokensSuite,
	retention: retentionSuite,
	upkeep: upkeepSuite,
	agents: agentsSuite,
	scale: scaleSuite,
};

/** Suites run only when named: scale generates a 6.6 GB corpus once and takes many minutes each run. */
const optIn = new Set(['scale']);

const wanted = process.argv.slice(2).filter(name => !name.startsWith('-'));
const unknown = wanted.filter(name => !(name in suites));
if (unknown.length > 0) {
	process.stderr.write(`unknown suite(s): ${unknown.join(', ')}; available: ${Object.keys(suites).join(', ')}\n`);
	process.exit(1);
}

const corpus = join(repoRoot, 'bench', '.corpus');
mkdirSync(corpus, {recursive: true});
rmSync(join(corpus, 'cli-build'), {recursive: true, force: true});
cpSync(join(repoRoot, 'build'), join(corpus, 'cli-build'), {recursive: true});
const sandbox = join(corpus, 'home');
mkdirSync(sandbox, {recursive: true});
const env: NodeJS.ProcessEnv = {
	...process.env,
	HOME: sandbox,
	XDG_CONFIG_HOME: join(sandbox, '.config'),
	XDG_CACHE_HOME: join(sandbox, '.cache'),
	XDG_DATA_HOME: join(sandbox, '.local', 'share'),
};
const rows: Row[] = [];
const probeBefore = probeMachine();
for (const name of wanted.length > 0 ? wanted : Object.keys(suites).filter(name => !optIn.has(name))) {
	process.stderr.write(`bench: running ${name}…\n`);
	rows.push(...(await suites[name]!(corpus, env)));
}

const probeAfter = probeMachine();
// Each row keeps the probe of the run that measured it, since rows of suites not run are kept.
const probeMs = Math.round((probeBefore + probeAfter) / 2);
const results = join(repoRoot, 'bench', 'results', 'latest.json');
const previous = existsSync(results) ? (JSON.parse(readFileSync(results, 'utf8')) as {rows: Array<Row & {date?: string}>}).rows : [];
const last = new Map(previous.map(row => [rowKey(row), row.medianMs]));
const ran = new Set(rows.map(row => row.suite));

const date = new Date().toISOString();
const checked = rows.map(row => ({...row, date, probeMs, checks: checkTarget(row), met: markOf(checkTarget(row))}));
const count = (mark: string) => checked.filter(row => row.met === mark).length;
const summary = `targets: ${count('✓')} ✓, ${count('✗')} ✗, ${count('?')} ? (not checkable alone)`;
mkdirSync(join(repoRoot, 'bench', 'results'), {recursive: true});
// Rows of suites not run this time are kept (each row has its date); NaN (not measured) is written as null.
writeFileSync(results, JSON.stringify({date, node: process.version, ca_certs: Boolean(process.env['NODE_EXTRA_CA_CERTS']), summary, rows: [...previous.filter(row => !ran.has(row.suite)), ...checked]}, null, 2) + '\n');
process.stdout.write(`engi benchmark — ${date} — node ${process.version}, NODE_EXTRA_CA_CERTS ${process.env['NODE_EXTRA_CA_CERTS'] ? 'set' : 'unset'}\n`);
const lastProbe = previous.find(row => ran.has(row.suite) && typeof (row as {probeMs?: number}).probeMs === 'number') as {probeMs?: number} | undefined;
process.stdout.write(
	`machine probe (a fixed parse workload, lower is faster): ${Math.round(probeBefore)} ms before, ${Math.round(probeAfter)} ms after` +
		(lastProbe?.probeMs ? `; ${lastProbe.probeMs} ms in the run these suites were last compared with` : '') +
		'\n\n',
);
process.stdout.write(formatTable(rows, last) + '\n\n' + summary + `\n(written to ${results})\n`);
