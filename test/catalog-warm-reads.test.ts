import assert from 'node:assert/strict';
import {appendFileSync, existsSync, readFileSync, statSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import test from 'node:test';
import {generateLargeTranscript, generateStores, moreClaudeLines} from '../bench/generate-stores.js';
import {walkFiles} from '../source/adapters/shared/fs.js';
import {repoRoot, runCli, sandboxEnv} from './helpers/cli.js';
import {tempDir} from './helpers/temp.js';

/**
 * What a warm call costs in bytes read, counted by the kernel (/proc/self/io `rchar`: every
 * read(2) and pread(2), from the page cache or not), written at exit by the benchmarks'
 * preload. The catalog itself is memory-mapped, so only transcript and module reads count.
 */
const usageReporter = join(repoRoot, 'bench', 'lib', 'report-rss.mjs');
/** Records the URL of every module a call loads (ENGI_TRACE_FILE): module files are read too. */
const tracer = join(repoRoot, 'test', 'helpers', 'trace-imports.mjs');
const linux = existsSync('/proc/self/io');
const skip = linux ? false : 'needs /proc/self/io (Linux) to count the bytes a process reads';

type Listing = {total: number; sessions: Array<{source: string}>; catalog: {scanned: number; unchanged: number}};

/** A sandbox whose stores are laid out under HOME as the tools lay them (VS Code under ~/.config, OpenCode under ~/.local/share). */
function sandbox(t: Parameters<typeof tempDir>[0]) {
	const base = tempDir(t);
	const home = join(base, 'home');
	const env = sandboxEnv(base, {XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local', 'share')});
	let runs = 0;
	const list = (): {json: Listing; rchar: number; modules: Set<string>} => {
		const run = runs++;
		const usage = join(base, `usage-${run}.json`);
		const trace = join(base, `modules-${run}.txt`);
		const result = runCli(['sessions', '--all-projects', '--limit', '100', '--format', 'json'], {
			// The modules, not the one script (source/start/cached-main.ts): the script's code cache
			// holds what each sandbox's calls compiled, so its size, read at every call, differs
			// between two sandboxes by more than the bound below. test/code-cache.test.ts covers it.
			env: {...env, ENGI_BENCH_RSS_FILE: usage, ENGI_TRACE_FILE: trace, ENGI_CODE_CACHE: 'off'},
			nodeArgs: ['--import', usageReporter, '--import', tracer],
		});
		assert.equal(result.code, 0, result.stderr);
		const modules = new Set(existsSync(trace) ? readFileSync(trace, 'utf8').split('\n').filter(url => url.startsWith('file:')).map(url => fileURLToPath(url)) : []);
		return {json: result.json<Listing>(), rchar: (JSON.parse(readFileSync(usage, 'utf8')) as {rchar: number}).rchar, modules};
	};

	return {home, list};
}

const transcriptBytes = (home: string) => walkFiles(home, name => /\.(jsonl|json|db)$/.test(name), 10).reduce((sum, path) => sum + statSync(path).size, 0);

test('a warm call reads no transcript bytes: it reads what a warm call over empty stores reads', {skip}, t => {
	const empty = sandbox(t);
	empty.list();
	const nothing = empty.list().rchar;

	const {home, list} = sandbox(t);
	generateStores(home, {sessions: 20, messages: 800, outputBytes: 20_000});
	const bytes = transcriptBytes(home);
	const cold = list();
	assert.equal(cold.json.total, 20);
	assert.equal(new Set(cold.json.sessions.map(session => session.source)).size, 10, 'every source is read');
	assert.ok(cold.rchar >= bytes, `the counter sees transcript reads: the cold call read ${cold.rchar} bytes of ${bytes}`);

	const warm = list();
	assert.equal(warm.json.catalog.scanned, 0);
	assert.equal(warm.json.catalog.unchanged, 20);
	// The smallest session here is tens of KB: reading any one of them would break this bound.
	assert.ok(warm.rchar - nothing < 16 * 1024, `a warm call over ${bytes} bytes of transcripts read ${warm.rchar - nothing} bytes more than one over empty stores`);
});

test('after one transcript grows, the next call reads its new bytes and its tail again, not the whole file nor the rest', {skip}, t => {
	const {home, list} = sandbox(t);
	generateStores(home, {sessions: 10, messages: 400, outputBytes: 20_000});
	const path = join(home, '.claude', 'projects', '-src-huge', 'ffffffff-1111-4222-8333-444444444444.jsonl');
	const {id} = generateLargeTranscript(path, 8 * 1024 * 1024);
	list();
	const unchanged = list();
	const more = moreClaudeLines(id, '/src/huge', 20, Date.parse('2026-11-30T00:00:00Z'));
	appendFileSync(path, more);
	const grown = list();
	assert.equal(grown.json.catalog.scanned, 1, 'only the grown file is scanned');
	const extra = grown.rchar - unchanged.rchar;
	const appended = Buffer.byteLength(more);
	assert.ok(extra >= appended, `the new ${appended} bytes are read (read ${extra})`);
	// The tail is judged from the last MiB, read again from the line mark before it (marks are at
	// most 1 MiB apart), and a 4 KiB check of where the last scan stopped. The scanner's modules,
	// which only a call that scans loads, are read as well: their size is the code's, not the data's.
	const scanModules = [...grown.modules].filter(file => !unchanged.modules.has(file)).reduce((sum, file) => sum + statSync(file).size, 0);
	const bound = appended + 2 * 1024 * 1024 + 16 * 1024 + scanModules;
	assert.ok(extra <= bound, `read ${extra} bytes after ${appended} were appended to a ${statSync(path).size}-byte file (at most ${bound}, ${scanModules} of them the scanner's modules)`);
	assert.equal(list().rchar - unchanged.rchar < 16 * 1024, true, 'and the call after that reads no transcript bytes again');
});

test('after one session grows, the catalog is read as a warm call reads it: what else the call reads does not grow with the catalog', {skip}, t => {
	const {home, list} = sandbox(t);
	// Thousands of small sessions: a catalog whose index pages, read again with pread, would be
	// megabytes (the listing and every other root's rows), where the grown file is tens of KB.
	generateStores(home, {sessions: 2000, messages: 4000, outputBytes: 2_000});
	list();
	const unchanged = list();
	const path = walkFiles(join(home, '.claude'), name => name.endsWith('.jsonl'), 4)[0]!;
	const before = statSync(path).size;
	const first = JSON.parse(readFileSync(path, 'utf8').split('\n', 1)[0]!) as {sessionId: string; cwd: string};
	const more = moreClaudeLines(first.sessionId, first.cwd, 4, Date.parse('2026-11-30T00:00:00Z'));
	appendFileSync(path, more);
	const grown = list();
	assert.equal(grown.json.catalog.scanned, 1, 'only the grown file is scanned');
	const extra = grown.rchar - unchanged.rchar;
	// The file, smaller than its tail window, read again from its first line with its new bytes
	// (twice), two 4 KiB checks of where the last scan stopped, and what any call that writes reads
	// whatever the catalog's size: the scanner's code and the pages its write left in the WAL.
	const transcript = before + 2 * Buffer.byteLength(more) + 8 * 1024;
	const bound = transcript + 1024 * 1024;
	assert.ok(extra <= bound, `read ${extra} bytes after ${Buffer.byteLength(more)} were appended to a ${before}-byte file in a catalog of 2,000 sessions (at most ${bound})`);
});
