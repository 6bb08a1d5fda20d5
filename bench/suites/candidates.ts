import {readdirSync, readFileSync, rmSync, statSync} from 'node:fs';
import {join} from 'node:path';
import {exactTokenCounter} from '../../source/engine/tokens.js';
import {cli, median, measure, runOnce, type Row} from '../lib/measure.js';
import {homeEnv, storeTiers, tierHome} from './sessions.js';

/** A harvest skips sessions written in the last two minutes; a corpus generated just now must settle first. */
async function waitUntilSettled(home: string): Promise<void> {
	const age = Date.now() - statSync(join(home, '.generated')).mtimeMs;
	const wait = 2 * 60 * 1000 + 5000 - age;
	if (wait > 0) {
		process.stderr.write(`bench: the M stores were generated ${Math.round(age / 1000)} s ago; waiting ${Math.round(wait / 1000)} s so no session looks still running…\n`);
		await new Promise(resolve => setTimeout(resolve, wait));
	}
}

function frontmatterValue(text: string, key: string): unknown {
	const line = text.split('\n').find(candidate => candidate.startsWith(`${key}: `));
	return line === undefined ? undefined : JSON.parse(line.slice(key.length + 2));
}

/**
 * Issue 13's figures: `candidates harvest` of the M tier with no notes yet (the catalog warm) and
 * again with nothing changed, and how big a candidate note is against its transcript (median
 * bytes over every note; median o200k tokens over an even sample of the file transcripts).
 */
export async function candidatesSuite(corpus: string, env: NodeJS.ProcessEnv): Promise<Row[]> {
	const rows: Row[] = [];
	const home = tierHome(corpus, 'M');
	await waitUntilSettled(home);
	// VS Code's store is found through XDG_CONFIG_HOME, which homeEnv points at engi's own config.
	const tierEnv = {...homeEnv(env, home), VSCODE_APPDATA: join(home, '.config')};
	runOnce(['node', cli, 'sessions', '--all-projects', '--format', 'json'], tierEnv); // The catalog, warm.
	const kb = join(corpus, 'candidates-kb');
	rmSync(kb, {recursive: true, force: true});
	runOnce(['node', cli, 'init', kb, '--no-register', '--format', 'json'], tierEnv);
	const folder = join(kb, '00-inbox', 'candidates');
	const harvest = ['node', cli, 'candidates', 'harvest', '--all-projects', '--since', '2026-10-01', '--consent', '--root', kb, '--format', 'json'];
	const label = `M: ${storeTiers.M.sessions} sessions`;
	rows.push(measure('candidates', `candidates harvest, no notes yet, catalog warm (${label})`, harvest, tierEnv, {before: () => rmSync(folder, {recursive: true, force: true}), runs: 3, warmup: 0, target: '≤ 30 s, RSS ≤ 256 MB'}));
	rows.push(measure('candidates', `candidates harvest again, nothing changed (${label})`, harvest, tierEnv, {target: '≤ 3× node -e 0'}));

	const notes = readdirSync(folder).filter(name => name.endsWith('.md'));
	const sizes = notes.map(name => {
		const text = readFileSync(join(folder, name), 'utf8');
		return {text, bytes: Buffer.byteLength(text), source: frontmatterValue(text, 'source_bytes') as number, digest: frontmatterValue(text, 'source_digest'), path: frontmatterValue(text, 'source_path') as string};
	});
	const files = sizes.filter(size => size.digest === 'file');
	const sample = files.filter((_, index) => index % Math.max(1, Math.floor(files.length / 30)) === 0).slice(0, 30);
	const count = await exactTokenCounter();
	const noteTokens = median(sample.map(size => count(size.text)));
	const transcriptTokens = median(sample.map(size => count(readFileSync(size.path, 'utf8'))));
	const noteBytes = median(sizes.map(size => size.bytes));
	const transcriptBytes = median(sizes.map(size => size.source));
	const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
	rows.push({
		suite: 'candidates',
		name: `candidate note against its transcript (${notes.length} notes; tokens over ${sample.length})`,
		runs: 1,
		medianMs: 0,
		baselineMs: Number.NaN,
		rssMb: 0,
		note: `median note ${kib(noteBytes)} / ${noteTokens} tokens; transcript ${kib(transcriptBytes)} / ${transcriptTokens} tokens (${((noteBytes / transcriptBytes) * 100).toFixed(2)}% of the bytes, ${((noteTokens / transcriptTokens) * 100).toFixed(2)}% of the tokens)`,
	});
	return rows;
}
