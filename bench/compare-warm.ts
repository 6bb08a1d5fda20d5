// Compares what two builds print for warm listings: `node --import tsx bench/compare-warm.ts
// <other worktree> [S|M|L…]` runs this worktree's build/cli.js and the other's over each tier's
// stores with the tier's catalog as it stands (build it first: one `sessions --all-projects`),
// for `sessions` (pages, --since, --project, --source, --q with hits and without), `unfinished`
// and `standup`, and checks that each pair of documents is the same (`generated_at` aside). A
// stand-up shows each project's newest candidates only, so where the other build printed all of
// them, it must print the same first ones, the same totals and the same everything else. For
// changes to the warm path that must not change what it prints. Exit 1 on any difference.
import {spawnSync} from 'node:child_process';
import {join, resolve} from 'node:path';
import {repoRoot} from './lib/measure.js';
import {homeEnv, storeTiers, tierHome, type TierName} from './suites/sessions.js';

const [other, ...given] = process.argv.slice(2);
const tiers = (given.length === 0 ? ['S', 'M'] : given).filter((tier): tier is TierName => tier in storeTiers);
if (!other || tiers.length !== Math.max(given.length, tiers.length)) {
	process.stderr.write('usage: node --import tsx bench/compare-warm.ts <other worktree> [S|M|L…]\n');
	process.exit(2);
}

const project = '/src/project-9';
const calls = [
	['sessions', '--all-projects'],
	['sessions', '--all-projects', '--offset', '50'],
	['sessions', '--all-projects', '--offset', '14990'],
	['sessions', '--all-projects', '--since', '2026-10-01'],
	['sessions', '--all-projects', '--since', '2026-12-01', '--limit', '7', '--offset', '3'],
	['sessions', '--project', project],
	['sessions', '--project', project, '--offset', '5', '--limit', '4'],
	['sessions', '--project', project, '--since', '2026-12-01'],
	['sessions', '--project', '/src/project-3'],
	['sessions', '--all-projects', '--source', 'claude'],
	['sessions', '--all-projects', '--source', 'opencode', '--offset', '20'],
	['sessions', '--all-projects', '--q', 'quarantine'],
	['sessions', '--all-projects', '--q', 'quarantine', '--offset', '40'],
	['sessions', '--all-projects', '--q', 'zeppelin'],
	['sessions', '--all-projects', '--q', 'zeppelin', '--offset', '10', '--limit', '5'],
	['sessions', '--project', project, '--q', 'quarantine'],
	['sessions', '--all-projects', '--since', '2026-11-01', '--q', 'quarantine'],
	['sessions', '--all-projects', '--q', 'nosuchwordxyzzy'],
	['sessions', '--all-projects', '--q', 'quarantine', '--offset', '100000'],
	['sessions', '--all-projects', '--q', 'zeppelin', '--offset', '100000'],
	['sessions', '--all-projects', '--q', 'quarantine zeppelin'],
	['sessions', '--all-projects', '--q', 'shell command', '--offset', '20'],
	['sessions', '--all-projects', '--q', 'Bash'],
	['sessions', '--project', project, '--q', 'zeppelin'],
	['sessions', '--all-projects', '--source', 'vscode', '--q', 'quarantine'],
	['sessions', '--all-projects', '--q', 'the of'],
	['sessions', '--all-projects', '--q', '隔离 检查点'],
	['unfinished', '--all-projects', '--since', '2026-10-01'],
	['unfinished', '--all-projects', '--since', '2026-10-01', '--offset', '50'],
	['unfinished', '--all-projects', '--since', '2020-01-01', '--offset', '200', '--limit', '30'],
	['unfinished', '--all-projects', '--since', '2020-01-01', '--offset', '100000'],
	['unfinished', '--project', project, '--since', '2020-01-01'],
	['unfinished', '--project', project, '--since', '2020-01-01', '--offset', '10', '--limit', '5'],
	['unfinished', '--all-projects', '--since', '2026-10-01', '--source', 'codex'],
	['unfinished', '--all-projects'],
	['standup', '--all-projects', '--since', '2026-10-01'],
	['standup', '--since', '2020-01-01', '--project', project],
	['standup', '--all-projects', '--since', '2026-10-01', '--source', 'grok'],
	['standup', '--all-projects'],
];

type Document = Record<string, unknown> & {projects?: Array<Record<string, unknown> & {candidates: unknown[]}>};
const shownPerProject = 10;

function run(worktree: string, args: readonly string[], env: NodeJS.ProcessEnv): Document {
	const result = spawnSync(process.execPath, [join(worktree, 'build', 'cli.js'), ...args, '--format', 'json'], {env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024});
	if (result.status !== 0) {
		throw new Error(`${worktree}: engi ${args.join(' ')} exited ${result.status}: ${result.stderr.slice(0, 300)}`);
	}

	const document = JSON.parse(result.stdout) as Document;
	delete document['generated_at'];
	return document;
}

/** The other build's stand-up as this one bounds it, when the other printed every candidate. */
function bounded(before: Document, after: Document): Document {
	if (!before.projects || after.projects?.[0]?.['candidates_total'] === undefined || before.projects[0]?.['candidates_total'] !== undefined) {
		return before;
	}

	return {
		...before,
		projects: before.projects.map(entry => {
			const {checkpoints, ...rest} = entry;
			const more = entry.candidates.length > shownPerProject && entry['project'] !== 'unknown' ? after.projects!.find(shown => shown['project'] === entry['project'])?.['more'] ?? 'missing' : null;
			return {...rest, candidates: entry.candidates.slice(0, shownPerProject), candidates_total: entry.candidates.length, more, checkpoints};
		}),
	};
}

let differences = 0;
for (const tier of tiers) {
	const home = tierHome(join(repoRoot, 'bench', '.corpus'), tier);
	const env = {...homeEnv(process.env, home), VSCODE_APPDATA: join(home, '.config')};
	for (const args of calls) {
		const after = run(repoRoot, args, env);
		const before = bounded(run(resolve(other), args, env), after);
		const same = JSON.stringify(before) === JSON.stringify(after);
		differences += same ? 0 : 1;
		process.stdout.write(`${same ? 'same' : 'DIFFERENT'}  ${tier}  engi ${args.join(' ')}\n`);
	}
}

process.exit(differences === 0 ? 0 : 1);
