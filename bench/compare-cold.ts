// Compares what two builds make of a cold scan: `node --import tsx bench/compare-cold.ts <other
// worktree> [S|M]` runs this worktree's build/cli.js and the other's over the tier's stores, each
// with an empty cache, and checks that `sessions` and `unfinished` print the same documents and
// that the two catalogs hold the same rows, line marks and full-text index (FTS5's own vocabulary
// of every term's place, keyed by session and line, not by the numbers a scan hands out). Exit 1
// on any difference. For changes to the scan that must not change what it finds.
import {spawnSync} from 'node:child_process';
import {createHash} from 'node:crypto';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join, resolve} from 'node:path';
import {openDatabase} from '../source/lib/sqlite.js';
import {textRowidSpan} from '../source/engine/catalog/text-rowid.js';
import {repoRoot} from './lib/measure.js';
import {homeEnv, tierHome} from './suites/sessions.js';

const [other, tier = 'M'] = process.argv.slice(2);
if (!other || (tier !== 'S' && tier !== 'M')) {
	process.stderr.write('usage: node --import tsx bench/compare-cold.ts <other worktree> [S|M]\n');
	process.exit(2);
}

const home = tierHome(join(repoRoot, 'bench', '.corpus'), tier);
const commands = [
	['sessions', '--all-projects', '--format', 'json'],
	['unfinished', '--all-projects', '--since', '2026-10-01', '--format', 'json'],
];
const span = textRowidSpan;
const tables = {
	units: 'SELECT * FROM units ORDER BY key',
	text_units: 'SELECT key, docs FROM text_units ORDER BY key',
	text_lines: `SELECT u.key, l.rowid % ${span} AS line, l.offset FROM text_lines l JOIN text_units u ON u.no = l.rowid / ${span} ORDER BY u.key, line`,
	offsets: 'SELECT * FROM offsets ORDER BY key, line',
	discovery_memo: 'SELECT * FROM discovery_memo ORDER BY key',
	text_fts: `SELECT u.key, v.doc % ${span} AS line, v.term, v.col, v.offset FROM temp.vocab v JOIN text_units u ON u.no = v.doc / ${span} ORDER BY u.key, line, v.col, v.offset`,
};

/** Each command's stdout, and a digest and row count of each catalog table, after one cold run of `cliPath`. */
function coldRun(cliPath: string): Record<string, string> {
	const cache = mkdtempSync(join(tmpdir(), 'engi-compare-'));
	try {
		const env = {...homeEnv(process.env, home), XDG_CACHE_HOME: cache};
		const seen: Record<string, string> = {};
		for (const args of commands) {
			const run = spawnSync(process.execPath, [cliPath, ...args], {env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024});
			const document = JSON.parse(run.stdout) as Record<string, unknown>;
			delete document['catalog']; // What this call scanned: the first command scans, the second does not.
			seen[args[0]!] = JSON.stringify(document);
		}

		const db = openDatabase(join(cache, 'engi', 'catalog.sqlite'), {readonly: true, fileMustExist: true});
		try {
			db.exec("CREATE VIRTUAL TABLE temp.vocab USING fts5vocab(main, text_fts, 'instance')");
			for (const [name, sql] of Object.entries(tables)) {
				const hash = createHash('sha256');
				let rows = 0;
				for (const row of db.prepare(sql).iterate()) {
					hash.update(JSON.stringify(row));
					rows++;
				}

				seen[`catalog ${name}`] = `${rows} rows, sha256 ${hash.digest('hex')}`;
			}
		} finally {
			db.close();
		}

		return seen;
	} finally {
		rmSync(cache, {recursive: true, force: true});
	}
}

const mine = coldRun(join(repoRoot, 'build', 'cli.js'));
const theirs = coldRun(join(resolve(other), 'build', 'cli.js'));
let differences = 0;
for (const [name, value] of Object.entries(mine)) {
	const same = theirs[name] === value;
	differences += same ? 0 : 1;
	process.stdout.write(`${same ? '✓' : '✗'} ${name}${name.startsWith('catalog') ? `: ${value}` : ''}\n`);
}

process.exit(differences === 0 ? 0 : 1);
