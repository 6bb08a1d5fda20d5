// The derived caches, catalog.sqlite (sessions) and index.sqlite (the knowledge base), under
// the same faults as the writers: 8 processes building one cold at once, a build killed with
// SIGKILL at a random moment, and the file truncated or overwritten. Every next call answers
// exactly what a clean cache answers, says so with a warning when it found the file damaged, and
// never prints a stack trace. Bytes damaged in the middle of a page, which no read may notice,
// are answered by the cache's repair call (doctor, index rebuild). A new cache is one more entry
// in `caches`.
import assert from 'node:assert/strict';
import {closeSync, existsSync, mkdirSync, openSync, rmSync, statSync, truncateSync, writeFileSync, writeSync} from 'node:fs';
import {join} from 'node:path';
import test, {type TestContext} from 'node:test';
import {isDeepStrictEqual} from 'node:util';
import {prepareEvents, serializeEvent} from '../../source/engine/journal/append.js';
import {settle} from '../fixtures/home.js';
import {runCli, sandboxEnv} from '../helpers/cli.js';
import {tempDir} from '../helpers/temp.js';
import type {CliResult} from '../helpers/cli.js';
import {assertTypedError, chaos, chosen, killAt, random, runPool, type Run} from './harness.js';

type CacheWorld = {
	/** The cache file, and the files beside it that belong to it (-wal, -shm). */
	readonly file: string;
	/** The reads whose answers must not depend on the cache's state. */
	readonly reads: readonly Run[];
	/** A call that builds the cache from nothing, to kill. */
	readonly build: Run;
	/** The call that checks the whole file and rebuilds what fails (doctor, index rebuild). */
	readonly repair: Run;
};

type ChaosCache = {
	readonly name: string;
	setup(t: TestContext): CacheWorld;
	/** The warning a call gives when it found the file damaged. */
	readonly damaged: RegExp;
	/**
	 * What `repair` did: found the file damaged and replaced it, rebuilt every row anyway (either
	 * way every answer is now a clean cache's), or found the file whole, when damage nothing can
	 * see (text changed inside a row that still parses) may remain.
	 */
	repaired(result: CliResult): 'found' | 'rebuilt' | 'passed';
	/** Pause points inside a build, with how many times each may be passed. */
	readonly pauses: ReadonlyArray<readonly [string, number]>;
};

/** A read's answer without what says how it was computed (the cache's own report, warnings) or when (`as_of` is now). */
function answer(stdout: string): unknown {
	const today = new Date().toISOString().slice(0, 10);
	const document = JSON.parse(stdout.replaceAll(new RegExp(`${today}T[\\d:.]+Z`, 'g'), 'now')) as Record<string, unknown>;
	for (const key of ['catalog', 'index', 'warnings']) {
		delete document[key];
	}

	return document;
}

