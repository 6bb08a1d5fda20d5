// The catalog's writing thread (source/engine/catalog/write-thread.ts): a refresh that reads
// many sessions commits its writes on a thread of its own, which also masks the short texts the
// reading thread hands on unmasked. Whatever thread writes, the catalog must come out the same,
// no secret may reach the index, and a thread that cannot start must cost nothing but its speed.
import assert from 'node:assert/strict';
import {createHash, randomUUID} from 'node:crypto';
import {cpSync, readdirSync, rmSync, symlinkSync} from 'node:fs';
import {join} from 'node:path';
import test, {type TestContext} from 'node:test';
import Database from 'better-sqlite3';
import {repoRoot, runCli, sandboxEnv} from './helpers/cli.js';
import {settle} from './fixtures/home.js';
import {writeClaudeTranscript} from './helpers/claude-transcript.js';
import {tempDir} from './helpers/temp.js';

/** A secret of a shape engi masks (secretPatterns' anthropic_api_key), and its telling part. */
const secretTail = 'QzX7telltale9Kp2Vw8Rm4Ty6Ub1No3Lq5';
const secret = `sk-ant-api03-${secretTail}`;

/**
 * Claude Code sessions (formats.md §1) with the texts the thread's masking must treat as the
 * reading thread would: a secret in a short prompt (masked on the thread), a secret in a prompt
 * too long to be masked in one pass (masked before it is handed on), and a prompt whose first
 * 8,000 characters are blank (no document, either way).
 */
function writeSessions(home: string, count: number): void {
	for (let index = 0; index < count; index++) {
		// Fifty turns of filler each: 45 sessions write over 4,096 lines, a batch, so the default
		// starts its thread partway through, after committing the first batch itself.
		const prompts = [
			...Array.from({length: 50}, (_, turn) => `Continue with step ${turn} of task ${index}`),
			`Please look at the parser ${index} and its lexer`,
			index % 3 === 0 ? `Use the key ${secret} for the deploy of build ${index}` : `Check the tests of module ${index}`,
			index % 7 === 0 ? `${'long context line '.repeat(600)} then ANTHROPIC_API_KEY=${secret}` : `Rename the helper ${index}`,
			index % 11 === 0 ? `${' '.repeat(8500)}lonelyword${index}` : `Ship release ${index}`,
		];
		const steps = prompts.flatMap((prompt, turn) => [{user: prompt}, {assistant: `Done with step ${turn} of task ${index}.`}]);
		writeClaudeTranscript(home, {id: randomUUID(), cwd: '/work/app', at: new Date(Date.UTC(2026, 10, 20, 9, index % 60))}, steps);
	}

	settle(home, new Date('2026-11-20T12:00:00Z'));
}

/** The answers and the catalog's contents (every table the writes fill, and every indexed token) after one cold call. */
function coldCatalog(t: TestContext, home: string, extra: Record<string, string>, cli?: string) {
	// The same store for every call (its files' inodes are in fingerprints and memo stamps), each with a cache of its own.
	const env = sandboxEnv(tempDir(t), {...extra, HOME: home});
	const run = (args: readonly string[]) => {
		const result = runCli([...args, '--format', 'json'], {env, ...(cli === undefined ? {} : {cli})});
		assert.equal(result.code, 0, result.stderr);
		const document = result.json();
		delete document.catalog;
		return JSON.stringify(document).replaceAll(env['HOME']!, '~');
	};

	const answers = {
		sessions: run(['sessions', '--all-projects', '--limit', '500']),
		parser: run(['sessions', '--all-projects', '--q', 'parser', '--limit', '500']),
		redacted: run(['sessions', '--all-projects', '--q', 'redacted', '--limit', '500']),
		secret: run(['sessions', '--all-projects', '--q', secretTail, '--limit', '500']),
		unfinished: run(['unfinished', '--all-projects', '--since', '2000-01-01']),
	};
	const catalog = join(env['XDG_CACHE_HOME']!, 'engi', 'catalog.sqlite');
	assert.deepEqual(
		readdirSync(join(env['XDG_CACHE_HOME']!, 'engi')).filter(name => name.startsWith('catalog.sqlite-')),
		[],
		'no -wal or -shm is left: the thread closed its connection before the call ended',
	);
	const db = new Database(catalog, {readonly: true});
	t.after(() => db.close());
	// Keys and memo entries name files under this call's own HOME.
	const digest = (sql: string) => createHash('sha256').update(JSON.stringify(db.prepare(sql).raw().all()).replaceAll(env['HOME']!, '~')).digest('hex');
	db.exec("CREATE VIRTUAL TABLE temp.tokens USING fts5vocab(main, 'text_fts', 'instance')");
	db.exec("CREATE VIRTUAL TABLE temp.counted USING fts5vocab(main, 'text_counts', 'instance')");
	const tokens = db.prepare('SELECT term FROM temp.tokens').pluck().all() as string[];
	const tables = {
		units: digest('SELECT key, fingerprint, id, project, title, records, skipped, tail_open, summary, tail FROM units ORDER BY key'),
		lines: digest('SELECT rowid, offset FROM text_lines ORDER BY rowid'),
		// Not how many batches each unit's lines went in: a batch closes at a count of documents,
		// and the thread's count includes the few whose text turns out blank once masked.
		textUnits: digest('SELECT no, key, docs, counted FROM text_units ORDER BY no'),
		offsets: digest('SELECT * FROM offsets ORDER BY key, line'),
		memo: digest('SELECT key, value FROM discovery_memo ORDER BY key'),
		tokens: digest('SELECT term, doc, col, offset FROM temp.tokens ORDER BY term, doc, col, offset'),
		// How many lines of each unit hold each word (the lines a batch holds it in, summed).
		counts: digest('SELECT doc >> 32, term, sum(doc & 65535) FROM temp.counted GROUP BY 1, 2 ORDER BY 1, 2'),
	};
	return {answers, tables, tokens};
}