const caches: readonly ChaosCache[] = [
	{
		name: 'catalog.sqlite',
		setup(t) {
			const env = sandboxEnv(tempDir(t, 'engi-chaos-'));
			const projects = join(env['HOME']!, '.claude', 'projects');
			for (let index = 0; index < 40; index++) {
				const id = `cafe0000-0000-4000-8000-${String(index).padStart(12, '0')}`;
				const directory = join(projects, `-src-app${index % 4}`);
				mkdirSync(directory, {recursive: true});
				// One long session (~9,000 documents) makes the cold build write three batches (the writer
				// commits every 4,096 documents), so each of the pause points below is reached.
				const lines = Array.from({length: index === 7 ? 9000 : 20}, (_, line) => {
					const common = {parentUuid: line === 0 ? null : `${id}-${line - 1}`, isSidechain: false, cwd: `/src/app${index % 4}`, sessionId: id, uuid: `${id}-${line}`, timestamp: new Date(Date.UTC(2026, 10, 2, 0, index, line % 60)).toISOString()};
					return JSON.stringify(
						line % 2 === 0
							? {...common, type: 'user', message: {role: 'user', content: `request ${line} about the ${index % 3 === 0 ? 'zebra' : 'otter'} parser`}}
							: {...common, type: 'assistant', message: {id: `msg-${index}-${line}`, role: 'assistant', content: [{type: 'text', text: `reply ${line}`}]}},
					);
				});
				writeFileSync(join(directory, `${id}.jsonl`), lines.join('\n') + '\n');
			}

			settle(env['HOME']!, new Date('2026-11-02T12:00:00Z'));
			const cwd = env['HOME']!;
			const kb = join(cwd, 'kb');
			assert.equal(runCli(['init', kb, '--format', 'json'], {env}).code, 0);
			const list = ['sessions', '--all-projects', '--limit', '100', '--format', 'json'];
			return {
				file: join(env['XDG_CACHE_HOME']!, 'engi', 'catalog.sqlite'),
				reads: [
					{args: list, env, cwd},
					{args: ['sessions', '--all-projects', '--q', 'zebra', '--format', 'json'], env, cwd},
					{args: ['unfinished', '--all-projects', '--since', '2000-01-01', '--format', 'json'], env, cwd},
				],
				build: {args: list, env, cwd},
				repair: {args: ['doctor', '--root', kb, '--format', 'json'], env, cwd},
			};
		},
		damaged: /^catalog_corrupt: /m,
		repaired(result) {
			const check = (JSON.parse(result.stdout) as {checks: Array<{name: string; ok: boolean; detail: string}>}).checks.find(entry => entry.name === 'catalog-integrity')!;
			assert.ok(check.ok || check.detail.includes('deleted it'), check.detail);
			return check.ok ? 'passed' : 'found';
		},
		pauses: [['catalog.after_batch', 3]],
	},
	{
		name: 'index.sqlite',
		setup(t) {
			const env = sandboxEnv(tempDir(t, 'engi-chaos-'));
			const root = join(env['HOME']!, 'kb');
			const init = runCli(['init', root, '--format', 'json'], {env});
			assert.equal(init.code, 0, init.stderr);
			const drafts = Array.from({length: 3000}, (_, index) => ({op: 'node.upsert' as const, payload: {id: `task:${index}`, kind: 'Task', label: `task ${index} about the ${index % 5 === 0 ? 'zebra' : 'otter'} parser`, status: index % 7 === 0 ? 'blocked' : 'active'}}));
			writeFileSync(join(root, '.engi', 'journal.jsonl'), prepareEvents(drafts, new Date('2026-11-20T10:00:00Z')).map(event => serializeEvent(event)).join(''));
			const read = (args: readonly string[]): Run => ({args: [...args, '--root', root, '--format', 'json'], env, cwd: root});
			// The query at a fixed time: its ranking shows each node's age, to the hundredth of a day.
			return {
				file: join(root, '.engi', 'index.sqlite'),
				reads: [read(['status']), read(['query', '--q', 'zebra', '--limit', '50', '--as-of', '2026-11-25T00:00:00Z']), read(['timeline', '--limit', '20'])],
				build: read(['index', 'rebuild']),
				repair: read(['index', 'rebuild']),
			};
		},
		damaged: /^index_corrupt: /m,
		repaired: result => (/^index_corrupt: /m.test(result.stderr) ? 'found' : 'rebuilt'), // Every row again: a new file when quick_check fails.
		pauses: [],
	},
];

/** Every read answers (exit 0, no stack trace) exactly as `expected`; returns their warnings. */
async function readsAnswer(world: CacheWorld, expected: readonly unknown[], label: string): Promise<string> {
	const results = await runPool(world.reads, 1);
	let warnings = '';
	for (const [index, result] of results.entries()) {
		if (result.code !== 0) {
			assertTypedError(result, label);
			assert.fail(`${label}: ${world.reads[index]!.args.join(' ')} failed: ${result.stderr}`);
		}

		assert.deepEqual(answer(result.stdout), expected[index], `${label}: ${world.reads[index]!.args[0]} answers as with a clean cache`);
		warnings += ((JSON.parse(result.stdout) as {warnings?: string[]}).warnings ?? []).join('\n') + '\n';
	}

	return warnings;
}

const remove = (file: string) => {
	for (const suffix of ['', '-wal', '-shm']) {
		rmSync(file + suffix, {force: true});
	}
};

/** Damage as a crash, a bad disk or a careless hand leaves it; `detectable` when every open must notice. */
function damage(file: string): {how: string; detectable: boolean} {
	const size = statSync(file).size;
	switch (random.int(0, 2)) {
		case 0: {
			const length = random.int(0, Math.max(0, size - 1));
			truncateSync(file, length);
			return {how: `truncated to ${length} bytes`, detectable: length > 0 && length < 4096};
		}

		case 1: {
			writeFileSync(file, 'not a database\n'.repeat(random.int(1, 500)));
			return {how: 'overwritten with text', detectable: true};
		}

		default: {
			// Within the header and the schema's first page only: bytes in the middle of a later page
			// may go unnoticed by every read, so they have a test of their own (mid-page, below).
			const fd = openSync(file, 'r+');
			const at = random.int(0, Math.min(size, 4096) - 64);
			writeSync(fd, Buffer.from(Array.from({length: 64}, () => random.int(0, 255))), 0, 64, at);
			closeSync(fd);
			return {how: `64 random bytes at ${at}`, detectable: at < 100};
		}
	}
}

/** The reads' answers with a clean cache, and how long one build takes. */
async function reference(world: CacheWorld): Promise<{expected: unknown[]; buildMs: number}> {
	const clean = await runPool(world.reads, 1);
	for (const result of clean) {
		assert.equal(result.code, 0, result.stderr);
	}

	const started = Date.now();
	await runPool([world.build], 1);
	return {expected: clean.map(result => answer(result.stdout)), buildMs: Date.now() - started};
}