function storeOf(t: TestContext, count: number): string {
	const home = join(tempDir(t), 'home');
	writeSessions(home, count);
	return home;
}

test('a catalog written on the writing thread is the one a single thread writes: rows, line marks, memo and every indexed token', t => {
	const home = storeOf(t, 45);
	const threaded = coldCatalog(t, home, {ENGI_CATALOG_THREAD: 'always'});
	const single = coldCatalog(t, home, {ENGI_CATALOG_THREAD: 'off'});
	const byDefault = coldCatalog(t, home, {}); // the default starts a thread only once the writes fill a batch
	assert.deepEqual(threaded.answers, single.answers);
	assert.deepEqual(threaded.tables, single.tables);
	assert.deepEqual(byDefault.tables, single.tables);
	assert.equal(JSON.parse(single.answers.parser).total, 45);
	assert.equal(JSON.parse(single.answers.redacted).total, 15, 'the fifteen sessions with a secret in a short prompt are found by its mask');
	for (const {tokens} of [threaded, single]) {
		assert.ok(!tokens.some(token => token.includes(secretTail.toLowerCase())), 'no secret reaches the index, short or long');
		assert.ok(!tokens.some(token => token.startsWith('lonelyword')), 'a prompt blank for its first 8,000 characters has no document');
		assert.ok(tokens.includes('anthropic'), 'the masks are indexed');
	}

	assert.equal(JSON.parse(single.answers.secret).total, 0);
});

test('a thread that cannot start (its code missing from the build) leaves the writing to the refresh: the same catalog, nothing unmasked', t => {
	const home = storeOf(t, 40);
	const single = coldCatalog(t, home, {ENGI_CATALOG_THREAD: 'off'});
	for (const missing of [/^write-thread-work-.*\.mjs$/, /^write-thread-entry\.mjs$/]) {
		// A copy of the build beside a link to the dependencies, with the thread's code taken out.
		const copy = tempDir(t);
		cpSync(join(repoRoot, 'build'), join(copy, 'build'), {recursive: true});
		symlinkSync(join(repoRoot, 'node_modules'), join(copy, 'node_modules'));
		for (const directory of [join(copy, 'build'), join(copy, 'build', 'chunks')]) {
			for (const name of readdirSync(directory).filter(name => missing.test(name))) {
				rmSync(join(directory, name));
			}
		}

		const degraded = coldCatalog(t, home, {ENGI_CATALOG_THREAD: 'always'}, join(copy, 'build', 'cli.js'));
		assert.deepEqual(degraded.answers, single.answers, String(missing));
		assert.deepEqual(degraded.tables, single.tables, String(missing));
		assert.ok(!degraded.tokens.some(token => token.includes(secretTail.toLowerCase())));
	}
});

test('a thread that dies partway, saying nothing, hands back what it had not committed: the refresh writes it, and the catalog is the same', t => {
	const home = storeOf(t, 45);
	const single = coldCatalog(t, home, {ENGI_CATALOG_THREAD: 'off'});
	// The thread commits its first batch, then ends before its second; the refresh notices the
	// silence after 1.5 s (60 s outside the tests) and writes the rest on its own connection.
	const died = coldCatalog(t, home, {ENGI_CATALOG_THREAD: 'always', ENGI_TEST_THREAD_EXIT_AT: '2', ENGI_TEST_THREAD_STALL_MS: '1500'});
	assert.deepEqual(died.answers, single.answers);
	assert.deepEqual(died.tables, single.tables);
	assert.ok(!died.tokens.some(token => token.includes(secretTail.toLowerCase())));
});