for (const cache of chosen(caches)) {
	test(`${cache.name}: ${chaos.workers} processes building it cold at once answer as a clean cache does`, {timeout: 3_600_000}, async t => {
		const world = cache.setup(t);
		const {expected} = await reference(world);
		for (let round = 0; round < Math.max(2, Math.round(chaos.operations / 25)); round++) {
			remove(world.file);
			const racing = await runPool(Array.from({length: chaos.workers}, (_, index) => world.reads[index % world.reads.length]!), chaos.workers);
			for (const [index, result] of racing.entries()) {
				assert.equal(result.code, 0, `cold round ${round}, reader ${index}: ${result.stderr}`);
				assert.deepEqual(answer(result.stdout), expected[index % world.reads.length], `cold round ${round}, reader ${index}`);
			}
		}
	});

	test(`${cache.name}: SIGKILL mid-build ${chaos.kills} times, damaged files: the same answers, a warning, no stack trace`, {timeout: 3_600_000}, async t => {
		const world = cache.setup(t);
		const {expected, buildMs} = await reference(world);
		const started = Date.now();

		// Killed while it builds.
		let killed = 0;
		for (let iteration = 0; iteration < chaos.kills; iteration++) {
			// The first kill is always of a cold build at a pause point (where the cache has one): with
			// few kills (CI runs 4), random moments alone sometimes all fall after the build.
			const first = iteration === 0;
			const cold = first || random.next() < 0.7;
			if (cold) {
				remove(world.file);
			}

			const usePause = cache.pauses.length > 0 && (first || random.next() < 0.5);
			const [point, most] = usePause ? random.pick(cache.pauses) : ['', 0];
			const moment = usePause ? {pause: `${point}#${random.int(1, most)}`} : {delayMs: random.int(0, Math.round(buildMs * 1.2))};
			const outcome = await killAt(world.build, moment);
			killed += outcome.killed ? 1 : 0;
			// A cold build that never reaches its pause point would make this kill a no-op: the world is
			// too small. (A warm one may have nothing left to write.)
			assert.ok(!usePause || !cold || outcome.killed, `${cache.name}: the build never reached ${'pause' in moment ? moment.pause : ''}`);
			await readsAnswer(world, expected, `${cache.name}, kill ${iteration} (${'pause' in moment ? moment.pause : `${moment.delayMs} ms`}, seed ${chaos.seed})`);
		}

		// Damaged on disk.
		let detected = 0;
		for (let iteration = 0; iteration < Math.max(3, Math.round(chaos.kills / 4)); iteration++) {
			if (!existsSync(world.file)) {
				await runPool([world.reads[0]!], 1);
			}

			const {how, detectable} = damage(world.file);
			const label = `${cache.name}, damage ${iteration} (${how}, seed ${chaos.seed})`;
			const warnings = await readsAnswer(world, expected, label);
			if (detectable) {
				assert.match(warnings, cache.damaged, `${label}: the damage is reported`);
			}

			detected += cache.damaged.test(warnings) ? 1 : 0;
		}

		t.diagnostic(`${cache.name}: ${chaos.kills} kills (${killed} mid-build), ${detected} damaged files reported, ${((Date.now() - started) / 1000).toFixed(1)} s`);
		assert.ok(killed > 0, 'some builds were killed mid-way');
	});

	test(`${cache.name}: 64 random bytes mid-page, ${Math.max(3, Math.round(chaos.kills / 4))} times: no stack trace, and after the repair call a clean cache's answers`, {timeout: 3_600_000}, async t => {
		const world = cache.setup(t);
		const {expected} = await reference(world);
		const seen = {byReads: 0, byRepair: 0, unseen: 0};
		for (let iteration = 0; iteration < Math.max(3, Math.round(chaos.kills / 4)); iteration++) {
			remove(world.file);
			await runPool([world.reads[0]!], 1); // Built whole, and checkpointed into the file as it closed.
			const size = statSync(world.file).size;
			const at = random.int(4096, size - 64);
			const fd = openSync(world.file, 'r+');
			writeSync(fd, Buffer.from(Array.from({length: 64}, () => random.int(0, 255))), 0, 64, at);
			closeSync(fd);
			const label = `${cache.name}, mid-page damage ${iteration} (64 bytes at ${at} of ${size}, seed ${chaos.seed})`;
			// SQLite notices some of it, the stored values' parse some more, the rest goes unseen: never a crash.
			let warnings = '';
			for (const result of await runPool(world.reads, 1)) {
				if (result.code === 0) {
					warnings += ((JSON.parse(result.stdout) as {warnings?: string[]}).warnings ?? []).join('\n') + '\n';
				} else {
					assertTypedError(result, label);
				}
			}

			const [repair] = await runPool([world.repair], 1);
			assert.ok(repair!.code === 0 || repair!.code === 1, `${label}: ${world.repair.args.join(' ')}: ${repair!.stderr}`);
			const verdict = cache.repaired(repair!);
			const after = await runPool(world.reads, 1);
			const clean = after.every((result, index) => result.code === 0 && isDeepStrictEqual(answer(result.stdout), expected[index]));
			if (!clean) {
				assert.equal(verdict, 'passed', `${label}: answers differ after the repair rebuilt the cache`);
			}

			seen.byReads += cache.damaged.test(warnings) ? 1 : 0;
			seen.byRepair += verdict === 'found' && !cache.damaged.test(warnings) ? 1 : 0;
			seen.unseen += clean ? 0 : 1;
		}

		t.diagnostic(`${cache.name}: mid-page damage noticed by the reads ${seen.byReads}, by the repair call ${seen.byRepair}, unseen and answering differently ${seen.unseen}`);
	});
}
